// `agents extends fetch` and `agents extends update` (docs/extends.md).
import { AgentsError, EXIT_CODES, UsageError } from '../core/errors.ts';
import { allTargets, diffInvariantFiles, diffStores, targetChanged, type StoreDiff, type TargetRef } from '../core/diff.ts';
import {
  DEFAULT_SOURCE_PATH,
  isCommitId,
  listedIndex,
  unlistedPins,
  sourceOfPin,
  type ExtendsLock,
  type LockEntry,
  type RefKind,
} from '../core/extends.ts';
import type { ExtendsSource, ScopedInvariant } from '../core/model.ts';
import { closestNames } from '../core/closest.ts';
import { truncate } from '../core/names.ts';
import { quoteText } from '../core/plain-text.ts';
import { GitError, resolveCommit } from '../git/repo.ts';
import { lsRemote } from '../git/extends.ts';
import { deletedRef, unknownRef } from '../store/ref-refusals.ts';
import {
  pinsFor,
  readExtendsState,
  readInherited,
  resolveSourceUrl,
  REVISION_FILE_HINT,
  SOURCE_FILE_HINT,
  writeExtendsLock,
  type ExtendsState,
} from '../store/extends.ts';
import { fetchPins, rememberPins, withSourcesLock, type FetchOutcome } from '../store/extends-fetch.ts';
import { GitTreeSource } from '../store/git-source.ts';
import { optionWords } from './option-words.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { readStore } from '../store/read.ts';
import { requireValid, type InvariantService } from './invariant-service.ts';
import { pinnedTemplates } from './invariants/source-actions.ts';
import { emptySnapshot } from '../store/read.ts';
import { docsRef } from '../core/docs-link.ts';
import { gitFailure } from './review/ranges.ts';

/** One side of a move, as `invariant diff` names its sides. */
export interface MoveSide {
  label: string;
  kind: 'revision';
  commit?: string;
}

/** What `extends update` changed for one source: the pins, and the report of `invariant diff` for the move. */
export interface SourceMove {
  name: string;
  before?: LockEntry;
  /** Absent for a source the lock pinned and config.yaml no longer names: it leaves with this update. */
  after?: LockEntry;
  /** The tag pinned before names another commit now (force-pushed at the source), or is gone and its name is a branch's. */
  movedTag: boolean;
  /** The commit pinned before is not at the source any more (a branch force-pushed): the report reads the move as a first pin. */
  beforeGone: boolean;
  diff: StoreDiff & { range: string; before: MoveSide; after: MoveSide; changedPaths: string[] };
}

export interface UpdateResult {
  moves: SourceMove[];
  /** Whether the lock was written (false for --dry-run, or when a moved tag was refused). */
  written: boolean;
  fetched: FetchOutcome[];
}

function side(name: string, pin: LockEntry | undefined, none = 'not pinned'): MoveSide {
  if (!pin) return { label: `${name} (${none})`, kind: 'revision' };
  // The commit is shown beside the label by the diff's formatters.
  const ref = pin.kind === 'commit' ? pin.commit.slice(0, 12) : pin.ref;
  return { label: `${name}@${ref}`, kind: 'revision', commit: pin.commit };
}

/** A source as the lock pinned it, for a source config.yaml no longer names. */
function pinnedSource(pin: LockEntry): ExtendsSource {
  return sourceOfPin({ name: pin.name, url: pin.url, ref: pin.ref, path: DEFAULT_SOURCE_PATH }, pin);
}

/**
 * The store as a revision holds it; a revision git does not know is a usage error (exit 2). `top`: the repository's,
 * given when the working tree no longer holds the store folder to run git in.
 */
async function revisionTree(root: string, rev: string, top?: string): Promise<GitTreeSource> {
  // A range names two sides, which git would read as one revision it does not have: say what is wrong instead.
  const range = /^(.*?)(\.\.\.?)(.*)$/.exec(rev);
  if (range) {
    const [from, to] = [range[1] || 'HEAD', range[3] || 'HEAD'];
    // `A...B` compares B with the merge base of A and B: that is the base side whose pins the diff reads.
    const base = range[2] === '...' ? `$(git merge-base ${from} ${to})` : from;
    throw new UsageError(
      `--rev takes one revision, not the range ${rev}`,
      `Fetch each side the diff reads, one run each: --rev ${base}, then --rev ${to} (or no --rev for the working tree).`,
    );
  }
  try {
    return top === undefined
      ? await GitTreeSource.revision(root, rev)
      : await GitTreeSource.atCommit(root, top, await resolveCommit(top, rev), rev);
  } catch (error) {
    // As `invariant diff` says it of the same revision: the command that fetches it into a shallow clone, and git's
    // own refusals (a repository another user owns, a partial clone's remote out of reach) with their codes.
    return gitFailure(error);
  }
}

