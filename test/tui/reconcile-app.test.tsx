import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { ActorRequest, ActorResult } from '../../src/core/records.ts';
import { ReconcileApp } from '../../src/tui/ReconcileApp.tsx';

const request: ActorRequest = {
  protocol: 'agents-reconcile/1',
  plan: { id: '01M8KK5920RS6CGAVDFVYYJ0B4', action: null, project: 'myapp', goal: 'Upgrade' },
  context: null,
  invariants: [
    { id: '01M8KK3EF09G9ET4TAJAHQWPMN', text: 'Use Python 3.13 only', severity: 'error', scope: 'plan', tags: [] },
    { id: '01M8KJT9G0XNWEM589ZS7FV0VT', text: 'Never delete production data', severity: 'error', scope: 'global', tags: [] },
  ],
};

/** Polls until `ok()` holds, for at most 5 s: renders are asynchronous. */
async function until(ok: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('ReconcileApp', () => {
  it('shows one invariant at a time and takes a note ending in a line break within one chunk', async () => {
    let done: ActorResult[] | null | undefined;
    const app = render(<ReconcileApp request={request} onDone={(r) => (done = r)} />);
    expect(app.lastFrame()).toContain('Invariant 1 of 2 · plan · error · 01M8KK3EF09G9ET4TAJAHQWPMN');
    expect(app.lastFrame()).toContain('Enforce this invariant? [y/n]');
    app.stdin.write('y');
    await until(() => app.lastFrame()!.includes('Enforce: yes'));
    app.stdin.write('pinned\r');
    await until(() => app.lastFrame()!.includes('Invariant 2 of 2'));
    app.stdin.write('n');
    await until(() => app.lastFrame()!.includes('Enforce: no'));
    app.stdin.write('\r');
    await until(() => done !== undefined);
    expect(done).toEqual([
      { invariant_id: '01M8KK3EF09G9ET4TAJAHQWPMN', enforced: true, response: 'pinned' },
      { invariant_id: '01M8KJT9G0XNWEM589ZS7FV0VT', enforced: false, response: 'not enforced (declined by a person)' },
    ]);
    app.unmount();
  });
});
