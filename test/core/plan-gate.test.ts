import { describe, expect, it } from 'vitest';
import {
  committedRuns,
  invariantDigestInput,
  judgePlan,
  RELAXABLE,
  setChanges,
  setDigestInput,
  type GateFacts,
} from '../../src/core/plan-gate.ts';
import { latestDecision, type DecisionNode, type EnforcementRun, type Violation } from '../../src/core/records.ts';

const A = '01M8KJT9G0XNWEM589ZS7FV0VT';
const B = '01M8KJXYP0GVPRF8KRRE9G8474';
const C = '01M8KJZS90J6DRJJ8E264B9DFX';
const NODE = '01M8N9AR862N43YQXPHY3BQEV6';
const RUN = '01M8N9AR87YBEA8WND1GWHNXA3';

function run(enforced: Record<string, boolean>, extra: Partial<EnforcementRun> = {}): EnforcementRun {
  return {
    id: RUN,
    decision_id: NODE,
    created_at: '2026-11-30T03:52:42Z',
    actor: 'command',
    set_digest: 'D1',
    records: Object.entries(enforced).map(([id, e]) => ({
      invariant_id: id,
      enforced: e,
      actor_response: e ? 'ok' : 'no',
      decision_id: NODE,
    })),
    ...extra,
  };
}

const node: DecisionNode = {
  id: NODE,
  type: 'invariant_enforced',
  parent_id: null,
  created_at: '2026-11-30T03:52:42Z',
  summary: 's',
  enforcement_id: RUN,
  actor: 'command',
};

function facts(partial: Partial<GateFacts>): GateFacts {
  return {
    effective: [
      { id: A, severity: 'error' },
      { id: B, severity: 'warning' },
    ],
    setDigest: 'D1',
    unfinished: [],
    violations: [],
    ...partial,
  };
}

function violation(severity: Violation['severity']): Violation {
  return { id: '01M8NA0000000000000000000V', invariant_id: A, violated_text: 'x', severity, created_at: '2026-11-30T04:00:00Z' };
}

const codes = (f: GateFacts, allow?: Parameters<typeof judgePlan>[1]) => {
  const v = judgePlan(f, allow);
  return { failing: v.failing, reasons: v.reasons.map((r) => `${r.level}:${r.code}${r.allowed ? ':allowed' : ''}`) };
};

