import { closeSync, ftruncateSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, parseInvariant, parseYaml } from '../../src/core/parse.ts';
import { MAX_NESTING, MAX_YAML_TOKENS, yamlShapeProblem } from '../../src/core/yaml-guard.ts';
import { readStore } from '../../src/store/read.ts';
import { REGEX_TIME_LIMIT_MS, regexTimeLimit } from '../../src/service/regex.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';
import { errorOf, runAgents } from '../helpers/main.ts';

const ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const enc = (s: string) => new TextEncoder().encode(s);
const codes = (bytes: Uint8Array) => parseYaml('f.yaml', bytes).diagnostics.map((d) => ({ code: d.code, line: d.line, col: d.col }));

describe('hostile YAML is refused before it costs much', () => {
  it('an alias bomb (billion laughs) is refused', () => {
    let bomb = 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i < 10; i++)
      bomb += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    // Placed at the alias that crossed the limit: the ninth *a1 (a1 is counted with the ten *a0 below it).
    expect(codes(enc(bomb))).toEqual([{ code: 'yaml-alias-limit', line: 3, col: 50 }]);
    const inv = parseInvariant(`global/${ID}.yaml`, enc(`id: ${ID}\ntext: &t x\ntags: [*t, *t]\n${bomb}`), { kind: 'global' }, ID);
    expect(inv.value).toBeUndefined();
  });

  it.each([
    ['flow sequences', '['.repeat(100_000) + ']'.repeat(100_000), 1, 64],
    ['flow maps', '{'.repeat(100_000), 1, 64],
    ['compact block sequences', `${'- '.repeat(100_000)}x`, 1, 127],
    ['explicit keys', `${'? '.repeat(100_000)}x`, 1, 127],
    ['explicit keys after a key', `k: ${'? '.repeat(100_000)}x`, 1, 130],
    ['indented maps', `${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n`, 65, 65],
    ['sequences mixed with quoted closing brackets', '[ "]", '.repeat(50_000), 1, 442],
  ])('nesting of %s deeper than the limit: yaml-too-deep at its position, the parser never started', (_name, text, line, col) => {
    expect(codes(enc(text))).toEqual([{ code: 'yaml-too-deep', line, col }]);
  });

  it(`nesting up to the limit of ${MAX_NESTING} is parsed`, () => {
    const ok = `${'['.repeat(MAX_NESTING - 1)}x${']'.repeat(MAX_NESTING - 1)}`;
    expect(yamlShapeProblem(ok)).toBeNull();
    expect(parseYaml('f.yaml', enc(ok)).diagnostics).toEqual([]);
  });

  it('brackets, dashes and question marks inside quotes, comments and block scalars are text, not nesting', () => {
    const text = `id: ${ID}\ntext: "${'[{'.repeat(100)} - ? -"\nrationale: |\n  ${'- '.repeat(100)}\n  ${'[ '.repeat(100)}\n# ${'['.repeat(100)}\ntags: ['${'['.repeat(60)}']\n`;
    expect(yamlShapeProblem(text)).toBeNull();
    const parsed = parseInvariant(`global/${ID}.yaml`, enc(text), { kind: 'global' }, ID);
    expect(parsed.diagnostics).toEqual([]);
  });

  it(`a flat file of more than ${MAX_YAML_TOKENS} tokens is refused (a 1 MiB flow list would take tens of seconds to parse)`, () => {
    const flat = `[${'a,'.repeat(500_000)}]`;
    expect(flat.length).toBeLessThan(MAX_FILE_BYTES);
    expect(codes(enc(flat))).toEqual([{ code: 'yaml-too-large', line: 1, col: 50_001 }]);
  });

  it('a file over 1 MiB is refused by size, by the parser and by the reader without reading it', async () => {
    expect(codes(new Uint8Array(MAX_FILE_BYTES + 1))).toEqual([{ code: 'file-too-large', line: 0, col: 0 }]);
    const store = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Valid') });
    // A sparse 64 GiB file: reading it all would take minutes and more memory than the machine has.
    const big = join(store, 'global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 64 * 1024 ** 3);
    closeSync(fd);
    const source = new WorkingTreeSource(store);
    const r = source.readOne('global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml');
    expect(r).toEqual({ ok: false, code: 'file-too-large', message: `is ${64 * 1024 ** 3} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)` });
    const snap = await readStore(source);
    expect(snap.diagnostics.map((d) => [d.code, d.file])).toEqual([['file-too-large', 'global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml']]);
    const listed = await runAgents(['--store', store, 'invariant', 'list']);
    expect(listed.code).toBe(3);
    expect(listed.stderr).toContain('global/01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml');
  });

  it('a deeply nested invariant file in a store makes list stop with exit 3 naming it, not crash', async () => {
    const store = testStore({ [`global/${ID}.yaml`]: `id: ${ID}\ntext: ${'? '.repeat(200_000)}x\n` });
    const r = await runAgents(['--store', store, 'invariant', 'list']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`global/${ID}.yaml:2:`);
    expect(r.stderr).toContain('nests more than 64 levels deep');
  });
});

