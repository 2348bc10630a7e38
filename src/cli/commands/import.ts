import { loadTui } from '../tui-loader.ts';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { type ImportFile, type ImportPlan, type PlannedCandidate, plannedScopeName, reviewedPlan } from '../../core/import-plan.ts';
import { IMPORT_KINDS, type ImportKind, instructionKind } from '../../core/import-sources.ts';
import type { ImportWritten } from '../../service/import-service.ts';
import type { ReplacePreview, ReplaceResult } from '../../service/import-replace.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { requireInteractive, tuiIo } from '../interactive.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { staleExports, staleLine } from '../stale-exports.ts';
import { emitDocument } from '../render.ts';
import type { Style } from '../../core/style.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { shellPath, shellWord } from '../../core/shell-word.ts';
import { safeDiffText } from '../safe-output.ts';

interface ImportArgs {
  paths?: string[];
  from?: string[];
  project?: string;
  global?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  replace?: boolean;
  verbose?: boolean;
}

/** The stable JSON shape of an import (docs/json-output.md). */
function importJson(
  plan: ImportPlan,
  written: ImportWritten | null,
  replaced: ReplaceResult | null,
  stale: readonly string[] = [],
  preview: readonly (ReplacePreview & { diff: string })[] | null = null,
) {
  return {
    files: plan.files.map((f) => ({
      file: f.file,
      kind: f.kind,
      scope: f.target.kind === 'project' ? { kind: 'project', project: f.target.name } : { kind: f.target.kind },
      skipped: f.skipped ?? (f.target.kind === 'skip' ? f.target.why : null),
      candidates: f.candidates.length,
      not_english: f.notEnglish === true,
      left_out: f.leftOut,
      references: (f.references ?? []).map((r) => ({ line: r.line, path: r.path, import: referenceCommand(f, r.path) })),
    })),
    candidates: plan.candidates.map((c) => ({
      n: c.n,
      file: c.file,
      line: c.line,
      end_line: c.end_line,
      text: c.text,
      tags: c.tags,
      severity: c.severity,
      scope: c.scope.kind === 'project' ? { kind: 'project', project: c.scope.project } : { kind: 'global' },
      status: c.status,
      same_as: c.same_as ?? null,
      near_duplicates: c.near,
    })),
    projects: plan.projects,
    written,
    replaced,
    would_replace:
      preview?.map((p) => ({
        file: p.file,
        removed: p.removed,
        block: p.block,
        removes_file: p.after === null,
        diff: p.diff,
      })) ?? null,
    stale_exports: stale,
  };
}

/**
 * The command that imports a file a CLAUDE.md or GEMINI.md has its agent read: where the referring
 * file's rules go (an instruction file of its own kind goes where it applies).
 */
function referenceCommand(f: ImportFile, path: string): string {
  if (instructionKind(path) !== undefined) return `agents import ${shellPath(path)}`;
  const where = f.target.kind === 'project' ? ` --project ${f.target.name}` : f.target.kind === 'global' ? ' --global' : '';
  return `agents import ${shellPath(path)} --from ${f.kind}${where}`;
}

/**
 * A file name (or a reason naming one) on one line of the report: a repository's file may be named with a newline,
 * which would otherwise start a line of its own, one that can look like a rule to import.
 */
function oneLine(text: string): string {
  return escapeUnsafe(text);
}