/** The sources and pins a tree's config.yaml and lock hold, refused when invalid or when they name no source. */
async function readState(tree: TreeSource, rev: string | undefined, removing = false): Promise<ExtendsState> {
  const state = await readExtendsState(tree);
  // A revision's files are history: the working tree's may be fixed already, so the message names the revision.
  requireValid(
    { ...emptySnapshot(), diagnostics: state.diagnostics },
    rev === undefined ? 'read config.yaml and extends.lock.yaml' : `read config.yaml and extends.lock.yaml at the revision ${rev}`,
    rev === undefined ? undefined : REVISION_FILE_HINT,
  );
  if (state.sources.length === 0 && !(removing && (state.lock?.sources.length ?? 0) > 0))
    throw new UsageError(
      'config.yaml has no `extends`: this store inherits from no policy source',
      `Add a source to \`extends\` (${docsRef('extends.md')}).`,
    );
  return state;
}

/** The sources `names` picks (all when none), each named one checked to be a source. */
function selectSources(state: ExtendsState, names: readonly string[]): ExtendsSource[] {
  for (const n of names) {
    if (!state.sources.some((s) => s.name === n)) {
      const known = state.sources.map((s) => s.name);
      const near = closestNames(n, known);
      // Quoted, so that an empty name (`"$SOURCE"` of an unset variable) is seen as one.
      throw new UsageError(
        `no policy source is named ${quoteText(truncate(n))}`,
        `Sources: ${known.join(', ')}${near.length ? ` (did you mean ${near[0]}?)` : ''}.`,
        { source: n, suggestions: near, known },
      );
    }
  }
  return names.length === 0 ? state.sources : state.sources.filter((s) => names.includes(s.name));
}

/**
 * Fetches exactly the pinned commits into the cache (docs/extends.md); with `rev`, those of that revision's lock.
 * `tree` holds the config.yaml and lock to read; `top` is given when only the revision holds the store.
 */
async function fetchSources(
  root: string,
  names: readonly string[],
  signal: AbortSignal | undefined,
  rev: string | undefined,
  tree: TreeSource,
  top?: string,
  notice?: (message: string) => void,
  update = 'agents extends update',
): Promise<FetchOutcome[]> {
  // A store that extends nothing has nothing to fetch, a revision from before it extended anything or a lock left
  // after its last source went (a CI step runs for every pull request, one that drops `extends` too).
  if (names.length === 0) {
    const state = await readExtendsState(tree);
    if (rev === undefined && state.diagnostics.length === 0) leftPins(state, update, notice);
    if (state.sources.length === 0 && state.diagnostics.length === 0) return [];
  }
  const read = await readState(tree, rev);
  const wanted = selectSources(read, names).map((s) => s.name);
  // A revision's source with no pin that matches it is not read by `invariant diff` of that side, which the
  // fetch serves; refusing it would stop every CI run on a base that cannot be changed. One named is refused.
  // The cache and the URLs are the repository's, found from its top as from the store: git runs there when the store
  // folder is gone. A revision's pins are history the diff reads for that side, as an update's previous pins are: a
  // tag moved or a branch force-pushed since would otherwise stop the review of the pull request that follows it.
  const previous = rev !== undefined;
  const outcomes = await fetchPins(top ?? root, pinsFor(read, wanted, rev !== undefined && names.length === 0), {
    signal,
    previous,
    ...(notice ? { notice } : {}),
  });
  return unlisted(outcomes, read.sources);
}

/**
 * Says the pins the working tree's lock keeps for sources config.yaml's extends no longer lists: nothing reads them,
 * and `extends update` removes them, but a source taken out of extends without it leaves the lock saying more than
 * is inherited, in silence.
 */
