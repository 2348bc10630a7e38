import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, type DecisionFile, type EnforcementFile } from '../helpers/plans.ts';

const HAVE_TMUX = spawnSync('tmux', ['-V']).status === 0;

/** A program running in a real pseudo-terminal: a private tmux server, typed at and read from. */
function terminal(command: string) {
  // Never skipped: .ci/run installs tmux; elsewhere, install it to run these tests.
  if (!HAVE_TMUX) throw new Error('these tests drive a real pseudo-terminal through tmux: install it (apt-get install tmux)');
  const socket = `agents-test-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  // CI is unset inside: the interactive actor refuses to run under CI, as prompts do.
  tmux('new-session', '-d', '-x', '120', '-y', '40', `env -u CI NO_COLOR=1 ${command}; echo "EXIT=$?"; sleep 60`);
  onTestFinished(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  });
  const screen = () => tmux('capture-pane', '-p', '-J');
  return {
    screen,
    keys: (...keys: string[]) => tmux('send-keys', ...keys),
    text: (s: string) => tmux('send-keys', '-l', s),
    /** Polls the pane until `pattern` shows, for at most `ms`. */
    async waitFor(pattern: RegExp, ms = 20_000): Promise<string> {
      const end = Date.now() + ms;
      for (;;) {
        const now = screen();
        if (pattern.test(now)) return now;
        if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}; the screen shows:\n${now}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

describe('the interactive actor in a real terminal', () => {
  it('asks y/n and a note per invariant, then records the answers', async () => {
    const root = exampleStore();
    const t = terminal(`${process.execPath} ${BIN} --store ${root} plan strategize ${EXAMPLE_PLAN} --actor interactive`);
    await t.waitFor(
      /Invariant 1 of 4 · plan · error · 01M8KK3EF09G9ET4TAJAHQWPMN[\s\S]*Use Python 3\.13 only[\s\S]*Enforce this invariant\? \[y\/n\]/,
    );
    t.text('y');
    await t.waitFor(/Note \(Enter to finish\):/);
    t.text('pinned in pyproject');
    await t.waitFor(/Note \(Enter to finish\): pinned in pyproject/);
    t.keys('Enter');
    await t.waitFor(/Invariant 2 of 4/);
    t.text('n');
    await t.waitFor(/Enforce: no/);
    t.keys('Enter');
    await t.waitFor(/Invariant 3 of 4/);
    t.text('y');
    await t.waitFor(/Enforce: yes/);
    t.keys('Enter');
    await t.waitFor(/Invariant 4 of 4/);
    t.text('y');
    await t.waitFor(/Enforce: yes/);
    t.text('backups first');
    t.keys('Enter');
    const end = await t.waitFor(/EXIT=\d+/);
    // One invariant was declined: not all enforced, exit 1.
    expect(end).toMatch(/EXIT=1/);
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

  it('cancels on Ctrl-C with exit 130 and writes nothing', async () => {
    const root = exampleStore();
    const before = fileList(root);
    const t = terminal(`${process.execPath} ${BIN} --store ${root} plan strategize ${EXAMPLE_PLAN} --actor interactive`);
    await t.waitFor(/Enforce this invariant\?/);
    t.text('y');
    await t.waitFor(/Note/);
    t.keys('C-c');
    const end = await t.waitFor(/EXIT=\d+/);
    expect(end).toMatch(/EXIT=130/);
    expect(end).toContain('Cancelled: nothing was written.');
    expect(fileList(root)).toEqual(before);
    // No decisions/ or enforcement/ folder was made (the example's waivers/ was there before).
    expect(readdirSync(join(root, 'plans', EXAMPLE_PLAN)).sort()).toEqual(['01M8KK3EF09G9ET4TAJAHQWPMN.yaml', 'plan.yaml', 'waivers']);
  });
});
