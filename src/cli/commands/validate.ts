import { conflictingOptions, EXIT_CODES, UsageError } from '../../core/errors.ts';
import { escapeUnsafe } from '../../core/plain-text.ts';
import { envSwitchOn } from '../../core/env-switch.ts';
import type { ValidationResult } from '../../validate/result.ts';
import { LISTED_PER_CODE } from '../../validate/limits.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import { emptyResult, hookStore } from '../hook-store.ts';
import { safeText } from '../safe-output.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { writePieces } from '../write-pieces.ts';
import { BUILD_ID, VERSION } from '../../present/version.ts';

/**
 * What a stop signal during `--fix` leaves: the fixes are written one by one, but modelines all at once at the end.
 * `agents`: the run's, with its --store (CliContext.agentsCommand).
 */
const fixCancelled = (agents: string) =>
  `no modeline was added; files renamed or removed before the signal stay so. Run \`${agents} validate --fix\` again to finish.`;

interface ValidateArgs {
  paths?: string[];
  strict?: boolean;
  staged?: boolean;
  changed?: boolean;
  allFiles?: boolean;
  verbose?: boolean;
  fix?: boolean;
  format?: string;
  cache?: boolean;
  jobs?: string;
  profile?: boolean;
}

/** The cache of this store (inside its repository's .git folder), unless turned off or outside git. */
async function cacheFor(store: string, wanted: boolean): Promise<{ dir: string; build: string } | undefined> {
  if (!wanted) return undefined;
  const dir = (await import('../../validate/cache.ts')).defaultCacheDir(store);
  return dir === undefined ? undefined : { dir, build: BUILD_ID };
}