function leftPins(state: ExtendsState, update: string, notice?: (message: string) => void): void {
  const left = unlistedPins(state.sources, state.lock).map((p) => p.name);
  if (left.length > 0)
    notice?.(
      `extends.lock.yaml still pins ${left.join(', ')}, which config.yaml's extends no longer lists: run \`${update}\` to remove ${left.length === 1 ? 'that pin' : 'those pins'}.`,
    );
}

/**
 * Keeps, of the sources each fetched source pins itself, those config.yaml does not list (by name or URL): only
 * those are missing from the inherited set, and a consumer that lists them already needs no word of them.
 */
function unlisted(outcomes: FetchOutcome[], sources: readonly ExtendsSource[]): FetchOutcome[] {
  return outcomes.map((o) => ({ ...o, extends: o.extends.filter((e) => listedIndex(sources, e) < 0) }));
}

export class ExtendsService {
  constructor(private readonly invariants: InvariantService) {}

  private get root(): string {
    return this.invariants.root;
  }

  /** `removing`: an update, which takes a config.yaml with no source left while the lock still pins one, to unpin it. */
  private async state(rev?: string, removing = false): Promise<ExtendsState> {
    return readState(await this.tree(rev), rev, removing);
  }

  /** The working tree's files, or a revision's (`fetch --rev`): what `invariant diff` of that side reads. */
  private async tree(rev?: string): Promise<TreeSource> {
    return rev === undefined ? this.invariants.source : await revisionTree(this.root, rev);
  }

  /**
   * Fetches exactly the pinned commits into the cache (docs/extends.md); with `rev`, those of that revision's lock.
   */
  async fetch(names: readonly string[] = [], signal?: AbortSignal, rev?: string): Promise<FetchOutcome[]> {
    const update = optionWords(this.invariants.optionWords).calls.extendsUpdate;
    return fetchSources(this.root, names, signal, rev, await this.tree(rev), undefined, this.invariants.deps.notice, update);
  }

  /**
   * `fetch --rev` where the working tree no longer holds the store (a pull request that removes it): the revision's
   * store at `root`, the place it had, in the repository at `top`, as invariant diff reads that side. A revision that
   * holds nothing there either is refused with `error`, the search's own.
   */
  static async fetchAtRevision(
    at: { root: string; top: string; error: Error },
    names: readonly string[],
    signal: AbortSignal | undefined,
    rev: string,
    notice?: (message: string) => void,
  ): Promise<FetchOutcome[]> {
    const tree = await revisionTree(at.root, rev, at.top);
    if ((await tree.list('')).length === 0) throw at.error;
    return fetchSources(at.root, names, signal, rev, tree, at.top, notice);
  }

  /**
   * Moves the pins of the named sources (all by default) to what their refs
   * name now, fetches the new commits, and reports what each move changes in
   * every project's effective set. A tag that names another commit than when
   * it was pinned is refused (exit 1, nothing written) unless `acceptMovedTag`.
   */
  async update(
    names: readonly string[] = [],
    options: { acceptMovedTag?: boolean; dryRun?: boolean; signal?: AbortSignal } = {},
  ): Promise<UpdateResult> {
    // An invalid config.yaml or a misspelt SOURCE is said first, as a store outside git (no cache, no lock) says them.
    selectSources(await this.state(undefined, true), names);
    // From the read of the lock to its write: another update meanwhile would have its pins written over by this one's.
    return withSourcesLock(this.root, () => this.updateLocked(names, options), options.signal, this.invariants.deps.notice);
  }

