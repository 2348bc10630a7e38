import { describe, expect, it } from 'vitest';
import type { DecisionNode } from '../../src/core/records.ts';
import { makeStyle } from '../../src/core/style.ts';
import { planShowJson, planShowText } from '../../src/present/plan-show.ts';
import type { PlanShow } from '../../src/service/plans/types.ts';

const PLAN = '01JDQ6X5Z8W4N3B2C1D0000001';
const bare: PlanShow = {
  plan: { id: PLAN, project: 'app', goal: 'Ship it' } as PlanShow['plan'],
  effective: [],
  warnings: [],
  waivers: [],
  violations: [],
  waived: [],
  drift: [],
};
const decision: DecisionNode = {
  id: '01JDQ6X5Z8W4N3B2C1D0000002',
  type: 'invariant_enforced',
  parent_id: null,
  created_at: '2026-11-30T10:00:00Z',
  created_by: 'Ops <ops@example.com>',
  summary: 'Reconciled 3 invariants:\nall enforced',
  enforcement_id: '01JDQ6X5Z8W4N3B2C1D0000003',
  actor: 'command',
} as DecisionNode;

describe('plan show as text', () => {
  it('says the latest decision its JSON gives (latest_decision), or that there is none yet', () => {
    const s = makeStyle(false);
    const text = planShowText(s, { ...bare, latestDecision: decision }, 'agents');
    const json = planShowJson({ ...bare, latestDecision: decision }).latest_decision!;
    const section = text.slice(text.indexOf('Latest decision'), text.indexOf('Latest enforcement'));
    for (const fact of [json.id, json.type, json.created_at, json.created_by!, json.enforcement_id!, json.actor!])
      expect(section).toContain(fact);
    // Its summary on one line, as the decision tree writes it.
    expect(section).toContain('Reconciled 3 invariants:\\nall enforced');
    expect(planShowJson(bare).latest_decision).toBeNull();
    const none = planShowText(s, bare, 'agents');
    expect(none.slice(none.indexOf('Latest decision'), none.indexOf('Latest enforcement'))).toContain(`agents plan strategize ${PLAN}`);
  });
});