export default defineCommand<ValidateArgs>({
  builder: (y) =>
    y
      .positional('paths', {
        type: 'string',
        array: true,
        describe: 'files or folders to report on (siblings are still read for duplicate checks)',
      })
      .option('format', {
        choices: ['github', 'sarif'],
        requiresArg: true,
        describe: 'output format: text, json, yaml, github (workflow-command annotations) or sarif (SARIF 2.1.0)',
      })
      .option('strict', { type: 'boolean', describe: 'warnings fail too (exit 1)' })
      .option('staged', {
        type: 'boolean',
        describe: 'hook mode: check the content in the git index, reporting on the files staged for the next commit',
      })
      .option('changed', {
        type: 'boolean',
        describe: 'hook mode on the working tree: report on the files changed since HEAD (untracked ones included)',
      })
      .option('all-files', { type: 'boolean', describe: 'with --staged: report on the whole index, not only the staged files' })
      .option('verbose', {
        type: 'boolean',
        describe: `list every diagnostic in text and github output (by default ${LISTED_PER_CODE} of each code, then a count); in hook mode, show infos too`,
      })
      .conflicts('staged', 'changed')
      .conflicts('changed', 'fix')
      .option('cache', {
        type: 'boolean',
        default: true,
        describe:
          "reuse the checks of unchanged files from earlier runs (kept in the repository's .git folder); --no-cache checks every file afresh",
      })
      .option('jobs', {
        type: 'string',
        requiresArg: true,
        describe: 'threads that check files no cache answers (1: no worker thread; default: every core, on large stores; env AGENTS_JOBS)',
      })
      .option('profile', {
        type: 'boolean',
        describe: 'after the report, the time of each check of this run on stderr (which check makes a store slow)',
      })
      .option('fix', {
        type: 'boolean',
        describe: 'fix what is safe to fix: missing modelines, file names differing from a valid unused id, leftover temporary files',
      })
      .example('$0 validate', 'check the whole store')
      .example('$0 validate --staged', 'check what is about to be committed (pre-commit hook)')
      .example('$0 validate --format github', 'annotations for GitHub Actions'),
  async run(argv, ctx) {
    const hook = (argv.staged && !argv.allFiles) || argv.changed;
    // A commit that stages nothing of a store the working tree lacks (a sparse checkout without it) has nothing to check.
    const found = hook === true && argv.staged === true ? await hookStore(ctx, { unchanged: true }) : await ctx.root();
    const store = typeof found === 'string' ? found : found.place;
    if (argv.staged && argv.fix) {
      throw conflictingOptions(
        '--fix cannot be combined with --staged',
        `Fixes change the working tree: run \`${ctx.agentsCommand()} validate --fix\`, then \`git add\` the fixed files.`,
        ['fix', 'staged'],
      );
    }
    if (argv.allFiles && !argv.staged)
      throw new UsageError('--all-files goes with --staged', 'Without --staged, validate already reports on the whole store.');
    let changed: string[] | undefined;
    // What was asked is checked before hook mode can end the run: a typo in a hook fails on every commit, not on some.
    const jobs = jobsOption(argv.jobs, ctx.io.env.AGENTS_JOBS);
    const named =
      typeof found === 'string' && argv.paths && argv.paths.length > 0
        ? (await import('../../validate/paths.ts')).storePaths(store, ctx.io.cwd, argv.paths)
        : undefined;
    // --profile: each step's time, in the order they ran, and the garbage collection inside it (docs/validation.md,
    // "Which check is slow"): a pause of the whole heap lands on whichever step is running, large store or not.
    const steps: Step[] = [];
    const gc = argv.profile ? await watchGc() : undefined;
    // CPU time too (every thread of the process): unlike the clock, it does not count time the process waited for a core.
    const startCpu = process.cpuUsage();
    let cpuMark = startCpu;
    const cpuSince = (mark: NodeJS.CpuUsage) => {
      const d = process.cpuUsage(mark);
      return (d.user + d.system) / 1000;
    };
    const profile = argv.profile
      ? {
          onTime: (name: string, ms: number, start: number) => {
            steps.push({ name, ms, start, cpu: cpuSince(cpuMark) });
            cpuMark = process.cpuUsage();
          },
        }
      : {};
    // Only --profile reads the clock: the first read of `performance` loads its modules.
    const started = argv.profile ? performance.now() : 0;
    // Hook mode: first the one git process that says which store files the commit touches; none, and the run ends here.
    if (typeof found !== 'string') changed = [];
    else if (hook) {
      const start = argv.profile ? performance.now() : 0;
      changed = await changedPaths(store, argv.changed ? 'working' : 'staged');
      profile.onTime?.('changed', performance.now() - start, start);
    }
    // PATHS named with nothing staged are checked against the index all the same: the answer to a typo must not
    // depend on what else the commit stages.
    if (changed?.length === 0 && named) {
      const paths = await import('../../validate/paths.ts');
      await (argv.staged ? paths.requireIndexed : paths.requireInWorkingTree)(store, named, argv.paths!);
    }
    const profileEnd = async () => {
      if (!gc) return;
      const total = { name: 'total', ms: performance.now() - started, start: started, cpu: cpuSince(startCpu) };
      ctx.io.stderr.write(profileText(steps, total, await gc()));
    };
    // Nothing to report: stdout stays empty, and --profile still says where the time went (the git listing).
    if (changed?.length === 0 && (argv.format ?? 'text') === 'text') {
      await profileEnd();
      return EXIT_CODES.ok;
    }
    const [{ runValidate }, { hostname }, { startProgress }, { processAlive }] = await Promise.all([
      import('../../validate/run.ts'),
      import('node:os'),
      import('../progress.ts'),
      import('../../store/lock-owner.ts'),
    ]);
    // Bounded from here, where the reading starts: the commit hook's bundle has by now loaded the full bundle (and made
    // its code cache, which V8 takes only under the flags it was made with).
    boundHeapGrowth();
    // On a terminal, a run past a second shows how far it is (docs/commands.md, "Progress").
    const progress = startProgress(ctx.io, { quiet: ctx.quiet ?? false });
    const watch = progress.enabled
      ? {
          onProgress: (phase: 'read' | 'check', done: number, total: number) =>
            progress.update(phase === 'read' ? 'validate: reading files' : 'validate: checking files', done, total),
          onFixProgress: (done: number, total: number) => progress.update('validate --fix: adding modelines', done, total),
        }
      : {};
    let result: ValidationResult;
    try {
      result =
        changed !== undefined && changed.length === 0
          ? emptyResult(store, argv.changed ? 'working tree' : 'index')
          : await runValidate(
              {
                store,
                cwd: ctx.io.cwd,
                paths: argv.paths ?? [],
                staged: argv.staged ?? false,
                strict: argv.strict ?? false,
                fix: argv.fix ?? false,
                // A stop signal while fixes are written cancels the rest: no modeline half-staged is left behind. One
                // caught as the last are put in place ends the run with the signal's code once they all are.
                whileFixing: (fixes) =>
                  abortOnStopSignals(fixCancelled(ctx.agentsCommand()), fixes, (done) => {
                    const n = done.filter((f) => f.done).length;
                    return `${n} ${n === 1 ? 'fix was' : 'fixes were'} made whole: run \`${ctx.agentsCommand()} validate\` to see the store as it is.`;
                  }),
                cache: await cacheFor(store, argv.cache !== false && !envSwitchOn(ctx.io.env, 'AGENTS_NO_CACHE')),
                ...(jobs !== undefined ? { jobs } : {}),
                ...(changed !== undefined ? { changed, verbose: argv.verbose ?? false } : {}),
                ...watch,
                ...profile,
              },
              { processAlive, hostname: hostname(), notice: (m) => ctx.notice(m) },
            );
    } finally {
      progress.stop();
    }
    // The commands the hints name carry the run's --store, in every format, so that, pasted, they reach this store.
    if (ctx.store !== undefined) {
      const { agentsHints } = await import('../../core/diagnostics.ts');
      result = { ...result, diagnostics: result.diagnostics.map(agentsHints(ctx.agentsCommand())) };
    }
    const out = ctx.io.stdout;
    const verbose = argv.verbose ?? false;
    // Every format is written in pieces (docs/json-output.md, "Large outputs are streamed"), and leaves with no raw
    // control or bidirectional character (docs/store-format.md, "Plain text only").
    const write = (pieces: Iterable<string>, clean: (piece: string) => string) => writePieces(out, pieces, clean);
    const plain = (piece: string) => escapeUnsafe(piece, { newlines: true });
    // A fix the file system refused leaves the store unfixed: never a success. Under json or yaml the error document
    // is then the one document on stdout, holding the run's fixes, as every failure's is (docs/json-output.md).
    const refused = result.fixes.filter((f) => f.failed);
    const format = argv.format ?? 'text';
    if (refused.length === 0 || (format !== 'json' && format !== 'yaml')) {
      switch (format) {
        case 'json':
          await write((await import('../../validate/format-json.ts')).jsonOutput(result), plain);
          break;
        case 'yaml': {
          const [{ yamlDocumentPieces }, { validateJson }] = await Promise.all([
            import('../yaml-output.ts'),
            import('../../validate/format-json.ts'),
          ]);
          // toYaml escapes what it writes.
          await write(yamlDocumentPieces(validateJson(result)), (piece) => piece);
          break;
        }
        case 'sarif':
          await write((await import('../../validate/format-sarif.ts')).sarifOutput(result, VERSION), plain);
          break;
        case 'github': {
          const { githubLog, githubStepSummary } = await import('../../validate/format-github.ts');
          // Workflow commands are this format's own lines (their values escaped by githubLog): not escaped as text's are.
          await write(githubLog(result, verbose), plain);
          const summaryFile = ctx.io.env.GITHUB_STEP_SUMMARY;
          if (summaryFile) {
            // Whole or not at all, never waiting on a named pipe: the log already holds everything, so a summary file
            // that cannot take it (missing folder, full disk) fails no run, but is said, as the summary asked for is not there.
            const { appendWhole } = await import('../../store/write-all.ts');
            if (!appendWhole(summaryFile, [...githubStepSummary(result, verbose)].join('')))
              ctx.io.stderr.write(
                `warning: no job summary written: GITHUB_STEP_SUMMARY names ${escapeUnsafe(summaryFile)}, which is no regular file that can be appended to (a missing folder, a full disk, a named pipe); the log above holds the whole report.\n`,
              );
          }
          break;
        }
        default:
          await write((await import('../../validate/format-text.ts')).textOutput(result, ctx.style, verbose), (piece) =>
            safeText(piece, ctx.color),
          );
      }
    }
    await profileEnd();
    if (refused.length > 0) {
      const { validateJson } = await import('../../validate/format-json.ts');
      throw new UsageError(
        `${refused.length} fix${refused.length === 1 ? ' was' : 'es were'} not written: ${refused[0]!.message}`,
        `Make the store writable (the message says what refused the write), then run \`${ctx.agentsCommand()} validate --fix\` again; the fixes made are kept.`,
        { fixes: validateJson(result).fixes },
        'write-failed',
      );
    }
    return result.ok ? EXIT_CODES.ok : EXIT_CODES.checkFailed;
  },
});

