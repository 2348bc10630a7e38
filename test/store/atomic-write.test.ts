import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/store/atomic-write.ts';
import { ReplaceBatch } from '../../src/store/replace-batch.ts';
import { tempDir } from '../helpers/tmp.ts';

const modeOf = (path: string) => statSync(path).mode & 0o7777;

describe('replacing a file keeps its permissions', () => {
  it.each([0o600, 0o640, 0o755, 0o444])('writeFileAtomic replace: %o stays %o', (mode) => {
    const root = tempDir();
    writeFileSync(join(root, 'f.md'), 'old\n');
    chmodSync(join(root, 'f.md'), mode);
    writeFileAtomic(root, 'f.md', 'new\n', 'replace');
    expect(readFileSync(join(root, 'f.md'), 'utf8')).toBe('new\n');
    expect(modeOf(join(root, 'f.md'))).toBe(mode);
  });

  it('a new file gets the usual mode (0644 less the umask), replaced or created', () => {
    const root = tempDir();
    writeFileAtomic(root, 'a.md', 'a\n', 'replace');
    writeFileAtomic(root, 'b.md', 'b\n');
    writeFileSync(join(root, 'c.md'), 'c\n', { mode: 0o644 });
    expect(modeOf(join(root, 'a.md'))).toBe(modeOf(join(root, 'c.md')));
    expect(modeOf(join(root, 'b.md'))).toBe(modeOf(join(root, 'c.md')));
  });

  it('ReplaceBatch (validate --fix) keeps each file its own', () => {
    const root = tempDir();
    for (const [name, mode] of [
      ['x.yaml', 0o600],
      ['y.yaml', 0o664],
    ] as const) {
      writeFileSync(join(root, name), 'old\n');
      chmodSync(join(root, name), mode);
    }
    const batch = new ReplaceBatch(root);
    batch.stage('x.yaml', 'x\n');
    batch.stage('y.yaml', 'y\n');
    expect(batch.commit().size).toBe(0);
    expect([modeOf(join(root, 'x.yaml')), modeOf(join(root, 'y.yaml'))]).toEqual([0o600, 0o664]);
    expect(readFileSync(join(root, 'x.yaml'), 'utf8')).toBe('x\n');
  });
});
