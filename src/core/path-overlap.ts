import {
  compileGlob,
  compileSegments,
  type GlobSegment,
  globProblem,
  hasWildcard,
  literalFolder,
  segmentsHoldFolder,
  singleFolder,
} from './globs.ts';
import { loosely } from './names.ts';

/**
 * Projects whose paths surely overlap (`globsSurelyOverlap`), found without
 * comparing every pair of globs. Two globs surely overlap when they are equal,
 * or when one is `DIR/**` and the other covers DIR or lies wholly below it;
 * either way the other's literal folder (`literalFolder`) is DIR, below DIR,
 * or above it — and above it only for a glob holding a `**`. So the globs
 * are put in a tree of their literal folders, and a `DIR/**` glob is compared
 * only with the globs of its subtree and the `**` globs of the folders on its
 * way up; other globs only with their equals. Pure.
 */

/** Counts of the work done (tests hold it linear in the globs). */
export interface OverlapStats {
  /** Pairs of globs of different projects compared. */
  compared: number;
}

/** The first overlap of two projects: glob `ai` of project `a` and glob `bi` of project `b` (`a` < `b`, indexes of the input). */
export interface PathOverlap {
  a: number;
  ai: number;
  b: number;
  bi: number;
}

interface Glob {
  project: number;
  index: number;
  glob: string;
  folder: string[];
  /** `DIR/**` with a literal DIR (or `**`): what it covers is every file below `folder`. */
  under: boolean;
  globstar: boolean;
  segments?: GlobSegment[];
}

interface Node {
  globs: Glob[];
  children: Map<string, Node>;
}

/** A `**` segment anywhere in a glob. */
const GLOBSTAR = /(?:^|\/)\*\*(?:\/|$)/;

const segmentsOf = (g: Glob) => {
  g.segments ??= compileSegments(g.glob);
  return g.segments;
};

/** `globsSurelyOverlap(x.glob, y.glob)` for a `DIR/**` glob `y`, on compiled segments. */
function covers(x: Glob, y: Glob): boolean {
  if (!y.under) return false;
  return segmentsHoldFolder(segmentsOf(x), y.folder) || segmentsHoldFolder(segmentsOf(y), x.folder);
}

/**
 * For each pair of projects (indexes of `paths`, each a project's valid globs)
 * whose globs surely overlap, the first overlapping pair of globs in the order
 * of the globs (of `a`, then of `b`); sorted by `a`, then `b`. The same as
 * comparing every glob of every pair with `globsSurelyOverlap`.
 */
export function surelyOverlappingProjects(paths: readonly (readonly string[])[], stats?: OverlapStats): PathOverlap[] {
  const root: Node = { globs: [], children: new Map() };
  const all: Glob[] = [];
  const equal = new Map<string, Glob[]>();
  for (const [project, globs] of paths.entries())
    for (const [index, glob] of globs.entries()) {
      const dir = literalFolder(glob);
      const folder = dir === '' ? [] : dir.split('/');
      const g: Glob = {
        project,
        index,
        glob,
        folder,
        under: glob === (dir === '' ? '**' : `${dir}/**`),
        globstar: GLOBSTAR.test(glob),
      };
      all.push(g);
      let node = root;
      for (const seg of folder) {
        let child = node.children.get(seg);
        if (!child) node.children.set(seg, (child = { globs: [], children: new Map() }));
        node = child;
      }
      node.globs.push(g);
      const same = equal.get(glob);
      if (same) same.push(g);
      else equal.set(glob, [g]);
    }
  const first = new Map<number, PathOverlap>();
  const found = (x: Glob, y: Glob) => {
    const [p, q] = x.project < y.project ? [x, y] : [y, x];
    const key = p.project * paths.length + q.project;
    const was = first.get(key);
    if (!was || p.index < was.ai || (p.index === was.ai && q.index < was.bi))
      first.set(key, { a: p.project, ai: p.index, b: q.project, bi: q.index });
  };
  const compare = (x: Glob, y: Glob) => {
    if (x.project === y.project) return;
    if (stats) stats.compared++;
    if (covers(x, y) || covers(y, x)) found(x, y);
  };
  for (const same of equal.values())
    for (let i = 0; i < same.length; i++)
      for (let j = i + 1; j < same.length; j++) {
        if (same[i]!.project === same[j]!.project) continue;
        if (stats) stats.compared++;
        found(same[i]!, same[j]!);
      }
  for (const y of all) {
    if (!y.under) continue;
    // Up the tree: the `**` globs of the folders above DIR (a glob without `**` must match each of DIR's names and stop).
    let node = root;
    for (const seg of y.folder) {
      for (const x of node.globs) if (x.globstar && x.glob !== y.glob) compare(x, y);
      node = node.children.get(seg)!;
    }
    // DIR and below: every glob there. (A pair of `DIR/**` globs is met from both ends: `found` keeps one.)
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop()!;
      for (const x of n.globs) if (x !== y && x.glob !== y.glob) compare(x, y);
      for (const child of n.children.values()) stack.push(child);
    }
  }
  return [...first.values()].sort((p, q) => p.a - q.a || p.b - q.b);
}