interface Step {
  name: string;
  ms: number;
  /** On the performance.now() clock. */
  start: number;
  /** CPU ms of the whole process (worker threads included) since the step before ended. */
  cpu: number;
}

/** Collects this thread's garbage collections (start, duration) until the returned function is called. */
async function watchGc(): Promise<() => Promise<[number, number][]>> {
  const { PerformanceObserver } = await import('node:perf_hooks');
  const pauses: [number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  return async () => {
    // Entries are handed over asynchronously: one turn of the event loop delivers the last ones.
    await new Promise((resolve) => setImmediate(resolve));
    observer.disconnect();
    return pauses;
  };
}

/**
 * The `--profile` table: one line a step — its milliseconds, the CPU milliseconds of the process meanwhile, and
 * the milliseconds of this thread's garbage collection within it — then the whole run's.
 */
function profileText(steps: readonly Step[], total: Step, pauses: readonly [number, number][]): string {
  const rows = [...steps, total];
  const width = Math.max(...rows.map((s) => s.name.length));
  const ms = (n: number) => n.toFixed(1).padStart(9);
  const gcIn = (s: Step) => {
    let sum = 0;
    for (const [start, duration] of pauses) sum += Math.max(0, Math.min(start + duration, s.start + s.ms) - Math.max(start, s.start));
    return sum;
  };
  const head = `  ${'step'.padEnd(width)} ${'ms'.padStart(9)} ${'cpu ms'.padStart(9)} ${'gc ms'.padStart(9)}\n`;
  return `profile:\n${head}${rows.map((s) => `  ${s.name.padEnd(width)} ${ms(s.ms)} ${ms(s.cpu)} ${ms(gcIn(s))}\n`).join('')}`;
}

/** `--jobs N` (or AGENTS_JOBS): a whole number from 1; undefined: the default (docs/validation.md, "Worker threads"). */
function jobsOption(flag: string | undefined, env: string | undefined): number | undefined {
  const [value, where] = flag !== undefined ? [flag, '--jobs'] : [env, 'AGENTS_JOBS'];
  if (value === undefined || (flag === undefined && value.trim() === '')) return undefined;
  // Number('') and Number(' ') are 0: an empty value is refused as what it is, not as a zero.
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(
      `${where} must be a whole number from 1 to 256, not ${JSON.stringify(value)}`,
      'Give the number of threads, e.g. --jobs 2; 1 checks every file in one thread.',
      // The flag's value has the code of any value an option does not take; the environment's is no option.
      flag !== undefined ? { option: 'jobs', value } : undefined,
      flag !== undefined ? 'invalid-value' : undefined,
    );
  return n;
}

/** The store files the next commit changes (hook mode), store-relative; a usage error outside git. */
async function changedPaths(store: string, mode: 'staged' | 'working'): Promise<string[]> {
  const flag = mode === 'staged' ? '--staged' : '--changed';
  const { repoTop } = await import('../../store/git-dir.ts');
  const top = repoTop(store);
  // Outside a repository `git diff` would compare files instead (--no-index): refused before git runs.
  if (top === undefined)
    throw new UsageError(
      `${flag} needs a git repository, and ${store} is not in one`,
      (await import('../../git/caller-env.ts')).namedRepositoryHint() ??
        'Run it inside the repository that holds the store, or leave the flag out.',
      undefined,
      'not-a-repository',
    );
  // git runs in the store's real folder: reached through a link out of this repository, it would ask another
  // repository's index (or none), while this one's holds the link.
  const { realpathSync } = await import('node:fs');
  const [realStore, realTop] = [realpathSync(store), realpathSync(top)];
  if (realStore !== realTop && !realStore.startsWith(`${realTop}/`))
    throw new UsageError(
      `${flag} cannot check ${store}: it is a link to ${realStore}, outside the repository ${top}, whose index holds the link and not the store's files`,
      'Run it with --store naming the store in the repository that holds it, or leave the flag out to check the files themselves.',
    );
  // The commit hook's usual case, a commit that stages no store file, is told from git's own files when they can.
  if (mode === 'staged' && (await import('../../git/index-tree.ts')).stagesNothingUnder(store)) return [];
  const [git, { GitError }] = await Promise.all([import('../../git/changed.ts'), import('../../git/repo.ts')]);
  try {
    if (mode === 'staged') return await git.stagedStorePaths(store);
    const { relative, sep } = await import('node:path');
    // git prints paths from the top it found from the store's real folder: a store named through a link (--store
    // .agents leading to tools/agents) is matched by where the link leads.
    const rel = relative(realTop, realStore).split(sep).join('/');
    return await git.changedStorePaths(store, rel === '' ? '' : `${rel}/`, realTop);
  } catch (error) {
    if (error instanceof GitError)
      throw new UsageError(`${flag}: git failed: ${error.message.split('\n')[0]}`, 'Check the repository with `git status`.');
    throw error;
  }
}
