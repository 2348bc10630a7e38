// Whether a commit stages anything under one folder, told from git's own files when they can tell it: the commit
// hook (`validate --staged`) asks it before it starts a git process (docs/adr/0512-the-commit-hook-bundle.md). And
// the index's gitlinks, which the export's and the store's checks of a submodule not checked out ask without one.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { callerVariables, gitDirOf } from './caller-env.ts';
import { commonOf, looksLikeGitDir, repoTop } from './location.ts';

const OID_BYTES = 20;
const HEX_OID = /^[0-9a-f]{40}$/;

/**
 * True when the index holds exactly HEAD's tree at `folder` (so `git diff
 * --cached -- folder` would list nothing), read from the files git keeps: the
 * index's cache tree, which names the tree of every folder whose entries are
 * unchanged since git last wrote it, and HEAD's commit and trees when they are
 * loose objects (as a commit made here leaves them). False whenever those files
 * cannot tell (a folder staged, an unborn branch, packed objects, a repository
 * set up in a way this reader does not follow): the caller then asks git.
 */
export function stagesNothingUnder(folder: string): boolean {
  try {
    return sameTreeAsHead(folder);
  } catch {
    // A file git was rewriting, or a format this reader does not know: git answers.
    return false;
  }
}

function sameTreeAsHead(given: string): boolean {
  // git runs in the folder's real path and answers for that one: a link on the way (the store itself, named with
  // --store) may stand where the index still holds the folder it replaced.
  const folder = realpathSync(given);
  const top = repoTop(folder);
  const gitDir = gitDirOf(folder);
  if (top === undefined || gitDir === undefined) return false;
  const callers = callerVariables(folder);
  // Objects kept elsewhere, or a configuration that moves the working tree: left to git.
  if (callers.GIT_OBJECT_DIRECTORY !== undefined || callers.GIT_ALTERNATE_OBJECT_DIRECTORIES !== undefined) return false;
  const common = commonOf(gitDir);
  if (movesWorkTree(gitDir) || (common !== gitDir && movesWorkTree(common))) return false;
  // A repository another user owns: git refuses it (safe.directory), and says so.
  if (process.getuid !== undefined && statSync(top).uid !== process.getuid()) return false;
  const path = relative(top, folder);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return false;
  // A folder on the way that git would take for a repository of its own: git refuses it, and says why.
  for (let d = folder; d !== top; d = dirname(d)) if (looksLikeGitDir(d)) return false;
  const parts = path.split(sep);
  const head = headCommit(gitDir, common);
  if (head === undefined || replacesObjects(common)) return false;
  const staged = cacheTreeOid(readFileSync(callers.GIT_INDEX_FILE ?? join(gitDir, 'index')), parts);
  if (staged === undefined) return false;
  const commit = readLoose(common, head, 'commit');
  const tree = commit === undefined ? undefined : /^tree ([0-9a-f]{40})\n/.exec(commit.toString('latin1', 0, 46))?.[1];
  if (tree === undefined) return false;
  let oid = tree;
  for (const name of parts) {
    const data = readLoose(common, oid, 'tree');
    const next = data === undefined ? undefined : subtree(data, name);
    if (next === undefined) return false;
    oid = next;
  }
  return oid === staged;
}

/**
 * Whether the git configuration in `dir` may set `core.worktree` (the working tree elsewhere than the `.git`
 * folder's parent), itself or through a file it includes.
 */
function movesWorkTree(dir: string): boolean {
  return ['config', 'config.worktree'].some((name) => {
    try {
      return /worktree\s*=|\[\s*include/i.test(readFileSync(join(dir, name), 'latin1'));
    } catch {
      return false;
    }
  });
}

/**
 * Whether the repository replaces objects (`git replace`): git then reads HEAD's commit and trees as their
 * replacements, which the loose objects under their own ids are not.
 */
function replacesObjects(common: string): boolean {
  try {
    if (readdirSync(join(common, 'refs', 'replace')).length > 0) return true;
  } catch {
    // No folder of replacements: none loose.
  }
  try {
    return readFileSync(join(common, 'packed-refs'), 'latin1').includes(' refs/replace/');
  } catch {
    return false;
  }
}

/** HEAD's commit id, from HEAD and the loose or packed ref it names; undefined for anything else. */
function headCommit(gitDir: string, common: string): string | undefined {
  const head = readFileSync(join(gitDir, 'HEAD'), 'latin1').trim();
  if (HEX_OID.test(head)) return head;
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((p) => p === '..' || p === '.')) return undefined;
  let loose: string | undefined;
  try {
    loose = readFileSync(join(common, ref), 'latin1').trim();
  } catch {
    loose = undefined;
  }
  if (loose !== undefined) return HEX_OID.test(loose) ? loose : undefined;
  let packed: string;
  try {
    packed = readFileSync(join(common, 'packed-refs'), 'latin1');
  } catch {
    return undefined;
  }
  for (const line of packed.split('\n')) if (line.endsWith(` ${ref}`) && HEX_OID.test(line.slice(0, 40))) return line.slice(0, 40);
  return undefined;
}

/** The body of a loose object of `type`, or undefined (packed, or of another type). */
function readLoose(common: string, oid: string, type: 'commit' | 'tree'): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(join(common, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch {
    return undefined;
  }
  // zlib loaded only here: most runs that ask about the index read no loose object.
  const data = process.getBuiltinModule('node:zlib').inflateSync(stored);
  const nul = data.indexOf(0);
  const header = data.toString('latin1', 0, nul);
  if (nul < 0 || header !== `${type} ${data.length - nul - 1}`) return undefined;
  return data.subarray(nul + 1);
}

/** The id of the folder `name` in a tree object's body ("<mode> <name>\0<20-byte id>" entries). */
function subtree(tree: Buffer, name: string): string | undefined {
  for (let at = 0; at < tree.length; ) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0) return undefined;
    const mode = tree.toString('latin1', at, space);
    if (tree.toString('utf8', space + 1, nul) === name) {
      return mode === '40000' ? tree.toString('hex', nul + 1, nul + 1 + OID_BYTES) : undefined;
    }
    at = nul + 1 + OID_BYTES;
  }
  return undefined;
}

