import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_PLAN, exampleStore, fileList, records, type DecisionFile, type EnforcementFile } from '../helpers/plans.ts';
import { PtySession } from '../helpers/pty.ts';

/** `plan strategize --actor interactive` in a real pseudo-terminal (the interactive actor refuses to run under CI, as prompts do). */
function terminal(root: string): PtySession {
  return PtySession.start(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--actor', 'interactive'], {
    cwd: root,
    columns: 120,
    rows: 40,
  });
}

describe('the interactive actor in a real terminal', () => {
  it('asks y/n and a note per invariant, then records the answers', async () => {
    const root = exampleStore();
    const t = terminal(root);
    await t.waitFor(
      /Invariant 1 of 4 · plan · error · 01M8KK3EF09G9ET4TAJAHQWPMN[\s\S]*Use Python 3\.13 only[\s\S]*Enforce this invariant\? \[y\/n\]/,
    );
    // NO_COLOR (the pty's default): the goal and the rationale are not dimmed either, as on every other screen.
    expect(t.screen(true)).not.toMatch(/\u001b\[[0-9;]*2m/);
    t.type('y');
    await t.waitFor(/Note \(Enter to finish\):/);
    t.type('pinned in pyproject');
    await t.waitFor(/Note \(Enter to finish\): pinned in pyproject/);
    t.keys('Enter');
    await t.waitFor(/Invariant 2 of 4/);
    t.type('n');
    await t.waitFor(/Enforce: no/);
    t.keys('Enter');
    await t.waitFor(/Invariant 3 of 4/);
    t.type('y');
    await t.waitFor(/Enforce: yes/);
    t.keys('Enter');
    await t.waitFor(/Invariant 4 of 4/);
    t.type('y');
    await t.waitFor(/Enforce: yes/);
    t.type('backups first');
    t.keys('Enter');
    const { code, screen: end } = await t.exit();
    // One invariant was declined: not all enforced, exit 1.
    expect(code).toBe(1);
    expect(end).toContain('not all enforced: 3 of 4 invariants');
    const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    const nodes = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
    expect(runs).toHaveLength(1);
    expect(nodes).toHaveLength(1);
    expect(runs[0]!.actor).toBe('interactive');
    expect(runs[0]!.records.map((r) => [r.invariant_id, r.enforced, r.actor_response])).toEqual([
      ['01M8KK3EF09G9ET4TAJAHQWPMN', true, 'pinned in pyproject'],
      ['01M8KJXYP0GVPRF8KRRE9G8474', false, 'not enforced (declined by a person)'],
      ['01M8KJZS90J6DRJJ8E264B9DFX', true, 'enforced (confirmed by a person)'],
      ['01M8KJT9G0XNWEM589ZS7FV0VT', true, 'backups first'],
    ]);
    expect(nodes[0]!.summary).toBe('3 of 4 invariants enforced (interactive actor)');
  });

  it('a paste is a note, never an answer: its line break submits nothing and its letters decide nothing', async () => {
    const root = exampleStore();
    const t = terminal(root);
    await t.waitFor(/Invariant 1 of 4[\s\S]*Enforce this invariant\? \[y\/n\]/);
    // Pasted before any answer: ignored, it neither says yes nor no.
    t.paste('no');
    t.type('y');
    await t.waitFor(/Enforce: yes/);
    t.paste('pinned\nnot sure');
    await t.waitFor(/Note \(Enter to finish\): pinned not sure/);
    t.keys('Enter');
    await t.waitFor(/Invariant 2 of 4/);
    for (let n = 2; n <= 4; n++) {
      await t.waitFor(new RegExp(`Invariant ${n} of 4[\\s\\S]*Enforce this invariant`));
      t.type('y');
      await t.waitFor(/Enforce: yes/);
      t.keys('Enter');
    }
    expect((await t.exit()).code).toBe(0);
    const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(runs[0]!.records.map((r) => [r.enforced, r.actor_response])).toEqual([
      [true, 'pinned not sure'],
      [true, 'enforced (confirmed by a person)'],
      [true, 'enforced (confirmed by a person)'],
      [true, 'enforced (confirmed by a person)'],
    ]);
  });

  it('cancels on Ctrl-C with exit 130 and writes nothing', async () => {
    const root = exampleStore();
    const before = fileList(root);
    const t = terminal(root);
    await t.waitFor(/Enforce this invariant\?/);
    t.type('y');
    await t.waitFor(/Note/);
    t.keys('C-c');
    const { code, screen: end } = await t.exit();
    expect(code).toBe(130);
    expect(end).toContain('Cancelled: nothing was written.');
    expect(fileList(root)).toEqual(before);
    // No decisions/ or enforcement/ folder was made (the example's waivers/ was there before).
    expect(readdirSync(join(root, 'plans', EXAMPLE_PLAN)).sort()).toEqual(['01M8KK3EF09G9ET4TAJAHQWPMN.yaml', 'plan.yaml', 'waivers']);
  });
});