describe('user regexes run with a time bound', () => {
  it('a catastrophic pattern over a store of long texts stops with exit 2 and a clear message', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const id = `01JDQ6X5Z8W4N3B2C1D0E9F8${String(i).padStart(2, '0')}`.replace(/[ILOU]/g, '0');
      tree[`projects/app/${id}.yaml`] = invariantYaml(id, `${'a'.repeat(1990)}!${i}`);
    }
    const store = testStore(tree);
    for (const args of [
      ['invariant', 'list', '(a+)+$'],
      ['invariant', 'list', '--project', 'app', '--effective', '(a+)+$'],
    ]) {
      // The limit lowered from its 2 s (regexTimeLimit's default, asserted below) so the test does not wait it out.
      const r = await runAgents(['--store', store, ...args], { env: { AGENTS_REGEX_TIME_LIMIT_MS: '200' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('regex "(a+)+$" took more than 0.2 s over 40 texts and was stopped');
      expect(r.stderr).toContain('nested repetition');
    }
  });

  it('the limit is 2 s unless AGENTS_REGEX_TIME_LIMIT_MS sets it; a value that is no positive number of ms stops with exit 2', async () => {
    expect(REGEX_TIME_LIMIT_MS).toBe(2000);
    expect(regexTimeLimit({})).toBe(2000);
    expect(regexTimeLimit({ AGENTS_REGEX_TIME_LIMIT_MS: '' })).toBe(2000);
    expect(regexTimeLimit({ AGENTS_REGEX_TIME_LIMIT_MS: '150' })).toBe(150);
    const store = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Valid') });
    for (const bad of ['0', '-5', '2s', '1e3']) {
      const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', 'Valid'], {
        env: { AGENTS_REGEX_TIME_LIMIT_MS: bad },
      });
      expect(r.code, bad).toBe(2);
      expect(errorOf(r).code, bad).toBe('usage');
    }
    const listed = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', 'Valid'], {
      env: { AGENTS_REGEX_TIME_LIMIT_MS: '5000' },
    });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((i) => i.id)).toEqual([ID]);
  });

  it('an over-long pattern is refused before it is compiled', async () => {
    const store = testStore();
    const r = await runAgents(['--store', store, 'invariant', 'list', 'a'.repeat(1001)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('regex is 1001 characters long; the limit is 1000');
  });
});

describe('files other programs leave in a store', () => {
  it("macOS metadata (`._ID.yaml`, `.DS_Store`), an editor's swap file and lock link are warned of, never read as invariants", async () => {
    const store = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data') });
    // AppleDouble: what macOS writes beside a file on a volume without extended attributes (binary, named after it).
    writeFileSync(join(store, `global/._${ID}.yaml`), Buffer.from([0, 5, 22, 7, 0, 2, 0, 0]));
    writeFileSync(join(store, 'global/.DS_Store'), Buffer.from([0, 0, 0, 1, 66, 117, 100, 49]));
    writeFileSync(join(store, `global/.${ID}.yaml.swp`), 'b0VIM 9.0');
    // Emacs's lock while the file is being edited: a link to nothing.
    symlinkSync('someone@host.4242:1701234567', join(store, `global/.#${ID}.yaml`));
    const list = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((i) => i.id)).toEqual([ID]);
    const v = await runAgents(['--store', store, '--format', 'json', 'validate']);
    expect(v.code).toBe(0);
    const found = (JSON.parse(v.stdout) as { diagnostics: { code: string; file: string; severity: string }[] }).diagnostics;
    const warned = found.filter((d) => d.severity !== 'info');
    expect(warned.map((d) => [d.file, d.code, d.severity]).sort()).toEqual([
      [`global/.#${ID}.yaml`, 'unknown-path', 'warning'],
      [`global/.${ID}.yaml.swp`, 'unknown-path', 'warning'],
      ['global/.DS_Store', 'unknown-path', 'warning'],
      [`global/._${ID}.yaml`, 'unknown-path', 'warning'],
    ]);
  });
});
