import { join, relative, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.ts';
import { countBySeverity } from '../core/diagnostics.ts';
import { conflictingOptions, UsageError } from '../core/errors.ts';
import { mayExtend } from '../core/extends-config.ts';
import { EXTENDS_LOCK_FILE } from '../core/extends.ts';
import { repoTop, storeFolderOf } from '../store/git-dir.ts';
import { refuseSparseStore } from '../store/sparse-store.ts';
import { assertOwnStore } from '../store/ownership.ts';
import { lockAge, samePidNamespace } from '../store/lock-owner.ts';
import { tempWriterState } from '../store/stale-temps.ts';
import { WorkingTreeSource, type TreeSource } from '../store/tree-source.ts';
import { refuseUnlisted, storePaths } from './paths.ts';
import { validateTree, type ValidateReport } from './validate-tree.ts';
import { cacheFileIn, FactsCache } from './cache.ts';
import type { FileFacts } from './file-facts.ts';
import type { Fix, ValidationResult } from './result.ts';

export interface RunValidateOptions {
  /** Absolute path of the store. */
  store: string;
  /** For resolving PATHS and showing paths relative to where the user is. */
  cwd: string;
  /** Files or folders to report on (relative to cwd, or absolute); none: the whole store. */
  paths?: readonly string[];
  /** Validate the git index instead of the working tree. */
  staged?: boolean;
  strict?: boolean;
  fix?: boolean;
  /**
   * Hook mode (docs/validation.md): the store-relative paths a commit changes
   * (`--staged`: staged against HEAD; `--changed`: changed in the working
   * tree or index, or untracked). Only their diagnostics, and the cross-file
   * problems they take part in, are reported; infos only with `verbose`.
   */
  changed?: readonly string[];
  verbose?: boolean;
  /**
   * Keep the facts of checked files between runs, in this file, for this
   * build of the tool (see cache.ts); absent: every file is checked afresh.
   */
  cache?: { dir: string; build: string };
  /** Threads that check files no cache answers (`--jobs`); absent: every core, when there are enough files. */
  jobs?: number;
  /** Told as files are read and checked (a progress display). */
  onProgress?: (phase: 'read' | 'check', done: number, total: number) => void;
  /** Told as `--fix` writes modelines. */
  onFixProgress?: (done: number, total: number) => void;
  /**
   * Runs the `--fix` writes, handing them the signal that cancels them (the CLI's stop signals): only the writes,
   * so that a signal during the check ends the process at once, as nothing is written then.
   */
  whileFixing?: (fixes: (signal: AbortSignal) => Promise<Fix[]>) => Promise<Fix[]>;
  /** Told the time (ms) of each step (`--profile`; see ValidateOptions.onTime), then of `extends` when the store extends a source. */
  onTime?: (step: string, ms: number, start: number) => void;
}

export interface RunValidateDeps {
  /** Whether a process of this host is running; with `since`, one that did not start after that time (ms). */
  processAlive: (pid: number, since?: number, start?: number) => boolean;
  hostname: string;
  /** Told when `--fix` clears a stale lock of a dead process to take it. */
  notice?: (message: string) => void;
  /** The time waivers are judged at (`waiver-expired`); default: now. */
  clock?: () => Date;
}

function prefixFor(from: string, store: string): string {
  const rel = relative(from, store).split(sep).join('/');
  return rel === '' ? '' : `${rel}/`;
}

function matches(only: readonly string[], file: string): boolean {
  return only.some((p) => p === '' || file === p || file.startsWith(`${p}/`));
}

/**
 * `agents validate`: checks the working tree or the index, optionally fixes
 * what is safe to fix, and narrows the report to the named paths (siblings
 * are still read, so duplicates across files are found).
 */
export async function runValidate(options: RunValidateOptions, deps: RunValidateDeps): Promise<ValidationResult> {
  if (options.staged && options.fix) {
    throw conflictingOptions(
      '--fix cannot be combined with --staged',
      (agents) => `Fixes change the working tree: run \`${agents} validate --fix\`, then \`git add\` the fixed files.`,
      ['fix', 'staged'],
    );
  }
  // --fix writes: not in a store someone else owns, unless allowed (docs/store-format.md).
  if (options.fix) assertOwnStore(options.store, 'fix files in');
  const only = storePaths(options.store, options.cwd, options.paths);
  let source: TreeSource;
  // The git modules load only for --staged.
  const git = options.staged ? await gitModules() : undefined;
  if (git) {
    const { GitTreeSource, GitError } = git;
    try {
      source = await GitTreeSource.index(options.store);
    } catch (error) {
      if (error instanceof GitError)
        throw new UsageError(
          `--staged needs a git repository: ${error.message}`,
          (await import('../git/caller-env.ts')).namedRepositoryHint() ??
            'Run it inside the repository that holds the store, or drop --staged.',
          undefined,
          error.kind === 'not-a-repo' ? 'not-a-repository' : undefined,
        );
      throw error;
    }
  } else {
    source = new WorkingTreeSource(options.store);
    await refuseSparseStore(
      options.store,
      (agents) => `Check the index, which holds them all, with \`${agents} validate --staged --all-files\``,
    );
  }
  const cache = options.cache
    ? FactsCache.load(cacheFileIn(options.cache.dir, options.staged ?? false), options.cache.build)
    : FactsCache.none();
  const top = repoTop(options.store);
  // Projects' paths and guards' write globs are matched against the repository's files as git lists them (the index
  // with --staged): listed once for both checks.
  let listed: Promise<readonly string[] | undefined> | undefined;
  const repoFiles = (): Promise<readonly string[] | undefined> =>
    (listed ??= (async () => {
      if (top === undefined) return undefined;
      const [{ lsRepoFiles }, { GitError }] = await Promise.all([import('../git/file-listing.ts'), import('../git/repo.ts')]);
      try {
        return await lsRepoFiles(options.store, !options.staged);
      } catch (error) {
        if (error instanceof GitError) return undefined;
        throw error;
      }
    })());
  const changed = options.changed ? new Set(options.changed) : undefined;
  // A changed path inside a folder that is itself at fault (a committed `.lock/x` under a bad `.lock`) takes part in the folder's problem.
  const changedFolders = new Set<string>();
  for (const p of changed ?? []) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) changedFolders.add(p.slice(0, i));
  const touches = (file: string) => changed!.has(file) || changedFolders.has(file);
  // A deletion, config.yaml or the extends lock changes checks of files the commit does not touch: every error then counts.
  const storeWide =
    changed !== undefined && !options.fix && (await (await import('./hook-scope.ts')).changesStoreWideInput(source, changed));
  const now = (deps.clock ?? (() => new Date()))();
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  const storeFolder = storeFolderOf(options.store);
  const shared = {
    cache,
    // --fix amends its report after the checks: what it found is not what the fixed files hold.
    memo: !options.fix,
    repoFiles,
    ...(top === undefined
      ? {}
      : {
          repoFolder: async (path: string) => (await import('../store/atomic-write.ts')).isFolder(top, path),
          repoIgnoresCase: async () => (await import('../git/repo.ts')).ignoresCase(top),
        }),
    ...(storeFolder === undefined ? {} : { storeFolder }),
    now,
    // Hook mode: the checks across files look only at what the changed paths can take part in (docs/validation.md).
    // (--fix acts on the whole report: never narrowed.)
    ...(changed && !options.fix && !storeWide ? { touches } : {}),
    ...(options.jobs !== undefined ? { jobs: options.jobs } : {}),
    ...(options.onTime ? { onTime: options.onTime } : {}),
    ...progress,
  };
  const checkOptions = options.staged
    ? shared
    : {
        ...shared,
        // A lock of another host, or of another pid namespace of this one (another container), names a process not to be looked up here.
        lockHolderAlive: (pid: number, host: string, taken: number, ns: string | undefined, start: number) =>
          host === deps.hostname && samePidNamespace(ns) ? deps.processAlive(pid, taken, start) : undefined,
        lockAge: (path: string) => lockAge(join(options.store, path)),
        temporaryWriter: (path: string) => tempWriterState(join(options.store, path), deps.processAlive),
      };
  // The whole check, policy sources' included: the one run again after a --fix that renamed or locked, so that the
  // fixed store is never called clean while a floor it breaks, or an inherited id it names, goes unread.
  const checkWhole = async (tree: TreeSource): Promise<ValidateReport> => {
    // Policy sources (docs/extends.md): their modules load only for a store that extends one.
    const { extending, locked } = await policyFiles(tree);
    if (!extending && !locked) return checkTree(tree, checkOptions, git?.GitError);
    // config.yaml's extends and the lock, read once (on first ask) for every check of the policy sources.
    const { readExtendsState } = await import('../store/extends.ts');
    let read: ReturnType<typeof readExtendsState> | undefined;
    const extendsState = () => (read ??= readExtendsState(tree));
    const inherited = extending ? (await import('./inherited-keys.ts')).inheritedFacts(options.store, tree, extendsState) : undefined;
    const sourceOptions = inherited
      ? {
          sourceActionIds: (await import('./source-actions.ts')).sourceActionIds(options.store, tree, extendsState),
          inheritedKeys: inherited.keys,
          inheritedTexts: inherited.texts,
          inheritedDigest: inherited.digest,
        }
      : {};
    const checked = await checkTree(tree, { ...checkOptions, ...sourceOptions }, git?.GitError);
    // Floors of the policy sources this store extends, the order config.yaml lists them in, and pins it no longer lists.
    const started = options.onTime ? performance.now() : 0;
    const [{ lockedDiagnostics }, { orderDiagnostics }, { unlistedPinDiagnostics }] = await Promise.all([
      import('./locked.ts'),
      import('./extends-order.ts'),
      import('./unlisted-pins.ts'),
    ]);
    const state = await extendsState();
    const found = [
      ...(await lockedDiagnostics(options.store, tree, state)),
      ...(await orderDiagnostics(options.store, tree, state)),
      ...(await unlistedPinDiagnostics(tree, state)),
    ];
    options.onTime?.('extends', performance.now() - started, started);
    return { ...checked, diagnostics: [...checked.diagnostics, ...found] };
  };
  let report: ValidateReport = await checkWhole(source);
  if (only)
    refuseUnlisted(
      only,
      report.entries.map((e) => e.path),
      options.paths!,
      options.staged ? 'index' : 'working tree',
    );
  let fixes: Fix[] = [];
  if (options.fix && source instanceof WorkingTreeSource) {
    const { applyFixes, reportAfterFixes } = await import('./fix.ts');
    // A rewritten file's facts are known: the same, less the missing modeline, when it had no other finding
    // (otherwise its positions moved: dropped, checked again next time). Amended as each file is written.
    const contentHash = cache.enabled ? (await import('./content-hash.ts')).contentHash : undefined;
    let changedSince = false;
    // PATHS bound what is fixed as well as what is reported (within): a file the user did not name is not changed.
    const fix = (signal?: AbortSignal) =>
      applyFixes(source, report, {
        processAlive: deps.processAlive,
        ...(only ? { within: (file: string) => matches(only, file) } : {}),
        ...(signal ? { signal } : {}),
        ...(deps.notice ? { onStale: deps.notice } : {}),
        onChanged: () => {
          changedSince = true;
        },
        ...(options.onFixProgress ? { onProgress: options.onFixProgress } : {}),
        ...(contentHash
          ? {
              onModeline: (file: string, before: Uint8Array, after: string) =>
                cache.amend(file, contentHash(before), contentHash(Buffer.from(after)), withoutModeline),
            }
          : {}),
      });
    fixes = options.whileFixing ? await options.whileFixing(fix) : await fix();
    // A file whose rename failed at the end keeps its old content: its entry goes, and it is checked next time.
    for (const f of fixes) if (!f.done && f.action === 'add-modeline') cache.forget(f.file);
    // A modeline or an id not added (its file changed since the check) leaves the check's report behind the store: checked again.
    const after = changedSince
      ? undefined
      : fixes.some((f) => f.done || f.action === 'add-modeline')
        ? reportAfterFixes(report, fixes)
        : report;
    report = after ?? (await checkWhole(new WorkingTreeSource(options.store)));
  }
  cache.save();
  // A named file that --fix renamed (or gave an id) is reported under its new name too: its findings and its modeline
  // fix are there, and dropped they would pass the file that still fails.
  const named = only && [...only, ...fixes.filter((f) => f.done && f.to !== undefined && only.includes(f.file)).map((f) => f.to!)];
  const keep = (d: Diagnostic) => !named || matches(named, d.file) || (d.related ?? []).some((r) => matches(named, r.file));
  const takesPart = (d: Diagnostic) =>
    !changed || touches(d.file) || (d.related ?? []).some((r) => touches(r.file)) || (storeWide && d.severity === 'error');
  const diagnostics = report.diagnostics.filter((d) => keep(d) && takesPart(d) && (!changed || options.verbose || d.severity !== 'info'));
  if (named) {
    fixes = fixes.filter((f) => matches(named, f.file));
    report = { ...report, files: report.entries.filter((e) => e.type !== 'dir' && matches(named, e.path)).length };
  }
  // Hook mode: the files the commit changes that the source holds; a deleted one is counted apart, as nothing of it is read.
  let deleted: number | undefined;
  if (changed) {
    // One pass over the entries, the few touched paths looked up: no set of every path of the store.
    const touched = new Set([...changed].filter((p) => !named || matches(named, p)));
    let files = 0;
    for (const e of report.entries) if (e.type !== 'dir' && touched.has(e.path)) files++;
    deleted = touched.size - files;
    report = { ...report, files };
  }
  const counts = countBySeverity(diagnostics);
  const strict = options.strict ?? false;
  return {
    store: options.store,
    source: report.source,
    files: report.files,
    ...(deleted ? { deleted } : {}),
    diagnostics,
    fixes,
    strict,
    ok: counts.error === 0 && (!strict || counts.warning === 0),
    counts,
    displayPrefix: prefixFor(options.cwd, options.store),
    // The store's folder as the repository holds it, for annotations and SARIF (which name a file of the repository's
    // tree): a store named through a link to a folder of the repository is that folder, not the link's path.
    repoPrefix:
      storeFolder === undefined
        ? prefixFor(repoTop(options.store) ?? options.cwd, options.store)
        : storeFolder === ''
          ? ''
          : `${storeFolder}/`,
  };
}