/** `refused`: the candidates the write refused (written.refused), marked `!` rather than `+`, as they were not written. */
function planText(s: Style, plan: ImportPlan, verbose: boolean, refused: ReadonlySet<number> = new Set()): string {
  const lines: string[] = [];
  // Global files first, as the plan weighs them (a rule said there applies everywhere).
  const files = [...plan.files].sort((a, b) => Number(a.target.kind === 'project') - Number(b.target.kind === 'project'));
  // Each file's candidates, gathered in one pass rather than a pass over all of them per file.
  const byFile = new Map<string, PlannedCandidate[]>();
  for (const c of plan.candidates) {
    const list = byFile.get(c.file);
    if (list) list.push(c);
    else byFile.set(c.file, [c]);
  }
  for (const f of files) {
    const skipped = f.skipped ?? (f.target.kind === 'skip' ? f.target.why : undefined);
    if (skipped) {
      lines.push(`${s.yellow('skipped')} ${oneLine(f.file)}: ${oneLine(skipped)}`);
      continue;
    }
    const mine = byFile.get(f.file) ?? [];
    // Where its rules go: the review may have moved some of them out of the file's scope.
    const fileScope = f.target.kind === 'project' ? `project ${f.target.name}` : 'global';
    const scopes = new Set(mine.filter((c) => c.status === 'new').map((c) => plannedScopeName(c.scope)));
    const where = scopes.size > 0 ? [...scopes].join(', ') : fileScope;
    // Headings are listed with --verbose only (they name the tags of what follows): the count is of what is listed.
    const left = verbose ? f.leftOut : f.leftOut.filter((l) => l.reason !== 'heading');
    const headings = f.leftOut.length - left.length;
    const more =
      headings > 0
        ? s.dim(` (and ${headings} heading${headings === 1 ? '' : 's'}; --verbose lists ${headings === 1 ? 'it' : 'them'})`)
        : '';
    lines.push(`${s.bold(oneLine(f.file))} → ${where}: ${mine.length} rule${mine.length === 1 ? '' : 's'}, ${left.length} left out${more}`);
    // Its rules were not told from descriptions by their words (English ones): say so, rather than pass them as judged.
    if (f.notEnglish)
      lines.push(
        s.yellow(
          '    not English: each list item is taken as it stands (the words that make a rule are known in English only): review them',
        ),
      );
    for (const c of mine) {
      const mark = refused.has(c.n)
        ? s.yellow('!')
        : c.status === 'new'
          ? s.green('+')
          : s.dim(c.status === 'exists' ? '=' : c.status === 'dropped' ? '-' : '~');
      const to = plannedScopeName(c.scope);
      const moved = c.status === 'new' && to !== fileScope ? s.dim(`  (→ ${to})`) : '';
      const note =
        c.status === 'dropped'
          ? s.dim('  (dropped in the review)')
          : c.status === 'exists' && c.same_as && 'id' in c.same_as
            ? s.dim(`  (already in the store${c.same_as.inactive ? ', inactive' : ''}: ${c.same_as.id})`)
            : c.status === 'duplicate' && c.same_as && 'file' in c.same_as
              ? s.dim(`  (said before at ${oneLine(c.same_as.file)}:${c.same_as.line})`)
              : c.near.length > 0
                ? s.yellow(`  (near-duplicate of ${c.near.map((n) => n.id).join(', ')})`)
                : '';
      lines.push(
        `  ${mark} ${String(c.line).padStart(4)}  ${c.text} ${s.dim(`[${c.severity}${c.tags.length ? `; ${c.tags.join(', ')}` : ''}]`)}${moved}${note}`,
      );
    }
    for (const l of left) {
      const at = l.line === l.end_line ? `${l.line}` : `${l.line}-${l.end_line}`;
      lines.push(s.dim(`    left out ${at.padStart(7)}  ${l.reason}: ${l.excerpt}`));
    }
    for (const r of f.references ?? [])
      lines.push(
        s.yellow(
          `    not read ${String(r.line).padStart(7)}  ${oneLine(r.path)}, which the agent reads too: ${oneLine(referenceCommand(f, r.path))}`,
        ),
      );
  }
  return lines.join('\n');
}

