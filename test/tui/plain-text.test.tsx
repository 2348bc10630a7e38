import { render } from 'ink-testing-library';
import { expect, test } from 'vitest';
import type { ActorRequest } from '../../src/core/records.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ConfirmRemove } from '../../src/tui/ConfirmRemove.tsx';
import { ReconcileApp } from '../../src/tui/ReconcileApp.tsx';
import { P2, exampleStore, frameHas } from './helpers.ts';

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
