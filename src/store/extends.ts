// Policy sources on disk (docs/extends.md): the lock file, the cache under the
// git folder, and reading a source's invariants and action templates from it.
// Reading never touches the network; only `fetchPins` (extends-fetch.ts) talks to remotes.
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.ts';
import { AgentsError, type CommandHint, EXIT_CODES, UsageError } from '../core/errors.ts';
import { hideCredentials } from '../core/plain-text.ts';
import { EXTENDS_LOCK_FILE, inheritedPath, sourcePlace, stalePin, type ExtendsLock, type LockEntry } from '../core/extends.ts';
import type { ExtendsSource, Scope, ScopedInvariant } from '../core/model.ts';
import { hasCommit, hasWholeCommit } from '../git/extends.ts';
import { commonGitDir, extendsCacheDir, repoTop } from '../git/location.ts';
import { namedRepositoryHint } from '../git/caller-env.ts';
import { ownBareRepository } from '../git/runner.ts';
import { GitTreeSource } from './git-source.ts';
import { readConfig } from './config.ts';
import { isChecked } from './pin-check.ts';
import { readEntries, readFolders } from './read.ts';
import type { ParseCache } from './parse-cache.ts';
import type { TreeSource } from './tree-source.ts';
import { replaceInStyle } from './atomic-write.ts';

/** config.yaml's sources and the lock, as one tree holds them. */
export interface ExtendsState {
  sources: ExtendsSource[];
  lock?: ExtendsLock;
  diagnostics: Diagnostic[];
}

/** Reads `extends` from config.yaml and `extends.lock.yaml` from one tree (working tree, index or revision). */
export async function readExtendsState(source: TreeSource): Promise<ExtendsState> {
  const { config, diagnostics } = await readConfig(source);
  const top = await source.list('', { recursive: false });
  const entry = top.find((e) => e.path === EXTENDS_LOCK_FILE);
  if (!entry) return { sources: config.extends, diagnostics };
  const snap = await readEntries(source, [entry]);
  const state: ExtendsState = { sources: config.extends, diagnostics: [...diagnostics, ...snap.diagnostics] };
  if (snap.extendsLock) state.lock = snap.extendsLock;
  return state;
}

/** Writes the lock with the project's serializer, atomically, keeping the BOM and CRLF line ends of the lock there. */
export async function writeExtendsLock(storeRoot: string, lock: ExtendsLock): Promise<void> {
  // The serializer (and the yaml package) load only for the command that writes.
  const { formatExtendsLockFile } = await import('../core/serialize.ts');
  // As the store's other files are rewritten: a checkout with CRLF line ends sees only the pins that moved change.
  replaceInStyle(storeRoot, EXTENDS_LOCK_FILE, formatExtendsLockFile(EXTENDS_LOCK_FILE, lock));
}

/** `<git common dir>/agents/extends`: the cache of every source's pinned commits. */
export function cacheRoot(storeRoot: string): string {
  const cache = extendsCacheDir(storeRoot);
  if (cache === undefined)
    throw new UsageError(
      `the store ${storeRoot} extends policy sources but is not in a git repository`,
      // A work tree that GIT_DIR names the repository of (a CI runner's, a bare repository's) has one already: `git
      // init` would make a second there.
      namedRepositoryHint() ?? 'Policy sources are cached under the git folder: run `git init` at the top of the project.',
      undefined,
      'not-a-repository',
    );
  return cache;
}

/** The cache of one source: a bare repository. */
export function sourceCacheDir(storeRoot: string, name: string): string {
  return ownBareRepository(join(cacheRoot(storeRoot), `${name}.git`));
}

/**
 * The folder a relative source path is relative to: the top of the repository's main working tree, which every
 * linked worktree shares with it as it shares the cache (the same config.yaml names the same folder in each);
 * the store's own top when the repository has no main working tree (a bare one).
 */
