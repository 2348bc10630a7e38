import { describe, expect, it } from 'vitest';
import type { Plan, ScopedInvariant } from '../../src/core/model.ts';
import { parseDecision, parseEnforcement, parseViolation } from '../../src/core/record-parse.ts';
import {
  buildActorRequest,
  computeDrift,
  parseActorAnswer,
  planSync,
  PROTOCOL,
  RECORD_SCHEMAS,
  selectPromoted,
} from '../../src/core/records.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const id = (c: string) => `01M8KK000000000000000000${c}`;

/** An invariant of the action template `ref` (ns/name). */
function act(ref: string, i: string, text: string, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  const [ns, name] = ref.split('/') as [string, string];
  return {
    id: id(i),
    text,
    severity: 'error',
    active: true,
    tags: [],
    scope: { kind: 'action', ns, name },
    path: `actions/${ref}/${id(i)}.yaml`,
    ...extra,
  };
}

/** A plan invariant promoted from `origin` of the action `ref`. */
function promoted(i: string, ref: string, origin: string, text: string, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return {
    id: id(i),
    text,
    severity: 'error',
    active: true,
    tags: [],
    scope: { kind: 'plan', plan: PLAN },
    path: `plans/${PLAN}/${id(i)}.yaml`,
    source: { kind: 'action', ref, origin_id: id(origin) },
    ...extra,
  };
}

const plan = (action?: string): Plan => (action ? { id: PLAN, action } : { id: PLAN });

describe('computeDrift: whole items', () => {
  it('changed (each field), removed and added, per action in name order', () => {
    const planInvs = [
      promoted('P1', 'n/x', 'A1', 'Alpha'),
      promoted('P2', 'n/x', 'A2', 'Beta'),
      promoted('P3', 'n/x', 'A3', 'Gamma'),
      promoted('P4', 'm/y', 'B1', 'One'),
      promoted('P5', 'n/x', 'A5', 'Off here', { active: false }),
    ];
    const actions = new Map([
      [
        'n/x',
        [
          act('n/x', 'A1', 'Alpha, changed', { severity: 'warning' }),
          act('n/x', 'A2', 'Beta'),
          act('n/x', 'A4', 'Delta'),
          act('n/x', 'A5', 'Off here', { active: false }),
          act('n/x', 'A6', 'gamma'),
        ],
      ],
      ['m/y', [act('m/y', 'B1', 'One', { active: false })]],
    ]);
    expect(computeDrift(plan(), planInvs, actions)).toEqual([
      {
        kind: 'changed',
        action: 'm/y',
        origin_id: id('B1'),
        plan_invariant_id: id('P4'),
        fields: ['active'],
        text: 'One',
        action_text: 'One',
      },
      {
        kind: 'changed',
        action: 'n/x',
        origin_id: id('A1'),
        plan_invariant_id: id('P1'),
        fields: ['text', 'severity'],
        text: 'Alpha',
        action_text: 'Alpha, changed',
      },
      { kind: 'removed', action: 'n/x', origin_id: id('A3'), plan_invariant_id: id('P3'), text: 'Gamma' },
      { kind: 'added', action: 'n/x', origin_id: id('A4'), text: 'Delta' },
      // The text the removed copy gives up is free for the origin added with it.
      { kind: 'added', action: 'n/x', origin_id: id('A6'), text: 'gamma' },
    ]);
  });

  it("the plan's own action is compared even with nothing promoted from it; a missing action removes every copy", () => {
    const actions = new Map([['n/x', [act('n/x', 'A2', 'Two'), act('n/x', 'A1', 'One'), act('n/x', 'A3', ' ONE ')]]]);
    expect(computeDrift(plan('n/x'), [], actions)).toEqual([
      { kind: 'added', action: 'n/x', origin_id: id('A1'), text: 'One' },
      { kind: 'added', action: 'n/x', origin_id: id('A2'), text: 'Two' },
    ]);
    expect(computeDrift(plan('gone/x'), [promoted('P1', 'gone/x', 'A1', 'One')], new Map())).toEqual([
      { kind: 'removed', action: 'gone/x', origin_id: id('A1'), plan_invariant_id: id('P1'), text: 'One' },
    ]);
    expect(computeDrift(plan(), [], actions)).toEqual([]);
  });

  it('only copies with an action source, a ref and an origin count', () => {
    const base = promoted('P1', 'n/x', 'A1', 'One');
    const planInvs: ScopedInvariant[] = [
      { ...base, id: id('Q1'), source: { kind: 'plan', ref: 'n/x', origin_id: id('A1') } },
      { ...base, id: id('Q2'), source: { kind: 'action', origin_id: id('A1') } },
      { ...base, id: id('Q3'), source: { kind: 'action', ref: 'n/x' } },
      { ...base, id: id('Q4'), source: undefined },
    ];
    expect(computeDrift(plan(), planInvs, new Map([['n/x', []]]))).toEqual([]);
  });
});

