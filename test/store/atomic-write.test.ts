import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentsError } from '../../src/core/errors.ts';
import { replaceInStyle, writeFailure, writeFileAtomic, writeFilesTogether } from '../../src/store/atomic-write.ts';
import { ReplaceBatch } from '../../src/store/replace-batch.ts';
import { writerMark } from '../../src/store/lock-owner.ts';
import { replaceCacheFile, replaceFile, writeAll } from '../../src/store/write-all.ts';
import { temporaryParts } from '../../src/core/layout.ts';
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

describe('a file where a folder of the path goes', () => {
  it('is named as such, whether the folder is to be made or the file is below it, and nothing is written', () => {
    const root = tempDir();
    mkdirSync(join(root, 'plans/P'), { recursive: true });
    writeFileSync(join(root, 'plans/P/decisions'), 'x\n');
    for (const rel of ['plans/P/decisions/D.yaml', 'plans/P/decisions/sub/D.yaml']) {
      let error: unknown;
      try {
        writeFileAtomic(root, rel, 'id: D\n');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AgentsError);
      expect((error as AgentsError).message).toContain('plans/P/decisions is a file');
      expect((error as AgentsError).exitCode).toBe(2);
    }
    expect(readdirSync(join(root, 'plans/P'))).toEqual(['decisions']);
    // A file that exists where the file itself goes is said as before.
    writeFileSync(join(root, 'plans/P/taken.yaml'), 'x\n');
    expect(() => writeFileAtomic(root, 'plans/P/taken.yaml', 'y\n', 'create')).toThrow(/a file of that name already exists/);
  });
});

describe('a name longer than the file system allows', () => {
  it('is a write failure that says so (exit 2), not the raw ENAMETOOLONG, and leaves nothing behind', () => {
    const root = tempDir();
    let error: unknown;
    try {
      writeFileAtomic(root, `global/${'n'.repeat(300)}.yaml`, 'x\n');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentsError);
    expect((error as AgentsError).exitCode).toBe(2);
    expect((error as AgentsError).code).toBe('write-failed');
    expect((error as AgentsError).message).not.toContain('ENAMETOOLONG');
    // The writer serves the library too: its hint names no flag of the command line.
    expect((error as AgentsError).hint).not.toContain('--');
    // Not even the folder it made for the file: a new client's or target's folder would stay, empty.
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('a file larger than the process may write (ulimit -f)', () => {
  it('is a write failure that says so (exit 2), not the raw EFBIG', () => {
    // What write(2) answers past RLIMIT_FSIZE once SIGXFSZ is ignored, as Node.js ignores it.
    const error = writeFailure(
      Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG', syscall: 'write' }),
      'global/x.yaml',
    );
    expect([error.exitCode, error.code]).toEqual([2, 'write-failed']);
    expect(error.message).toContain('global/x.yaml');
    expect(error.message).not.toContain('EFBIG');
  });
});

describe('a store file a writer would make over 1 MiB', () => {
  it('is refused (file-too-large) before anything is written, counting the CR of each line a CRLF file keeps', () => {
    const root = tempDir();
    const old = 'id: x\r\ntext: old\r\n';
    writeFileSync(join(root, 'x.yaml'), old);
    // 1 MiB less 100 bytes, in lines of 10: under the limit with LF line ends, over it with CRLF.
    const text = `tags:\n${'  - abcde\n'.repeat((1024 * 1024 - 106) / 10)}`;
    let code: string | undefined;
    try {
      replaceInStyle(root, 'x.yaml', text);
    } catch (e) {
      code = e instanceof AgentsError ? e.code : 'other';
    }
    expect(code).toBe('file-too-large');
    expect(readFileSync(join(root, 'x.yaml'), 'utf8')).toBe(old);
    expect(readdirSync(root)).toEqual(['x.yaml']);
  });
});

describe('files written together', () => {
  it('removes the ones written when a later one fails, and throws its error: all or none', () => {
    const root = tempDir();
    mkdirSync(join(root, 'plans/P/enforcement'), { recursive: true });
    // A file where the second one's folder goes: its write fails for real.
    writeFileSync(join(root, 'plans/P/decisions'), 'not a folder');
    expect(() =>
      writeFilesTogether(root, [
        { rel: 'plans/P/enforcement/R.yaml', content: 'run\n' },
        { rel: 'plans/P/decisions/D.yaml', content: 'node\n' },
      ]),
    ).toThrow(AgentsError);
    expect(readdirSync(join(root, 'plans/P/enforcement'))).toEqual([]);
    writeFilesTogether(root, [{ rel: 'plans/P/enforcement/R.yaml', content: 'run\n' }]);
    expect(readFileSync(join(root, 'plans/P/enforcement/R.yaml'), 'utf8')).toBe('run\n');
  });
});

describe('folders made for a write that fails', () => {
  // A name longer than the file system takes: its folders are made, then the file is refused.
  const tooLong = `${'n'.repeat(300)}.yaml`;

  it('go again, those of the files written before the failure too; folders there before stay', () => {
    const root = tempDir();
    mkdirSync(join(root, 'plans/P'), { recursive: true });
    expect(() =>
      writeFilesTogether(root, [
        { rel: 'plans/P/enforcement/R.yaml', content: 'run\n' },
        { rel: `plans/P/decisions/${tooLong}`, content: 'node\n' },
      ]),
    ).toThrow(AgentsError);
    expect(readdirSync(join(root, 'plans/P'))).toEqual([]);
  });

  it('go again for a file outside the store (replaceFile: the active plan, in a git folder with no agents/ yet)', () => {
    const root = tempDir();
    expect(() => replaceFile(join(root, 'agents', tooLong), (fd) => writeAll(fd, 'P\n'))).toThrow();
    expect(readdirSync(root)).toEqual([]);
  });
});

// A cache under `.git/agents/` is written as a store file is: a temporary that names its writer, renamed into place.
describe('cache files (replaceCacheFile)', () => {
  it("name their temporary by its writer, and the next write clears one a killed writer left, keeping a live or another container's", () => {
    const dir = tempDir();
    const [host, boot] = writerMark()!.split('-') as [string, string];
    const otherHost = host === '0a0a0a0a' ? '0b0b0b0b' : '0a0a0a0a';
    const killed = `.validate-ab.cache.${host}-${boot}-1.999999999.0a1b2c3d.tmp`;
    const former = 'validate-ab.cache.999999999.k3j4h5z9.tmp';
    const formerExport = 'export.cache.999999999.tmp';
    const live = `.validate-ab.cache.${writerMark()}.${process.pid}.0a1b2c3d.tmp`;
    const elsewhere = `.validate-ab.cache.${otherHost}-${boot}-1.999999999.0a1b2c3d.tmp`;
    const mine = 'notes.tmp';
    for (const name of [killed, former, formerExport, live, elsewhere, mine]) writeFileSync(join(dir, name), 'half');
    let during: string[] = [];
    replaceCacheFile(join(dir, 'validate-ab.cache'), (fd) => {
      during = readdirSync(dir).filter((n) => ![killed, former, formerExport, live, elsewhere, mine].includes(n));
      writeAll(fd, 'whole\n');
    });
    expect(during).toHaveLength(1);
    expect(temporaryParts(during[0]!)).toMatchObject({ name: 'validate-ab.cache', pid: process.pid, writer: { host, boot } });
    expect(readFileSync(join(dir, 'validate-ab.cache'), 'utf8')).toBe('whole\n');
    expect(readdirSync(dir).sort()).toEqual([live, elsewhere, mine, 'validate-ab.cache'].sort());
  });
});
