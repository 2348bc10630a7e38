import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { G1, exampleStore } from '../tui/helpers.ts';
import { runAgents } from '../helpers/main.ts';

// Scripts never meet the TUI: without a terminal (or with --no-input) each interactive path refuses with exit 2.
test.each([
  [['tui'], 'the TUI needs an interactive terminal'],
  [['invariant', 'list', '--interactive'], 'the TUI needs an interactive terminal'],
  [['invariant', 'add'], 'no invariant text given'],
  [['invariant', 'remove', G1], 'Run again with --yes to confirm'],
])('agents %j without a terminal: exit 2, %s', async (args, message) => {
  const store = exampleStore();
  const r = await runAgents(['--store', store, ...args]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(message);
  expect(r.stdout).toBe('');
  expect(existsSync(join(store, `global/${G1}.yaml`))).toBe(true);
});

test('--no-input refuses even where CI is unset', async () => {
  const store = exampleStore();
  const r = await runAgents(['--store', store, '--no-input', 'tui'], { env: { CI: undefined } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('no --no-input');
});

test('remove --yes needs no terminal', async () => {
  const store = exampleStore();
  const r = await runAgents(['--store', store, 'invariant', 'remove', G1, '--yes']);
  expect(r.code).toBe(0);
  expect(existsSync(join(store, `global/${G1}.yaml`))).toBe(false);
});

test.each([[['invariant', 'list', '-i', '--effective']], [['invariant', 'list', '-i', '--effective', '--global']]])(
  'agents %j: --effective without a project or plan is refused as without -i (missing-option), not browsed as every scope',
  async (args) => {
    const store = exampleStore();
    const r = await runAgents(['--store', store, '--format', 'json', ...args], { env: { CI: undefined } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'missing-option', detail: { options: ['project', 'plan'] } });
  },
);