/**
 * The facts of a file once `--fix` has added its modeline: the same less the
 * missing modeline, when that was its only finding; undefined otherwise (its
 * positions moved). The copy lives only until the cache encodes it.
 */
function withoutModeline(f: FileFacts): FileFacts | undefined {
  return f.d === undefined ? { ...f, m: undefined, l: undefined } : undefined;
}

/**
 * Does config.yaml name policy sources, and is there a lock (which may pin sources config.yaml no longer lists)? A
 * cheap look before loading what reads them.
 */
async function policyFiles(source: TreeSource): Promise<{ extending: boolean; locked: boolean }> {
  const files = await source.read(['config.yaml', EXTENDS_LOCK_FILE]);
  const config = files.get('config.yaml');
  const lock = files.get(EXTENDS_LOCK_FILE);
  return {
    extending: config?.ok === true && mayExtend(new TextDecoder().decode(config.bytes)),
    locked: lock !== undefined && (lock.ok || lock.code !== 'missing'),
  };
}

async function gitModules() {
  const [{ GitTreeSource }, { GitError }] = await Promise.all([import('../store/git-source.ts'), import('../git/repo.ts')]);
  return { GitTreeSource, GitError };
}

async function checkTree(
  source: TreeSource,
  options: Parameters<typeof validateTree>[1],
  GitError?: new (...args: never[]) => Error,
): Promise<ValidateReport> {
  try {
    return await validateTree(source, options);
  } catch (error) {
    if (GitError && error instanceof GitError)
      throw new UsageError(
        `git failed while reading the ${source.description}: ${error.message}`,
        'Check the repository with `git status`.',
      );
    throw error;
  }
}
