import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01M8KJ00000000000000000A00';
const B = '01M8KJ00000000000000000B00';

describe('invariant remove --yes, when what it shadows cannot be known', () => {
  it('refuses a valid file while the policy sources cannot be read (exit 3), and removes an invalid one (back_in_effect null)', async () => {
    const store = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Keep backups'),
      [`global/${B}.yaml`]: 'id: [\n',
      'config.yaml': 'version: 1\nextends:\n  - url: /nowhere/policy\n    ref: v1\n',
      'extends.lock.yaml': 'version: [\n',
    });
    const remove = (id: string) => runAgents(['--store', store, '--format', 'json', 'invariant', 'remove', '--yes', id]);
    const kept = await remove(A);
    expect(kept.code).toBe(3);
    expect(existsSync(join(store, `global/${A}.yaml`))).toBe(true);
    rmSync(join(store, 'extends.lock.yaml'));
    writeFileSync(join(store, 'config.yaml'), 'version: 1\n');
    const removed = await remove(B);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: B, back_in_effect: null });
    expect(existsSync(join(store, `global/${B}.yaml`))).toBe(false);
  });
});

describe('an id that names no invariant, once removed or never there', () => {
  it('is unknown-id (exit 2) with the id and the closest ids, in edit, show and remove alike', async () => {
    const store = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Keep backups'), [`global/${B}.yaml`]: invariantYaml(B, 'Log') });
    const run = (...args: string[]) => runAgents(['--store', store, '--format', 'json', 'invariant', ...args]);
    expect((await run('remove', '--yes', B)).code).toBe(0);
    for (const args of [
      ['edit', B, '--tag', 'x'],
      ['show', B],
      ['remove', '--yes', B],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'unknown-id', detail: { id: B, suggestions: [A] } });
    }
    expect(JSON.parse((await run('show', '7zzzzz')).stdout).error).toMatchObject({
      code: 'unknown-id',
      detail: { id: '7ZZZZZ', suggestions: [] },
    });
  });
});
