// An option with choices given without its value, or a required one left out, is answered with the values it takes
// (detail.choices), so that a newcomer need not open the command's help to name one.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, PROVIDERS } from '../../src/core/actor-choice.ts';
import type { AgentsError } from '../../src/core/errors.ts';
import { GUARD_CLIENTS } from '../../src/core/guard-clients.ts';
import { usageFromYargs } from '../../src/cli/parse-failures.ts';
import { EXPORT_TARGETS, SEVERITIES } from '../../src/core/model.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir, testStore } from '../helpers/tmp.ts';

describe('a missing value of an option with choices', () => {
  it.each([
    ['guard install --client', ['guard', 'install', '--client'], 'client', GUARD_CLIENTS],
    ['export --target', ['export', '--target'], 'target', EXPORT_TARGETS],
    ['invariant add --severity', ['invariant', 'add', '--global', 'T', '--severity'], 'severity', SEVERITIES],
    ['--format of a command', ['invariant', 'list', '--format'], 'format', ['text', 'json', 'yaml']],
    ['--format before any command', ['--format'], 'format', ['text', 'json', 'yaml']],
    ['init --agent', ['init', '--actor', 'agent', '--agent'], 'agent', AGENT_NAMES],
  ])('%s: missing-value with detail.choices, nothing written', async (_name, args, option, choices) => {
    const store = testStore({});
    const r = await runAgents(['--store', store, ...args, ...(args[0] === '--format' ? [] : ['--format', 'json'])], {
      cwd: dirname(store),
    });
    expect(r.code).toBe(2);
    // `--format` alone takes the json answer from nowhere: the error it is said from is read instead.
    if (args[0] === '--format') {
      const error = usageFromYargs('Not enough arguments following: format', undefined, args) as AgentsError;
      expect([error.code, error.exitCode, error.detail]).toEqual(['missing-value', 2, { option, choices: [...choices] }]);
      return;
    }
    expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option, choices: [...choices] } });
  });

  it('an option without choices is missing-value naming it alone', async () => {
    const store = testStore({});
    const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', '--project'], { cwd: dirname(store) });
    expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'project' } });
  });
});

describe('a required option with choices left out', () => {
  it('guard install without --client: missing-option with the clients in detail.choices', async () => {
    const store = testStore({});
    const r = await runAgents(['--store', store, '--format', 'json', 'guard', 'install'], { cwd: dirname(store) });
    expect(errorOf(r)).toEqual({
      code: 'missing-option',
      exit_code: 2,
      detail: { command: 'guard install', options: ['client'], choices: { client: [...GUARD_CLIENTS] } },
    });
  });

  it('a required option without choices has no detail.choices (invariant waive without --reason)', async () => {
    const store = testStore({});
    const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'waive', 'x', '--plan', 'p', '--owner', 'o'], {
      cwd: dirname(store),
    });
    expect(r.code).toBe(2);
    expect(errorOf(r).detail).not.toHaveProperty('choices');
  });

  it.each([
    ['agent', ['--actor', 'agent'], AGENT_NAMES],
    ['provider', ['--actor', 'llm'], PROVIDERS],
  ])('init without --%s: missing-option with its choices', async (option, args, choices) => {
    const dir = tempDir();
    const r = await runAgents(['--format', 'json', 'init', '--store', join(dir, '.agents'), ...args], { cwd: dir });
    expect(errorOf(r)).toEqual({
      code: 'missing-option',
      exit_code: 2,
      detail: { command: 'init', options: [option], choices: { [option]: [...choices] } },
    });
  });
});

describe('the value a hint asks for', () => {
  it('is named by its option, as a missing argument is by its own: invariant violation add alone', async () => {
    const store = testStore({});
    const r = await runAgents(['--store', store, 'invariant', 'violation', 'add'], { cwd: dirname(store) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--plan PLAN --invariant INVARIANT');
    expect(r.stderr).not.toContain('VALUE');
  });

  it.each([
    ['a free one', ['invariant', 'list', '--project'], '--project PROJECT'],
    ['one with choices', ['invariant', 'add', '--global', 'T', '--severity'], '--severity SEVERITY'],
    ['a --no- form of one that takes a value', ['init', '--actor', 'llm', '--no-api-key-env'], '--api-key-env API_KEY_ENV'],
  ])('%s, its value missing', async (_name, args, asked) => {
    const store = testStore({});
    const r = await runAgents(['--store', store, ...args], { cwd: dirname(store) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(asked);
    expect(r.stderr).not.toContain('VALUE');
  });
});
