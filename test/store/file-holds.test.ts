import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHolds } from '../../src/store/read-file.ts';
import { tempDir } from '../helpers/tmp.ts';

// fileHolds searches a file too large to read whole (a nested AGENTS.md past the export's limit) in pieces of 1 MiB.
describe('fileHolds', () => {
  const MIB = 1024 * 1024;
  const needle = '<!-- agents:begin';

  it.each([
    ['at the start', 0],
    ['across the end of the first piece', MIB - 5],
    ['in the third piece', 2 * MIB + 17],
  ])('finds the text %s', (_, at) => {
    const file = join(tempDir(), 'big.md');
    writeFileSync(file, `${'x'.repeat(at)}${needle}${'y'.repeat(100)}`);
    expect(fileHolds(file, needle)).toBe(true);
  });

  it('says false for a file without it, a missing file, a folder and a link', () => {
    const dir = tempDir();
    const file = join(dir, 'plain.md');
    writeFileSync(file, `${'x'.repeat(MIB + 3)}<!-- agents:end -->`);
    expect(fileHolds(file, needle)).toBe(false);
    expect(fileHolds(join(dir, 'none.md'), needle)).toBe(false);
    expect(fileHolds(dir, needle)).toBe(false);
    const marked = join(dir, 'marked.md');
    writeFileSync(marked, needle);
    symlinkSync(marked, join(dir, 'link.md'));
    expect(fileHolds(join(dir, 'link.md'), needle)).toBe(false);
  });
});
