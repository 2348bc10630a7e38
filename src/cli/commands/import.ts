import { loadTui } from '../tui-loader.ts';
import { AgentsError, EXIT_CODES, UsageError } from '../../core/errors.ts';
import { type PlannedCandidate, reviewedPlan } from '../../core/import-plan.ts';
import { IMPORT_KINDS, type ImportKind } from '../../core/import-sources.ts';
import type { ReplacePreview, ReplaceResult } from '../../service/import-replace.ts';
import type { ImportWritten } from '../../service/import-apply.ts';
import type { RemoveResult } from '../../service/invariant-service.ts';
import type { ReviewState } from '../../tui/import.tsx';
import { errorSummary } from '../../present/diagnostics.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { goneFromFilesLines, importDoneText, importJson, importPreviewText } from '../../present/import.ts';
import { strandedNotes } from '../../present/invariant-write.ts';
import { staleExports } from '../stale-exports.ts';
import { emitDocument } from '../render.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { shellPath, shellWord } from '../../core/shell-word.ts';
import { safeDiffText } from '../safe-output.ts';

/** What the import wrote, and what --replace did then. */
type Written = { written: ImportWritten; replaced: ReplaceResult | null; pruned: RemoveResult[] | null };

interface ImportArgs {
  paths?: string[];
  from?: string[];
  project?: string;
  global?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  replace?: boolean;
  prune?: boolean;
  verbose?: boolean;
}