function summary(plan: ImportPlan): string {
  const fresh = plan.candidates.filter((c) => c.status === 'new');
  const wanted = new Set(fresh.map((c) => c.scope.project));
  const creates = plan.projects.filter((p) => !p.exists && wanted.has(p.name));
  const by = new Map<string, number>();
  for (const c of fresh) {
    const k = c.scope.kind === 'global' ? 'global' : c.scope.project!;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  const parts = [...by].map(([k, n]) => `${k} ${n}`).join(', ');
  return `${fresh.length} new invariant${fresh.length === 1 ? '' : 's'}${parts ? ` (${parts})` : ''}${
    creates.length ? `, ${creates.length} new project${creates.length === 1 ? '' : 's'} (${creates.map((p) => p.name).join(', ')})` : ''
  }`;
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
        'Name the files to import: agents import docs/rules.md --from agents-md.',
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
      await emitDocument(ctx, importJson(plan, null, null, [], preview), () =>
        [
          planText(s, plan, argv.verbose === true),
          ...(preview === null
            ? []
            : [
                '',
                preview.length === 0
                  ? '--replace would change no file.'
                  : `--replace would change these files (the block is filled by \`agents export\`):\n${safeDiffText(diffs, Boolean(ctx.io.stdout.isTTY)).replace(/\n$/, '')}`,
              ]),
          '',
          `Would write ${summary(plan)}. Nothing was written.`,
        ].join('\n'),
      );
      return EXIT_CODES.ok;
    }
    // Before the review: a block the export would refuse to fill stops --replace with nothing written.
    if (argv.replace) await service.checkReplace(plan);
    let chosen: PlannedCandidate[] | undefined = fresh;
    if (!argv.yes && fresh.length > 0) {
      requireInteractive(ctx);
      const { runImportReview } = await loadTui();
      const kept = await ctx.onScreen(() => runImportReview(tuiIo(ctx), plan));
      if (kept === undefined) {
        // As every form answered no (n or Esc): nothing changed, exit 1 (docs/tui.md).
        ctx.io.stderr.write('Nothing imported.\n');
        return EXIT_CODES.checkFailed;
      }
      // A text edited, or moved to another scope, is near other invariants than the file's.
      chosen = service.reviewed(plan, kept);
    }
    // A stop signal while the files are staged ends the import with nothing written (exit 130). Once they are in
    // place, one that comes while --replace takes the lines out and the export fills the blocks waits for it to end:
    // else the lines would be gone from their files and the blocks left empty, without a word.
    // A stop that comes once they are in place ends the import with the signal's code after it is done, as plan sync does.
    const { written, replaced } = await abortOnStopSignals(
      'nothing was imported.',
      async (signal) => {
        const written = await service.apply(plan, chosen, { signal });
        return { written, replaced: argv.replace ? await service.replace(plan, written) : null };
      },
      (done) =>
        `${done.written.invariants.length} ${done.written.invariants.length === 1 ? 'invariant was' : 'invariants were'} imported whole${done.replaced ? ', the moved rules taken out of their files' : ''}: nothing is left to import.`,
    );
    for (const p of written.projects) {
      const paths = plan.projects.find((x) => x.name === p)?.paths ?? [];
      ctx.notice(`created project ${p} (projects/${p}/${paths.length ? `, paths ${paths.join(', ')}` : ''})`);
    }
    for (const w of replaced?.warnings ?? []) ctx.notice(`warning: ${w}`);
    if (replaced && replaced.unlisted_targets.length > 0) {
      const them = replaced.unlisted_targets.length === 1 ? 'it' : 'them';
      ctx.notice(
        `the moved rules now reach agents through the export (${replaced.unlisted_targets.join(', ')}), which config.yaml ` +
          `does not list: add ${them} to export.targets so that \`agents export\` and \`agents export --check\` keep ${them} current.`,
      );
    }
    // The rules now in the store reach agents only through the export: files it would change are said, as extends update says them.
    const stale = written.invariants.length > 0 ? await staleExports(ctx) : [];
    // The report says what was written: the candidates as the review left them, not as the files proposed them.
    const done = chosen === fresh ? plan : reviewedPlan(plan, chosen);
    await emitDocument(ctx, importJson(done, written, replaced, stale), () => {
      const lines = [
        planText(s, done, argv.verbose === true, new Set(written.refused.map((r) => r.n))),
        '',
        `${s.green('imported')} ${written.invariants.length} invariant${written.invariants.length === 1 ? '' : 's'}`,
      ];
      for (const w of written.invariants) lines.push(`  ${w.path}`);
      for (const r of written.refused) {
        const c = done.candidates[r.n - 1]!;
        lines.push(`${s.yellow('not imported')} ${oneLine(c.file)}:${c.line}: ${r.why}`);
      }
      for (const f of replaced?.files ?? [])
        lines.push(
          `${s.green('replaced')} ${f.removed.length} line${f.removed.length === 1 ? '' : 's'} of ${oneLine(f.file)}${f.block ? ' with the managed block' : ''}`,
        );
      // The export's files it leaves alone are said first: a rule their target would carry stays for that reason.
      for (const r of replaced?.refused ?? [])
        lines.push(
          `${s.yellow('not exported')} ${oneLine(r.path)}: ${r.status}, so the export leaves it alone and the rules it would hold keep their lines (\`agents export\` says how to repair it; then run \`${oneLine(again(argv))}\`)`,
        );
      for (const u of replaced?.unexported ?? [])
        lines.push(
          `${s.yellow('not replaced')} ${oneLine(u.file)}:${u.line}: the export (${u.target}) writes this rule in no file (its project has no paths, or none ${u.target} can express${replaced!.refused.length > 0 ? ', or its file is left alone' : ''}), so its line stays`,
        );
      for (const file of replaced?.changed ?? [])
        lines.push(
          `${s.yellow('not replaced')} ${oneLine(file)}: it changed since it was read, so its lines stay; run \`${oneLine(again(argv, [file]))}\` again`,
        );
      for (const p of replaced?.exported ?? []) lines.push(`${s.green('exported')} ${oneLine(p)}`);
      for (const p of replaced?.emptied ?? []) {
        // A link removed with the file it led to held no headings of its own: it is said as what it was.
        const link = replaced!.emptied_links.find((l) => l.file === p);
        // A rule file (.cursor/rules/style.mdc) goes for its agent reads the export's own file beside it.
        const kind = done.files.find((f) => f.file === p)?.kind;
        const folderFile = kind === 'agents-md' || kind === 'claude-md' || kind === 'gemini-md';
        lines.push(
          link === undefined && !folderFile
            ? `${s.green('removed')} ${oneLine(p)}: only its front matter and headings were left in it, and its rules reach its agent through the export's files`
            : link === undefined
              ? `${s.green('removed')} ${oneLine(p)}: only headings were left in it, and agents in its folder now read the file above it`
              : `${s.green('removed')} ${oneLine(p)}: it ${link.link === 'symbolic' ? 'was a symbolic link' : 'said nothing but a reference'} to ${oneLine(link.to)}, removed above, so it would lead nowhere`,
        );
      }
      if (stale.length > 0) lines.push(s.yellow(staleLine(stale)));
      return lines.join('\n');
    });
    // Lines --replace had to leave (a file of the export's it leaves alone, a file edited since it was read) are a
    // partial import, as a file export leaves alone is a partial export: exit 1, saying what to do, so a script knows.
    return replaced === null ? EXIT_CODES.ok : replaceLeftOver(ctx, replaced, again(argv));
  },
});

/** Exit 1 naming what --replace left in place and how to finish it; exit 0 when it moved every rule it could. */
function replaceLeftOver(ctx: CliContext, replaced: ReplaceResult, again: string): number {
  const { refused, changed } = replaced;
  if (refused.length === 0 && changed.length === 0) return EXIT_CODES.ok;
  const what = [
    ...refused.map((r) => `${r.path}${r.line === null ? '' : `:${r.line}`}: ${r.status}, left alone by the export`),
    ...changed.map((f) => `${f}: changed since it was read`),
  ];
  const fix = refused.length > 0 ? 'repair the files the export leaves alone (`agents export` says how), then ' : '';
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
function again(argv: ImportArgs, paths = argv.paths ?? []): string {
  return [
    'agents import',
    ...paths.map((p) => shellPath(String(p))),
    ...(argv.from ?? []).map((k) => `--from ${k}`),
    ...(argv.project !== undefined ? [`--project ${shellWord(String(argv.project))}`] : []),
    ...(argv.global ? ['--global'] : []),
    '--yes --replace',
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
