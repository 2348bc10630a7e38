import { compileGlob, compileSegments, type GlobSegment, literalFolder, segmentsHoldFolder } from './globs.ts';

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