export default defineCommand<ImportArgs>({
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: 'files or folders to import (default: every known instruction file)' })
      .option('from', {
        type: 'string',
        array: true,
        choices: IMPORT_KINDS,
        requiresArg: true,
        describe: 'only files of this kind (repeatable)',
      })
      .option('project', {
        type: 'string',
        requiresArg: true,
        describe: 'put every rule into this project instead of where its file applies',
      })
      .option('global', { type: 'boolean', describe: 'put every rule into the global scope instead of where its file applies' })
      .option('dry-run', { type: 'boolean', describe: 'show what would be written and what was left out; write nothing' })
      .option('verbose', { type: 'boolean', describe: 'list the headings left out too (they become the tags of what follows)' })
      .option('yes', { alias: 'y', type: 'boolean', describe: 'write every new rule without the review' })
      .option('replace', {
        type: 'boolean',
        describe: "remove the imported lines from their files and let `agents export` write the rules' block in their place",
      })
      .option('prune', {
        type: 'boolean',
        describe:
          'remove the invariants imported from the files read whose text the files no longer say, never one edited in the store since (the review shows each, to keep or remove)',
      })
      .conflicts('dry-run', 'yes')
      .conflicts('global', 'project'),
  async run(argv, ctx) {
    const service = await importService(ctx);
    const plan = await service.plan({
      cwd: ctx.io.cwd,
      ...(argv.paths !== undefined ? { paths: argv.paths.map(String) } : {}),
      ...(argv.from !== undefined ? { from: argv.from as ImportKind[] } : {}),
      ...(argv.project !== undefined ? { project: String(argv.project) } : {}),
      ...(argv.global ? { global: true } : {}),
    });
    const s = ctx.style;
    const fresh = plan.candidates.filter((c) => c.status === 'new');
    if (plan.files.length === 0) {
      throw new UsageError(
        'no instruction file found (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot, Cursor, Windsurf, Cline or ruler rules)',
        `Name the files to import: ${ctx.agentsCommand()} import docs/rules.md --from agents-md.`,
      );
    }
    if (argv.dryRun) {
      // With --replace, what it would do to each file, after the checks the run makes first (a block the export
      // would leave alone, a file it cannot write).
      let preview: (ReplacePreview & { diff: string })[] | null = null;
      if (argv.replace) {
        await service.checkReplace(plan);
        // Loaded only here, as the diff library is: a plain import never shows one.
        const [{ previewReplace }, { unifiedDiff }] = await Promise.all([
          import('../../service/import-replace.ts'),
          import('../unified-diff.ts'),
        ]);
        preview = previewReplace(service.top, plan).map((p) => ({ ...p, diff: unifiedDiff(p.file, p.before, p.after ?? undefined) }));
      }
      const diffs = (preview ?? []).map((p) => p.diff).join('');
      await emitDocument(ctx, importJson(plan, null, null, [], preview, ctx.agentsCommand()), () =>
        [
          importPreviewText(
            s,
            plan,
            argv.verbose === true,
            preview,
            safeDiffText(diffs, Boolean(ctx.io.stdout.isTTY)),
            ctx.agentsCommand(),
          ),
          ...goneFromFilesLines(s, plan, null, argv.prune === true, true, ctx.agentsCommand()),
        ].join('\n'),
      );
      return EXIT_CODES.ok;
    }
    // Before the review: a block the export would refuse to fill stops --replace with nothing written.
    if (argv.replace) await service.checkReplace(plan);
    let chosen: PlannedCandidate[] = fresh;
    // The removals --prune makes are shown in the review as the additions are, each for the user to keep or remove.
    let removing = argv.prune ? (plan.stale ?? []) : [];
    const reviewing = !argv.yes && (fresh.length > 0 || removing.length > 0);
    if (reviewing) {
      // No terminal to review in: what it would write and remove, as plan sync shows its changes, and the flag that
      // does it; a newcomer told only "confirm" would not know what.
      const what = [
        fresh.length > 0 ? `import the ${fresh.length === 1 ? 'rule' : `${fresh.length} rules`}` : undefined,
        removing.length > 0
          ? `remove the ${removing.length === 1 ? 'invariant gone from its file' : `${removing.length} invariants gone from their files`}`
          : undefined,
      ]
        .filter((w) => w !== undefined)
        .join(' and ');
      requireInteractive(ctx, '--yes', {
        shown: () =>
          [
            importPreviewText(s, plan, argv.verbose === true, null, '', ctx.agentsCommand()),
            ...goneFromFilesLines(s, plan, null, removing.length > 0, true, ctx.agentsCommand()),
          ].join('\n'),
        hint: `Nothing was written. Run again with --yes to ${what} ${ctx.format === 'text' ? 'shown' : '--dry-run lists'}.`,
        detail: { candidates: fresh.length, removals: removing.length },
      });
    }
    // The review as the user left it, and why its write was refused: it opens again so, to try again.
    let state: ReviewState | undefined;
    let refusal: string | undefined;
    let result: Written | undefined;
    while (result === undefined) {
      if (reviewing) {
        const { runImportReview } = await loadTui();
        const reviewed = await ctx.onScreen(() =>
          runImportReview(tuiIo(ctx), plan, state && refusal !== undefined ? { ...state, refusal } : undefined, argv.prune === true),
        );
        if (reviewed === undefined) {
          // As every form answered no (n or Esc): nothing changed, exit 1 (docs/tui.md).
          ctx.io.stderr.write('Nothing imported.\n');
          return EXIT_CODES.checkFailed;
        }
        // A text edited, or moved to another scope, is near other invariants than the file's.
        chosen = service.reviewed(plan, reviewed.chosen);
        removing = reviewed.removed;
        state = reviewed.state;
      }
      // A stop signal while the files are staged ends the import with nothing written (exit 130). Once they are in
      // place, one that comes while --replace takes the lines out and the export fills the blocks waits for it to end:
      // else the lines would be gone from their files and the blocks left empty, without a word.
      // A stop that comes once they are in place ends the import with the signal's code after it is done, as plan sync does.
      const done = await abortOnStopSignals(
        'nothing was imported.',
        async (signal): Promise<Written | { refused: AgentsError }> => {
          let written: ImportWritten;
          try {
            written = await service.apply(plan, chosen, { signal });
          } catch (error) {
            // A write refused with nothing written (another writer's lock, a store file broken meanwhile) goes back to
            // the review, as the user left it: the edits made there are the user's work, never lost to a busy store.
            if (reviewing && !signal.aborted && refusedWhole(error)) return { refused: error };
            throw error;
          }
          // Pruned before --replace, whose export then writes the blocks without them.
          const pruned = argv.prune ? await service.prune(removing) : null;
          return { written, pruned, replaced: argv.replace ? await service.replace(plan, written) : null };
        },
        (done) =>
          'refused' in done
            ? 'the import was refused: nothing was imported.'
            : `${done.written.invariants.length} ${done.written.invariants.length === 1 ? 'invariant was' : 'invariants were'} imported whole${done.replaced ? ', the moved rules taken out of their files' : ''}: nothing is left to import.`,
      );
      if ('refused' in done) refusal = errorSummary(done.refused);
      else result = done;
    }
    const { written, replaced, pruned } = result;
    for (const r of pruned ?? []) for (const note of strandedNotes(r, ctx.agentsCommand())) ctx.notice(note);
    for (const p of written.projects) {
      const paths = plan.projects.find((x) => x.name === p)?.paths ?? [];
      ctx.notice(`created project ${p} (projects/${p}/${paths.length ? `, paths ${paths.join(', ')}` : ''})`);
    }
    for (const w of replaced?.warnings ?? []) ctx.notice(`warning: ${w}`);
    if (replaced && replaced.unlisted_targets.length > 0) {
      const them = replaced.unlisted_targets.length === 1 ? 'it' : 'them';
      ctx.notice(
        `the moved rules now reach agents through the export (${replaced.unlisted_targets.join(', ')}), which config.yaml ` +
          `does not list: add ${them} to export.targets so that \`${ctx.agentsCommand()} export\` and \`${ctx.agentsCommand()} export --check\` keep ${them} current.`,
      );
    }
    // The rules now in the store reach agents only through the export: files it would change are said, as extends update says them.
    // Lines --replace took out of rules already in the store change no set, but its export ran the files' targets only.
    const moved = (replaced?.files.length ?? 0) > 0;
    const stale = written.invariants.length > 0 || (pruned?.length ?? 0) > 0 || moved ? await staleExports(ctx) : [];
    // The report says what was written: the candidates as the review left them, not as the files proposed them.
    const done = chosen === fresh ? plan : reviewedPlan(plan, chosen);
    // Without --replace the rules are in the store and still in their files, where an export would say each twice: the
    // import again with --replace takes their lines out (reviewed again when this one was: --yes would take the rules
    // the review dropped).
    const next = replaced === null && written.invariants.length > 0 ? again(ctx, argv, undefined, !reviewing) : undefined;
    await emitDocument(ctx, importJson(done, written, replaced, stale, null, ctx.agentsCommand(), pruned), () =>
      [
        importDoneText(
          s,
          done,
          argv.verbose === true,
          written,
          replaced,
          stale,
          (paths) => again(ctx, argv, paths),
          ctx.agentsCommand(),
          next,
        ),
        ...goneFromFilesLines(s, done, pruned, argv.prune === true, false, ctx.agentsCommand()),
      ].join('\n'),
    );
    // Lines --replace had to leave (a file of the export's it leaves alone, a file edited since it was read) are a
    // partial import, as a file export leaves alone is a partial export: exit 1, saying what to do, so a script knows.
    return replaced === null ? EXIT_CODES.ok : replaceLeftOver(ctx, replaced, again(ctx, argv));
  },
});