describe('judgePlan: the plan status gate', () => {
  it.each<[string, Partial<GateFacts>, { failing: boolean; reasons: string[] }]>([
    [
      "every invariant enforced by a run of today's set: passes",
      { latest: { node, run: run({ [A]: true, [B]: true }) } },
      { failing: false, reasons: [] },
    ],
    ['never run, with invariants to enforce: fails', {}, { failing: true, reasons: ['fail:not-run'] }],
    [
      'a template changed since the plan was made from it: reported, never failing',
      {
        latest: { node, run: run({ [A]: true, [B]: true }) },
        drift: { actions: ['local/release'], changed: 1, removed: 0, added: 1, gone: [] },
      },
      { failing: false, reasons: ['report:drift'] },
    ],
    [
      'a template the plan was made from that cannot be read: reported, never failing',
      {
        latest: { node, run: run({ [A]: true, [B]: true }) },
        drift: {
          actions: [],
          changed: 0,
          removed: 0,
          added: 0,
          gone: [{ ref: 'local/release', why: 'actions/local/release/ does not exist' }],
        },
      },
      { failing: false, reasons: ['report:drift'] },
    ],
    [
      'templates that could not be compared (an invalid file in one): reported, never failing',
      {
        latest: { node, run: run({ [A]: true, [B]: true }) },
        drift: { actions: [], changed: 0, removed: 0, added: 0, gone: [], unread: 'cannot compare plan P with action local/release' },
      },
      { failing: false, reasons: ['report:drift'] },
    ],
    [
      'no drift counted: nothing said',
      { latest: { node, run: run({ [A]: true, [B]: true }) }, drift: { actions: [], changed: 0, removed: 0, added: 0, gone: [] } },
      { failing: false, reasons: [] },
    ],
    ['never run, empty set: passes', { effective: [] }, { failing: false, reasons: [] }],
    [
      'the actor failed (time-out: 0 of 2 enforced): fails',
      { latest: { node, run: run({ [A]: false, [B]: false }, { error: 'the actor did not answer within 800 ms' }) } },
      { failing: true, reasons: ['fail:run-failed', 'fail:unenforced', 'report:unenforced'] },
    ],
    [
      'an error invariant unenforced: fails',
      { latest: { node, run: run({ [A]: false, [B]: true }) } },
      { failing: true, reasons: ['fail:unenforced'] },
    ],
    [
      'only a warning invariant unenforced: reports',
      { latest: { node, run: run({ [A]: true, [B]: false }) } },
      { failing: false, reasons: ['report:unenforced'] },
    ],
    [
      'the set changed since the run (digest differs): fails',
      { setDigest: 'D2', latest: { node, run: run({ [A]: true, [B]: true }) } },
      { failing: true, reasons: ['fail:stale'] },
    ],
    [
      'an invariant added since a run without a digest: fails as stale, and the run has no record of it',
      {
        effective: [
          { id: A, severity: 'error' },
          { id: B, severity: 'warning' },
          { id: C, severity: 'info' },
        ],
        latest: { node, run: run({ [A]: true, [B]: true }, { set_digest: undefined }) },
      },
      { failing: true, reasons: ['fail:stale', 'report:unenforced'] },
    ],
    [
      'same digest but a record missing: fails as incomplete, and the invariant is unenforced',
      { latest: { node, run: run({ [A]: true }) } },
      { failing: true, reasons: ['fail:run-incomplete', 'report:unenforced'] },
    ],
    [
      'the decision node names a missing enforcement file: fails, and nothing of the set is enforced',
      { latest: { node } },
      { failing: true, reasons: ['fail:run-incomplete', 'fail:unenforced', 'report:unenforced'] },
    ],
    [
      'an error violation: fails',
      { violations: [violation('error')], latest: { node, run: run({ [A]: true, [B]: true }) } },
      { failing: true, reasons: ['fail:error-violation'] },
    ],
    [
      'warning and info violations, an unfinished run: report',
      {
        violations: [violation('warning'), violation('info')],
        unfinished: ['01M8N9B000000000000000000X'],
        latest: { node, run: run({ [A]: true, [B]: true }) },
      },
      { failing: false, reasons: ['report:violation', 'report:violation', 'report:unfinished-run'] },
    ],
    [
      "the plan's project is gone, though every invariant of the set it resolves to is enforced: fails",
      { missingProject: { project: 'ghost', at: 'plans/P/plan.yaml:3:10' }, latest: { node, run: run({ [A]: true, [B]: true }) } },
      { failing: true, reasons: ['fail:unknown-project'] },
    ],
  ])('%s', (_name, partial, expected) => {
    expect(codes(facts(partial))).toEqual(expected);
  });

  it('relaxes exactly the reasons --allow names, and never an error violation', () => {
    const failed = facts({ violations: [violation('error')], latest: { node, run: run({ [A]: false, [B]: true }, { error: 'crashed' }) } });
    expect(codes(failed, { allow: ['run-failed'] })).toEqual({
      failing: true,
      reasons: ['fail:error-violation', 'report:run-failed:allowed', 'fail:unenforced'],
    });
    expect(codes({ ...failed, violations: [] }, { allow: ['run-failed', 'unenforced'] })).toEqual({
      failing: false,
      reasons: ['report:run-failed:allowed', 'report:unenforced:allowed'],
    });
    expect(codes(facts({}), { allow: ['not-run'] })).toEqual({ failing: false, reasons: ['report:not-run:allowed'] });
    // Not even when a caller of the library names it (the types refuse it; JavaScript does not): the rule is here,
    // not in the CLI's choices.
    expect(codes(failed, { allow: ['error-violation', 'run-failed', 'unenforced'] as never })).toEqual({
      failing: true,
      reasons: ['fail:error-violation', 'report:run-failed:allowed', 'report:unenforced:allowed'],
    });
  });
});

