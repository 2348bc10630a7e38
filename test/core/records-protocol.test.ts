import { describe, expect, test } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import {
  buildActorRequest,
  buildDecisionTree,
  type DecisionNode,
  enforcementSummary,
  MAX_RECORD_RESPONSE,
  parseActorAnswer,
  reconcile,
  standingViolations,
} from '../../src/core/records.ts';

const A = '01M8KK0000000000000000000A';
const B = '01M8KK0000000000000000000B';
const C = '01M8KK0000000000000000000C';
const D = '01M8KK0000000000000000000D';
const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

describe('standingViolations', () => {
  test('resolved first, then waived, else open', () => {
    const vs = [
      { invariant_id: A, resolved: { at: 't' } },
      { invariant_id: B },
      { invariant_id: A },
      { invariant_id: B, resolved: { at: 't' } },
    ];
    const split = standingViolations(vs, new Map([[A, []]]));
    expect(split).toEqual({ open: [vs[1]], waived: [vs[2]], resolved: [vs[0], vs[3]] });
  });
});

describe('reconcile', () => {
  const ok = (results: { invariant_id: string; enforced: boolean; response: string }[]) => ({ ok: true as const, response: { results } });

  test('a missing result, two results for one invariant, and an answer for one not asked about', () => {
    const r = reconcile(
      [A, B, C],
      ok([
        { invariant_id: B, enforced: true, response: 'b1' },
        { invariant_id: B, enforced: true, response: 'b2' },
        { invariant_id: D, enforced: true, response: 'd' },
        { invariant_id: C, enforced: true, response: 'fine' },
      ]),
      PLAN,
    );
    expect(r).toEqual({
      records: [
        {
          invariant_id: A,
          enforced: false,
          actor_response: 'not enforced: the actor gave no result for this invariant',
          decision_id: PLAN,
        },
        {
          invariant_id: B,
          enforced: false,
          actor_response: 'not enforced: the actor gave 2 results for this invariant',
          decision_id: PLAN,
        },
        { invariant_id: C, enforced: true, actor_response: 'fine', decision_id: PLAN },
      ],
      problems: [`the actor answered for ${D}, which was not asked about; ignored`],
    });
  });

  test('answers for many ids not asked about, each many times, are one note naming the first and counting the rest', () => {
    const stray = Array.from({ length: 1000 }, (_, i) => `01M8KK${String(i).padStart(20, '0')}`);
    const results = [...stray, ...stray].map((id) => ({ invariant_id: id, enforced: true, response: 'x' }));
    const r = reconcile([A], ok([{ invariant_id: A, enforced: true, response: 'fine' }, ...results]), PLAN);
    expect(r.records.map((x) => x.enforced)).toEqual([true]);
    expect(r.problems).toEqual([
      `the actor answered for 1000 invariants not asked about (${stray.slice(0, 5).join(', ')} and 995 more); ignored`,
    ]);
  });

  test('a response of exactly the limit is kept whole; one character more is cut with an ellipsis', () => {
    const exact = 'é'.repeat(MAX_RECORD_RESPONSE);
    const over = `${exact}x`;
    const r = reconcile(
      [A, B],
      ok([
        { invariant_id: A, enforced: true, response: exact },
        { invariant_id: B, enforced: true, response: over },
      ]),
      PLAN,
    );
    expect(r.records[0]!.actor_response).toBe(exact);
    expect(r.records[1]!.actor_response).toBe(`${'é'.repeat(MAX_RECORD_RESPONSE - 1)}…`);
  });

  test('control characters in a response or a failure are escaped; newlines kept', () => {
    const r = reconcile([A], ok([{ invariant_id: A, enforced: false, response: 'a\u001b[2K\nb' }]), PLAN);
    expect(r.records[0]!.actor_response).toBe('a\\u001b[2K\nb');
    const failed = reconcile([A], { ok: false, reason: 'boom\u202e\nline' }, PLAN);
    expect(failed.error).toBe('boom\\u202e\nline');
    expect(failed.records[0]!.actor_response).toBe('not enforced: boom\\u202e\nline');
  });

  test('half of a surrogate pair in a failure (its reason cut from a longer text) is written as U+FFFD, never alone', () => {
    const failed = reconcile([A], { ok: false, reason: 'ends: \ude00\u{1f600}x\ud83d' }, PLAN);
    expect(failed.error).toBe('ends: \ufffd\u{1f600}x\ufffd');
    expect(failed.records[0]!.actor_response).toBe('not enforced: ends: \ufffd\u{1f600}x\ufffd');
  });

  test("a failure's reason is cut at 4000 characters in the error, at the record limit in each record", () => {
    const failed = reconcile([A], { ok: false, reason: 'r'.repeat(5000) }, PLAN);
    expect([...failed.error!]).toHaveLength(4000);
    expect(failed.error!.endsWith('…')).toBe(true);
    expect([...failed.records[0]!.actor_response]).toHaveLength(MAX_RECORD_RESPONSE);
    expect(reconcile([A], { ok: false, reason: 'r'.repeat(4000) }, PLAN).error).toBe('r'.repeat(4000));
  });
});

