import { conflictingOptions, AgentsError, EXIT_CODES, missingOption, missingValue, UsageError } from '../../core/errors.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { shellWord } from '../../core/shell-word.ts';
import { isUlid } from '../../core/names.ts';
import { EXPORT_TARGETS } from '../../core/model.ts';
import { refusedError } from '../../service/export-refusals.ts';
import type { ExportPlan, ExportService } from '../../service/export-service.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import {
  checkJson,
  checkProblems,
  checkText,
  dryRunJson,
  dryRunNothingText,
  nothingToCheckJson,
  nothingToCheckText,
  standaloneJson,
  writtenJson,
  writtenText,
} from '../../present/export.ts';
import { emit } from '../render.ts';
import { hookStore } from '../hook-store.ts';
import { safeDiffText } from '../safe-output.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { inferProject } from '../scope-options.ts';
import { startProgress } from '../progress.ts';
import { unifiedDiff } from '../unified-diff.ts';

interface ExportArgs {
  target?: string[];
  project?: string;
  plan?: string;
  check?: boolean;
  'dry-run'?: boolean;
  stdout?: boolean;
  force?: boolean;
  cache?: boolean;
}

export default defineCommand<ExportArgs>({
  lists: { target: EXPORT_TARGETS },
  builder: (y) =>
    y
      .option('target', {
        type: 'string',
        array: true,
        describe:
          'agents-md, claude-md, gemini-md, copilot, cursor, windsurf, cline (repeat, or a comma list; default: export.targets in config.yaml)',
        requiresArg: true,
      })
      .option('project', { type: 'string', describe: "only project P's files (reads only the scopes P needs)", requiresArg: true })
      .option('plan', { type: 'string', describe: "with --stdout: a plan's effective set (an id or a unique prefix)", requiresArg: true })
      .option('check', { type: 'boolean', describe: 'write nothing; exit 1 listing every file missing or out of date' })
      .option('dry-run', { type: 'boolean', describe: 'write nothing; print the unified diff an export would apply' })
      .option('stdout', {
        type: 'boolean',
        describe: 'print the effective set of --plan ID or --project P in one --target format, without markers',
      })
      .option('force', { type: 'boolean', describe: 'replace agents blocks that were edited by hand' })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe:
          "answer from what the last export knew when nothing it read has changed (kept in the repository's .git folder); --no-cache computes every file",
      }),
  async run(argv, ctx) {
    // An empty --target (an unset variable: `--target "$TARGETS"`) names no target: refused as bad input, never read as
    // "no targets" (config.yaml's would be left unchecked, and --check would pass having checked nothing).
    if (argv.target?.every((t) => t.split(',').every((n) => n.trim() === '')))
      throw missingValue(
        '--target is empty',
        `Give one of ${EXPORT_TARGETS.join(', ')}, or leave --target out for export.targets in config.yaml.`,
        'target',
        EXPORT_TARGETS,
      );
    // As validate --staged: a repository that records no store (a branch from before it, the commit or pull request
    // that removes it) has no exported file to be out of date with it, so the export-check hook and CI step pass.
    // So has a commit that stages nothing of a store the working tree lacks (a sparse checkout without it): the files
    // exported from it are checked where the store is checked out (CI).
    const found = argv.check && !argv.stdout ? await hookStore(ctx, { unchanged: true }) : undefined;
    if (found !== undefined && typeof found !== 'string')
      return nothingToCheck(
        ctx,
        found.outOfCheckout
          ? 'the store is not in this checkout (the git index holds it) and nothing of it is staged'
          : 'no store (none in the working tree, nor in the git index)',
      );
    const service = await ctx.invariants();
    const exporter = await ctx.exporter({ cache: argv.cache !== false });
    const modes = (['check', 'dry-run', 'stdout'] as const).filter((m) => argv[m]);
    if (modes.length > 1) throw conflictingOptions(`${modes.map((m) => `--${m}`).join(' and ')} cannot be combined`, 'Choose one.', modes);
    if (argv.stdout) {
      const targets = (argv.target ?? []).flatMap((t) => t.split(',')).filter((t) => t.trim() !== '');
      // The example is the run's own plan or project, and a target it gave: pasted, it prints what was asked for.
      const given =
        argv.plan !== undefined
          ? `--plan ${shellWord(argv.plan)}`
          : argv.project !== undefined
            ? `--project ${shellWord(argv.project)}`
            : '--plan 01J…';
      const named = targets.find((t) => (EXPORT_TARGETS as readonly string[]).includes(t)) ?? 'agents-md';
      const example = `e.g. ${ctx.agentsCommand()} export ${given} --stdout --target ${named}`;
      if (targets.length === 0)
        throw missingOption('--stdout prints one format: give exactly one --target', example, 'export', ['target'], {
          target: EXPORT_TARGETS,
        });
      if (targets.length > 1) throw new UsageError('--stdout prints one format: give exactly one --target', example);
      if (argv.plan !== undefined && argv.project !== undefined)
        throw conflictingOptions('--stdout takes --plan ID or --project P, not both', 'A plan names its project itself.', [
          'plan',
          'project',
        ]);
      if (argv.plan === undefined && argv.project === undefined) {
        const inferred = await inferProject(ctx, service);
        if (inferred === undefined)
          throw missingOption(
            '--stdout needs one of --plan ID or --project P',
            `e.g. ${ctx.agentsCommand()} export --plan 01J… --stdout --target agents-md`,
            'export',
            ['plan', 'project'],
          );
        argv.project = inferred;
      }
      let target: { plan: string } | { project: string };
      if (argv.plan !== undefined) {
        let plan = argv.plan;
        if (!isUlid(plan)) {
          plan = await (await ctx.plans()).resolvePlanId(plan);
        }
        target = { plan };
      } else target = { project: argv.project! };
      const content = await exporter.standalone(target, targets[0]!);
      // The text is the target's file as it is; --format json or yaml wraps it in a document, as every command's output is.
      if (ctx.format === 'text') ctx.io.stdout.write(content);
      else emit(ctx, standaloneJson(targets[0]!.trim(), target, content), () => content);
      return EXIT_CODES.ok;
    }
    if (argv.plan !== undefined)
      throw new UsageError(
        '--plan goes with --stdout',
        `Plans have no files of their own: ${ctx.agentsCommand()} export --plan ID --stdout --target T prints one.`,
      );
    // On a terminal, a run past a second shows how far it is (docs/commands.md, "Progress").
    let progress = startProgress(ctx.io, { quiet: ctx.quiet ?? false });
    const onProgress = progress.enabled
      ? (phase: 'compute' | 'write', done: number, total: number) =>
          progress.update(phase === 'compute' ? 'export: computing files' : 'export: writing files', done, total)
      : undefined;
    let plan: ExportPlan;
    try {
      plan = await exporter.plan({
        ...(argv.target ? { targets: argv.target } : {}),
        ...(argv.project !== undefined ? { project: argv.project } : {}),
        // --check writes nothing, so it names each file as it is: an edited block stays "edited by hand", with --force as its fix.
        force: (argv.force ?? false) && !argv.check,
        ...(onProgress ? { onProgress } : {}),
      });
    } catch (error) {
      // A store that exports nothing has nothing out of date: --check (the export-check hook) passes.
      if (argv.check && error instanceof AgentsError && error.code === 'no-export-targets')
        return nothingToCheck(ctx, 'no export targets (export.targets in config.yaml)');
      throw error;
    } finally {
      // Erased before anything else is printed (warnings, errors, the result).
      progress.stop();
    }
    for (const w of plan.warnings) ctx.notice(`warning: ${w}`);
    for (const l of plan.linked)
      ctx.notice(
        l.empty
          ? `${l.path} is a link to ${l.to}, which holds no rules of this export (no invariant applies there): left as it is`
          : `${l.path} is a link to ${l.to}, which this export writes: left as it is`,
      );
    // The command that rewrites what --check finds, with the targets and project it was given.
    const rerun = [
      `${ctx.agentsCommand()} export`,
      ...(argv.target ? [`--target ${plan.targets.join(',')}`] : []),
      ...(argv.project !== undefined ? [`--project ${shellWord(argv.project)}`] : []),
    ].join(' ');
    if (argv.check) return check(ctx, plan, exporter, rerun);
    if (argv['dry-run']) {
      const diffs = plan.changes.filter((c) => c.action !== 'unchanged').map((c) => unifiedDiff(c.path, c.before, c.after));
      const diff = diffs.join('');
      // The diff's own bytes (a CRLF file's carriage returns included), so that `git apply` takes what was printed.
      if (ctx.format === 'text' && diff !== '') ctx.io.stdout.write(safeDiffText(diff, Boolean(ctx.io.stdout.isTTY)));
      else if (ctx.format !== 'text' || plan.refused.length === 0) emit(ctx, dryRunJson(plan, diff), dryRunNothingText);
      // The files export would leave alone, named as it names them: the diff is what it would write of the others.
      if (plan.refused.length > 0) {
        const e = refusedError(plan);
        ctx.io.stderr.write(`error: ${escapeUnsafe(e.message)}\nhint: ${e.hintFor(ctx.agentsCommand()) ?? ''}\n`);
        return EXIT_CODES.checkFailed;
      }
      return EXIT_CODES.ok;
    }
    let written: ReturnType<typeof exporter.apply>;
    progress = startProgress(ctx.io, { quiet: ctx.quiet ?? false });
    try {
      // A stop signal ends the export between two files, never in the middle of one (its temporary left behind);
      // one caught as the last file is written ends it with the signal's code once every file is written whole.
      written = await abortOnStopSignals(
        `the files written so far are whole; run \`${rerun}\` again for the rest.`,
        (signal) => exporter.applyUntil(plan, signal, onProgress),
        (done) => `the export was written whole (${done.length} ${done.length === 1 ? 'file' : 'files'}): nothing is left to write.`,
      );
    } finally {
      progress.stop();
    }
    exporter.remember(plan);
    // The files left alone are in the document too, named as --check names them: exit 1 alone does not say which.
    emit(ctx, writtenJson(plan, written), () => writtenText(ctx.style, plan, written));
    // The files edited by hand were left alone, the others written (docs/export.md): exit 1 naming them.
    if (plan.refused.length > 0) {
      const e = refusedError(plan, written.length);
      ctx.io.stderr.write(`error: ${escapeUnsafe(e.message)}\nhint: ${e.hintFor(ctx.agentsCommand()) ?? ''}\n`);
      return EXIT_CODES.checkFailed;
    }
    return EXIT_CODES.ok;
  },
});