describe('committedRuns: a run counts only once its decision node is written', () => {
  it('takes the newest node with its run, and reports enforcement files no node names', () => {
    const orphan = { ...run({ [A]: true }), id: '01M8N9B000000000000000000X', decision_id: '01M8N9B000000000000000000Y' };
    expect(committedRuns([node], [run({ [A]: true }), orphan])).toEqual({
      latest: { node, run: run({ [A]: true }) },
      unfinished: [orphan.id],
    });
    expect(committedRuns([], [orphan])).toEqual({ unfinished: [orphan.id] });
    expect(committedRuns([node], [])).toEqual({ latest: { node }, unfinished: [] });
  });

  it('the latest run is the tip of the tree, not a node a clock set ahead dated newest', () => {
    // A run on a laptop two minutes ahead, then a run on a right clock: its parent is the first (strategize takes the tip).
    const ahead = { ...node, id: '01M9Z00000000000000000000A', enforcement_id: '01M9Z00000000000000000000B' };
    const later = { ...node, id: '01M91700000000000000000000', parent_id: ahead.id, enforcement_id: '01M91700000000000000000001' };
    const runs = [
      { ...run({ [A]: true, [B]: true }), id: ahead.enforcement_id, decision_id: ahead.id },
      { ...run({ [A]: false, [B]: false }), id: later.enforcement_id, decision_id: later.id },
    ];
    expect(committedRuns([ahead, later], runs).latest?.node.id).toBe(later.id);
    expect(latestDecision([ahead, later])?.id).toBe(later.id);
    expect(judgePlan(facts({ latest: committedRuns([ahead, later], runs).latest })).failing).toBe(true);
  });

  it("a node naming another node's enforcement file has no run: the file's own node is said, and the gate fails", () => {
    const first = { ...node, id: '01M8N9A0000000000000000000', enforcement_id: '01M8N9A0000000000000000001' };
    const copied = { ...node, parent_id: first.id, enforcement_id: first.enforcement_id };
    const runs = [{ ...run({ [A]: true, [B]: true }), id: first.enforcement_id, decision_id: first.id }];
    const { latest } = committedRuns([first, copied], runs);
    expect(latest).toEqual({ node: copied, runOf: first.id });
    const verdict = judgePlan(facts({ latest }));
    expect(verdict.failing).toBe(true);
    expect(verdict.reasons[0]).toMatchObject({ code: 'run-incomplete', level: 'fail' });
    expect(verdict.reasons[0]!.message).toContain(first.id);
  });

  it('finds the run of an older node without enforcement_id by its decision_id', () => {
    const { enforcement_id: _e, ...old } = node;
    expect(committedRuns([old], [run({ [A]: true })]).latest?.run?.id).toBe(RUN);
  });

  it('an older node takes the run that names it, not the first run listed', () => {
    const { enforcement_id: _e, ...old } = node;
    const other = { ...run({ [A]: true }), id: '01M8N9B000000000000000000X', decision_id: '01M8N9B000000000000000000Y' };
    expect(committedRuns([old], [other, run({ [A]: true })])).toEqual({
      latest: { node: old, run: run({ [A]: true }) },
      unfinished: [other.id],
    });
  });

  it('a node with enforcement_id takes the run it names, even when another run names the node too', () => {
    // Two enforcement files naming one decision (one written by hand, or left by a retried write): the node says which.
    const first = { ...run({ [A]: true }), id: '01M8N9A0000000000000000001' };
    const named = run({ [A]: false });
    expect(committedRuns([node], [first, named])).toEqual({ latest: { node, run: named }, unfinished: [first.id] });
  });

  it('the newest node is the latest run, whatever order the nodes come in', () => {
    const older: DecisionNode = { ...node, id: '01M8N9A0000000000000000000', enforcement_id: '01M8N9A0000000000000000001' };
    const olderRun = { ...run({ [A]: true }), id: '01M8N9A0000000000000000001', decision_id: older.id };
    for (const nodes of [
      [older, node],
      [node, older],
    ])
      expect(committedRuns(nodes, [olderRun, run({ [A]: true })]).latest?.node.id).toBe(NODE);
  });
});

describe('RELAXABLE', () => {
  it('names the reasons --allow may relax, those docs/plans.md lists', () => {
    expect(RELAXABLE).toEqual(['not-run', 'run-failed', 'run-incomplete', 'stale', 'unenforced', 'unknown-project']);
  });
});

describe('setDigestInput', () => {
  it('depends on ids, severities and texts, not on order', () => {
    const a = { id: A, severity: 'error' as const, text: 'Never delete production data' };
    const b = { id: B, severity: 'warning' as const, text: 'All API changes need tests' };
    expect(setDigestInput([a, b])).toBe(setDigestInput([b, a]));
    expect(setDigestInput([a, b])).not.toBe(setDigestInput([a, { ...b, text: 'All API changes need tests!' }]));
    expect(setDigestInput([a, b])).not.toBe(setDigestInput([a, { ...b, severity: 'error' }]));
  });
});

