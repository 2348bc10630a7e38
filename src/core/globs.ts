/**
 * The path globs of `project.yaml` (docs/export.md, "Projects and their
 * paths"): relative to the repository top, forward slashes, segments of
 * literal text, `*` (any characters but `/`), `?` (one such character),
 * `[abc]` / `[a-z]` / `[!a]` and `{a,b}`; `**` as a whole segment is any
 * number of folders. The same syntax the agents' own globs take (Cursor's
 * `globs`, Copilot's `applyTo`, Windsurf's `globs`, Cline's `paths`), so a
 * project's paths are written to them as they are (in `applyTo`, whose commas
 * separate globs, an alternation as a glob per alternative). Pure.
 */
import { classSource, segmentMatcher, type SegmentMatcher } from './glob-segment.ts';
import { loosely } from './names.ts';

/**
 * Why `glob` points into the store kept at `folder` (relative to the repository's top) elsewhere than `.agents/`, whose
 * globs `globProblem` refuses already; undefined when it does not, or the store's folder is unknown ('').
 */
export function intoStore(glob: string, folder: string): string | undefined {
  if (folder === '' || folder === '.agents' || (glob !== folder && !glob.startsWith(`${folder}/`))) return undefined;
  return `points into ${folder}/, the invariant store; a project's files are the repository's`;
}

/**
 * A glob written relative to `folder` (a nested rule file's, relative to the repository's top) as a path from the
 * top: a `..` after a folder of literal text leaves it (`apps/web` and `../../lib/**` give `lib/**`), and a `.` goes.
 * A `..` after a pattern stays, as what it leaves is unknown, and so does one above the top: `globProblem` refuses both.
 */
export function globUnder(folder: string, glob: string): string {
  const out: string[] = [];
  for (const seg of [...(folder === '' ? [] : folder.split('/')), ...glob.split('/')]) {
    const last = out.at(-1);
    if (seg === '..' && last !== undefined && last !== '..' && last !== '' && !WILDCARD.test(last)) out.pop();
    else if (seg !== '.') out.push(seg);
  }
  return out.join('/');
}

