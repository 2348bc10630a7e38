// An option given an empty value (an unset shell variable: `--rev "$BASE"`) names nothing: it is refused as that,
// missing-value naming the option, before any work, never read as a value the store or git lacks.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
import { testStore } from '../helpers/tmp.ts';

describe('an empty value', () => {
  it('extends fetch --rev "" is missing-value naming rev', async () => {
    const store = testStore({});
    for (const rev of ['', ' ']) {
      const r = await runAgents(['--store', store, '--format', 'json', 'extends', 'fetch', '--rev', rev], { cwd: dirname(store) });
      expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'rev' } });
    }
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

  it('export --target "" is missing-value naming target, with --check too: never a check of nothing that passes', async () => {
    const root = exampleStore();
    for (const args of [
      ['--target', ''],
      ['--check', '--target', ''],
      ['--check', '--target', ' , '],
      ['--dry-run', '--target=,'],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', 'export', ...args], { cwd: dirname(root) });
      expect(errorOf(r), args.join(' ')).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'target' } });
    }
  });
});
