// A revision a pull request brings can hold a store file of any size: `invariant diff` must not hold it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/core/limits.ts';
import { ObjectReader } from '../../src/git/object-reader.ts';
import { git, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

describe('the object reader of revisions', () => {
  it('answers a blob over the round limit by its size, never its bytes; the others whole and in order, over rounds', async () => {
    const repo = tempDir();
    gitInit(repo);
    const small = 'id: x\n';
    // Larger than a pipe's chunk, so that its bytes come in many pieces.
    const large = Buffer.alloc(3 * 1024 * 1024 + 7, 'ab');
    writeFileSync(join(repo, 'small.yaml'), small);
    writeFileSync(join(repo, 'large.yaml'), large);
    git(repo, 'add', '-A');
    const id = (path: string) => git(repo, 'rev-parse', `:${path}`).trim();
    const missing = '0'.repeat(40);
    const reader = new ObjectReader(repo);
    try {
      const limited = await reader.read([id('small.yaml'), id('large.yaml'), missing], undefined, MAX_FILE_BYTES);
      expect(limited.get(id('small.yaml'))?.data.toString()).toBe(small);
      expect(limited.get(id('large.yaml'))?.size).toBe(large.length);
      expect(limited.get(id('large.yaml'))?.data.length).toBe(0);
      expect(limited.get(missing)).toBeNull();
      const whole = await reader.read([id('large.yaml'), id('small.yaml')]);
      expect(whole.get(id('large.yaml'))?.data.equals(large)).toBe(true);
      expect(whole.get(id('small.yaml'))?.data.toString()).toBe(small);
    } finally {
      reader.close();
    }
  });

  it('invariant diff between revisions names a store file over 1 MiB as too large (exit 3)', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'store');
    mkdirSync(join(repo, '.agents/global'), { recursive: true });
    writeFileSync(join(repo, `.agents/global/${ID}.yaml`), `id: ${ID}\ntext: ${'x'.repeat(MAX_FILE_BYTES)}\n`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'a file too large');
    const r = await runAgents(['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(3);
    const detail = errorOf(r).detail as { diagnostics: { code: string; file: string }[] };
    expect(detail.diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
  });

  it('invariant log names a version over 1 MiB as too large, read by its size alone, and goes on to the others', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await runAgents(['init'], { cwd: repo })).code).toBe(0);
    const file = join(repo, `.agents/global/${ID}.yaml`);
    writeFileSync(file, `id: ${ID}\ntext: Keep it\n`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'add');
    writeFileSync(file, `id: ${ID}\ntext: Keep it\n# ${'x'.repeat(MAX_FILE_BYTES)}\n`);
    git(repo, 'commit', '-q', '-am', 'too large');
    const r = await runAgents(['invariant', 'log', ID, '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const events = (JSON.parse(r.stdout) as { events: { subject: string; invalid: { code: string } | null }[] }).events;
    expect(events.map((e) => [e.subject, e.invalid?.code ?? null])).toEqual([
      ['too large', 'file-too-large'],
      ['add', null],
    ]);
  });
});