describe('invariantDigestInput', () => {
  it("is the invariant's own row of the set digest: the set's input is the rows, by id, joined", () => {
    const a = { id: A, severity: 'error' as const, text: 'Never delete production data' };
    const b = { id: B, severity: 'warning' as const, text: 'All API changes need "tests"' };
    expect(invariantDigestInput(a)).toBe(JSON.stringify([A, 'error', 'Never delete production data']));
    expect(setDigestInput([b, a])).toBe(`[${invariantDigestInput(a)},${invariantDigestInput(b)}]`);
    expect(invariantDigestInput({ ...b, text: 'All API changes need tests' })).not.toBe(invariantDigestInput(b));
    expect(invariantDigestInput({ ...b, severity: 'info' })).not.toBe(invariantDigestInput(b));
  });
});

describe('judgePlan: what each reason says', () => {
  const said = (f: GateFacts) => judgePlan(f).reasons.map((r) => r.message);

  it("starts the commands it names with the caller's agents: the command line's with its --store", () => {
    const agents = "agents --store 'tools/my agents'";
    expect(said(facts({ agents, plan: 'P' }))).toEqual([
      "the plan was never reconciled: run `agents --store 'tools/my agents' plan strategize P` (2 invariants to enforce)",
    ]);
    const V = '01M8NA0000000000000000000V';
    expect(said(facts({ agents, effective: [], violations: [violation('error')] }))[0]).toContain(
      `\`agents --store 'tools/my agents' invariant violation resolve ${V}\``,
    );
  });

  it('counts in singular and plural', () => {
    expect(said(facts({ effective: [{ id: A, severity: 'error' }] }))).toEqual([
      'the plan was never reconciled: run `agents plan strategize` (1 invariant to enforce)',
    ]);
    expect(said(facts({}))).toEqual(['the plan was never reconciled: run `agents plan strategize` (2 invariants to enforce)']);
    const V = '01M8NA0000000000000000000V';
    expect(said(facts({ effective: [], violations: [violation('error')] }))).toEqual([
      `1 error violation stands (${V}): once it is dealt with, run \`agents invariant violation resolve ${V}\` (its invariant ${A} is no longer in the plan's set, so no waiver covers it)`,
    ]);
    expect(said(facts({ effective: [], violations: [violation('error'), violation('error'), violation('warning')] }))).toEqual([
      `2 error violations stand (${V}, ${V}): once each is dealt with, run \`agents invariant violation resolve ID\` for it (its invariant ${A} is no longer in the plan's set, so no waiver covers them)`,
      '1 warning violation recorded',
    ]);
    expect(said(facts({ effective: [], violations: [violation('info'), violation('info')] }))).toEqual(['2 info violations recorded']);
    expect(said(facts({ effective: [], unfinished: ['X1', 'X2'] }))).toEqual([
      '2 unfinished runs ignored (an enforcement file no decision node names: X1, X2)',
    ]);
    expect(said(facts({ effective: [], unfinished: ['X1'] }))).toEqual([
      '1 unfinished run ignored (an enforcement file no decision node names: X1)',
    ]);
  });

  it("an error violation's reason offers a waiver only for an invariant still in the plan's set, which alone can be waived", () => {
    const enforced = { latest: { node, run: run({ [A]: true, [B]: true }) } };
    const of = (invariant: string) => ({ ...violation('error'), invariant_id: invariant });
    const message = (violations: Violation[]) => said(facts({ ...enforced, violations }))[0]!;
    // The waiver is offered as the command that records it, for that invariant (the plan unknown to these facts).
    expect(message([of(A)])).toContain(`, or waive its invariant: \`agents invariant waive ${A} --plan PLAN `);
    expect(message([of(A), of(B)])).toContain('`agents invariant waive INVARIANT --plan PLAN ');
    expect(message([of(C)])).not.toMatch(/\bwaive\b/);
    expect(message([of(C)])).toContain(C);
    expect(message([of(C), of(C)])).not.toMatch(/\bwaive\b/);
    // Some in the set, some not: the waiver is offered for the first, and the others are named.
    const mixed = message([of(A), of(C)]);
    expect(mixed).toMatch(/\bwaive\b/);
    expect(mixed).toContain(`not ${C}`);
    expect(mixed).toContain(`invariant waive ${A} --plan`);
  });

  it('an error violation of an invariant a policy source locks is offered no waiver, which invariant waive refuses', () => {
    const enforced = { latest: { node, run: run({ [A]: true, [B]: true }) } };
    const of = (invariant: string) => ({ ...violation('error'), invariant_id: invariant });
    const message = (violations: Violation[]) => said(facts({ ...enforced, locked: new Set([A]), violations }))[0]!;
    expect(message([of(A)])).not.toMatch(/\bwaive\b/);
    expect(message([of(A)])).toContain(`its invariant ${A} is locked by a policy source`);
    // Locked and gone: neither can be waived, each said why.
    expect(message([of(A), of(C)])).not.toMatch(/\bwaive\b/);
    expect(message([of(A), of(C)])).toContain(`${C} is no longer in the plan's set, and ${A} is locked`);
    // One that can be waived beside them: the waiver is offered for it alone.
    const mixed = message([of(A), of(B), of(C)]);
    expect(mixed).toMatch(/\bwaive that invariant\b/);
    expect(mixed).toContain(`not ${C}, which left the set, nor ${A}, which a policy source locks`);
  });

  it("an error violation whose invariant's waiver expired names that waiver (file, expiry) to renew, as data too", () => {
    const enforced = { latest: { node, run: run({ [A]: true, [B]: true }) } };
    const of = (invariant: string) => ({ ...violation('error'), invariant_id: invariant });
    const W = '01M8NA000000000000000000W1';
    const expired = [
      { id: W, invariant_id: A, expires: '2026-11-01', path: `plans/P/waivers/${W}.yaml`, scope: { kind: 'plan' as const, plan: 'P' } },
    ];
    const reason = (violations: Violation[], more: Partial<GateFacts> = {}) =>
      judgePlan(facts({ ...enforced, violations, expired, ...more })).reasons.find((r) => r.code === 'error-violation')!;
    const lapsed = reason([of(A)]);
    expect(lapsed.expiredWaivers).toEqual([W]);
    expect(lapsed.message).toContain(`plans/P/waivers/${W}.yaml`);
    expect(lapsed.message).toContain('2026-11-01');
    // One command: the renewal, for the invariant and the plan the expired waiver had.
    expect([...lapsed.message.matchAll(/invariant waive (\S+) --plan (\S+) /g)].map((m) => [m[1], m[2]])).toEqual([[A, 'P']]);
    // A waiver of another invariant, or of one no waiver can cover (locked, or gone from the set), is not offered.
    expect(reason([of(B)]).expiredWaivers).toBeUndefined();
    expect(reason([of(A)], { locked: new Set([A]) }).expiredWaivers).toBeUndefined();
    expect(reason([of(A)], { effective: [{ id: B, severity: 'warning' }] }).expiredWaivers).toBeUndefined();
  });

  it('a violation report carries its severity', () => {
    const v = judgePlan(facts({ effective: [], violations: [violation('info')] }));
    expect(v.reasons).toEqual([{ code: 'violation', level: 'report', severity: 'info', message: '1 info violation recorded' }]);
  });

  it('a missing enforcement file, named or not', () => {
    const none = [
      `error invariant ${A} was not enforced: the latest run has no record of it`,
      `warning invariant ${B} was not enforced: the latest run has no record of it`,
    ];
    expect(said(facts({ latest: { node } }))).toEqual([`the latest run's enforcement file ${RUN} is missing (decision ${NODE})`, ...none]);
    const { enforcement_id: _e, ...old } = node;
    expect(said(facts({ latest: { node: old } }))).toEqual([`the latest run's enforcement file is missing (decision ${NODE})`, ...none]);
  });

  it('a failed run, a stale set, a missing record, an unenforced invariant', () => {
    expect(said(facts({ latest: { node, run: run({ [A]: true, [B]: true }, { error: 'crashed' }) } }))).toEqual([
      "the latest run's actor failed: crashed",
    ]);
    expect(said(facts({ setDigest: 'D2', latest: { node, run: run({ [A]: true, [B]: true }) } }))).toEqual([
      'the effective set changed after the latest run (an invariant was edited since, 2026-11-30T03:52:42Z): run `agents plan strategize` again',
    ]);
    expect(said(facts({ setDigest: 'D2', latest: { node, run: run({ [A]: true, [C]: true }) } }))).toEqual([
      'the effective set changed after the latest run (1 added, 1 removed since, 2026-11-30T03:52:42Z): run `agents plan strategize` again',
      `warning invariant ${B} was not enforced: the latest run has no record of it`,
    ]);
    expect(said(facts({ latest: { node, run: run({}) } }))).toEqual([
      `the latest run has no record for 2 invariants of the set: ${A}, ${B}`,
      `error invariant ${A} was not enforced: the latest run has no record of it`,
      `warning invariant ${B} was not enforced: the latest run has no record of it`,
    ]);
    expect(said(facts({ latest: { node, run: run({ [B]: true }) } }))).toEqual([
      `the latest run has no record for 1 invariant of the set: ${A}`,
      `error invariant ${A} was not enforced: the latest run has no record of it`,
    ]);
    // Allowing the incomplete run does not allow what it left unenforced.
    const allowed = judgePlan(facts({ latest: { node, run: run({ [B]: true }) } }), { allow: ['run-incomplete'] });
    expect(allowed.failing).toBe(true);
    const unenforced = judgePlan(facts({ latest: { node, run: run({ [A]: false, [B]: true }) } })).reasons;
    expect(unenforced).toEqual([
      { code: 'unenforced', level: 'fail', invariant_id: A, severity: 'error', message: `error invariant ${A} was not enforced: no` },
    ]);
  });

  it('a waived error invariant left unenforced reports instead of failing', () => {
    const v = judgePlan(facts({ waived: new Set([A]), latest: { node, run: run({ [A]: false, [B]: false }) } }));
    expect(v.failing).toBe(false);
    expect(v.reasons.map((r) => [r.level, r.message])).toEqual([
      ['report', `error invariant ${A} was not enforced (waived): no`],
      ['report', `warning invariant ${B} was not enforced: no`],
    ]);
  });

  it('without a digest, the ids decide: the same ids are not stale, one removed or swapped is', () => {
    const noDigest = { set_digest: undefined };
    expect(codes(facts({ latest: { node, run: run({ [A]: true, [B]: true }, noDigest) } })).reasons).toEqual([]);
    // Same count, different ids (B, added, has no record).
    expect(codes(facts({ latest: { node, run: run({ [A]: true, [C]: true }, noDigest) } })).reasons).toEqual([
      'fail:stale',
      'report:unenforced',
    ]);
    // One more record than the set.
    expect(codes(facts({ latest: { node, run: run({ [A]: true, [B]: true, [C]: true }, noDigest) } })).reasons).toEqual(['fail:stale']);
  });

  it('a run whose records keep digests: the stale reason counts ids added and removed and invariants edited, as data too', () => {
    // The run judged A and C; today A is edited (digest a2), C is gone, B is new.
    const digested = run({ [A]: true, [C]: true });
    digested.records[0]!.digest = 'a1';
    digested.records[1]!.digest = 'c1';
    const now = [
      { id: A, severity: 'error' as const, digest: 'a2' },
      { id: B, severity: 'warning' as const, digest: 'b1' },
    ];
    const v = judgePlan(facts({ effective: now, setDigest: 'D2', latest: { node, run: digested } }));
    expect(v.reasons).toEqual([
      {
        code: 'stale',
        level: 'fail',
        added: 1,
        removed: 1,
        edited: 1,
        message:
          'the effective set changed after the latest run (1 added, 1 removed, 1 edited since 2026-11-30T03:52:42Z): run `agents plan strategize` again',
      },
      {
        code: 'unenforced',
        level: 'report',
        invariant_id: B,
        severity: 'warning',
        message: `warning invariant ${B} was not enforced: the latest run has no record of it`,
      },
    ]);
    // Only edits: no id added or removed.
    const same = run({ [A]: true, [B]: true });
    same.records[0]!.digest = 'a1';
    same.records[1]!.digest = 'b0';
    expect(judgePlan(facts({ effective: now, setDigest: 'D2', latest: { node, run: same } })).reasons[0]).toMatchObject({
      code: 'stale',
      added: 0,
      removed: 0,
      edited: 2,
    });
    // The same set digest: not stale, whatever the records say.
    expect(codes(facts({ effective: now, latest: { node, run: same } })).reasons).toEqual([]);
  });

  it('a run whose records keep no digest: stale with ids added and removed, edited unknown (the older wording)', () => {
    const now = [
      { id: A, severity: 'error' as const, digest: 'a2' },
      { id: B, severity: 'warning' as const, digest: 'b1' },
    ];
    const [reason] = judgePlan(facts({ effective: now, setDigest: 'D2', latest: { node, run: run({ [A]: true, [C]: true }) } })).reasons;
    expect(reason).toMatchObject({ code: 'stale', level: 'fail', added: 1, removed: 1 });
    expect(reason).not.toHaveProperty('edited');
    expect(reason!.message).toContain('(1 added, 1 removed since, 2026-11-30T03:52:42Z)');
  });

  it('allowing a stale run does not allow an error invariant added since, which no run has judged', () => {
    // The run judged B alone; A, an error invariant, was added since.
    const f = facts({ setDigest: 'D2', latest: { node, run: run({ [B]: true }) } });
    const v = judgePlan(f, { allow: ['stale'] });
    expect(v.failing).toBe(true);
    expect(codes(f, { allow: ['stale'] }).reasons).toEqual(['report:stale:allowed', 'fail:unenforced']);
    expect(v.reasons[1]).toMatchObject({ code: 'unenforced', invariant_id: A, severity: 'error' });
    // Waived, it reports; allowed as unenforced too, the gate passes on purpose.
    expect(judgePlan({ ...f, waived: new Set([A]) }, { allow: ['stale'] }).failing).toBe(false);
    expect(judgePlan(f, { allow: ['stale', 'unenforced'] }).failing).toBe(false);
  });

  it('an --allow of a reason that does not fail changes nothing', () => {
    const f = facts({ latest: { node, run: run({ [A]: true, [B]: false }) } });
    expect(judgePlan(f, { allow: ['unenforced'] }).reasons).toEqual(judgePlan(f).reasons);
  });
});