function nothingToCheck(ctx: CliContext, why: string): number {
  emit(ctx, nothingToCheckJson(), () => nothingToCheckText(why));
  return EXIT_CODES.ok;
}

function check(ctx: CliContext, plan: ExportPlan, exporter: ExportService, rerun: string): number {
  const stale = plan.changes.filter((c) => c.action !== 'unchanged');
  // A block edited by hand is shown as the diff --force would apply to it: what the store would write against what is there.
  const problems = checkProblems(plan, unifiedDiff);
  const ok = problems.length === 0;
  emit(ctx, checkJson(plan, problems), () => checkText(plan, problems, rerun));
  if (ok) {
    exporter.remember(plan);
    return EXIT_CODES.ok;
  }
  // One fix for each kind of problem found, and only those: --force repairs no damaged block, and a file without a
  // block has no text to move outside it.
  const reasons = new Set(plan.refused.map((r) => r.reason));
  const fixes = [
    reasons.has('conflicted') ? `resolve the merge conflict, then run \`${rerun}\`` : '',
    stale.length > 0 ? `run \`${rerun}\` and commit the files` : '',
    reasons.has('hand-edited')
      ? `edited blocks: move your text outside the block, or \`${rerun} --force\` to rewrite them as their diff shows`
      : '',
    reasons.has('text-above-front-matter')
      ? `text above the front matter: move it below the front matter (the client reads front matter only at the file's start), or \`${rerun} --force\``
      : '',
    reasons.has('foreign') ? `files without an agents block: rename or move them, or \`${rerun} --force\` to replace them` : '',
    reasons.has('out-of-checkout') ? 'obsolete files the sparse checkout leaves out: `git rm --sparse -- PATH` for each' : '',
    reasons.has('damaged') ? 'damaged blocks: repair or delete their markers by hand (`--force` does not)' : '',
  ].filter((f) => f !== '');
  const what =
    plan.refused.length === 0
      ? `${problems.length} exported file${problems.length === 1 ? ' is' : 's are'} missing or out of date`
      : `${problems.length} exported file${problems.length === 1 ? ' is' : 's are'} not up to date`;
  ctx.io.stderr.write(`${what}; fix: ${fixes.join('; ')}\n`);
  return EXIT_CODES.checkFailed;
}