function urlBase(storeRoot: string): string {
  const common = commonGitDir(storeRoot);
  if (common !== undefined && basename(common) === '.git') return dirname(common);
  return repoTop(storeRoot) ?? storeRoot;
}

/**
 * A URL as git takes it: a relative path is relative to the repository's top folder. git's rule for the
 * scp-like form: a colon before any slash (`host:path`, `user@host:path`, an ssh config alias) names a host,
 * not a folder; a Windows drive (`C:\\…`) is a path.
 */
export function resolveSourceUrl(storeRoot: string, url: string): string {
  const scpLike = /^[^/\\:]+:/.test(url) && !/^[A-Za-z]:[/\\]/.test(url);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || scpLike || isAbsolute(url)) return url;
  return resolve(urlBase(storeRoot), url);
}

/**
 * `error` as said of a revision's pins (`commit`): a pinned commit not in the cache is fetched by `extends fetch
 * --rev`, since `extends fetch` alone fetches the working tree's pins, never a revision's. Any other error is itself.
 */
export function notFetchedAt(error: unknown, commit: string): unknown {
  if (!(error instanceof AgentsError) || error.code !== 'extends-not-fetched') return error;
  return new AgentsError(error.message, error.exitCode, {
    hint: (agents) => `Run \`${agents} extends fetch --rev ${commit.slice(0, 12)}\` (it fetches that revision's pinned commits).`,
    code: 'extends-not-fetched',
    detail: error.detail,
  });
}

/**
 * The pin of each configured source, or the reason the lock must be updated first (exit 2). `skipUnpinned`: a
 * source without a pin that matches it is left out instead, as a revision's side of `invariant diff` reads it
 * (history cannot be updated); a function given there is told each one left out and why, which the diff says.
 */
export function pinsFor(
  state: ExtendsState,
  only?: readonly string[],
  skipUnpinned: boolean | ((name: string, why: string) => void) = false,
): { source: ExtendsSource; pin: LockEntry }[] {
  const out: { source: ExtendsSource; pin: LockEntry }[] = [];
  for (const source of state.sources) {
    if (only && !only.includes(source.name)) continue;
    const pin = state.lock?.sources.find((p) => p.name === source.name);
    const stale = stalePin(source, pin);
    if (stale === undefined && pin) {
      out.push({ source, pin });
      continue;
    }
    const why = stale?.message ?? `no pin for ${source.name}`;
    if (skipUnpinned !== false) {
      if (typeof skipUnpinned === 'function') skipUnpinned(source.name, why);
      continue;
    }
    // Named at the entry's key that differs from the pin (the entry itself when there is no pin), as config.yaml's
    // other errors are: a config.yaml of several sources says which one.
    const place = sourcePlace(source, stale?.key ?? 'entry');
    throw new AgentsError(place ? `${why} (${place.where})` : why, EXIT_CODES.usage, {
      hint: (agents) => `Run \`${agents} extends update\` to pin it, then \`${agents} extends fetch\` in other clones.`,
      code: 'extends-not-pinned',
      detail: { source: source.name, file: place?.detail.file ?? null, line: place?.detail.line ?? null, col: place?.detail.col ?? null },
    });
  }
  return out;
}

/**
 * Refuses a pin of the working tree's or the index's lock that `extends fetch` (or `update`) never checked against its
 * ref in this clone (exit 2, `extends-not-fetched`): a lock edited by hand to another commit the cache holds (an earlier
 * pin of a tag that has moved on) would otherwise be read as it says, by every reader, with no fetch run to refuse it;
 * staged, it would pass the commit's own check. A pin by commit id names itself. Revisions are history or a review,
 * read as pinned.
 */
