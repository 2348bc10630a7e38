import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { BROKEN, type BrokenCase, copyCase, readCase } from '../helpers/corpus.ts';

type Expected = BrokenCase;
const VALID = join(REPO, 'fixtures/valid');
const TARGET = 'global/01JDQ6X5Z8W4N3B2C1D0E9F8G7.yaml';

function key(d: { code: string; file: string; line: number; col: number; severity: string }): string {
  return `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code}`;
}

/** Copies a case, makes its links and what git cannot hold. */
function prepare(name: string, setup: Expected['setup'], at = TARGET): string {
  const dir = copyCase(name);
  const store = join(dir, 'store');
  const target = join(store, at);
  if (setup === 'huge') {
    // Sparse: 2 GiB that occupies no disk; a reader that read it all would fail.
    const fd = openSync(target, 'w');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
  } else if (setup === 'fifo') {
    execFileSync('mkfifo', [target]);
  } else if (setup === 'folder') {
    mkdirSync(target);
  } else if (setup === 'old') {
    // Left behind long ago: a copy is as new as the test run, and a lock naming no process is stale only once old.
    utimesSync(target, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  } else if (setup === 'unreadable') {
    writeFileSync(target, 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8G7\ntext: Never delete data\n');
    chmodSync(target, 0o000);
  }
  return store;
}

/**
 * Root reads any file whatever its mode (CI runs as root): run the CLI as
 * root without the capabilities that bypass file permissions, so the mode
 * 000 really refuses the read while everything else root owns stays readable.
 */
function runUnprivileged(store: string): { code: number; stdout: string; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const argv = [process.execPath, BIN, '--store', store, 'validate', '--format', 'json'];
  const drop = ['--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-dac_override,-dac_read_search', '--'];
  const env = { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true' };
  const r = asRoot
    ? spawnSync('setpriv', [...drop, ...argv], { encoding: 'utf8', cwd: '/', env })
    : spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', cwd: '/', env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const cases = readdirSync(BROKEN).sort();

describe('the broken-store corpus', () => {
  it('has at least 40 cases, each with an expected.json', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const c of cases) expect(existsSync(join(BROKEN, c, 'expected.json')), c).toBe(true);
  });

  it.each(cases)('%s', async (name) => {
    const expected = readCase(name);
    const store = prepare(name, expected.setup, expected.target);
    const r =
      expected.setup === 'unreadable'
        ? runUnprivileged(store)
        : await runMain(['--store', store, 'validate', '--format', 'json'], { cwd: store });
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const out = JSON.parse(r.stdout) as { diagnostics: Expected['diagnostics'] };
    expect(out.diagnostics.map(key).sort()).toEqual(expected.diagnostics.map(key).sort());
    expect(r.code).toBe(expected.exit);
  });
});

describe('the valid corpus', () => {
  it.each(readdirSync(VALID).sort())('%s has no problems', async (name) => {
    // --no-cache, as for the example store (test/validate/validate.test.ts): these stores are in this repository.
    const r = await runMain(['--store', join(VALID, name), 'validate', '--strict', '--no-cache', '--format', 'json'], { cwd: REPO });
    const out = JSON.parse(r.stdout) as { diagnostics: Expected['diagnostics'] };
    expect(out.diagnostics.map(key)).toEqual([]);
    expect(r.code).toBe(0);
  });
});
