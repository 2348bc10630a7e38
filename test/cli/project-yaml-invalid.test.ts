// A project.yaml that cannot be read hides the paths it names. The commands that
// look at projects' paths stop on it (exit 3, naming the file), as `which` and
// `export` do, rather than read it as no paths: inference would pick no project
// (a plan made for none), `project add` would not see an overlap, and
// `export --project P` would write a nested file it may share without its section.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const ACTION_INVARIANT = '01JGA00000000000000000000A';

/** A store whose one project, billing, holds services/billing/** in a project.yaml the schema refuses. */
function storeWithBrokenProject(): { store: string; billing: string } {
  const store = testStore({
    'config.yaml': 'version: 1\n',
    'projects/billing/project.yaml': 'paths:\n  - services/billing/**\n  - 5\n',
    [`actions/ops/deploy/${ACTION_INVARIANT}.yaml`]: invariantYaml(ACTION_INVARIANT, 'Tag every release'),
  });
  const billing = join(dirname(store), 'services/billing');
  mkdirSync(billing, { recursive: true });
  return { store, billing };
}

function expectBrokenProjectYaml(r: RunResult): void {
  expect(r.code).toBe(3);
  const error = errorOf(r);
  expect(error.code).toBe('invalid-store');
  expect((error.detail as { diagnostics: { file: string; line: number }[] }).diagnostics).toMatchObject([
    { file: 'projects/billing/project.yaml', line: 3 },
  ]);
}

describe('an invalid project.yaml, the only one of the store', () => {
  it('stops the inference of the project from the current folder (exit 3), never read as a folder of no project', async () => {
    const { store, billing } = storeWithBrokenProject();
    for (const args of [
      ['plan', 'use', 'ops/deploy'],
      ['invariant', 'add', 'Retry a payment at most three times'],
      ['invariant', 'list', '--effective'],
    ])
      expectBrokenProjectYaml(await runAgents([...args, '--format', 'json'], { cwd: billing }));
    expect(readdirSync(join(store, 'plans'))).toEqual([]);
  });

  it('stops project add with paths (exit 3, nothing written): the paths it names cannot be compared', async () => {
    const { store } = storeWithBrokenProject();
    const r = await runAgents(['project', 'add', 'other', '--path', 'services/**', '--format', 'json'], { cwd: dirname(store) });
    expectBrokenProjectYaml(r);
    expect(existsSync(join(store, 'projects/other'))).toBe(false);
  });

  it('stops export --project of another project that has nested files (exit 3, nothing written): the invalid one may share them', async () => {
    const web = '01JGA00000000000000000000B';
    const store = testStore({
      'config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
      'projects/billing/project.yaml': 'paths:\n  - apps/web/**\n  - 5\n',
      'projects/web/project.yaml': 'paths:\n  - apps/web/**\n',
      [`projects/web/${web}.yaml`]: invariantYaml(web, 'Never ship UI copy without review'),
    });
    const top = dirname(store);
    mkdirSync(join(top, 'apps/web'), { recursive: true });
    expectBrokenProjectYaml(await runAgents(['export', '--project', 'web', '--format', 'json'], { cwd: top }));
    expect(readdirSync(join(top, 'apps/web'))).toEqual([]);
  });
});
