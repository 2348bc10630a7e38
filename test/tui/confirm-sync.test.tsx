import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { planSync } from '../../src/core/records.ts';
import type { SyncResult } from '../../src/service/plan-service.ts';
import { ConfirmSync } from '../../src/tui/ConfirmSync.tsx';
import { frameHas } from './helpers.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const planScope = { kind: 'plan' as const, plan: PLAN };
const actionScope = { kind: 'action' as const, ns: 'local', name: 'cov' };
const inv = (id: string, text: string, scope: ScopedInvariant['scope'], extra: Partial<ScopedInvariant> = {}) =>
  scopedInvariant(id, scope, text, extra);
const promoted = (id: string, text: string, origin: string) =>
  inv(id, text, planScope, { source: { kind: 'action', ref: 'local/cov', origin_id: origin } });

/** A plan with one copy changed in the action (text and severity), one whose origin is gone, one origin added, one clashing with a hand-added invariant. */
function preview(): SyncResult {
  const planInvariants = [
    promoted('P1', 'Minimum 80% coverage', 'O1'),
    promoted('P2', 'Keep the report', 'O2'),
    inv('H1', 'Run mutation tests', planScope, { source: { kind: 'plan' } }),
  ];
  const action = [
    inv('O1', 'Minimum 85% coverage', actionScope, { severity: 'warning' }),
    inv('O3', 'Publish the badge', actionScope),
    inv('O4', 'Run mutation tests', actionScope),
  ];
  const { changes, skipped } = planSync({ id: PLAN, action: 'local/cov' }, planInvariants, new Map([['local/cov', action]]));
  return { plan: { id: PLAN, action: 'local/cov' }, changes, skipped, applied: false };
}

async function ask(key: string) {
  const answers: boolean[] = [];
  const r = render(<ConfirmSync preview={preview()} width={100} onAnswer={(yes) => answers.push(yes)} />);
  const frame = await frameHas(r.lastFrame, 'Apply these changes? [y/N]');
  r.stdin.write(key);
  return { frame, answers, r };
}

test('shows every change and what is left alone, then asks y/N', async () => {
  const { frame, r } = await ask('n');
  expect(frame).toBe(
    [
      `Sync plan ${PLAN} with its action template: 3 changes`,
      '  removed  P2 "Keep the report" (origin O2 left local/cov)',
      '  changed  P1 (text, severity)',
      '      "Minimum 80% coverage" → "Minimum 85% coverage"',
      '      severity error → warning',
      '  added    "Publish the badge" (from local/cov O3)',
      '  skipped  added O4: the plan already holds this text as H1',
      'Invariants added to the plan by hand are not touched.',
      'Apply these changes? [y/N]',
    ].join('\n'),
  );
  r.unmount();
});

test.each([
  ['y', true],
  ['Y', true],
  ['n', false],
  ['\r', false],
  ['\u001b', false],
])('key %j answers %s', async (key, expected) => {
  const { answers, r } = await ask(key);
  await expect.poll(() => answers, { timeout: 5000 }).toEqual([expected]);
  r.unmount();
});

test('a sync of many long changes lists those that fit and counts the rest: the title and the question stay on screen', async () => {
  const origins = Array.from({ length: 30 }, (_, i) =>
    inv(`O${i}`, `Coverage rule number ${i} must hold for every module in the repository and every service`, actionScope),
  );
  const { changes, skipped } = planSync({ id: PLAN, action: 'local/cov' }, [], new Map([['local/cov', origins]]));
  const many: SyncResult = { plan: { id: PLAN, action: 'local/cov' }, changes, skipped, applied: false };
  for (const [columns, rows] of [
    [80, 24],
    [40, 12],
  ] as const) {
    const answers: boolean[] = [];
    const r = render(<ConfirmSync preview={many} width={columns} rows={rows} onAnswer={(yes) => answers.push(yes)} />);
    const frame = await frameHas(r.lastFrame, 'Apply these changes? [y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines[0]).toMatch(/^Sync plan /);
    expect(lines.at(-1)).toBe('Apply these changes? [y/N]');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    const listed = lines.filter((l) => l.startsWith('  added')).length;
    expect(listed).toBeGreaterThan(0);
    expect(frame).toContain(`… and ${30 - listed} more`);
    r.stdin.write('y');
    await expect.poll(() => answers).toEqual([true]);
    r.unmount();
  }
});

test('on a narrow, short terminal the title gives up rows first: the count of the rest, the line on what stays and the question stay within the terminal', async () => {
  for (const [columns, rows] of [
    [30, 7],
    [20, 6],
  ] as const) {
    const r = render(<ConfirmSync preview={preview()} width={columns} rows={rows} onAnswer={() => {}} />);
    const frame = await frameHas(r.lastFrame, '[y/N]');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(rows);
    expect(lines[0]).toMatch(/^Sync plan/);
    expect(frame).toMatch(/… and \d+ more/);
    expect(lines.slice(-2).join(' ')).toMatch(/Apply these changes\? \[y\/N\]$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
    r.unmount();
  }
});