describe('enforcementSummary', () => {
  const rec = (enforced: boolean) => ({ invariant_id: A, enforced, actor_response: '', decision_id: PLAN });
  test('counts, singular and plural, and the failure', () => {
    expect(enforcementSummary([rec(true), rec(false), rec(true)], 'command')).toBe('2 of 3 invariants enforced (command actor)');
    expect(enforcementSummary([rec(true)], 'command')).toBe('1 of 1 invariant enforced (command actor)');
    expect(enforcementSummary([], 'command', 'it\u001bcrashed')).toBe(
      '0 of 0 invariants enforced (command actor); actor failed: it\\u001bcrashed',
    );
    const long = enforcementSummary([rec(false)], 'command', 'e'.repeat(400));
    expect(long).toBe(`0 of 1 invariant enforced (command actor); actor failed: ${'e'.repeat(299)}…`);
  });
});

describe('buildDecisionTree', () => {
  const node = (id: string, parent: string | null): DecisionNode => ({
    id,
    type: 'invariant_enforced',
    parent_id: parent,
    created_at: '2026-11-30T00:00:00Z',
    summary: id,
  });
  test('a node that names itself as parent is a root, not lost', () => {
    const tree = buildDecisionTree([node(B, B), node(A, null)]);
    expect(tree.map((t) => [t.node.id, t.children.length])).toEqual([
      [A, 0],
      [B, 0],
    ]);
  });
  test('children in id order whatever the input order', () => {
    const tree = buildDecisionTree([node(D, A), node(B, A), node(A, null), node(C, A)]);
    expect(tree[0]!.children.map((c) => c.node.id)).toEqual([B, C, D]);
  });
});

describe('buildActorRequest', () => {
  test("an action copy is sent as the plan's; the plan's action, project and goal are passed on", () => {
    const inv: ScopedInvariant = {
      id: A,
      text: 't',
      severity: 'warning',
      active: true,
      tags: ['x'],
      scope: { kind: 'action', ns: 'n', name: 'x' },
      path: 'p',
      source: { kind: 'action', ref: 'n/x', origin_id: B },
    };
    const req = buildActorRequest({ id: PLAN, action: 'n/x', project: 'p', goal: 'g' }, null, [inv]);
    expect(req).toEqual({
      protocol: 'agents-reconcile/1',
      plan: { id: PLAN, action: 'n/x', project: 'p', goal: 'g' },
      context: null,
      invariants: [
        { id: A, text: 't', severity: 'warning', scope: 'plan', tags: ['x'], source: { kind: 'action', ref: 'n/x', origin_id: B } },
      ],
    });
    // The request holds copies: changing it leaves the invariant alone.
    req.invariants[0]!.tags.push('y');
    req.invariants[0]!.source!.ref = 'changed';
    expect(inv.tags).toEqual(['x']);
    expect(inv.source!.ref).toBe('n/x');
  });
});

describe('parseActorAnswer: the reasons it gives', () => {
  test('not JSON: the parser message and the first 80 characters', () => {
    const r = parseActorAnswer(`oops ${'x'.repeat(100)}`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(/^the actor's answer is not JSON \(.+\); it begins "oops x+"$/);
      expect(r.reason.endsWith(`"oops ${'x'.repeat(75)}"`)).toBe(true);
    }
  });
  test('an answer with a log line after it, or before it, on standard output: where the rest is, and what it says', () => {
    expect(parseActorAnswer('{"results":[]}\n\ndone, 4 judged\n')).toEqual({
      ok: false,
      reason:
        'the actor\'s answer is not JSON: one JSON value followed by more output, at line 3, column 1 of its output: "done, 4 judged"; write anything else to standard error',
    });
    // A brace inside a string of the answer does not end it early.
    expect(parseActorAnswer('{"results":[], "summary":"} {"} x')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('at line 1, column 33 of its output: "x"'),
    });
    expect(parseActorAnswer('\nloading model\n{"results":[]}')).toEqual({
      ok: false,
      reason:
        'the actor\'s answer is not JSON: other output comes before the JSON value, from line 2 of its output: "loading model"; write anything else to standard error',
    });
  });
  test('an unknown key is named', () => {
    expect(parseActorAnswer('{"results":[],"extra":1}')).toEqual({
      ok: false,
      reason: 'the actor\'s answer does not match actor-response.schema.json: the answer has an unknown key "extra"',
    });
  });
  test('a nested path is written with dots', () => {
    const r = parseActorAnswer(`{"results":[{"invariant_id":"${A}","enforced":"yes","response":""}]}`);
    expect(r).toEqual({
      ok: false,
      reason: "the actor's answer does not match actor-response.schema.json: results.0.enforced must be boolean",
    });
  });
  test('a response holding half of a surrogate pair is no text: refused, where a whole pair is kept', () => {
    const r = parseActorAnswer(`{"results":[{"invariant_id":"${A}","enforced":true,"response":"ok \\ud800 then"}]}`);
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid Unicode text: results\.0\.response /) });
    const whole = parseActorAnswer(`{"results":[{"invariant_id":"${A}","enforced":true,"response":"ok \\ud83d\\ude00"}]}`);
    expect(whole).toMatchObject({ ok: true, response: { results: [{ response: 'ok \u{1f600}' }] } });
  });
  test('white space alone is no answer', () => {
    expect(parseActorAnswer(' \n\t ')).toEqual({ ok: false, reason: 'the actor printed no answer on standard output' });
  });
});