/**
 * The globs (given in order) a repository file may match, by their literal
 * folders: `matching(file)` is the indexes, in order, of the globs whose
 * literal folder holds the file and which match it. A file is tried only on
 * the globs of its own folders, not on every glob.
 */
export function globsByFolder(globs: readonly { folder: string; matches: (path: string) => boolean }[]): (file: string) => number[] {
  const byFolder = new Map<string, number[]>();
  for (const [i, g] of globs.entries()) {
    const list = byFolder.get(g.folder);
    if (list) list.push(i);
    else byFolder.set(g.folder, [i]);
  }
  return (file) => {
    const out: number[] = [];
    const take = (folder: string) => {
      const list = byFolder.get(folder);
      if (list) for (const i of list) if (globs[i]!.matches(file)) out.push(i);
    };
    // The file's folders: the top, then each prefix ending before a "/".
    take('');
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) take(file.slice(0, at));
    // Found folder by folder: back in the order of the globs.
    return out.sort((x, y) => x - y);
  };
}

/** An overlap of two projects, with a repository file both hold when the globs alone do not show it. */
export interface ProjectOverlap extends PathOverlap {
  example?: string;
}

/**
 * Every pair of projects (indexes of `paths`) that overlap: those whose globs
 * surely overlap first, then those a repository file of `files` shows (in the
 * order of the files), each pair once. With `files`, `hits[p][g]` counts the
 * files glob `g` of project `p` matches. `validate` and `project add` ask this
 * one question.
 */
export function projectOverlaps(
  paths: readonly (readonly string[])[],
  files?: readonly string[],
): { overlaps: ProjectOverlap[]; hits?: number[][] } {
  const overlaps: ProjectOverlap[] = [];
  const pairs = new Set<number>();
  const add = (o: ProjectOverlap) => {
    const key = o.a * paths.length + o.b;
    if (pairs.has(key)) return;
    pairs.add(key);
    overlaps.push(o);
  };
  for (const o of surelyOverlappingProjects(paths)) add(o);
  if (!files) return { overlaps };
  const globs = paths.flatMap((p, pi) => p.map((g, gi) => ({ pi, gi, matches: compileGlob(g), folder: literalFolder(g) })));
  const hits = paths.map((p) => p.map(() => 0));
  const matching = globsByFolder(globs);
  for (const f of files) {
    let first: (typeof globs)[number] | undefined;
    for (const i of matching(f)) {
      const g = globs[i]!;
      hits[g.pi]![g.gi]!++;
      if (!first) first = g;
      else if (first.pi !== g.pi) add({ a: first.pi, ai: first.gi, b: g.pi, bi: g.gi, example: f });
    }
  }
  return { overlaps, hits };
}

/**
 * Overlaps with the projects kept so far, for a caller that keeps projects one by one, each only when it overlaps
 * none kept before it (an import's new projects): the pairs whose globs surely overlap and the files of `files` each
 * project holds are found once for all of them, not by a `projectOverlaps` of each new project with each kept one.
 * `keep(i)` keeps project `i` (an index of `paths`); `allKept(i, among)` is every project `among` allows that overlaps
 * `i` (by the globs, or by a file both hold), in the order they were kept, and `firstKept` the first of them.
 */
export function keptOverlaps(
  paths: readonly (readonly string[])[],
  files: readonly string[],
): {
  keep: (i: number) => void;
  firstKept: (i: number, among: (j: number) => boolean) => number | undefined;
  allKept: (i: number, among: (j: number) => boolean) => number[];
} {
  // The order projects were kept in; which files each holds is found at the first question, with the projects kept
  // by then: a caller whose projects the folders alone tell apart (an import's nested files) asks none.
  const order = new Map<number, number>();
  let index: { sure: number[][]; held: string[][]; holders: Map<string, number[]> } | undefined;
  const hold = (holders: Map<string, number[]>, held: string[][], i: number) => {
    for (const f of held[i]!) holders.get(f)?.push(i) ?? holders.set(f, [i]);
  };
  const built = () => {
    if (index !== undefined) return index;
    const sure = paths.map((): number[] => []);
    for (const o of surelyOverlappingProjects(paths)) {
      sure[o.a]!.push(o.b);
      sure[o.b]!.push(o.a);
    }
    const globs = paths.flatMap((p, pi) => p.map((g) => ({ pi, matches: compileGlob(g), folder: literalFolder(g) })));
    const matching = globsByFolder(globs);
    const held = paths.map((): string[] => []);
    for (const f of files) for (const pi of new Set(matching(f).map((i) => globs[i]!.pi))) held[pi]!.push(f);
    // The projects kept that hold each file (one, when those kept are disjoint), in the order they were kept.
    const holders = new Map<string, number[]>();
    for (const i of order.keys()) hold(holders, held, i);
    return (index = { sure, held, holders });
  };
  const allKept = (i: number, among: (j: number) => boolean): number[] => {
    const { sure, held, holders } = built();
    const all = new Set<number>();
    const consider = (j: number) => {
      if (j !== i && order.has(j) && among(j)) all.add(j);
    };
    for (const j of sure[i]!) consider(j);
    for (const f of held[i]!) for (const j of holders.get(f) ?? []) consider(j);
    return [...all].sort((x, y) => order.get(x)! - order.get(y)!);
  };
  return {
    keep: (i) => {
      order.set(i, order.size);
      if (index !== undefined) hold(index.holders, index.held, i);
    },
    firstKept: (i, among) => allKept(i, among)[0],
    allKept,
  };
}

