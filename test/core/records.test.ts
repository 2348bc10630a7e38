import { describe, expect, it } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import {
  buildActorRequest,
  buildDecisionTree,
  computeDrift,
  latestDecision,
  parseActorAnswer,
  reconcile,
  selectPromoted,
  MAX_RECORD_RESPONSE,
  type DecisionNode,
} from '../../src/core/records.ts';
import { parseRecord as parseRecordFast } from '../../src/core/record-files.ts';
import { parseRecord } from '../../src/core/record-parse.ts';
import { formatEnforcementFile } from '../../src/core/serialize.ts';
import { reduceReconcile } from '../../src/tui/ReconcileApp.tsx';

const enc = (s: string) => new TextEncoder().encode(s);
const A = '01M8KK0000000000000000000A';
const B = '01M8KK0000000000000000000B';
const C = '01M8KK0000000000000000000C';
const D = '01M8KK0000000000000000000D';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

function inv(id: string, text: string, extra: Partial<ScopedInvariant> = {}): ScopedInvariant {
  return {
    id,
    text,
    severity: 'error',
    active: true,
    tags: [],
    scope: { kind: 'action', ns: 'n', name: 'x' },
    path: `actions/n/x/${id}.yaml`,
    ...extra,
  };
}

describe('parseRecord', () => {
  it('reads a decision node, an enforcement run and a violation', () => {
    const node = parseRecord(
      'decisions',
      'd.yaml',
      enc(`id: ${A}\ntype: invariant_enforced\nparent_id: null\ncreated_at: 2026-11-30T00:00:00Z\nsummary: s\n`),
      A,
    );
    expect(node).toEqual({
      value: {
        record: 'decisions',
        value: { id: A, type: 'invariant_enforced', parent_id: null, created_at: '2026-11-30T00:00:00Z', summary: 's' },
      },
      diagnostics: [],
    });
    const run = parseRecord(
      'enforcement',
      'e.yaml',
      enc(
        `id: ${B}\ndecision_id: ${A}\ncreated_at: 2026-11-30T00:00:00Z\nactor: command\nrecords:\n  - invariant_id: ${C}\n    enforced: true\n    actor_response: ok\n    decision_id: ${A}\n`,
      ),
      B,
    );
    expect(run.diagnostics).toEqual([]);
    const v = parseRecord(
      'violations',
      'v.yaml',
      enc(`id: ${C}\ninvariant_id: ${D}\nviolated_text: t\nseverity: warning\ncreated_at: 2026-11-30T00:00:00Z\n`),
      C,
    );
    expect(v.value?.record).toBe('violations');
  });

  it("reads each record's digest, written or not, with and without the full parser; a malformed one is a schema error", () => {
    const digest = `sha256:${'0f'.repeat(32)}`;
    const text = formatEnforcementFile(`plans/${PLAN}/enforcement/${B}.yaml`, {
      id: B,
      decision_id: A,
      created_at: '2026-11-30T00:00:00Z',
      actor: 'command',
      records: [
        { invariant_id: C, enforced: true, actor_response: 'ok', decision_id: A, digest },
        { invariant_id: D, enforced: true, actor_response: 'ok', decision_id: A },
      ],
    });
    for (const parse of [parseRecord, parseRecordFast]) {
      const run = parse('enforcement', 'e.yaml', enc(text), B);
      expect(run.diagnostics).toEqual([]);
      const records = run.value?.record === 'enforcement' ? run.value.value.records : [];
      expect(records.map((r) => r.digest)).toEqual([digest, undefined]);
    }
    const bad = parseRecord('enforcement', 'e.yaml', enc(text.replace(digest, 'sha256:abc')), B);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['schema']);
  });

  it.each([
    ['decisions', `id: ${A}\ntype: other\nparent_id: null\ncreated_at: 2026-11-30T00:00:00Z\nsummary: s\n`, A, 'schema', 2, 7],
    [
      'decisions',
      `id: ${A}\ntype: invariant_enforced\nparent_id: null\ncreated_at: 2026-11-30T00:00:00Z\nsummary: s\nextra: 1\n`,
      A,
      'schema',
      6,
      1,
    ],
    [
      'decisions',
      `id: ${A}\ntype: invariant_enforced\nparent_id: null\ncreated_at: 2026-11-30T00:00:00Z\nsummary: s\n`,
      B,
      'id-mismatch',
      1,
      5,
    ],
    [
      'violations',
      `id: ${C}\ninvariant_id: ${D}\nviolated_text: t\nseverity: fatal\ncreated_at: 2026-11-30T00:00:00Z\n`,
      C,
      'schema',
      4,
      11,
    ],
    [
      'enforcement',
      `id: ${B}\ndecision_id: ${A}\ncreated_at: 2026-11-30T00:00:00Z\nactor: command\nrecords:\n  - invariant_id: ${C}\n    enforced: true\n    actor_response: ok\n    decision_id: ${D}\n`,
      B,
      'schema',
      9,
      18,
    ],
    ['violations', 'id: [', C, 'yaml-syntax', 1, 5],
  ] as const)('reports a bad %s file with its code and position', (kind, text, id, code, line, col) => {
    const r = parseRecord(kind, 'f.yaml', enc(text), id);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([[code, line, col]]);
  });
});

