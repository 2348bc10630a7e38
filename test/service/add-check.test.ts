import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const G = '01M8KJT9G0XNWEM589ZS7FV0VT';
const P = '01M8KJXYP0GVPRF8KRRE9G8474';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

function store() {
  return testStore({
    [`global/${G}.yaml`]: invariantYaml(G, 'Log all changes'),
    [`projects/myapp/${P}.yaml`]: invariantYaml(P, 'Log all changes'),
    'projects/web/': null,
    'projects/Bad Name/': null,
    'actions/local/code-coverage/action.yaml': 'description: coverage\n',
    [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\ngoal: Upgrade\n`,
  });
}

const files = (root: string): string[] => readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();

test('checkAdd reports duplicate and shadows without writing anything', async () => {
  const root = store();
  const service = new InvariantService(root);
  const before = files(root);
  const dup = await service.checkAdd({ scope: { global: true }, text: 'log all CHANGES' });
  expect(dup.duplicate?.id).toBe(G);
  expect(dup.shadowedBy.map((i) => i.id)).toEqual([P]);
  const plan = await service.checkAdd({ scope: { plan: PLAN }, text: 'Log all changes' });
  expect(plan.duplicate).toBeUndefined();
  expect(plan.shadows.map((i) => i.id).sort()).toEqual([G, P].sort());
  const fresh = await service.checkAdd({ scope: { project: 'newproj' }, text: 'Log all changes' });
  expect(fresh.shadows.map((i) => i.id)).toEqual([G]);
  expect(files(root)).toEqual(before);
});

test('checkAdd refuses bad scope names like add (exit 2)', async () => {
  const service = new InvariantService(store());
  await expect(service.checkAdd({ scope: { project: 'Bad Name' }, text: 'x' })).rejects.toMatchObject({ exitCode: 2 });
  await expect(service.checkAdd({ scope: { plan: '01M8KK5920RS6CGAVDFVYYJ0B5' }, text: 'x' })).rejects.toMatchObject({ exitCode: 2 });
});

test('scopes lists projects, actions and plans with valid names', async () => {
  const root = store();
  const catalog = await new InvariantService(root).scopes();
  expect(catalog.projects).toEqual(['myapp', 'web']);
  expect(catalog.actions).toEqual(['local/code-coverage']);
  expect(catalog.plans).toEqual([{ id: PLAN, project: 'myapp', goal: 'Upgrade' }]);
  expect(files(join(root, 'projects'))).toContain('Bad Name');
});

test('checkAdd and addContext say the invalid files and the policy sources they left unread, where a copy the text meets may be', async () => {
  const root = store();
  const broken = 'global/01M8KJW430VF8WCABSB8RTQ9ZZ.yaml';
  writeFileSync(join(root, broken), 'id: 01M8KJW430VF8WCABSB8RTQ9ZZ\ntext: [broken\n');
  const service = new InvariantService(root);
  const check = await service.checkAdd({ scope: { project: 'web' }, text: 'Only in the broken file' });
  expect(check.shadows).toEqual([]);
  expect(check.incomplete?.map((d) => d.file)).toEqual([broken]);
  expect((await service.addContext({ project: 'web' })).incomplete?.map((d) => d.file)).toEqual([broken]);
  // A policy source not pinned: its invariants were not read, and the answer says so with the command that reads them.
  writeFileSync(join(root, 'config.yaml'), 'extends:\n  - url: https://git.example.com/acme/acme-policy.git\n    ref: v3\n');
  expect((await service.checkAdd({ scope: { global: true }, text: 'x' })).inheritedMissing).toContain('agents extends update');
  // Every file read valid: nothing is said.
  expect((await new InvariantService(store()).checkAdd({ scope: { global: true }, text: 'x' })).incomplete).toBeUndefined();
});
