import { describe, expect, it } from 'vitest';
import { hiddenEntries } from '../../src/git/hidden-edits.ts';

describe('hiddenEntries', () => {
  it('keeps the assume-unchanged and skip-worktree records of a listing, every path whole', () => {
    const oid = 'a'.repeat(40);
    const records = [
      `H 100644 ${oid} 0\tglobal/A.yaml`,
      `h 100644 ${oid} 0\tglobal/B é.yaml`,
      `S 100644 ${oid} 0\tprojects/p/C.yaml`,
      `s 100644 ${oid} 0\tprojects/p/D.yaml`,
      `H 100644 ${oid} 0\tHidden-looking h.yaml`,
      `c 100644 ${oid} 0\tconfig.yaml`,
    ];
    const listing = Buffer.from(`${records.join('\0')}\0`);
    expect(hiddenEntries(listing)).toEqual([
      { path: 'global/B é.yaml', oid, skipWorktree: false },
      { path: 'projects/p/C.yaml', oid, skipWorktree: true },
      { path: 'projects/p/D.yaml', oid, skipWorktree: true },
      { path: 'config.yaml', oid, skipWorktree: false },
    ]);
    // A listing without its last NUL, and an empty one.
    expect(hiddenEntries(Buffer.from(records[1]!))).toEqual([{ path: 'global/B é.yaml', oid, skipWorktree: false }]);
    expect(hiddenEntries(Buffer.alloc(0))).toEqual([]);
  });
});
