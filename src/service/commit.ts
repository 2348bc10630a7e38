import { relative, sep } from 'node:path';
import { AgentsError, EXIT_CODES, UsageError } from '../core/errors.ts';
import { optionalBoolean } from '../core/input-shape.ts';
import { shellPath, shellWord } from '../core/shell-word.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { type CommitOption, LIBRARY_OPTION } from './option-words.ts';

/** What a writing use case hands back to be committed. */
export interface Written<T> {
  value: T;
  /** Store-relative paths the command wrote or deleted (a folder, ending in `/`, stands for every file in it but locks). */
  paths: string[];
  /** The commit message: `invariant: add 01J… to project myapp`, then an optional body. */
  message: string;
}

/**
 * The words of a commit's refusals for a write whose caller gave `flag`: its option's when it asked for the commit,
 * config.yaml's `commit: true` when it left the choice to it, where leaving the option out is no way around it.
 * @internal
 */
export function commitOptionFor(option: CommitOption | undefined, flag: boolean | undefined): CommitOption {
  const own = option ?? LIBRARY_OPTION;
  if (flag !== undefined && flag !== null) return own;
  return { ...own, name: "config.yaml's commit: true", without: `${own.off} (or set commit: false in config.yaml)` };
}

/** The result of a writing use case run through {@link withCommit}. */
export type Committed<T> = T & { commit?: string };

/**
 * Whether a command commits its change: its own `--commit`/`--no-commit` when
 * given, else `commit:` in config.yaml (docs/store-format.md), else false.
 */
export async function commitWanted(source: TreeSource, flag: boolean | undefined): Promise<boolean> {
  const given = optionalBoolean(flag, 'commit');
  if (given !== undefined) return given;
  // Loaded here, not at start-up: only commands that write get this far.
  const { loadConfig } = await import('../store/config.ts');
  // A config.yaml that cannot be read (a FIFO, a folder, a link…) or is invalid is not silently taken for the defaults.
  return (await loadConfig(source)).commit;
}

/** What a locked write needs of the service it runs in. */
export interface WriteContext {
  readonly root: string;
  readonly source: TreeSource;
  readonly deps: { notice: (message: string) => void };
  /** What a refusal of the commit calls the option (OptionWords' commit): the library's `commit: true` when left out. @internal */
  readonly optionWords?: { readonly commit: CommitOption } | undefined;
}

/**
 * The one route of a use case that writes scope folders: `locked` runs under
 * the locks of `folders` (taken in sorted order, so two writers never wait on
 * each other), reads again what it needs and writes (told which of the folders
had to be made for their lock: a scope removed meanwhile); `written` then says what
 * was written, once the locks are released; and when `commit` (the command's
 * flag, else `commit:` in config.yaml) says so, exactly those files are
 * committed ({@link withCommit}). An aborted `signal` ends a wait for another writer's lock, nothing written.
 */
export async function lockedWrite<L, T extends object>(
  ctx: WriteContext,
  options: { folders: readonly string[]; commit: boolean | undefined; signal?: AbortSignal | undefined },
  locked: (made: ReadonlySet<string>) => Promise<L>,
  written: (value: L) => Promise<Written<T>> | Written<T>,
): Promise<Committed<T>> {
  const enabled = await commitWanted(ctx.source, options.commit);
  const { withFolderLocks } = await import('../store/lock.ts');
  const { notice } = ctx.deps;
  const signal = options.signal ? { signal: options.signal } : {};
  return withCommit(
    ctx.root,
    enabled,
    async () => written(await withFolderLocks(ctx.root, options.folders, locked, { notice, ...signal })),
    { notice, option: commitOptionFor(ctx.optionWords?.commit, options.commit), ...signal },
  );
}

/**
 * Runs a writing use case and, when `enabled`, commits exactly the files it
 * wrote or deleted (docs/store-format.md, `--commit`). Before anything is written it checks
 * that the store is in a git repository and that nothing else is staged, so a
 * refusal changes nothing. One line for a caller:
 *
 *     return withCommit(root, enabled, async () => ({ value, paths, message }));
 *
 * The library exports the checked one (checked-functions.ts). @internal
 */
