/**
 * The effective-set diff between two trees of the store (docs/review.md):
 * opens the sides a range names, reads and parses the files the affected
 * targets need, and compares their effective sets.
 */
import {
  diffStores,
  targetChanged,
  targetFolders,
  type DiffSide,
  type SideShape,
  type StoreDiff,
  type TargetRef,
} from '../../core/diff.ts';
import { UsageError } from '../../core/errors.ts';
import type { PathKind } from '../../core/layout.ts';
import { scopeFolder, type Plan, type ProjectMeta, type ScopedInvariant } from '../../core/model.ts';
import type { ScopedWaiver } from '../../core/waivers.ts';
import { ObjectReader } from '../../git/object-reader.ts';
import { indexHolds } from '../../git/changed.ts';
import { resolveCommit, topLevelAndCommits } from '../../git/repo.ts';
import type { ReadResult } from '../../store/tree-source.ts';
import { type OptionWords, optionWords } from '../option-words.ts';
import { parseYamlDocument, parseYamlDocumentNow } from '../../store/yaml-document.ts';
import { loadParsing, parseFile, type Parsed } from './parsing.ts';
import {
  checkedRequest,
  gitFailure,
  parseRange,
  repositoryTop,
  revisionInfo,
  storePrefix,
  twoDot,
  type DiffRequest,
  type SideInfo,
} from './ranges.ts';
import { readSides } from './read-sides.ts';
import { RevisionTrees, openSide } from './revision-trees.ts';
import { emptySide, refuseInvalid, type Side } from './side.ts';
import { diffTargets } from './diff-targets.ts';
import type { InheritedSides, PolicyMove } from '../review-extends.ts';

export interface DiffResult extends StoreDiff {
  range: string;
  before: SideInfo;
  after: SideInfo;
  /** Store paths whose content differs (invariants and plan files). */
  changedPaths: string[];
  /** Policy sources whose pin differs between the sides (docs/extends.md, "Review"). */
  policySources?: PolicyMove[];
  /** The policy sources of each side in `extends` order, when their order changed (docs/extends.md, "Review"). */
  policyOrder?: { before: string[]; after: string[] };
}

/** The effective-set diff between two trees of the store at `root`. @internal */
export async function diffRevisions(
  root: string,
  given: DiffRequest = {},
  absent?: { top: string; error: Error },
  /** What a refusal calls the request's fields: the command line's flags, else the library's fields. */
  words?: OptionWords,
): Promise<DiffResult> {
  const request = checkedRequest(given, words);
  // For A..B, git starts at once: one process names the top folder and both commits (if it cannot,
  // the steps are taken one by one for their messages) while the object reader starts beside it,
  // and the parsers load while git answers. Against the working tree or the index, the same process
  // names the one revision compared.
  loadParsing().catch(() => undefined);
  const revs = twoDot(request);
  // Against the working tree or the index, the one revision compared (HEAD by default) is named by the same process.
  const range = request.range?.trim();
  const asked = revs ?? (range?.includes('..') ? undefined : [range || 'HEAD']);
  // A store missing from the working tree has no folder to run git in: its repository's top is one.
  const at = absent?.top ?? root;
  const early = revs ? new ObjectReader(at) : undefined;
  try {
    const got = asked ? await topLevelAndCommits(at, asked) : undefined;
    const quick = got && asked ? { top: got.top, commits: new Map(asked.map((r, i) => [r, got.commits[i]!])) } : undefined;
    return await diffWith(root, request, quick, early, absent, optionWords(words));
  } finally {
    early?.close();
  }
}

