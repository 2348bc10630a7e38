import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import type { ImportPlan } from '../../src/core/import-plan.ts';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { type ActorRequest, planSync } from '../../src/core/records.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { AddForm } from '../../src/tui/AddForm.tsx';
import { ConfirmRemove } from '../../src/tui/ConfirmRemove.tsx';
import { ConfirmSync } from '../../src/tui/ConfirmSync.tsx';
import { ImportReview } from '../../src/tui/ImportReview.tsx';
import { ReconcileApp } from '../../src/tui/ReconcileApp.tsx';
import { P2, exampleStore, frameHas, settle } from './helpers.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

// Ink's own colour codes aside, no control or bidirectional character reaches the frame.
const RAW =
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\u001b(?!\[[0-9;]*m)/;
const HOSTILE = 'Harmless rule\u001b[2K\rNever mind \u202eeteled';

test('the remove confirmation shows text holding controls escaped', async () => {
  const info = await new InvariantService(exampleStore()).show(P2);
  const r = render(
    <ConfirmRemove
      info={{ ...info, invariant: { ...info.invariant, text: HOSTILE, path: 'projects/a\u001b]52;c;eA==\u0007/x.yaml' } }}
      onAnswer={() => {}}
    />,
  );
  const frame = await frameHas(r.lastFrame, 'Remove this invariant?');
  expect(frame).toContain('Harmless rule\\u001b[2K\\rNever mind \\u202eeteled');
  expect(frame).toContain('projects/a\\u001b]52;c;eA==\\u0007/x.yaml');
  expect(RAW.test(frame)).toBe(false);
  r.unmount();
});

test('the interactive actor shows the goal and invariant text escaped', async () => {
  const request: ActorRequest = {
    protocol: 'agents-reconcile/1',
    plan: { id: '01M8KK5920RS6CGAVDFVYYJ0B4', action: null, project: 'myapp', goal: 'Upgrade\u009b2K now' },
    context: null,
    invariants: [{ id: '01M8KK3EF09G9ET4TAJAHQWPMN', text: HOSTILE, severity: 'error', scope: 'plan', tags: [] }],
  };
  const r = render(<ReconcileApp request={request} onDone={() => {}} />);
  const frame = await frameHas(r.lastFrame, 'Enforce this invariant?');
  expect(frame).toContain('goal: Upgrade\\u009b2K now');
  expect(frame).toContain('Harmless rule\\u001b[2K\\rNever mind \\u202eeteled');
  expect(RAW.test(frame)).toBe(false);
  r.unmount();
});

test('the add form shows what is typed or pasted escaped, and refuses a text the store would refuse before Enter', async () => {
  const root = exampleStore();
  const service = new InvariantService(root, { author: async () => 'Tester <t@example.com>' });
  const done: unknown[] = [];
  const r = render(<AddForm service={service} scope={{ kind: 'global' }} onDone={(x) => done.push(x)} onCancel={() => {}} />);
  await frameHas(r.lastFrame, 'Text:');
  // A bidirectional override, a C1 control (NEL) and a zero-width space: none a terminal may receive.
  r.stdin.write('Allow \u202eeteled\u0085 ok\u200b');
  const typed = await frameHas(r.lastFrame, 'Allow \\u202eeteled\\u0085 ok\\u200b', '✗ the text holds U+202E');
  expect(RAW.test(typed)).toBe(false);
  r.stdin.write('\r');
  await settle();
  expect(r.lastFrame()).toContain('Text:');
  // Rubbed out, the text goes on; tags, rationale and guard entries show escaped on the confirmation.
  for (let i = 0; i < 20; i++) r.stdin.write('\u007f');
  r.stdin.write('Plain rule');
  await frameHas(r.lastFrame, 'Text: Plain rule', '✓ new in this scope');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Severity');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Tags');
  r.stdin.write('a\u202eb');
  await frameHas(r.lastFrame, 'a\\u202eb');
  r.stdin.write('\r');
  await frameHas(r.lastFrame, 'Rationale');
  r.stdin.write('why\u2066 not\r');
  await frameHas(r.lastFrame, 'Guard 1/4');
  r.stdin.write('src/\u202e');
  await frameHas(r.lastFrame, '> src/\\u202e');
  r.stdin.write('\r');
  const listed = await frameHas(r.lastFrame, '  write  src/\\u202e');
  expect(RAW.test(listed)).toBe(false);
  for (let k = 1; k <= 4; k++) {
    await frameHas(r.lastFrame, `Guard ${k}/4`);
    r.stdin.write('\r');
  }
  const confirm = await frameHas(r.lastFrame, 'Add it? [Y/n]');
  expect(confirm).toContain('tags      a\\u202eb');
  expect(confirm).toContain('rationale why\\u2066 not');
  expect(confirm).toContain('guard     write: src/\\u202e');
  expect(RAW.test(confirm)).toBe(false);
  expect(done).toEqual([]);
  r.unmount();
});

test('the import review shows a rule read from a file, and the file name, escaped', async () => {
  const plan: ImportPlan = {
    files: [],
    projects: [],
    candidates: [
      {
        n: 1,
        file: 'docs/\u202eevil/CLAUDE.md',
        line: 4,
        end_line: 4,
        whole: true,
        text: HOSTILE,
        tags: [],
        severity: 'error',
        scope: { kind: 'global' },
        status: 'new',
        near: [],
      },
    ],
  };
  const r = render(<ImportReview plan={plan} onDone={() => {}} onCancel={() => {}} />);
  const frame = await frameHas(r.lastFrame, 'Import 1 rule as invariants');
  expect(frame).toContain('Harmless rule\\u001b[2K\\rNever mind \\u202eeteled');
  expect(frame).toContain('docs/\\u202eevil/CLAUDE.md:4');
  expect(RAW.test(frame)).toBe(false);
  r.unmount();
});

test('the sync confirmation shows the texts it compares escaped', async () => {
  const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
  const inv = (id: string, text: string, scope: ScopedInvariant['scope'], extra: Partial<ScopedInvariant> = {}) =>
    scopedInvariant(id, scope, text, extra);
  const planScope = { kind: 'plan' as const, plan: PLAN };
  const actionScope = { kind: 'action' as const, ns: 'local', name: 'cov' };
  const { changes, skipped } = planSync(
    { id: PLAN, action: 'local/cov' },
    [inv('P1', 'Minimum 80% coverage', planScope, { source: { kind: 'action', ref: 'local/cov', origin_id: 'O1' } })],
    new Map([['local/cov', [inv('O1', HOSTILE, actionScope), inv('O3', `${HOSTILE}!`, actionScope)]]]),
  );
  const r = render(
    <ConfirmSync preview={{ plan: { id: PLAN, action: 'local/cov' }, changes, skipped, applied: false }} onAnswer={() => {}} />,
  );
  const frame = await frameHas(r.lastFrame, 'Apply these changes?');
  expect(frame).toContain('"Minimum 80% coverage" → "Harmless rule\\u001b[2K\\rNever mind \\u202eeteled"');
  expect(frame).toContain('added    "Harmless rule\\u001b[2K\\rNever mind \\u202eeteled!" (from');
  expect(RAW.test(frame)).toBe(false);
  r.unmount();
});