/** Why `glob` is not a path glob this tool takes, or undefined when it is. */
export function globProblem(glob: string): string | undefined {
  if (glob.trim() !== glob) return 'has white space at its start or end';
  if (glob === '') return 'is empty';
  if (glob.includes('\\')) return 'holds a backslash; use forward slashes';
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob)) return 'is absolute; paths are relative to the top of the repository';
  if (glob.startsWith('!')) return 'is a negation; list the paths a project covers instead';
  if (glob.endsWith('/')) {
    // The glob of the folder's files: `secrets/**` for `secrets/`, and for `secrets/**/` or `secrets//` as well.
    const folder = glob.replace(/\/+$/, '');
    return `ends with "/"; write ${folder.endsWith('**') ? folder : `${folder}/**`} for everything below that folder`;
  }
  const segments = glob.split('/');
  for (const seg of segments) {
    if (seg === '') return 'has an empty path segment ("//")';
    if (seg === '..') return 'escapes the repository ("..")';
    if (seg === '.') return 'has a "." segment; write the path without it';
    if (seg !== '**' && seg.includes('**')) return 'uses "**" inside a segment; "**" stands alone between slashes';
    // An export writes instruction files into the folders a project names: never into git's own folder.
    if (seg === '.git') return "points into .git/, git's own folder; a project's files are the repository's";
  }
  // Nor into the store (an AGENTS.md there would be an unknown path of the store).
  if (segments[0] === '.agents') return "points into .agents/, the invariant store; a project's files are the repository's";
  // Brackets and braces: only a glob that holds one is scanned (a project's thousands of globs mostly hold none).
  if (!/[[{}]/.test(glob)) return undefined;
  let brace = 0;
  let bracket = false;
  let opened = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (bracket) {
      if (ch === ']') {
        bracket = false;
        // The matcher makes the class a regular expression: a range whose ends are out of order (`[a-Z]`) is none.
        const body = glob.slice(opened + 1, i);
        // A POSIX class (`[[:alpha:]]`) is no class of the matcher: it would read `[[:alpha:]` and a literal "]", and
        // match other files than a target's reader (or git) would. Refused, never matched another way in silence.
        const posix = /\[([:=.])[^\]]*\1$/.exec(body);
        if (posix)
          return `has a POSIX class "${posix[0]}]" inside "[…]", which is not taken; write its characters (for [:alpha:], "[a-zA-Z]")`;
        try {
          new RegExp(classSource(body));
        } catch {
          return `has a class "[${body}]" whose range runs backwards; write its first character first`;
        }
      }
      // As a "/" in braces: text to the matcher, a class of one character to a target's reader. A "[" no "]" follows
      // holds no "/": it has no class at all.
      else if (ch === '/')
        return glob.includes(']', i)
          ? 'has a "/" inside "[…]"; a class is one character of a name: write a path for each'
          : 'has a "[" without its "]"';
      continue;
    }
    if (ch === '[') {
      bracket = true;
      opened = i;
    } else if (ch === '{') {
      if (brace > 0) return 'nests braces; write "{a,b}" without a brace inside';
      brace++;
    } else if (ch === '/' && brace > 0)
      // The matcher reads a glob segment by segment, where such a brace is text; a target's reader spreads it into folders.
      return 'has a "/" inside "{…}"; alternatives are names within one segment: write a path for each';
    else if (ch === '}') {
      if (brace === 0) return 'has a "}" without its "{"';
      brace--;
    }
  }
  if (bracket) return 'has a "[" without its "]"';
  if (brace > 0) return 'has a "{" without its "}"';
  return undefined;
}

/** A glob's segments, each `**` or its matcher. */
export type GlobSegment = '**' | SegmentMatcher;
type Segment = GlobSegment;

/** A (valid) glob's segments compiled once, for many folder checks (`segmentsHoldFolder`). */
export function compileSegments(glob: string): Segment[] {
  return glob.split('/').map((s) => (s === '**' ? '**' : segmentMatcher(s)));
}

function matchSegments(glob: readonly Segment[], gi: number, path: readonly string[], pi: number, failed?: Set<number>): boolean {
  for (;;) {
    if (gi === glob.length) return pi === path.length;
    const g = glob[gi]!;
    if (g === '**') {
      // `**` takes zero or more folders; as the last segment, anything below (at least one name).
      if (gi === glob.length - 1) return pi < path.length;
      // Each rest of the glob is tried once against each rest of the path: with many `**`, every way of
      // sharing the folders among them would be tried otherwise.
      failed ??= new Set();
      for (let k = pi; k <= path.length; k++) {
        const key = (gi + 1) * (path.length + 1) + k;
        if (failed.has(key)) continue;
        if (matchSegments(glob, gi + 1, path, k, failed)) return true;
        failed.add(key);
      }
      return false;
    }
    if (pi === path.length || !g.test(path[pi]!)) return false;
    gi++;
    pi++;
  }
}

/**
 * A glob (a valid one) made once, for matching many paths: the caller keeps
 * it as long as it needs it (no cache lives in this module). A path outside
 * the glob's literal folder cannot match, so it is refused before being split,
 * and the segments are compiled only once a path inside that folder comes
 * (a guard check tests every changed file against every global guard's globs).
 */
export function compileGlob(glob: string): (path: string) => boolean {
  const folder = literalFolder(glob);
  const prefix = folder === '' ? '' : `${folder}/`;
  let segments: Segment[] | undefined;
  return (path) => path.startsWith(prefix) && matchSegments((segments ??= compileSegments(glob)), 0, path.split('/'), 0);
}

/**
 * A repository's files sorted once (as `Array.prototype.sort` sorts), so that those below a folder are found by a
 * binary search (`filesBelow`), not a walk of them all: an import checks every one of a thousand rule files' globs.
 */
export type SortedFiles = readonly string[] & { readonly sortedFiles: true };

/** `files` sorted (`SortedFiles`), a copy: the list given is left as it is. */
export function sortFiles(files: readonly string[]): SortedFiles {
  return [...files].sort() as unknown as SortedFiles;
}

/** The files of `files` below `folder` ("" for all of them), each at any depth. */
export function filesBelow(files: SortedFiles, folder: string): readonly string[] {
  if (folder === '') return files;
  // Every path that starts with `folder/` sorts at or after it and before `folder0` ('0' follows '/').
  return files.slice(firstAtOrAfter(files, `${folder}/`), firstAtOrAfter(files, `${folder}0`));
}

function firstAtOrAfter(files: SortedFiles, key: string): number {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (files[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a glob matches no file of `files` but names folders that hold some (`secrets` beside `secrets/**`,
 * `services/api`): the slip of a guard's write glob or a project's path given as a folder, which matches files only.
 */
export function namesFolderOfFiles(glob: string, files: SortedFiles): boolean {
  if (glob.endsWith('**')) return false;
  // Neither the glob nor `glob/**` matches a path outside the glob's literal folder (compileGlob).
  const below = filesBelow(files, literalFolder(glob));
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  // A last segment without wildcards is the folder's own name: only the paths holding it can answer either question.
  const near = WILDCARD.test(last) ? below : below.filter((f) => f.includes(`${last}/`) || f === last || f.endsWith(`/${last}`));
  return !near.some(compileGlob(glob)) && near.some(compileGlob(`${glob}/**`));
}

/**
 * The first of a project's paths that names a folder of `files` and matches none of them (`apps/web` beside
 * `apps/web/**`), or undefined: such a project would hold no file, so `which`, inference and export would pass it by.
 */
export function folderPath(paths: readonly string[], files: SortedFiles): string | undefined {
  return paths.find((p) => mayNameFolder(p) && namesFolderOfFiles(p, files));
}

/**
 * Whether a guard's write glob may name a folder: its last segment is a name (`secrets`, `**\/secrets`), not `**`, or
 * a pattern below folders that are names (`config/*`, `secr*`), which matches folders as it matches files. Not one
 * such as `**\/*.pem`, which would have the repository's files listed for a glob of files.
 */
export function mayNameFolder(glob: string): boolean {
  if (glob.endsWith('**')) return false;
  const cut = glob.lastIndexOf('/');
  return !WILDCARD.test(glob.slice(cut + 1)) || !WILDCARD.test(glob.slice(0, Math.max(cut, 0)));
}

/**
 * Whether a guard's write glob names a folder, so guards none of the files below it: one that may (`mayNameFolder`)
 * and that `namesFolderOfFiles` finds a folder of `files`, or, without any wildcard, that `isFolder` finds a folder
 * of the working tree where git lists no file (an ignored `secrets/`, the usual one). `caseless` where git ignores
 * case: the glob is compared as the guard matches it there (`Secrets` names `secrets/`), against `files` made so by
 * `filesAsMatched`, once for every glob of a run.
 */
export async function writeGlobNamesFolder(
  glob: string,
  files: SortedFiles,
  isFolder?: (path: string) => Promise<boolean>,
  caseless = false,
): Promise<boolean> {
  if (!mayNameFolder(glob)) return false;
  const named = caseless ? loosely(glob) : glob;
  if (namesFolderOfFiles(named, files)) return true;
  return (
    isFolder !== undefined && !WILDCARD.test(glob) && !filesBelow(files, literalFolder(named)).includes(named) && (await isFolder(glob))
  );
}

/**
 * How a refusal or a warning says what a write glob that names folders (`writeGlobNamesFolder`) names: `secrets` a
 * folder, and a pattern (`config/*`, `secr*`) folders, each that it matches.
 */
export function folderWords(glob: string): { folders: string; them: string } {
  return hasWildcard(glob) ? { folders: 'folders', them: 'them' } : { folders: 'a folder', them: 'it' };
}

/** The repository's files as a write glob is matched against them (compared without case where git ignores it), sorted. */
export function filesAsMatched(files: readonly string[], caseless: boolean): SortedFiles {
  return sortFiles(caseless ? files.map(loosely) : files);
}

/** Whether the repository-relative file path `path` matches `glob` (a valid one). */
export function globMatches(glob: string, path: string): boolean {
  return compileGlob(glob)(path);
}

/**
 * Whether the folder `dir` ("" for the top) lies inside what `glob` covers:
 * its segments are taken by the glob's, and what is left of the glob starts
 * with `**` (files below the folder can match it). `services/billing/**`
 * holds `services/billing` and `services/billing/src`, not `services`.
 */
export function globHoldsFolder(glob: string, dir: string): boolean {
  const g = glob.split('/');
  const d = dir === '' ? [] : dir.split('/');
  const walk = (gi: number, di: number): boolean => {
    if (di === d.length) return g[gi] === '**';
    if (gi === g.length) return false;
    // A `**` can take every folder left of `dir`: what is left of the glob then starts with it.
    if (g[gi] === '**') return true;
    return segmentMatcher(g[gi]!).test(d[di]!) && walk(gi + 1, di + 1);
  };
  return walk(0, 0);
}

/**
 * Whether `glob` may match some file below the folder `dir` ("" for the top), whatever its name: `dir`'s segments
 * taken by the glob's (a `**` taking none or several), with a segment of the glob left for the file.
 * `secrets/*.pem` and `**\/*.pem` may match below `secrets`; `docs/**` may not. The folders `**`s may take are tried
 * once each, so a glob of many `**`s takes time linear in the two lengths' product.
 */
export function globMayMatchBelow(glob: string, dir: string): boolean {
  const g = glob.split('/');
  const d = dir === '' ? [] : dir.split('/');
  // reach[gi]: the glob's first gi segments may take the folder's first di.
  let reach = g.map((_, gi) => gi === 0);
  reach.push(false);
  for (let gi = 0; gi < g.length && g[gi] === '**'; gi++) reach[gi + 1] = true;
  for (let di = 0; di < d.length; di++) {
    const next = new Array<boolean>(g.length + 1).fill(false);
    for (let gi = 0; gi < g.length; gi++) {
      if (!reach[gi]) continue;
      if (g[gi] === '**') next[gi] = true;
      else if (segmentMatcher(g[gi]!).test(d[di]!)) next[gi + 1] = true;
    }
    for (let gi = 0; gi < g.length; gi++) if (next[gi] && g[gi] === '**') next[gi + 1] = true;
    reach = next;
  }
  return reach.some((r, gi) => r && gi < g.length);
}

/** `globHoldsFolder` on a glob's compiled segments and a folder's segments ([] for the top). */
export function segmentsHoldFolder(g: readonly GlobSegment[], d: readonly string[]): boolean {
  let gi = 0;
  for (let di = 0; di < d.length; di++, gi++) {
    if (gi === g.length) return false;
    const seg = g[gi]!;
    if (seg === '**') return true;
    if (!seg.test(d[di]!)) return false;
  }
  return g[gi] === '**';
}

/**
 * The one folder a project's paths name, when they are exactly `DIR/**` (or
 * `DIR/**\/*`) with a literal DIR: where AGENTS.md, CLAUDE.md and GEMINI.md
 * go for it. Undefined otherwise.
 */
export function singleFolder(paths: readonly string[] | undefined): string | undefined {
  if (paths?.length !== 1) return undefined;
  const dir = folderPattern(paths[0]!);
  return dir === undefined || WILDCARD.test(dir) ? undefined : dir;
}

/**
 * The one folder whose AGENTS.md (CLAUDE.md, GEMINI.md) a glob's files read: DIR of a literal `DIR/**`, and the top
 * ('') for `**` or `**\/*`, which hold every file of the repository, so the root file is theirs. Undefined otherwise.
 */
export function nestedFolder(glob: string): string | undefined {
  return glob === '**' || glob === '**/*' ? '' : singleFolder([glob]);
}

/**
 * Whether some glob of a project's paths holds every file below a folder ("" for the top), as its nested file would
 * say it: `DIR/**` (or `DIR/**\/*`, DIR with wildcards too) or `**`. A glob of another shape (`**\/*.sql`) holds only
 * some of them. The globs are compiled once, for the many folders of an export.
 */
export function folderHolder(paths: readonly string[]): (dir: string) => boolean {
  const whole = paths.filter((g) => nestedFolder(g) !== undefined || folderPattern(g) !== undefined).map(compileSegments);
  return (dir) => {
    const d = dir === '' ? [] : dir.split('/');
    return whole.some((g) => segmentsHoldFolder(g, d));
  };
}

/**
 * The folders a glob names when it is `DIR/**` (or `DIR/**\/*`): DIR, which
 * may hold wildcards in its segments (`packages/*\/src`) but no `**`.
 * Undefined for a glob of another shape (`**\/*.sql`, `src/*.ts`).
 */
export function folderPattern(glob: string): string | undefined {
  const m = /^(.+?)\/\*\*(?:\/\*)?$/.exec(glob);
  if (!m) return undefined;
  const dir = m[1]!;
  return dir.split('/').includes('**') ? undefined : dir;
}

/** The literal folder a glob starts with (its segments before the first wildcard): "" when none. */
export function literalFolder(glob: string): string {
  // The folders before the segment that holds the first wildcard, or before the last segment: sliced, not split and joined.
  const wild = WILDCARD.exec(glob);
  const cut = glob.lastIndexOf('/', wild === null ? glob.length : wild.index);
  return cut < 0 ? '' : glob.slice(0, cut);
}

const WILDCARD = /[*?[\]{}]/;

/** Whether a glob or one of its segments holds a wildcard (`*`, `?`, `[…]`, `{…}`): else it is a name of its own. */
export function hasWildcard(glob: string): boolean {
  return WILDCARD.test(glob);
}

/**
 * Whether two globs surely cover common files, known without listing any:
 * they are equal, or one is `DIR/**` (every file below DIR) and the other
 * covers DIR itself or lies wholly below it.
 */
export function globsSurelyOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  const covers = (x: string, y: string) => {
    const dir = literalFolder(y);
    if (y !== `${dir === '' ? '' : `${dir}/`}**`) return false;
    return globHoldsFolder(x, dir) || globHoldsFolder(y, literalFolder(x));
  };
  return covers(a, b) || covers(b, a);
}

/**
 * `glob` as globs that hold no comma, for a list whose items a comma separates (Copilot's `applyTo`, which some
 * readers split at every comma): each `{…}` alternation becomes a glob per alternative, which match the same files.
 * `comma` when a comma is not an alternation's (in a name, or in a `[…]` class), which such a list cannot hold;
 * `too-many` when the alternatives would make more than `limit` globs.
 */
export function commaFreeGlobs(glob: string, limit: number): string[] | 'comma' | 'too-many' {
  if (!glob.includes(',')) return [glob];
  let bracket = false;
  let brace = false;
  for (const ch of glob) {
    if (bracket) {
      if (ch === ']') bracket = false;
      else if (ch === ',') return 'comma';
    } else if (ch === '[') bracket = true;
    else if (ch === '{') brace = true;
    else if (ch === '}') brace = false;
    else if (ch === ',' && !brace) return 'comma';
  }
  const out: string[] = [];
  const pending = [glob];
  while (pending.length > 0) {
    const g = pending.pop()!;
    const group = g.includes(',') ? firstAlternation(g) : undefined;
    if (group === undefined) {
      out.push(g);
      if (out.length > limit) return 'too-many';
      continue;
    }
    // Reversed onto the stack, so that the globs come out in the order the alternation lists them.
    for (const alt of group.alternatives.reverse()) pending.push(`${g.slice(0, group.start)}${alt}${g.slice(group.end + 1)}`);
    if (out.length + pending.length > limit) return 'too-many';
  }
  return out;
}

/** The first `{…}` outside a class that holds a comma: where it starts and ends, and its alternatives. */
function firstAlternation(glob: string): { start: number; end: number; alternatives: string[] } | undefined {
  let bracket = false;
  let start = -1;
  let alternatives: string[] = [];
  let from = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (bracket) {
      if (ch === ']') bracket = false;
    } else if (ch === '[') bracket = true;
    else if (ch === '{') {
      start = i;
      alternatives = [];
      from = i + 1;
    } else if (ch === ',' && start >= 0) {
      alternatives.push(glob.slice(from, i));
      from = i + 1;
    } else if (ch === '}' && start >= 0) {
      if (alternatives.length > 0) return { start, end: i, alternatives: [...alternatives, glob.slice(from, i)] };
      start = -1;
    }
  }
  return undefined;
}