export function requireChecked<T extends { source: ExtendsSource; pin: LockEntry }>(storeRoot: string, tree: TreeSource, pins: T[]): T[] {
  const index = tree instanceof GitTreeSource && tree.isIndex;
  if (tree.blobIds !== undefined && !index) return pins;
  for (const { source, pin } of pins) {
    const dir = sourceCacheDir(storeRoot, source.name);
    // A source with no cache at all is said by its reader, as not fetched; the index's, whose fetch needs the staged
    // lock in the working tree, here.
    if (pin.kind === 'commit' || (!index && !existsSync(dir)) || isChecked(dir, pin)) continue;
    const where = index ? ' in the index' : '';
    throw new AgentsError(
      `the pin of the policy source ${source.name}${where} (${pin.kind} ${pin.ref} at ${pin.commit.slice(0, 12)}) was never checked against its ref in this clone`,
      EXIT_CODES.usage,
      {
        hint: (agents) =>
          `Run \`${agents} extends fetch\`${index ? ' with the staged extends.lock.yaml in the working tree' : ''}: it checks that the ref names that commit at the source (a lock edited by hand is refused there), then reads it from the cache.`,
        code: 'extends-not-fetched',
        detail: { source: source.name, commit: pin.commit },
      },
    );
  }
  return pins;
}

function notFetched(source: string, commit: string, damaged = false): AgentsError {
  const where = damaged ? 'is not whole in the cache (an object of its tree is missing or damaged)' : 'is not in the cache';
  return new AgentsError(`the pinned commit ${commit.slice(0, 12)} of the policy source ${source} ${where}`, EXIT_CODES.usage, {
    // Said alike by readers and writers, the commands that only read among them: a writer refused here is exit 2,
    // which writes nothing (docs/json-output.md), so the hint leaves "nothing was written" to the exit code.
    hint: (agents) => `Run \`${agents} extends fetch\` (it fetches exactly the pinned commits).`,
    code: 'extends-not-fetched',
    detail: { source, commit },
  });
}

/** The folders of a source's store that are read; everything else is ignored (docs/extends.md, "Safety"). */
export const READ_FROM_SOURCE = new Set(['global', 'actions']);

/**
 * A source whose `path` holds no store at the pin (exit 2): a mistyped `path:` must not read as a source that
 * holds nothing, which would drop every inherited invariant, a locked floor too, in silence.
 */
export function noStore(source: ExtendsSource, commit: string): AgentsError {
  // At `path:` in config.yaml (the entry, when it names none): the key to set.
  const place = sourcePlace(source, 'path');
  return new AgentsError(
    `the policy source ${source.name} has no store in the folder ${source.path} at ${commit.slice(0, 12)} (neither global/ nor actions/)${place ? ` (${place.where})` : ''}`,
    EXIT_CODES.usage,
    {
      hint: (agents) =>
        `Set \`path:\` of the source in config.yaml to the folder of its store (default .agents), then run \`${agents} extends update\`.`,
      code: 'extends-no-store',
      detail: { source: source.name, path: source.path, commit, ...(place?.detail ?? { file: null, line: null, col: null }) },
    },
  );
}

/** Whether a source's store folder, as listed at its top, holds what is read from a source. */
export function holdsStore(names: readonly string[]): boolean {
  return names.some((n) => READ_FROM_SOURCE.has(n));
}

/**
 * The source's store at its pinned commit, read from the cache (no network).
 * With `parseCache`, its files' parses are kept by blob id (ADR 0503).
 */
export async function sourceTree(
  storeRoot: string,
  source: ExtendsSource,
  commit: string,
  parseCache?: ParseCache,
): Promise<GitTreeSource> {
  const dir = sourceCacheDir(storeRoot, source.name);
  if (!existsSync(dir)) throw notFetched(source.name, commit);
  const keep = parseCache && { cache: parseCache, prefix: `extends/${source.name}/` };
  return GitTreeSource.atCommit(join(dir, source.path), dir, commit, `${source.name}@${commit.slice(0, 12)}`, keep);
}