/**
 * Walks the entries of an index file (versions 2 to 4), telling `visit` each one's mode and, when it asks, its path
 * (version 4 keeps each as the previous one cut and a rest); the offset where the extensions start, or undefined when
 * the file is not one this reader follows.
 */
function walkEntries(index: Buffer, visit?: (mode: number, path: () => string) => void): number | undefined {
  if (index.length < 32 || index.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  let at = 12;
  let previous = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (at + 62 > index.length) return undefined;
    const flags = index.readUInt16BE(at + 60);
    const mode = index.readUInt32BE(at + 24);
    let name = at + 62 + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
    if (version === 4) {
      // The length of the previous name to drop, as a variable-width number, then the rest of the name and a NUL.
      let drop = index[name]! & 0x7f;
      while (index[name]! & 0x80) drop = ((drop + 1) << 7) | (index[++name]! & 0x7f);
      name++;
      const end = index.indexOf(0, name);
      if (end < 0 || (visit !== undefined && drop > previous.length)) return undefined;
      if (visit) {
        previous = Buffer.concat([previous.subarray(0, previous.length - drop), index.subarray(name, end)]);
        const path = previous;
        visit(mode, () => path.toString('utf8'));
      }
      at = end + 1;
    } else {
      const length = flags & 0xfff;
      const end = length < 0xfff ? name + length : index.indexOf(0, name);
      if (end < 0) return undefined;
      const from = name;
      visit?.(mode, () => index.toString('utf8', from, end));
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at += (end - at + 8) & ~7;
    }
  }
  return at;
}

/** The extensions of an index file after its entries at `at`: each signature with its body. */
function* extensions(index: Buffer, at: number): Generator<[string, Buffer]> {
  const last = index.length - OID_BYTES;
  while (at + 8 <= last) {
    const size = index.readUInt32BE(at + 4);
    yield [index.toString('latin1', at, at + 4), index.subarray(at + 8, at + 8 + size)];
    at += 8 + size;
  }
}

/**
 * The tree id the index's cache tree (its `TREE` extension) gives the folder at `parts`, when git has it valid;
 * undefined otherwise. The entries are walked only to find where the extensions start; a split index
 * (`link`) is left to git.
 */
function cacheTreeOid(index: Buffer, parts: readonly string[]): string | undefined {
  const at = walkEntries(index);
  if (at === undefined) return undefined;
  let tree: string | undefined;
  for (const [signature, body] of extensions(index, at)) {
    if (signature === 'link') return undefined;
    if (signature === 'TREE') tree = folderInCacheTree(body, parts);
  }
  return tree;
}

/** A gitlink's mode in an index entry (`160000`). */
const GITLINK = 0o160000;

/**
 * The gitlinks (submodules) the index of the repository holding `top` holds, folders relative to its top, read from
 * the index file a git process there would read (the caller's GIT_INDEX_FILE in its own repository): no git process.
 * None without an index (a repository with no commit staged yet). Undefined when the file cannot tell: a split index
 * (`link`), whose entries lie in another file, a sparse index (`sdir`), whose folders left out hide what they hold, a
 * format this reader does not follow or a file git was rewriting; the caller then asks git.
 */
export function indexFileGitlinks(top: string): Set<string> | undefined {
  try {
    const gitDir = gitDirOf(top);
    if (gitDir === undefined) return undefined;
    let index: Buffer;
    try {
      index = readFileSync(callerVariables(top).GIT_INDEX_FILE ?? join(gitDir, 'index'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
      return undefined;
    }
    const links = new Set<string>();
    const at = walkEntries(index, (mode, path) => {
      if (mode === GITLINK) links.add(path());
    });
    if (at === undefined) return undefined;
    for (const [signature] of extensions(index, at)) if (signature === 'link' || signature === 'sdir') return undefined;
    return links;
  } catch {
    return undefined;
  }
}

/** In a `TREE` extension's body: the valid tree id of the folder at `parts` (the root's children first). */
function folderInCacheTree(ext: Buffer, parts: readonly string[]): string | undefined {
  let at = 0;
  /** Reads the node at `at`: its name, whether it is valid, its id and its number of subtrees. */
  const node = () => {
    const nul = ext.indexOf(0, at);
    const newline = ext.indexOf(0x0a, nul);
    if (nul < 0 || newline < 0) throw new Error('cache tree cut short');
    const name = ext.toString('utf8', at, nul);
    const [entries, subtrees] = ext
      .toString('latin1', nul + 1, newline)
      .split(' ')
      .map(Number) as [number, number];
    at = newline + 1;
    let oid: string | undefined;
    if (entries >= 0) {
      oid = ext.toString('hex', at, at + OID_BYTES);
      at += OID_BYTES;
    }
    return { name, oid, subtrees };
  };
  const skip = (subtrees: number): void => {
    for (let i = 0; i < subtrees; i++) skip(node().subtrees);
  };
  let current = node();
  for (const part of parts) {
    let found: ReturnType<typeof node> | undefined;
    for (let i = 0; i < current.subtrees; i++) {
      const child = node();
      if (child.name === part) {
        found = child;
        break;
      }
      skip(child.subtrees);
    }
    if (found === undefined) return undefined;
    current = found;
  }
  return current.oid;
}
