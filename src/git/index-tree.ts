// Whether a commit stages anything under one folder, told from git's own files when they can tell it: the commit
// hook (`validate --staged`) asks it before it starts a git process (docs/adr/0512-the-commit-hook-bundle.md).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { inflateSync } from 'node:zlib';
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
  const data = inflateSync(stored);
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
 * The tree id the index's cache tree (its `TREE` extension) gives the folder at `parts`, when git has it valid;
 * undefined otherwise. The entries are walked only to find where the extensions start; a split index
 * (`link`) is left to git.
 */
function cacheTreeOid(index: Buffer, parts: readonly string[]): string | undefined {
  if (index.length < 32 || index.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flags = index.readUInt16BE(at + 60);
    let name = at + 62 + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
    if (version === 4) {
      // The length of the previous name to drop, as a variable-width number, then the rest of the name and a NUL.
      while (index[name]! & 0x80) name++;
      name++;
      at = index.indexOf(0, name) + 1;
      if (at === 0) return undefined;
    } else {
      const length = flags & 0xfff;
      const end = length < 0xfff ? name + length : index.indexOf(0, name);
      if (end < 0) return undefined;
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at += (end - at + 8) & ~7;
    }
  }
  let tree: string | undefined;
  const last = index.length - OID_BYTES;
  while (at + 8 <= last) {
    const signature = index.toString('latin1', at, at + 4);
    const size = index.readUInt32BE(at + 4);
    if (signature === 'link') return undefined;
    if (signature === 'TREE') tree = folderInCacheTree(index.subarray(at + 8, at + 8 + size), parts);
    at += 8 + size;
  }
  return tree;
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