  private async updateLocked(
    names: readonly string[],
    options: { acceptMovedTag?: boolean; dryRun?: boolean; signal?: AbortSignal },
  ): Promise<UpdateResult> {
    const state = await this.state(undefined, true);
    const chosen = selectSources(state, names);
    // The lock's pins of sources config.yaml no longer names leave the lock: their leaving is reported too.
    const removed = unlistedPins(state.sources, state.lock).map((p) => state.lock!.sources[p.index]!);
    const newPins = new Map<string, LockEntry>();
    for (const source of chosen)
      newPins.set(
        source.name,
        await this.remotePin(
          source,
          state.lock?.sources.find((p) => p.name === source.name),
          options.signal,
        ),
      );
    const moved = chosen.filter((s) => {
      const old = state.lock?.sources.find((p) => p.name === s.name);
      const now = newPins.get(s.name)!;
      // A tag whose name now names a branch is gone at the source: following the branch would be following a moved tag.
      return (
        old !== undefined &&
        old.kind === 'tag' &&
        old.ref === now.ref &&
        old.url === now.url &&
        // A lock written before annotated tags were peeled holds the tag object as its commit.
        ((old.commit !== now.commit && old.commit !== now.tag_object) || now.kind !== 'tag')
      );
    });
    const allPins: { source: ExtendsSource; pin: LockEntry }[] = state.sources.map((source) => ({
      source,
      pin: newPins.get(source.name) ?? pinsFor(state, [source.name])[0]!.pin,
    }));
    const fetched = await fetchPins(
      this.root,
      allPins.filter((p) => newPins.has(p.source.name)),
      { fresh: true, signal: options.signal, locked: true },
    );
    // The report reads the pins before the move from the cache too: a fresh clone that edited a ref never fetched
    // them, and `extends fetch` refuses a config.yaml that no longer matches its lock.
    const previous = [
      ...chosen.flatMap((source) => {
        const old = state.lock?.sources.find((p) => p.name === source.name);
        return old ? [{ source: sourceOfPin(source, old), pin: old }] : [];
      }),
      ...removed.map((pin) => ({ source: pinnedSource(pin), pin })),
    ];
    const gone = new Set<string>();
    for (const p of previous) {
      try {
        await fetchPins(this.root, [p], { previous: true, signal: options.signal, locked: true });
      } catch (error) {
        // A commit the source no longer holds (a branch force-pushed and pruned) must not keep the pin from moving.
        if (options.signal?.aborted || !(error instanceof AgentsError) || error.code !== 'extends-fetch-failed') throw error;
        gone.add(p.source.name);
      }
    }
    // The sources `update X` leaves where they are are read by the report too: fetched, and checked, as `extends
    // fetch` would (whose run in a clone with an edited ref refuses that ref before it reaches them).
    await fetchPins(
      this.root,
      allPins.filter((p) => !newPins.has(p.source.name)),
      { signal: options.signal, locked: true },
    );
    const moves = await this.report(state, chosen, allPins, new Set(moved.map((m) => m.name)), gone, removed);
    const refused = moved.length > 0 && !options.acceptMovedTag;
    const written = !refused && !options.dryRun;
    // A run stopped while it reported writes no lock.
    options.signal?.throwIfAborted();
    if (written) {
      const lock: ExtendsLock = { version: 1, sources: allPins.map((p) => p.pin) };
      await writeExtendsLock(this.root, lock);
      rememberPins(this.root, [...newPins.values()]);
    }
    return { moves, written, fetched: unlisted(fetched, state.sources) };
  }

  /** What the source's ref names at its remote now. `pinned`: the lock's pin of the source, if any. */
  private async remotePin(source: ExtendsSource, pinned: LockEntry | undefined, signal?: AbortSignal): Promise<LockEntry> {
    const url = resolveSourceUrl(this.root, source.url);
    let kind: RefKind;
    let commit: string;
    let tagObject: string | undefined;
    if (isCommitId(source.ref)) {
      kind = 'commit';
      commit = source.ref;
    } else {
      let found: Awaited<ReturnType<typeof lsRemote>>;
      try {
        found = await lsRemote(this.root, url, source.ref, signal);
      } catch (error) {
        if (error instanceof GitError)
          throw new AgentsError(`cannot reach the policy source ${source.name}: ${error.message}`, EXIT_CODES.usage, {
            hint: 'Check its URL in config.yaml and the network; nothing was written.',
            code: 'extends-unreachable',
          });
        throw error;
      }
      // A ref the lock pinned under this URL is gone at the source, not mistyped: said as such, with the way out.
      if (!found)
        throw await (pinned?.url === source.url && pinned.ref === source.ref && pinned.kind !== 'commit'
          ? deletedRef(this.root, url, source, pinned, signal)
          : unknownRef(this.root, url, source, signal));
      kind = found.kind;
      commit = found.commit;
      tagObject = found.tagObject;
    }
    const pin: LockEntry = { name: source.name, url: source.url, ref: source.ref, kind, commit };
    // The default folder is left out, so that the locks written before `path` was recorded stay as they are.
    if (source.path !== DEFAULT_SOURCE_PATH) pin.path = source.path;
    if (tagObject !== undefined && tagObject !== commit) pin.tag_object = tagObject;
    return pin;
  }