/** What to do about an invalid file of a policy source: it is not this repository's to fix (docs/extends.md, "Safety"). */
export const SOURCE_FILE_HINT: CommandHint = (agents) =>
  `The file is in a policy source, not in this repository: fix it in the source's repository and pin the fixed commit (\`${agents} extends update\`), or pin another ref in config.yaml.`;

/** What to do about config.yaml or the lock as a revision holds them: history, which a commit fixes, not the working tree. */
export const REVISION_FILE_HINT: CommandHint = (agents) =>
  `The file is invalid in that revision, not necessarily in the working tree: give another revision, or fix the file and commit it (\`${agents} validate\` checks the working tree's).`;

/**
 * A problem of a source's file as this store says it: the file named under `extends/<source>/`, the source named
 * (`source`), and the file's own hint (a guessed key, the YAML to write), then that the fix is made in the source's
 * repository, not in this one. `at`: the source's URL and pinned commit, when known.
 */
export function sourceDiagnostic(d: Diagnostic, source: string, at?: string): Diagnostic {
  const where = `This file is in the policy source ${source}${at === undefined ? '' : ` (${at})`}: fix it in that repository and pin the fixed commit (\`agents extends update\`), or pin another ref.`;
  return Object.assign({}, d, { file: inheritedPath(source, d.file), hint: d.hint ? `${d.hint} ${where}` : where, source });
}

/** Inherited invariants and the problems met reading them; their paths are `extends/<source>/global/<id>.yaml`. */
export interface Inherited {
  invariants: ScopedInvariant[];
  diagnostics: Diagnostic[];
}

/** Reads the `global/` folder of each pinned source from the cache. A missing commit is exit 2 naming `agents extends fetch`. */
export async function readInherited(
  storeRoot: string,
  pins: readonly { source: ExtendsSource; pin: LockEntry }[],
  /** Keeps the sources' parses by blob id (the store's own cache). */
  parseCache?: ParseCache,
): Promise<Inherited> {
  const out: Inherited = { invariants: [], diagnostics: [] };
  for (const [order, { source, pin }] of pins.entries()) {
    const tree = await sourceTree(storeRoot, source, pin.commit, parseCache);
    let snap: Awaited<ReturnType<typeof readFolders>>;
    let top: string[];
    try {
      snap = await readFolders(tree, ['global']);
      // The same listing as the read: no more git processes.
      top = (await tree.list('', { recursive: false })).filter((e) => e.type === 'dir').map((e) => e.path);
    } catch (error) {
      if (!(await hasCommit(sourceCacheDir(storeRoot, source.name), pin.commit))) throw notFetched(source.name, pin.commit);
      throw error;
    }
    if (!holdsStore(top)) {
      if (!(await hasCommit(sourceCacheDir(storeRoot, source.name), pin.commit))) throw notFetched(source.name, pin.commit);
      throw noStore(source, pin.commit);
    }
    // A file the cache cannot give is the cache's fault, not the source's: fetching again mends it.
    // A file whose object git cannot give whole (cut short on disk, which git still counts as there) is the cache's too.
    if (
      snap.diagnostics.some((d) => d.code === 'file-unreadable') ||
      (snap.diagnostics.length > 0 && !(await hasWholeCommit(sourceCacheDir(storeRoot, source.name), pin.commit)))
    )
      throw notFetched(source.name, pin.commit, true);
    const scope: Scope = Object.freeze({ kind: 'inherited', source: source.name, order });
    // Object.assign, not a spread: a spread of invariants of several shapes gives each copy a
    // hidden class of its own in V8 (docs/adr/0071-bounded-memory.md).
    for (const inv of snap.invariants) out.invariants.push(Object.assign({}, inv, { scope, path: inheritedPath(source.name, inv.path) }));
    const at = `${hideCredentials(source.url)} at ${pin.commit.slice(0, 12)}`;
    for (const d of snap.diagnostics) out.diagnostics.push(sourceDiagnostic(d, source.name, at));
  }
  return out;
}