async function diffWith(
  root: string,
  request: DiffRequest,
  quick: { top: string; commits: Map<string, string> } | undefined,
  early: ObjectReader | undefined,
  absent: { top: string; error: Error } | undefined,
  words: OptionWords,
): Promise<DiffResult> {
  const top = quick?.top ?? (await repositoryTop(absent?.top ?? root));
  const { range, before: bSpec, after: aSpec } = await parseRange(top, request, quick?.commits);
  const prefix = storePrefix(root, top);
  const revisions = (spec: typeof bSpec) => spec.kind === 'revision' || spec.kind === 'commit';
  // Without a store in the working tree, a revision is read at its place, and an index it was removed from
  // (`git rm -r .agents`) is a side without a store: all of it is removed, as `validate --staged` passes there. The
  // working tree, or an index that still holds the store (removed from the disk only), is no side to read.
  const open = async (spec: typeof bSpec, idLength: () => number): Promise<Side> => {
    if (absent === undefined || revisions(spec) || spec.kind === 'empty')
      return openSide(root, top, spec, idLength, words, request.range?.trim() || undefined);
    if (spec.kind === 'working tree' || (await indexHolds(top, prefix))) throw absent.error;
    return emptySide({ label: 'index', kind: 'index', missingStore: prefix });
  };
  let before: Side;
  let after: Side;
  let changed: string[];
  let walk: RevisionTrees | undefined;
  if (revisions(bSpec) && revisions(aSpec)) {
    const commits: string[] = [];
    for (const spec of [bSpec, aSpec]) {
      try {
        commits.push(spec.kind === 'commit' ? spec.commit : (quick?.commits.get(spec.rev) ?? (await resolveCommit(top, spec.rev))));
      } catch (error) {
        return gitFailure(error);
      }
    }
    before = { ...emptySide(revisionInfo(bSpec, commits[0]!)), blobs: new Map() };
    after = { ...emptySide(revisionInfo(aSpec, commits[1]!)), blobs: new Map() };
    walk = await RevisionTrees.open(
      (quick && early) ?? new ObjectReader(top),
      prefix,
      [before, after],
      [commits[0]!, commits[1]!],
      words.store,
    );
    changed = [];
    // A side with no store there reads as all its invariants added or removed: the report says why.
    if (walk.isEmpty(0)) before.info = { ...before.info, missingStore: prefix };
    if (walk.isEmpty(1)) after.info = { ...after.info, missingStore: prefix };
    if (absent !== undefined && walk.isEmpty(0) && walk.isEmpty(1)) {
      if (walk.reader !== early) walk.reader.close();
      throw new UsageError(
        `no store found: ${prefix}/ is in neither the working tree, ${before.info.label} nor ${after.info.label}`,
        // Given --store, the init it names makes the store there, not at the default place.
        (agents) => `Run \`${agents} init\` at the top of your repository, or point to the store with --store DIR or AGENTS_STORE.`,
        { store: root },
      );
    }
  } else {
    before = await open(bSpec, () => 40);
    let idLength = 40;
    for (const sha of before.files.values()) {
      idLength = sha.length === 64 ? 64 : 40;
      break;
    }
    after = await open(aSpec, () => idLength);
    if (absent !== undefined && before.files.size === 0 && after.files.size === 0) throw absent.error;
    changed = [];
    for (const [p, sha] of before.files) if (after.files.get(p) !== sha) changed.push(p);
    for (const p of after.files.keys()) if (!before.files.has(p)) changed.push(p);
    changed.sort();
  }
  try {
    // Policy sources (docs/extends.md): each side's pins, read from the cache. Only a side holding the
    // lock pins any; without one on either side, a config.yaml changed between them may name a source
    // without its pin (the first `extends:`, committed without its lock), which the diff must say. Else
    // nothing more is read or loaded.
    const locked = (i: 0 | 1, side: Side) => (walk ? walk.holds(i, 'extends.lock.yaml') : side.holdsLock === true);
    const config = (i: 0 | 1, side: Side) => (walk ? walk.topId(i, 'config.yaml') : side.configId);
    const inherited =
      locked(0, before) || locked(1, after) || config(0, before) !== config(1, after)
        ? await (await import('../review-extends.ts')).inheritedSides(root, top, prefix, before.info, after.info)
        : undefined;
    return await diffSides(top, request, range, before, after, changed, walk, words, inherited);
  } finally {
    if (walk?.reader !== early) walk?.reader.close();
  }
}