  /** The `invariant diff` report of each chosen source's move. */
  private async report(
    state: ExtendsState,
    chosen: readonly ExtendsSource[],
    allPins: readonly { source: ExtendsSource; pin: LockEntry }[],
    moved: ReadonlySet<string>,
    /** The sources whose pin before the move could not be fetched: read as not pinned yet. */
    gone: ReadonlySet<string>,
    /** The pins of the sources config.yaml no longer names. */
    removed: readonly LockEntry[],
  ): Promise<SourceMove[]> {
    const snap = await readStore(this.invariants.source);
    requireValid(snap, 'report what the move changes');
    // Every project's and every plan's set holds the inherited invariants, as `invariant diff` reports a move for.
    const shape = { projects: new Set(await this.invariants.projectNames()), plans: snap.plans };
    const targets: TargetRef[] = allTargets(shape, shape);
    // The other sources stay where they are pinned (or, when not pinned yet, where they are going).
    const oldPins = allPins.map(({ source, pin }) => {
      const old = gone.has(source.name) ? undefined : state.lock?.sources.find((p) => p.name === source.name);
      // The old pin is read as it was taken: with a changed `path`, the old commit's store is in the old folder.
      return old ? { source: sourceOfPin(source, old), pin: old } : { source, pin };
    });
    // The sources leaving stay until their own report, as the other sources do: each after the source the lock
    // listed before it (first, when none), the rest in config.yaml's order, which decides which copy is kept.
    const context = [...oldPins];
    for (const [i, pin] of (state.lock?.sources ?? []).entries()) {
      if (!removed.includes(pin) || gone.has(pin.name)) continue;
      const prev = state
        .lock!.sources.slice(0, i)
        .reverse()
        .find((p) => context.some((c) => c.source.name === p.name));
      context.splice(prev ? context.findIndex((c) => c.source.name === prev.name) + 1 : 0, 0, { source: pinnedSource(pin), pin });
    }
    const inheritedAt = async (pins: readonly { source: ExtendsSource; pin: LockEntry }[]) => {
      const r = await readInherited(this.root, pins);
      requireValid({ ...emptySnapshot(), diagnostics: r.diagnostics }, 'read the policy sources', SOURCE_FILE_HINT);
      return r.invariants;
    };
    const moves: SourceMove[] = [];
    const changes = [
      ...chosen.map((source) => ({ name: source.name, source, after: allPins.find((p) => p.source.name === source.name)!.pin })),
      ...removed.map((pin) => ({ name: pin.name, source: undefined, after: undefined })),
    ];
    for (const { name, source, after } of changes) {
      const before = state.lock?.sources.find((p) => p.name === name);
      const readable = gone.has(name) ? undefined : before;
      const beforePins = context.filter((p) => p.source.name !== name || readable);
      const afterPins =
        source && after
          ? context.map((p) => (p.source.name === name ? { source, pin: after } : p))
          : context.filter((p) => p.source.name !== name);
      const beforeInherited = await inheritedAt(beforePins);
      const afterInherited = await inheritedAt(afterPins);
      const mine = (list: readonly ScopedInvariant[]) => list.filter((i) => i.scope.kind === 'inherited' && i.scope.source === name);
      // Its action templates are files of the move too: the plans made from them drift when they change.
      const changedBefore = [...mine(beforeInherited), ...(await pinnedTemplates(this.root, beforePins, name))];
      const changedAfter = [...mine(afterInherited), ...(await pinnedTemplates(this.root, afterPins, name))];
      const diff = diffStores(
        { before: changedBefore, after: changedAfter },
        { invariants: [...snap.invariants, ...beforeInherited], plans: snap.plans },
        { invariants: [...snap.invariants, ...afterInherited], plans: snap.plans },
        targets,
      );
      const files = diffInvariantFiles(changedBefore, changedAfter);
      // As `invariant diff` counts them: only the sets the move changes.
      diff.targets = diff.targets.filter(targetChanged);
      const [from, to] = [side(name, before), side(name, after, 'removed')];
      moves.push({
        name,
        ...(before ? { before } : {}),
        ...(after ? { after } : {}),
        movedTag: moved.has(name),
        beforeGone: gone.has(name),
        diff: {
          ...diff,
          invariants: files,
          range: `${from.label}..${to.label}`,
          before: from,
          after: to,
          changedPaths: files.map((f) => (f.after ?? f.before)!.path),
        },
      });
    }
    return moves;
  }
}
