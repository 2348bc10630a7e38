// A tree object's raw bytes, read without a git process (the objects come from one \`git cat-file --batch\`).
import { GitError } from './repo.ts';

/** One entry of a tree object. */
export interface TreeItem {
  name: string;
  /** As `git ls-tree` prints it: six digits (`040000` for a folder). */
  mode: string;
  sha: string;
}

/** The entry called `name` of a tree object's raw bytes, found without decoding the others. */
export function findInTree(data: Buffer, name: string | Buffer, hashBytes: number): TreeItem | undefined {
  const want = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > data.length) throw new GitError('a tree object could not be read', 'failed');
    if (nul - space - 1 === want.length && data.compare(want, 0, want.length, space + 1, nul) === 0) {
      return {
        mode: data.toString('latin1', pos, space).padStart(6, '0'),
        name: want.toString('utf8'),
        sha: data.toString('hex', nul + 1, nul + 1 + hashBytes),
      };
    }
    pos = nul + 1 + hashBytes;
  }
  return undefined;
}

/** The entries of a tree object's raw bytes (ids of `hashBytes` bytes: 20, or 32 for SHA-256). */
export function parseTree(data: Buffer, hashBytes: number): TreeItem[] {
  const items: TreeItem[] = [];
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > data.length) throw new GitError('a tree object could not be read', 'failed');
    const mode = data.toString('latin1', pos, space);
    items.push({
      mode: mode.padStart(6, '0'),
      name: data.toString('utf8', space + 1, nul),
      sha: data.toString('hex', nul + 1, nul + 1 + hashBytes),
    });
    pos = nul + 1 + hashBytes;
  }
  return items;
}
