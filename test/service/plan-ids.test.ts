import { describe, expect, it } from 'vitest';
import { planIds } from '../../src/store/listing.ts';
import { storeWords } from '../../src/service/invariants/projects.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { PlanService } from '../../src/index.ts';
import type { UsageError } from '../../src/core/errors.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01JA0000000000000000000000';
const B = '01JB0000000000000000000000';

describe('planIds: the one list of a store’s plans, by folder name', () => {
  it('lists the folders of plans/ named by an id, sorted, and nothing else; the completion offers the same', async () => {
    const root = testStore({
      [`plans/${B}/plan.yaml`]: `id: ${B}\n`,
      [`plans/${A}/`]: null,
      'plans/not-an-id/': null,
      [`plans/${A.replace('A', 'C')}.yaml`]: 'a file, not a plan folder\n',
      'plans/.gitkeep': '',
    });
    const tree = new WorkingTreeSource(root);
    expect(await planIds(tree)).toEqual([A, B]);
    expect(await storeWords(tree, 'plan')).toEqual(await planIds(tree));
  });

  it('a store without plans/ has none', async () => {
    const root = testStore();
    expect(await planIds(new WorkingTreeSource(root))).toEqual([]);
  });
});

describe('an id of another kind given for a plan, a violation or an invariant', () => {
  it('is refused (exit 2) naming what it is and where, and a prefix of nothing stays unknown', async () => {
    const root = testStore({
      'actions/local/cov/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml': invariantYaml('01M8KK1KW0KPRSWWKENT2QZ1QM', 'Minimum 80% coverage'),
    });
    const plans = PlanService.open({ store: root });
    const { plan, promoted } = await plans.use({ action: 'local/cov' });
    const copy = promoted[0]!.id;
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        // What the id names (the error's code, the id and the closest ids: below).
        (e: UsageError) => ({ code: e.exitCode, detail: e.detail?.names === undefined ? undefined : { names: e.detail.names } }),
      );
    expect(await refused(plans.status(copy))).toEqual({
      code: 2,
      detail: { names: [{ kind: 'invariant', id: copy, path: `plans/${plan.id}/${copy}.yaml` }] },
    });
    expect(await refused(plans.resolveViolation(plan.id))).toEqual({
      code: 2,
      detail: { names: [{ kind: 'plan', id: plan.id, path: `plans/${plan.id}` }] },
    });
    // A whole id too, where a scope takes it (`invariant add --plan ID`, `list --plan ID`), not only a prefix.
    const names = { names: [{ kind: 'invariant', id: copy, path: `plans/${plan.id}/${copy}.yaml` }] };
    expect(await refused(plans.invariants.add({ scope: { plan: copy }, text: 'Keep the report' }))).toEqual({ code: 2, detail: names });
    expect(await refused(plans.invariants.list({ scope: { plan: copy } }))).toEqual({ code: 2, detail: names });
    // plan strategize says it before what the actor lacks (this store configures none): the id is the mistake.
    const strategize = await runAgents(['--store', root, '--format', 'json', 'plan', 'strategize', copy], { cwd: root });
    expect(errorOf(strategize)).toMatchObject({ exit_code: 2, detail: names });
    expect(await refused(plans.status('7ZZZZ'))).toEqual({ code: 2, detail: undefined });
    const unknown = (await plans.status(copy).catch((e: UsageError) => e)) as UsageError;
    expect([unknown.code, unknown.detail?.id, unknown.detail?.suggestions]).toEqual(['unknown-id', copy, []]);
    // And a plan's id given for an invariant's, in either case (a prefix of it may name the plan's own copies).
    const invariants = plans.invariants;
    for (const given of [plan.id, plan.id.toLowerCase()])
      expect(await refused(invariants.show(given))).toEqual({
        code: 2,
        detail: { names: [{ kind: 'plan', id: plan.id, path: `plans/${plan.id}` }] },
      });
    expect(await refused(invariants.remove('7ZZZZ'))).toEqual({ code: 2, detail: undefined });
  });
});