describe('the actor protocol', () => {
  it('builds the request from the plan and its effective set', () => {
    const planInv = {
      ...inv(A, 'Use Python 3.13 only', { rationale: 'why' }),
      scope: { kind: 'plan' as const, plan: PLAN },
      source: { kind: 'plan' as const },
    };
    const g = { ...inv(B, 'Log all changes', { tags: ['audit'] }), scope: { kind: 'global' as const } };
    expect(buildActorRequest({ id: PLAN, project: 'myapp' }, 'ctx', [planInv, g])).toEqual({
      protocol: 'agents-reconcile/1',
      plan: { id: PLAN, action: null, project: 'myapp', goal: null },
      context: 'ctx',
      invariants: [
        { id: A, text: 'Use Python 3.13 only', severity: 'error', scope: 'plan', tags: [], rationale: 'why', source: { kind: 'plan' } },
        { id: B, text: 'Log all changes', severity: 'error', scope: 'global', tags: ['audit'] },
      ],
    });
  });

  it.each([
    ['', /printed no answer/],
    ['not json', /is not JSON/],
    ['[]', /does not match actor-response.schema.json: the answer must be object/],
    ['{}', /must have required property 'results'/],
    [`{"results":[{"invariant_id":"${A}","enforced":true}]}`, /results.0 must have required property 'response'/],
    [`{"results":[{"invariant_id":"x","enforced":true,"response":""}]}`, /results.0.invariant_id must match pattern/],
  ])('refuses the answer %j', (stdout, reason) => {
    const r = parseActorAnswer(stdout);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('accepts a valid answer with surrounding white space', () => {
    expect(parseActorAnswer(`\n {"results":[{"invariant_id":"${A}","enforced":false,"response":"no"}],"summary":"s"}\n`)).toEqual({
      ok: true,
      response: { results: [{ invariant_id: A, enforced: false, response: 'no' }], summary: 's' },
    });
  });

  it('reconciles: one record per invariant asked, in order; failures carry the reason', () => {
    const ok = reconcile(
      [A, B],
      {
        ok: true,
        response: {
          results: [
            { invariant_id: B, enforced: true, response: 'b' },
            { invariant_id: A, enforced: false, response: 'x'.repeat(5000) },
          ],
        },
      },
      D,
    );
    expect(ok.records.map((r) => [r.invariant_id, r.enforced, r.decision_id])).toEqual([
      [A, false, D],
      [B, true, D],
    ]);
    expect([...ok.records[0]!.actor_response]).toHaveLength(MAX_RECORD_RESPONSE);
    expect(ok.records[0]!.actor_response.endsWith('…')).toBe(true);
    const failed = reconcile([A, B], { ok: false, reason: 'it crashed' }, D);
    expect(failed).toEqual({
      records: [
        { invariant_id: A, enforced: false, actor_response: 'not enforced: it crashed', decision_id: D },
        { invariant_id: B, enforced: false, actor_response: 'not enforced: it crashed', decision_id: D },
      ],
      error: 'it crashed',
      problems: [],
    });
  });
});

describe('the decision tree', () => {
  const node = (id: string, parent: string | null): DecisionNode => ({
    id,
    type: 'invariant_enforced',
    parent_id: parent,
    created_at: '2026-11-30T00:00:00Z',
    summary: id,
  });
  it('nests children under parents, in id order; orphans and forks stay visible', () => {
    const tree = buildDecisionTree([node(C, A), node(A, null), node(B, A), node(D, '01M8KK000000000000000000ZZ')]);
    expect(tree.map((t) => [t.node.id, t.children.map((c) => c.node.id)])).toEqual([
      [A, [B, C]],
      [D, []],
    ]);
    expect(latestDecision([node(B, A), node(D, C), node(A, null)])?.id).toBe(D);
    expect(latestDecision([])).toBeUndefined();
  });

  it('a loop of parent links (a hand edit) hides nothing: its oldest node is shown as a root', () => {
    const shape = (nodes: DecisionNode[]) => {
      const walk = (t: ReturnType<typeof buildDecisionTree>[number]): unknown => [t.node.id, t.children.map(walk)];
      return buildDecisionTree(nodes).map(walk);
    };
    expect(shape([node(A, B), node(B, A)])).toEqual([[A, [[B, []]]]]);
    expect(shape([node(A, C), node(B, A), node(C, B), node(D, C)])).toEqual([[A, [[B, [[C, [[D, []]]]]]]]]);
    // Beside a proper tree, which stays as it was.
    expect(shape([node(A, null), node(B, A), node(C, D), node(D, C)])).toEqual([
      [A, [[B, []]]],
      [C, [[D, []]]],
    ]);
  });
});

describe('promotion and drift', () => {
  it('promotes active invariants once per text key, the oldest first', () => {
    const r = selectPromoted([inv(C, 'Same'), inv(A, ' SAME '), inv(B, 'off', { active: false }), inv(D, 'Other')]);
    expect(r.kept.map((i) => i.id)).toEqual([A, D]);
    expect(r.duplicates.map((d) => [d.invariant.id, d.of])).toEqual([[C, A]]);
  });

  it('finds changed, removed and added action invariants', () => {
    const planScope = { kind: 'plan' as const, plan: PLAN };
    const promoted = (id: string, origin: string, text: string, extra: Partial<ScopedInvariant> = {}) =>
      ({
        ...inv(id, text, extra),
        scope: planScope,
        source: { kind: 'action' as const, ref: 'n/x', origin_id: origin },
      }) as ScopedInvariant;
    const planInvs = [
      promoted('01M8KK000000000000000000PA', A, 'Alpha'),
      promoted('01M8KK000000000000000000PB', B, 'Beta'),
      promoted('01M8KK000000000000000000PC', C, 'Gamma'),
    ];
    const action = [inv(A, 'Alpha'), inv(B, 'Beta', { active: false }), inv(D, 'Delta'), inv('01M8KK0000000000000000000E', 'alpha')];
    const drift = computeDrift({ id: PLAN, action: 'n/x' }, planInvs, new Map([['n/x', action]]));
    expect(drift.map((d) => [d.kind, d.origin_id, d.fields ?? []])).toEqual([
      ['changed', B, ['active']],
      ['removed', C, []],
      ['added', D, []],
    ]);
  });
});

describe('the interactive actor state', () => {
  it('applies keys in order: a decision, a note, submit', () => {
    const ids = [A, B];
    let s = {
      index: 0,
      decision: null as boolean | null,
      note: '',
      results: [] as { invariant_id: string; enforced: boolean; response: string }[],
    };
    for (const a of [
      { type: 'key', text: 'x' },
      { type: 'key', text: 'y' },
      { type: 'key', text: 'ok then' },
      { type: 'erase' },
      { type: 'submit' },
      { type: 'submit' },
      { type: 'key', text: 'N' },
      { type: 'submit' },
    ] as const) {
      s = reduceReconcile(s, a, ids);
    }
    expect(s.results).toEqual([
      { invariant_id: A, enforced: true, response: 'ok the' },
      { invariant_id: B, enforced: false, response: 'not enforced (declined by a person)' },
    ]);
    expect(s.index).toBe(2);
  });
});

describe('a decision tree thousands deep (a plan strategized at every push)', () => {
  it('is listed and drawn without recursion, in the same order as a shallow one', async () => {
    const { treeJson, treeText } = await import('../../src/present/plan.ts');
    const { makeStyle } = await import('../../src/core/style.ts');
    const ids = Array.from({ length: 20_000 }, (_, i) => `01M9Z${i.toString(32).toUpperCase().padStart(21, '0')}`);
    const nodes: DecisionNode[] = ids.map((id, i) => ({
      id,
      type: 'invariant_enforced',
      parent_id: i === 0 ? null : ids[i - 1]!,
      created_at: '2026-12-04T19:30:00Z',
      summary: 'run',
    }));
    const tree = buildDecisionTree(nodes);
    const listed = treeJson(tree) as { id: string; depth: number }[];
    expect(listed).toHaveLength(20_000);
    expect(listed.at(-1)).toMatchObject({ id: ids.at(-1), depth: 19_999 });
    expect(() => JSON.stringify(listed)).not.toThrow();
    const drawn = treeText(makeStyle(false), buildDecisionTree(nodes.slice(0, 3)));
    expect(drawn.map((l) => l.replace(/01M9Z0+/g, 'N'))).toEqual([
      'N  invariant_enforced  2026-12-04T19:30:00Z',
      '│  run',
      'N1  invariant_enforced  2026-12-04T19:30:00Z',
      '│  run',
      'N2  invariant_enforced  2026-12-04T19:30:00Z',
      '   run',
    ]);
    // A fork branches; each branch's own history goes on at its column.
    const fork = [...nodes.slice(0, 3), { ...nodes[3]!, parent_id: ids[0]! }, { ...nodes[4]!, parent_id: ids[3]! }];
    expect(
      treeText(makeStyle(false), buildDecisionTree(fork)).map((l) => l.replace(/01M9Z0+/g, 'N').replace(/ {2}invariant_enforced.*/, '')),
    ).toEqual(['N', '│  run', '├─ N1', '│  │  run', '│  N2', '│     run', '└─ N3', '   │  run', '   N4', '      run']);
    expect(treeText(makeStyle(false), tree)).toHaveLength(40_000);
  });
});
