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

describe('ReconcileApp on a long invariant', () => {
  const long: ActorRequest = {
    ...request,
    plan: { ...request.plan, goal: 'Upgrade the whole API to the new runtime and drop the old one. '.repeat(6).trim() },
    invariants: [
      {
        id: '01M8KK3EF09G9ET4TAJAHQWPMN',
        text: 'Use Python 3.13 only and keep every dependency pinned. '.repeat(36).trim().slice(0, 2000),
        severity: 'error',
        scope: 'plan',
        tags: [],
        rationale: 'Because the old runtime is out of support. '.repeat(20).trim(),
      },
    ],
  };

  it('stays within the terminal: the title, the invariant line and the question or note stay on screen', async () => {
    for (const [columns, rows] of [
      [80, 24],
      [30, 10],
    ] as const) {
      let done: ActorResult[] | null | undefined;
      const app = render(<ReconcileApp request={long} width={columns} rows={rows} onDone={(r) => (done = r)} />);
      const within = (frame: string) => {
        const lines = frame.split('\n');
        expect(lines.length).toBeLessThan(rows);
        expect(lines[0]).toMatch(/^Reconcile plan /);
        expect(lines.some((l) => l.startsWith('Invariant 1 of 1'))).toBe(true);
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
      };
      await until(() => app.lastFrame()!.includes('Enforce this'));
      within(app.lastFrame()!);
      app.stdin.write('y');
      await until(() => app.lastFrame()!.includes('Enforce: yes'));
      const note = 'checked by hand in every service. '.repeat(20).trim();
      app.stdin.write(note);
      // The field shows the note's end, where typing goes.
      await until(() => /service\. ?$/m.test(app.lastFrame()!));
      within(app.lastFrame()!);
      app.stdin.write('\r');
      await until(() => done !== undefined);
      expect(done).toEqual([{ invariant_id: '01M8KK3EF09G9ET4TAJAHQWPMN', enforced: true, response: note }]);
      app.unmount();
    }
  });
});