describe('setChanges', () => {
  const rec = (id: string, digest?: string) => ({
    invariant_id: id,
    enforced: true,
    actor_response: 'ok',
    decision_id: NODE,
    ...(digest !== undefined ? { digest } : {}),
  });

  it('counts added, removed and edited; an invariant added or removed is not also edited', () => {
    const now = [
      { id: A, severity: 'error' as const, digest: 'a1' },
      { id: B, severity: 'error' as const, digest: 'b2' },
      { id: C, severity: 'error' as const, digest: 'c1' },
    ];
    expect(setChanges(now, [rec(A, 'a1'), rec(B, 'b1'), rec(NODE, 'n1')])).toEqual({ added: 1, removed: 1, edited: 1 });
    expect(setChanges(now, [rec(A, 'a1'), rec(B, 'b2'), rec(C, 'c1')])).toEqual({ added: 0, removed: 0, edited: 0 });
  });

  it('leaves edited out when a record, or an invariant, of both sides has no digest; one only removed does not matter', () => {
    const now = [{ id: A, severity: 'error' as const, digest: 'a1' }];
    expect(setChanges(now, [rec(A), rec(B)])).toEqual({ added: 0, removed: 1 });
    expect(setChanges([{ id: A, severity: 'error' }], [rec(A, 'a1')])).toEqual({ added: 0, removed: 0 });
    expect(setChanges(now, [rec(A, 'a0'), rec(B)])).toEqual({ added: 0, removed: 1, edited: 1 });
  });
});

describe('committedRuns: which node and run are the latest', () => {
  const node2: DecisionNode = { ...node, id: '01M8N9AR882N43YQXPHY3BQEV6', enforcement_id: '01M8N9AR89YBEA8WND1GWHNXA3' };
  const run2 = { ...run({ [A]: true }), id: '01M8N9AR89YBEA8WND1GWHNXA3', decision_id: node2.id };

  it('the newest node by id, whatever the order given; other node types are not runs', () => {
    const other: DecisionNode = { ...node, id: '01M8N9AR8Z2N43YQXPHY3BQEV6', type: 'strategy' as DecisionNode['type'] };
    for (const nodes of [
      [node, node2, other],
      [other, node2, node],
    ]) {
      expect(committedRuns(nodes, [run({ [A]: true }), run2])).toEqual({ latest: { node: node2, run: run2 }, unfinished: [] });
    }
  });

  it('a run that names another node is not the run of this one', () => {
    const stray = { ...run({ [A]: true }), decision_id: '01M8N9B000000000000000000Y' };
    expect(committedRuns([node], [stray])).toEqual({ latest: { node, runOf: '01M8N9B000000000000000000Y' }, unfinished: [RUN] });
  });
});