describe('planSync', () => {
  it('copies a changed origin onto its copy, keeping the id, creation and provenance', () => {
    const before = promoted('P1', 'n/x', 'A1', 'Alpha', { rationale: 'old why', tags: ['t'], created_at: '2026-01-01T00:00:00Z' });
    const origin = act('n/x', 'A1', 'Alpha, changed', { severity: 'info', tags: ['u', 'v'] });
    const r = planSync(plan(), [before], new Map([['n/x', [origin]]]));
    const after = {
      ...before,
      text: 'Alpha, changed',
      severity: 'info',
      tags: ['u', 'v'],
    };
    delete (after as Partial<ScopedInvariant>).rationale;
    expect(r).toEqual({
      changes: [
        {
          kind: 'changed',
          drift: {
            kind: 'changed',
            action: 'n/x',
            origin_id: id('A1'),
            plan_invariant_id: id('P1'),
            fields: ['text', 'severity'],
            text: 'Alpha',
            action_text: 'Alpha, changed',
          },
          before,
          after,
        },
      ],
      skipped: [],
    });
    const changed = r.changes[0]!;
    if (changed.kind !== 'changed') throw new Error('expected a change');
    expect('rationale' in changed.after).toBe(false);
    expect(changed.after.tags).not.toBe(origin.tags);
    expect(before.rationale).toBe('old why');
  });

  it("takes the origin's rationale; a deactivated origin deactivates the copy; an active one activates an inactive copy", () => {
    const planInvs = [
      promoted('P1', 'n/x', 'A1', 'One'),
      promoted('P2', 'n/x', 'A2', 'Two'),
      promoted('P3', 'n/x', 'A3', 'Three', { active: false }),
    ];
    const actions = new Map([
      [
        'n/x',
        [
          act('n/x', 'A1', 'One', { rationale: 'new why', severity: 'warning' }),
          act('n/x', 'A2', 'Two', { active: false }),
          act('n/x', 'A3', 'Three, changed'),
        ],
      ],
    ]);
    const r = planSync(plan(), planInvs, actions);
    expect(r.skipped).toEqual([]);
    expect(r.changes.map((c) => (c.kind === 'changed' ? c.after : undefined))).toEqual([
      { ...planInvs[0]!, severity: 'warning', rationale: 'new why' },
      { ...planInvs[1]!, active: false },
      { ...planInvs[2]!, text: 'Three, changed', active: true },
    ]);
  });

  it('removes copies whose origin is gone, first, and promotes added origins', () => {
    const gone = promoted('P1', 'n/x', 'A1', 'Old');
    const added = act('n/x', 'A2', 'New');
    const r = planSync(plan('n/x'), [gone], new Map([['n/x', [added]]]));
    expect(r).toEqual({
      changes: [
        {
          kind: 'removed',
          drift: { kind: 'removed', action: 'n/x', origin_id: id('A1'), plan_invariant_id: id('P1'), text: 'Old' },
          before: gone,
        },
        { kind: 'added', drift: { kind: 'added', action: 'n/x', origin_id: id('A2'), text: 'New' }, origin: added },
      ],
      skipped: [],
    });
  });

  it('skips a change to a text the plan already holds, naming the holder', () => {
    const mine = { ...promoted('H1', 'n/x', 'A9', 'Held'), source: { kind: 'plan' as const } };
    const mine2 = { ...promoted('H2', 'n/x', 'A9', ' held '), source: { kind: 'plan' as const } };
    const copy = promoted('P1', 'n/x', 'A1', 'Alpha');
    const actions = new Map([
      ['n/x', [act('n/x', 'A1', 'HELD')]],
      ['m/y', [act('m/y', 'A2', 'held')]],
    ]);
    const r = planSync(plan('m/y'), [mine, mine2, copy], actions);
    expect(r.changes).toEqual([]);
    expect(r.skipped.map((s) => [s.drift.kind, s.drift.origin_id, s.reason])).toEqual([
      ['added', id('A2'), `the plan already holds this text as ${id('H1')}`],
      ['changed', id('A1'), `the plan already holds the new text as ${id('H1')}`],
    ]);
  });

  it('a text freed by a removal or a change can be taken; a text taken by a change or an addition cannot be taken again', () => {
    const planInvs = [
      promoted('P1', 'n/x', 'A1', 'Alpha'),
      promoted('P2', 'n/x', 'A2', 'Beta'),
      promoted('P3', 'n/x', 'A3', 'Gamma'),
      promoted('P4', 'm/y', 'B1', 'Delta'),
    ];
    const actions = new Map([
      // Drift comes in action order (m/y, n/x, o/z), removals first: A1 is gone (frees Alpha); B2 of m/y
      // would add Beta, still P2's; A2 takes Alpha, freeing Beta, which A3 takes; C1 would add Epsilon, which B3 took.
      ['n/x', [act('n/x', 'A2', 'alpha'), act('n/x', 'A3', 'beta')]],
      ['m/y', [act('m/y', 'B1', 'Delta'), act('m/y', 'B2', 'BETA'), act('m/y', 'B3', 'Epsilon')]],
      ['o/z', [act('o/z', 'C1', 'Epsilon')]],
    ]);
    const r = planSync(plan('o/z'), planInvs, actions);
    expect(r.changes.map((c) => [c.kind, c.drift.origin_id])).toEqual([
      ['removed', id('A1')],
      ['added', id('B3')],
      ['changed', id('A2')],
      ['changed', id('A3')],
    ]);
    expect(r.skipped).toEqual([
      {
        drift: { kind: 'added', action: 'm/y', origin_id: id('B2'), text: 'BETA' },
        reason: `the plan already holds this text as ${id('P2')}`,
      },
      {
        drift: { kind: 'added', action: 'o/z', origin_id: id('C1'), text: 'Epsilon' },
        reason: `the plan already holds this text as ${id('B3')}`,
      },
    ]);
  });

  it('a change that keeps the text key (case, spaces) is not a clash with itself', () => {
    const copy = promoted('P1', 'n/x', 'A1', 'Alpha');
    const r = planSync(plan(), [copy], new Map([['n/x', [act('n/x', 'A1', ' ALPHA ')]]]));
    expect(r.skipped).toEqual([]);
    expect(r.changes.map((c) => (c.kind === 'changed' ? c.after.text : ''))).toEqual([' ALPHA ']);
  });
});