export async function withCommit<T extends object>(
  root: string,
  enabled: boolean,
  write: () => Promise<Written<T>>,
  options: { notice?: (message: string) => void; option?: CommitOption | undefined; signal?: AbortSignal } = {},
): Promise<Committed<T>> {
  if (!enabled) return (await write()).value;
  const option = options.option ?? LIBRARY_OPTION;
  const git = await import('../git/commit.ts');
  const { topLevel, GitError } = await import('../git/repo.ts');
  let top: string;
  try {
    top = await topLevel(root);
  } catch (error) {
    if (error instanceof GitError)
      throw new UsageError(
        `${option.name} needs a git repository, and ${root} is not in one`,
        (await import('../git/caller-env.ts')).namedRepositoryHint() ?? `Run \`git init\` first, or ${option.without}.`,
        undefined,
        'not-a-repository',
      );
    throw error;
  }
  const [{ withFolderLock }, { storePrefix }] = await Promise.all([import('../store/lock.ts'), import('./review/ranges.ts')]);
  const prefix = storePrefix(root, top);
  // One committing command of the store at a time, from its check of what is staged to its commit: another one's
  // file staged meanwhile would be refused as "other changes", git's own index lock would fail the second commit
  // outright, and the id read after the commit could be the other command's. The lock is the store's own `.lock`
  // (beside the scopes' locks, which readers skip), not one in git's folder, which may belong to someone else.
  return withFolderLock(root, '', () => commitWritten(root, top, prefix, git, write, option, options.notice), {
    label: prefix || '.',
    ...(options.notice ? { notice: options.notice } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** withCommit's work once it holds the repository's commit lock. */
async function commitWritten<T extends object>(
  /** The store's folder. */
  root: string,
  top: string,
  /** The store's path in the repository ('' at its top), through its real folder (storePrefix). */
  prefix: string,
  git: typeof import('../git/commit.ts'),
  write: () => Promise<Written<T>>,
  option: CommitOption,
  notice?: (message: string) => void,
): Promise<Committed<T>> {
  // Three questions to git, asked together: whether it ignores the store folder (then nothing in it can be committed),
  // what is staged already, and whether it knows who commits. Each refuses before anything is written.
  const [ignored, staged, noIdentity] = await Promise.all([
    git.folderIgnored(top, prefix === '' ? top : `${top}/${prefix}`),
    git.stagedPaths(top),
    import('../git/identity.ts').then((m) => m.missingIdentity(top)),
  ]);
  const underway = git.operationInProgress(top);
  if (underway)
    throw new UsageError(
      `${option.name} refused: a ${underway.operation} is under way in ${top} (${underway.file}), and git commits no chosen files alone during one`,
      `Nothing was written. Finish it (\`git commit\`) or abort it (\`git ${underway.operation} --abort\`) first, or ${option.without}.`,
      { operation: underway.operation },
    );
  if (noIdentity !== undefined)
    throw new UsageError(
      `${option.name} refused: git knows no identity to commit with (${noIdentity})`,
      `Nothing was written. Tell git who you are: \`git config --global user.name "Your Name"\` and \`git config --global user.email you@example.com\` (or leave out --global for this repository alone), or ${option.without}.`,
      { git: noIdentity },
      'no-git-identity',
    );
  if (ignored)
    throw new UsageError(
      `${option.name} refused: git ignores the store folder ${ignored.path} (${ignored.rule}), so nothing in it can be committed`,
      `Nothing was written. Remove that rule, so that git keeps the store, or ${option.without}.`,
      { ignored: [ignored] },
    );
  if (staged.length > 0) {
    // Staged by a rebase that stopped (on a conflict, say): unstaging its files would lose its work, not make room.
    const rebase = git.rebaseInProgress(top);
    if (rebase)
      throw new UsageError(
        `${option.name} refused: a ${rebase.operation} is under way in ${top} (${rebase.file}) and has staged the commit it stopped at, which this command's commit must not take in`,
        `Nothing was written. Finish it (resolve any conflict, \`git add\` the files, then \`git ${rebase.operation} --continue\`) or abort it (\`git ${rebase.operation} --abort\`) first, or ${option.without}.`,
        { operation: rebase.operation, staged },
      );
    const list = staged
      .slice(0, 10)
      .map((p) => `  ${p}`)
      .join('\n');
    throw new UsageError(
      `${option.name} refused: other changes are already staged, and the commit must hold only this command's files:\n${list}${staged.length > 10 ? `\n  … and ${staged.length - 10} more` : ''}`,
      `Nothing was written. Commit or unstage them first (\`git commit\`, or \`git restore --staged PATH\`), or ${option.without}.`,
      { staged },
    );
  }
  // A commit git cannot make (its folder read-only, or owned by another user) would fail once the change is written.
  const unwritable = git.unwritableGitFolder(top);
  if (unwritable)
    throw new AgentsError(
      `${option.name} refused: git cannot write in ${unwritable.folder} (${unwritable.code === 'EROFS' ? 'the file system is read-only' : unwritable.code === 'EACCES' || unwritable.code === 'EPERM' ? 'permission denied' : unwritable.code}), so no commit can be made`,
      EXIT_CODES.usage,
      {
        hint: `Nothing was written. Make ${unwritable.folder} writable by this user (one a \`sudo git\` left owned by root: \`sudo chown -R "$USER" ${shellPath(unwritable.folder)}\`), or ${option.without}.`,
        code: 'write-failed',
        detail: { path: unwritable.folder },
      },
    );
  // git's index lock, held by another git (an IDE refreshing its status, say), is waited on as the store's own lock
  // is: a commit tried while it is there would fail with the change already written.
  const { lockTimeoutFromEnv, waitNotice } = await import('../store/lock.ts');
  const waitMs = lockTimeoutFromEnv();
  const deadline = Date.now() + waitMs;
  // A wait that lasts is said once, as a scope lock's is: a stale index.lock of a git that crashed makes it last.
  const waiting = waitNotice((lock: string) =>
    notice?.(
      `waiting for ${relative(top, lock).split(sep).join('/')}, git's index lock, held by another git process; gives up after ${waitMs} ms (AGENTS_LOCK_TIMEOUT_MS)`,
    ),
  );
  const held = await indexLockAfterWait(top, git, deadline, waiting);
  if (held !== undefined) {
    const lock = relative(top, held).split(sep).join('/');
    throw new AgentsError(
      `${option.name} refused: git's index is locked by another process (${lock}); gave up after ${waitMs} ms`,
      EXIT_CODES.usage,
      {
        hint: `Nothing was written. Try again when the other git process (an editor's or IDE's git, another git command) has finished; if none is running, one crashed: delete ${lock}, as git says. AGENTS_LOCK_TIMEOUT_MS sets the wait.`,
        hintAnySurface: true,
        code: 'locked',
        detail: { lock, pid: null, host: null, waited_ms: waitMs, elsewhere: false },
      },
    );
  }
  const done = await write();
  // A use case that ended up changing nothing (an edit to the values already there) commits nothing.
  if (done.paths.length === 0) return done.value;
  const repoPaths = done.paths.map((p) => (prefix === '' ? p : `${prefix}/${p}`));
  try {
    let commit: Awaited<ReturnType<typeof git.commitPaths>>;
    for (;;) {
      try {
        commit = await git.commitPaths(top, repoPaths, done.message);
        break;
      } catch (error) {
        // Another process took git's index lock after the check: git failed before it changed anything, so the
        // commit is tried again once the lock is gone, within the same wait.
        if (!(error instanceof git.CommitError) || git.heldIndexLock(top) === undefined || Date.now() >= deadline) throw error;
        if ((await indexLockAfterWait(top, git, deadline, waiting)) !== undefined) throw error;
      }
    }
    // None of them a change git can record (a file it never had, removed): nothing to commit.
    if (commit === undefined) return done.value;
    // As git itself warns: a commit no branch holds is left behind by the next checkout.
    if (commit.detached)
      notice?.(
        `committed ${commit.id.slice(0, 12)} on a detached HEAD: no branch holds it; \`git switch -c NAME\` keeps it on a new branch`,
      );
    return { ...done.value, commit: commit.id };
  } catch (error) {
    const staged = error instanceof git.CommitError && error.staged;
    // git names only the first ignore rule it meets, and not in a form a script can read.
    const ignored = staged ? [] : await git.ignoredPaths(top, repoPaths).catch(() => []);
    const why =
      ignored.length > 0
        ? `git ignores ${ignored.map((i) => `${i.path} (${i.rule})`).join(', ')}`
        : error instanceof Error
          ? error.message
          : String(error);
    // The export-check hook refuses every such commit while the exported files are stale: the way on is said whole.
    const exports = staged && option.staleExports ? [...(await option.staleExports(root))] : [];
    throw new AgentsError(`the change was written, but git commit failed: ${why}`, EXIT_CODES.checkFailed, {
      hint:
        exports.length > 0
          ? await exportsHint(top, prefix, repoPaths, exports, done.message)
          : staged
            ? `The files are staged (${repoPaths.join(', ')}); fix what git or its hooks reported, then run \`git commit\`.`
            : `The files are written, not staged (${repoPaths.join(', ')}); fix what git reported, then \`git add\` and commit them.`,
      detail: { paths: repoPaths, staged, ...(ignored.length > 0 ? { ignored } : {}), ...(exports.length > 0 ? { exports } : {}) },
    });
  }
}

/**
 * The hint of a commit the export-check hook refused: the files `agents export` writes are committed with the change
 * (the hook checks the working tree, so exporting without staging them would pass it and leave them out).
 */
async function exportsHint(
  top: string,
  prefix: string,
  repoPaths: readonly string[],
  exports: readonly string[],
  message: string,
): Promise<string> {
  // The store and the files are named from the top, which a command run in a folder below it must go to first.
  const [{ runCwd }, { realPath }] = await Promise.all([import('../git/run-environment.ts'), import('../git/location.ts')]);
  const cd = realPath(runCwd()) === realPath(top) ? '' : `cd ${shellPath(top)} && `;
  const store = prefix === '.agents' ? '' : ` --store ${shellPath(prefix || '.')}`;
  const files = exports.map(shellPath).join(' ');
  const subject = message.split('\n')[0] ?? message;
  return `The files are staged (${repoPaths.join(', ')}); the pre-commit hook checks the exported files, and these are out of date with the change: ${exports.join(', ')}. Run \`${cd}agents export${store} && git add -- ${files} && git commit -m ${shellWord(subject)}\`.`;
}

/** Waits, as for the store's own lock, until no process holds git's index lock: the lock still held at `deadline`, else undefined. */
async function indexLockAfterWait(
  top: string,
  git: typeof import('../git/commit.ts'),
  deadline: number,
  waiting: (lock: string) => void,
): Promise<string | undefined> {
  let delay = 2;
  for (;;) {
    const held = git.heldIndexLock(top);
    if (held === undefined || Date.now() >= deadline) return held;
    waiting(held);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 50);
  }
}