/** The diff of two opened sides (`walk`: revisions read folder by folder, which lists more as needed). */
async function diffSides(
  top: string,
  request: DiffRequest,
  range: string,
  before: Side,
  after: Side,
  changed: string[],
  walk: RevisionTrees | undefined,
  words: OptionWords,
  inherited?: InheritedSides,
): Promise<DiffResult> {
  // A new order of the sources decides which copy of a shared text is kept: every project can change, as for a move.
  const policyMoved = (inherited?.moves.length ?? 0) > 0 || inherited?.order !== undefined;
  if (walk) {
    // Two revisions: what changed, every plan folder, global/ and the folders of the changed scopes;
    // every project when a global file changed or every project is asked for (each is a target then).
    changed = await walk.changes(request.project !== undefined ? [`projects/${request.project}`] : []);
    const globalChange = changed.some((p) => {
      const kind = before.kinds.get(p) ?? after.kinds.get(p)!;
      return (kind.kind === 'invariant' || kind.kind === 'bad-id') && kind.scope?.kind === 'global';
    });
    if (request.allProjects || globalChange || policyMoved) await walk.listAllProjects();
  }
  const changedSet = new Set(changed);

  // Bytes in two batches for both sides: every plan.yaml, then the files the targets need. A file
  // unchanged between the sides is read (and parsed) once.
  const blobs = new Map<string, ReadResult>();
  const cache = new Map<string, Parsed>();
  const parse = (side: Side, paths: readonly string[]) => parseSide(side, paths, blobs, cache);
  // Plans first: every plan.yaml on both sides, to know which plans target which project.
  const planPaths = (side: Side) => [...side.kinds].filter(([, k]) => k.kind === 'plan').map(([p]) => p);
  const bPlans = planPaths(before);
  const aPlans = planPaths(after);
  await readSides(
    top,
    blobs,
    [
      [before, bPlans],
      [after, aPlans],
    ],
    walk?.reader,
  );
  await parse(before, bPlans);
  await parse(after, aPlans);
  const shape = (side: Side): SideShape & { plans: Map<string, Plan> } => {
    const projects = new Set<string>();
    const plans = new Map<string, Plan>();
    for (const [p, k] of side.kinds) {
      if (k.kind === 'invariant' && k.scope.kind === 'project') projects.add(k.scope.project);

      if (k.kind === 'plan') {
        const plan = cache.get(side.keys.get(p)!)?.plan;
        if (plan) plans.set(k.plan, plan);
      }
    }
    // A project with no invariant of its own (a project.yaml, a .gitkeep) still has a set: the global and inherited ones.
    for (const p of side.projects ?? []) projects.add(p);
    return { projects, plans };
  };
  // A side listed in parts knows the projects of the folders it listed: every one the targets can need.
  const bShape = shape(before);
  const aShape = shape(after);

  const targets = await diffTargets({
    request,
    changed,
    shapes: [bShape, aShape],
    sides: [before, after],
    walk,
    words,
    policyMoved,
  });

  // A changed waiver is reported with the invariant it waives: the folders of what it covers are read too.
  const waived: TargetRef[] = [];
  for (const p of changed) {
    const k = before.kinds.get(p) ?? after.kinds.get(p);
    if (k?.kind === 'waiver')
      waived.push(k.scope.kind === 'project' ? { kind: 'project', project: k.scope.project } : { kind: 'plan', plan: k.scope.plan });
  }
  const read = [...targets, ...waived];
  // Files each side needs: the folders of every target, plus every changed file (for the file-level report).
  const need = (side: Side, plans: Map<string, Plan>): string[] => {
    const folders = new Set<string>();
    for (const t of read) for (const f of targetFolders(t, plans)) folders.add(f);
    const out: string[] = [];
    for (const [p, k] of side.kinds) {
      if (k.kind === 'plan') continue;
      const scope = k.kind === 'invariant' ? k.scope : k.kind === 'bad-id' ? k.scope : undefined;
      if (changedSet.has(p) || (scope && folders.has(scopeFolder(scope)))) out.push(p);
    }
    return out;
  };
  const folders = new Set<string>();
  for (const t of read) for (const plans of [bShape.plans, aShape.plans]) for (const f of targetFolders(t, plans)) folders.add(f);
  await walk?.list(folders);
  const bNeed = need(before, bShape.plans);
  const aNeed = need(after, aShape.plans);
  // Files are parsed as they arrive; any that cannot be yet (the full YAML parser not loaded) are parsed below.
  const at = await loadParsing();
  const wanted = new Map<string, [string, PathKind]>();
  for (const [side, paths] of [
    [before, bNeed],
    [after, aNeed],
  ] as const) {
    for (const p of paths) wanted.set(side.keys.get(p)!, [p, side.kinds.get(p)!]);
  }
  await readSides(
    top,
    blobs,
    [
      [before, bNeed],
      [after, aNeed],
    ],
    walk?.reader,
    (key) => {
      const job = wanted.get(key);
      if (!job || cache.has(key)) return;
      try {
        const now = parseYamlDocumentNow((syntax) => parseFile(at, job[0], job[1], blobs.get(key), syntax));
        if (now) {
          cache.set(key, now.value);
          blobs.delete(key);
        }
      } catch {
        // Parsed again below, where its error is handled.
      }
    },
  );
  await parse(before, bNeed);
  await parse(after, aNeed);

  // Anything unreadable or invalid that was needed stops the diff (exit 3), naming the side.
  refuseInvalid(before, [...bPlans, ...bNeed], (key) => cache.get(key)?.diagnostics);
  refuseInvalid(after, [...aPlans, ...aNeed], (key) => cache.get(key)?.diagnostics);

  const collect = (side: Side, paths: readonly string[]) =>
    paths.map((p) => cache.get(side.keys.get(p)!)?.invariant).filter((i): i is ScopedInvariant => i !== undefined);
  // Which projects each side has, now that the folders of every target are listed: a project renamed or
  // removed has no set on the side without it (a plan that targets it keeps it, as an unknown project is told).
  const has = (side: Side, plans: Map<string, Plan>) => {
    const projects = new Set(shape(side).projects);
    for (const plan of plans.values()) if (plan.project) projects.add(plan.project);
    return projects;
  };
  const bSide: DiffSide = {
    plans: bShape.plans,
    projects: has(before, bShape.plans),
    invariants: [...collect(before, bNeed), ...(inherited?.before ?? [])],
  };
  const aSide: DiffSide = {
    plans: aShape.plans,
    projects: has(after, aShape.plans),
    invariants: [...collect(after, aNeed), ...(inherited?.after ?? [])],
  };
  const changedInvariants = {
    before: [
      ...collect(
        before,
        bNeed.filter((p) => changedSet.has(p)),
      ),
      ...(inherited?.changedBefore ?? []),
    ],
    after: [
      ...collect(
        after,
        aNeed.filter((p) => changedSet.has(p)),
      ),
      ...(inherited?.changedAfter ?? []),
    ],
  };
  const meta = (side: Side, paths: readonly string[]) => {
    const waivers: ScopedWaiver[] = [];
    const projects = new Map<string, ProjectMeta>();
    for (const p of paths) {
      if (!changedSet.has(p)) continue;
      const parsed = cache.get(side.keys.get(p)!);
      const kind = side.kinds.get(p)!;
      if (parsed?.waiver) waivers.push(parsed.waiver);
      else if (parsed?.project && kind.kind === 'project-meta') projects.set(kind.project, parsed.project);
    }
    return { waivers, projects };
  };
  const bMeta = meta(before, bNeed);
  const aMeta = meta(after, aNeed);
  const changedMeta = {
    waivers: { before: bMeta.waivers, after: aMeta.waivers },
    projects: { before: bMeta.projects, after: aMeta.projects },
  };
  // Every invariant the comparison needs is in hand: the parses by key and the sides' maps of paths (a
  // whole store's worth each) are let go before it, which holds a set per target.
  cache.clear();
  wanted.clear();
  changedSet.clear();
  for (const side of [before, after]) {
    side.files.clear();
    side.kinds.clear();
    side.keys.clear();
    side.blobs?.clear();
    side.bytes?.clear();
  }
  const diff = diffStores({ ...changedInvariants, ...changedMeta }, bSide, aSide, targets);
  const explicit = request.project !== undefined || request.plan !== undefined;
  diff.targets = diff.targets.filter((t) => explicit || targetChanged(t) || (request.allProjects && t.target.kind === 'project'));
  const result: DiffResult = { ...diff, range, before: before.info, after: after.info, changedPaths: changed };
  if (policyMoved) result.policySources = inherited!.moves;
  if (inherited?.order) result.policyOrder = inherited.order;
  return result;
}

/**
 * Parses `paths` of one side from the bytes already read; a blob met on both
 * sides is parsed once. The full YAML parser is loaded only for a file that
 * is not in the canonical shape the tool writes.
 */
async function parseSide(side: Side, paths: readonly string[], blobs: Map<string, ReadResult>, cache: Map<string, Parsed>): Promise<void> {
  const at = await loadParsing();
  for (const p of paths) {
    const key = side.keys.get(p)!;
    if (cache.has(key)) continue;
    cache.set(key, await parseYamlDocument((syntax) => parseFile(at, p, side.kinds.get(p)!, blobs.get(key), syntax)));
    // Its bytes are not read again: dropped at once, so a whole store's are never all held beside its parses.
    blobs.delete(key);
    side.bytes?.delete(p);
  }
}
