// An option given an empty value (an unset shell variable: `--rev "$BASE"`) names nothing: it is refused as that,
// missing-value naming the option, before any work, never read as a value the store or git lacks.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_TARGETS } from '../../src/core/model.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

describe('an empty value', () => {
  it('init --model, --base-url or --api-key-env "" is missing-value naming the flag, not the schema field, and creates nothing', async () => {
    const dir = tempDir();
    for (const [flag, actor] of [
      ['--model', ['--actor', 'llm', '--provider', 'openai']],
      ['--model', ['--actor', 'agent', '--agent', 'claude']],
      ['--base-url', ['--actor', 'llm', '--provider', 'openai']],
      ['--api-key-env', ['--actor', 'llm', '--provider', 'anthropic']],
    ] as const) {
      const r = await runAgents(['--format', 'json', 'init', '--store', join(dir, '.agents'), ...actor, flag, ' '], { cwd: dir });
      expect(errorOf(r), flag).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: flag.slice(2) } });
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('extends fetch --rev "" is missing-value naming rev', async () => {
    const store = testStore({});
    for (const rev of ['', ' ']) {
      const r = await runAgents(['--store', store, '--format', 'json', 'extends', 'fetch', '--rev', rev], { cwd: dirname(store) });
      expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'rev' } });
    }
  });

  it('an empty PATH of import or validate is refused (exit 2), never read as the current folder: import would take every file there', async () => {
    const store = testStore({ 'config.yaml': 'version: 1\n' });
    writeFileSync(join(dirname(store), 'AGENTS.md'), '- Never commit secrets.\n');
    for (const args of [
      ['import', '', '--yes'],
      ['import', 'AGENTS.md', ' ', '--yes'],
      ['validate', ''],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: dirname(store) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error.message, args.join(' ')).toBe('an empty path was given');
    }
    expect(readdirSync(join(store, 'global'))).toEqual([]);
  });

  it('extends fetch and update of a SOURCE "" or misspelt name it, with the sources known (detail), never all of them', async () => {
    const store = testStore({
      'config.yaml': 'version: 1\nextends:\n  - url: ../policy\n    ref: v1\n',
      'extends.lock.yaml': `version: 1\nsources:\n  - name: policy\n    url: ../policy\n    ref: v1\n    kind: tag\n    commit: ${'a'.repeat(40)}\n`,
    });
    for (const [args, source, suggestions] of [
      [['extends', 'fetch', ''], '', []],
      [['extends', 'update', 'polcy', '--dry-run'], 'polcy', ['policy']],
    ] as const) {
      const r = await runAgents(['--store', store, '--format', 'json', ...args], { cwd: dirname(store) });
      expect(errorOf(r), args.join(' ')).toMatchObject({ exit_code: 2, detail: { source, suggestions, known: ['policy'] } });
    }
  });

  it('an empty scope name (--project "", --plan=, --action " ") or --invariant is missing-value naming it, in every command, nothing written', async () => {
    const root = exampleStore();
    const before = fileList(root);
    for (const args of [
      ['invariant', 'add', '--project', '', 'Keep the changelog current'],
      ['invariant', 'list', '--plan='],
      ['invariant', 'move', '01M8KJT9G0XNWEM589ZS7FV0VT', '--action', ' '],
      ['invariant', 'diff', '--project', ''],
      ['export', '--project', '', '--target', 'agents-md'],
      ['invariant', 'violation', 'add', '--plan', '01M8KK59', '--invariant', ' '],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', ...args], { cwd: dirname(root) });
      // The option given empty: the one before an empty word, or one written with `=` and nothing after it.
      const option = args.find((a, i) => a.startsWith('--') && (a.endsWith('=') || args[i + 1]?.trim() === ''))!.replace(/^--|=$/g, '');
      expect(errorOf(r), args.join(' ')).toEqual({ code: 'missing-value', exit_code: 2, detail: { option } });
    }
    expect(fileList(root)).toEqual(before);
  });

  it('plan strategize --context "" is missing-value naming context, and nothing is written', async () => {
    const root = exampleStore();
    const before = fileList(root);
    const r = await runAgents(['--store', root, '--format', 'json', 'plan', 'strategize', EXAMPLE_PLAN, '--context', ''], {
      cwd: dirname(root),
    });
    expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'context' } });
    expect(fileList(root)).toEqual(before);
  });

  it('export --target "" is missing-value naming target and its choices, with --check too: never a check of nothing that passes', async () => {
    const root = exampleStore();
    for (const args of [
      ['--target', ''],
      ['--check', '--target', ''],
      ['--check', '--target', ' , '],
      ['--dry-run', '--target=,'],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', 'export', ...args], { cwd: dirname(root) });
      expect(errorOf(r), args.join(' ')).toEqual({
        code: 'missing-value',
        exit_code: 2,
        detail: { option: 'target', choices: [...EXPORT_TARGETS] },
      });
    }
  });
});