/**
 * Whether two (valid) globs may match a common path, the question opposite to `globsSurelyOverlap`: false only when
 * no path can pass both, a name one of them gives as it is refused by the other's segment there, or their numbers of
 * segments never agreeing (`secrets/**` and `web/**`, `web/*.ts` and `web/src/a.ts`). Two patterns side by side
 * (`*.ts`, `a*`) are taken to meet, so a "no" is always true. `caseless` compares them as the guards do where git
 * ignores case. Both globs are walked together, a `**` taking names as matchSegments lets it: any number, and at
 * least one as a glob's last segment.
 */
export function globsMayMeet(a: string, b: string, caseless = false): boolean {
  const [x, y] = caseless ? [loosely(a), loosely(b)] : [a, b];
  const names = [x.split('/'), y.split('/')] as const;
  const segs = [compileSegments(x), compileSegments(y)] as const;
  const last = (side: 0 | 1, i: number) => i === segs[side].length - 1;
  // A name both segments take: one a name of its own is tested by the other; two patterns may meet.
  const meet = (i: number, j: number) => {
    const [p, q] = [segs[0][i]!, segs[1][j]!];
    if (p === '**' || q === '**') return true;
    const [m, n] = [names[0][i]!, names[1][j]!];
    if (!hasWildcard(m)) return q.test(m);
    if (!hasWildcard(n)) return p.test(n);
    return true;
  };
  // After one name: a `**` stays (or, the last, may end); any other segment steps on.
  const after = (side: 0 | 1, i: number) => (segs[side][i] === '**' ? (last(side, i) ? [i, i + 1] : [i]) : [i + 1]);
  const seen = new Set<number>();
  const todo: [number, number][] = [[0, 0]];
  while (todo.length > 0) {
    const [i, j] = todo.pop()!;
    const key = i * (segs[1].length + 1) + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === segs[0].length && j === segs[1].length) return true;
    // A `**` before the end may take no name.
    if (segs[0][i] === '**' && !last(0, i)) todo.push([i + 1, j]);
    if (segs[1][j] === '**' && !last(1, j)) todo.push([i, j + 1]);
    if (i < segs[0].length && j < segs[1].length && meet(i, j))
      for (const ni of after(0, i)) for (const nj of after(1, j)) todo.push([ni, nj]);
  }
  return false;
}

/**
 * The write globs of a project's guard that no file of the project can match, so that guard never fires on a write:
 * it judges only the files its project's `paths` hold (docs/guard.md), and a write glob is a path from the repository's
 * top like them, so one that meets none of them (`secrets/**` for `web/**`) guards nothing. None when the project has
 * no paths.
 */
export function writesOutsidePaths(write: readonly string[], paths: readonly string[], caseless = false): string[] {
  if (paths.length === 0) return [];
  return write.filter((w) => !paths.some((p) => globsMayMeet(w, p, caseless)));
}

/**
 * The write globs of a project's guard that never fire (`writesOutsidePaths`), as `invariant add` refuses them and
 * `validate` warns of them: none while a path is one the glob check refuses (what the guard meets there is unknown until
 * it is fixed), and `ignoresCase` (git's core.ignorecase, where the guard matches `Web/x` as `web/x`) asked only once a
 * glob is found without it.
 */
export async function neverFiringWrites(
  write: readonly string[],
  paths: readonly string[],
  ignoresCase: () => Promise<boolean>,
): Promise<string[]> {
  if (paths.some((p) => globProblem(p) !== undefined) || writesOutsidePaths(write, paths).length === 0) return [];
  return writesOutsidePaths(write, paths, await ignoresCase());
}

/**
 * The glob to give instead of a write glob outside a project's paths when those are one folder (`web/**`): the glob
 * below that folder (`web/secrets/**` for `secrets/**`), or every file of the folder for a glob naming it or a folder
 * above it (`web`); undefined for paths of another shape.
 */
export function writeWithinPaths(glob: string, paths: readonly string[]): string | undefined {
  const folder = singleFolder(paths);
  if (folder === undefined) return undefined;
  return glob === folder || folder.startsWith(`${glob}/`) ? `${folder}/**` : `${folder}/${glob}`;
}