/** A refusal of the whole write, nothing written: not a stop, not a bug, nor a write failed part-way (detail.written). */
function refusedWhole(error: unknown): error is AgentsError {
  return (
    error instanceof AgentsError &&
    error.code !== 'cancelled' &&
    error.exitCode !== EXIT_CODES.internal &&
    error.detail?.written === undefined
  );
}

/** Exit 1 naming what --replace left in place and how to finish it; exit 0 when it moved every rule it could. */
function replaceLeftOver(ctx: CliContext, replaced: ReplaceResult, again: string): number {
  const { refused, changed } = replaced;
  if (refused.length === 0 && changed.length === 0) return EXIT_CODES.ok;
  const what = [
    ...refused.map((r) => `${r.path}${r.line === null ? '' : `:${r.line}`}: ${r.status}, left alone by the export`),
    ...changed.map((f) => `${f}: changed since it was read`),
  ];
  const fix = refused.length > 0 ? `repair the files the export leaves alone (\`${ctx.agentsCommand()} export\` says how), then ` : '';
  ctx.io.stderr.write(
    `error: ${escapeUnsafe(`--replace left the lines of rules it imported in their files: ${what.join('; ')}`)}\n` +
      `hint: ${escapeUnsafe(`the rules are in the store; ${fix}run \`${again}\` to take their lines out.`)}\n`,
  );
  return EXIT_CODES.checkFailed;
}

/**
 * This import again with --replace, of `paths` (the files it was given) into the scope it was given: a bare `agents
 * import` would import every instruction file, those this one was not given too.
 */
function again(ctx: CliContext, argv: ImportArgs, paths = argv.paths ?? [], yes = true): string {
  return [
    `${ctx.agentsCommand()} import`,
    ...paths.map((p) => shellPath(String(p))),
    ...(argv.from ?? []).map((k) => `--from ${k}`),
    ...(argv.project !== undefined ? [`--project ${shellWord(String(argv.project))}`] : []),
    ...(argv.global ? ['--global'] : []),
    yes ? '--yes --replace' : '--replace',
  ].join(' ');
}

async function importService(ctx: CliContext) {
  const [invariants, scopes, { ImportService }] = await Promise.all([
    ctx.invariants(),
    ctx.scopes(),
    import('../../service/import-service.ts'),
  ]);
  return new ImportService(invariants, scopes);
}