describe('selectPromoted: whole result', () => {
  it('sorts by id, keeps the first of a text key, skips inactive ones', () => {
    const a = act('n/x', 'A3', 'Same');
    const b = act('n/x', 'A1', 'same ');
    const c = act('n/x', 'A2', 'Other', { active: false });
    const d = act('n/x', 'A4', 'Fourth');
    expect(selectPromoted([a, d, b, c])).toEqual({ kept: [b, d], duplicates: [{ invariant: a, of: id('A1') }] });
  });
});

describe('buildActorRequest: scopes', () => {
  it('a project invariant is sent as project, an inherited one as global; no rationale or source, none sent', () => {
    const base = act('n/x', 'A1', 't');
    const req = buildActorRequest(plan(), 'c', [
      { ...base, scope: { kind: 'project', project: 'p' } },
      { ...base, id: id('A2'), scope: { kind: 'inherited', source: 's', order: 0 }, severity: 'info' },
    ]);
    expect(req).toEqual({
      protocol: PROTOCOL,
      plan: { id: PLAN, action: null, project: null, goal: null },
      context: 'c',
      invariants: [
        { id: id('A1'), text: 't', severity: 'error', scope: 'project', tags: [] },
        { id: id('A2'), text: 't', severity: 'info', scope: 'global', tags: [] },
      ],
    });
    expect(PROTOCOL).toBe('agents-reconcile/1');
    expect(req.invariants.map((i) => Object.keys(i))).toEqual([
      ['id', 'text', 'severity', 'scope', 'tags'],
      ['id', 'text', 'severity', 'scope', 'tags'],
    ]);
  });
});

describe('the record readers', () => {
  const A = id('0A');
  const B = id('0B');
  it('read a record written by hand (comments, quotes) through the full parser', () => {
    expect(
      parseDecision(
        'd.yaml',
        enc(`# by hand\nid: "${A}"\ntype: invariant_enforced\nparent_id: null # root\ncreated_at: 2026-11-30T00:00:00Z\nsummary: 's'\n`),
        A,
      ),
    ).toEqual({
      value: { id: A, type: 'invariant_enforced', parent_id: null, created_at: '2026-11-30T00:00:00Z', summary: 's' },
      diagnostics: [],
    });
    expect(
      parseEnforcement(
        'e.yaml',
        enc(`# by hand\nid: ${B}\ndecision_id: ${A}\ncreated_at: 2026-11-30T00:00:00Z\nactor: command\nrecords: []\n`),
        B,
      ),
    ).toEqual({
      value: { id: B, decision_id: A, created_at: '2026-11-30T00:00:00Z', actor: 'command', records: [] },
      diagnostics: [],
    });
    expect(
      parseViolation(
        'v.yaml',
        enc(`# by hand\nid: ${A}\ninvariant_id: ${B}\nviolated_text: "t"\nseverity: info\ncreated_at: 2026-11-30T00:00:00Z\n`),
        A,
      ),
    ).toEqual({
      value: { id: A, invariant_id: B, violated_text: 't', severity: 'info', created_at: '2026-11-30T00:00:00Z' },
      diagnostics: [],
    });
  });

  it('the schema of each kind of record', () => {
    expect(RECORD_SCHEMAS).toEqual({
      decisions: 'decision.schema.json',
      enforcement: 'enforcement.schema.json',
      violations: 'violation.schema.json',
    });
  });
});

describe('parseActorAnswer: exact reasons', () => {
  it("not JSON: the parser's own message", () => {
    let message = '';
    try {
      JSON.parse('{"results": [}');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(parseActorAnswer(' {"results": [} ')).toEqual({
      ok: false,
      reason: `the actor's answer is not JSON (${message}); it begins "{\\"results\\": [}"`,
    });
  });

  it('an unknown key of a result is named with its path', () => {
    expect(parseActorAnswer(`{"results":[{"invariant_id":"${id('0A')}","enforced":true,"response":"","why":1}]}`)).toEqual({
      ok: false,
      reason: 'the actor\'s answer does not match actor-response.schema.json: results.0 has an unknown key "why"',
    });
  });
});
