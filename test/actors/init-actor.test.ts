import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askActor } from '../../src/cli/actor-options.ts';
import { EXAMPLE_ACTOR_SOURCE } from '../../src/store/example-actor.ts';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { fileList } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { docsRef } from '../../src/core/docs-link.ts';

// Out of the box: `agents init` sets up who judges plans, the example actor comes with the
// package, and `plan use` says what to run next with the actor configured.

/** A new git repository; `agents` run in it. */
function repo(): { dir: string; run: (...args: string[]) => ReturnType<typeof runAgents> } {
  const dir = tempDir();
  gitInit(dir);
  return { dir, run: (...args) => runAgents(args, { cwd: dir }) };
}

/** An action with one invariant, and a plan made from it: the output of `plan use`. */
async function planFrom(run: ReturnType<typeof repo>['run']): Promise<{ id: string; next: string }> {
  expect((await run('invariant', 'add', '--global', 'Never delete production data')).code).toBe(0);
  expect((await run('action', 'add', 'local/upgrade')).code).toBe(0);
  expect((await run('invariant', 'add', '--action', 'local/upgrade', 'All API changes need tests')).code).toBe(0);
  const use = await run('plan', 'use', 'local/upgrade', '--goal', 'Upgrade the API');
  expect(use.code).toBe(0);
  const id = /created plan (\S+)/.exec(use.stdout)![1]!;
  return { id, next: use.stdout.slice(use.stdout.indexOf('Next:')) };
}

describe('agents init and the reconciliation actor', () => {
  it('the example actor in the package is the example store’s, byte for byte', () => {
    expect(EXAMPLE_ACTOR_SOURCE).toBe(readFileSync(join(REPO, '.agents.example/actors/example-actor.mjs'), 'utf8'));
  });

  it('--actor command writes the example actor; plan use names strategize, which then works', async () => {
    const { dir, run } = repo();
    const init = await run('init', '--actor', 'command');
    expect(init.code).toBe(0);
    expect(readFileSync(join(dir, '.agents/actors/example-actor.mjs'), 'utf8')).toBe(EXAMPLE_ACTOR_SOURCE);
    expect(readFileSync(join(dir, '.agents/config.yaml'), 'utf8')).toContain('command: [node, actors/example-actor.mjs]');
    const { id, next } = await planFrom(run);
    expect(next.trim()).toBe(`Next: agents plan strategize ${id}`);
    const s = await run('plan', 'strategize', id);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('enforced: 2 of 2 invariants');
  });

  it('without an actor: plan use says how to configure one, and strategize is exit 2 saying the same', async () => {
    const { run } = repo();
    expect((await run('init')).code).toBe(0);
    const { id, next } = await planFrom(run);
    expect(next).toContain('reconciliation: {actor: agent, agent: claude}');
    expect(next).toContain(`agents plan strategize ${id} --actor interactive`);
    const s = await run('plan', 'strategize', id);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain(docsRef('actors.md'));
  });

  it.each([
    [
      [
        '--actor',
        'llm',
        '--provider',
        'openai',
        '--model',
        'qwen3',
        '--base-url',
        'http://localhost:11434/v1',
        '--api-key-env',
        'LOCAL_KEY',
      ],
      ['actor: llm', 'provider: openai', 'model: qwen3', 'base_url: http://localhost:11434/v1', 'api_key_env: LOCAL_KEY'],
    ],
    [
      ['--actor', 'llm', '--provider', 'anthropic'],
      ['provider: anthropic', 'model: claude-haiku-4-5', 'api_key_env: ANTHROPIC_API_KEY'],
    ],
    [
      ['--actor', 'agent', '--agent', 'gemini'],
      ['actor: agent', 'agent: gemini'],
    ],
    [['--actor', 'interactive'], ['actor: interactive']],
  ])('init %j writes a config that validates and runs', async (flags, lines) => {
    const { dir, run } = repo();
    const init = await run('init', ...flags, '--format', 'json');
    expect(init.code).toBe(0);
    // The JSON says the actor as config.yaml has it, a default written there (api_key_env, model) included.
    const written = Object.fromEntries(lines.map((l) => l.split(': ') as [string, string]));
    expect(JSON.parse(init.stdout).actor).toEqual({ actor: flags[1], ...written });
    const config = readFileSync(join(dir, '.agents/config.yaml'), 'utf8');
    for (const l of lines) expect(config).toContain(`  ${l}\n`);
    expect((await run('validate')).code).toBe(0);
    const { id, next } = await planFrom(run);
    expect(next.trim()).toBe(`Next: agents plan strategize ${id}`);
    // The preview runs with any actor, and sends nothing.
    expect((await run('plan', 'strategize', id, '--show-prompt')).code).toBe(0);
  });

  it.each([
    [['--actor', 'llm', '--provider', 'openai', '--api-key-env', 'sk-proj-abcdefghijklmnop'], /NAME of an environment variable/],
    [
      ['--actor', 'llm', '--provider', 'openai', '--api-key-env', 'gsk_4kQ9zXv2Lm8PwR7tYb3NcJ5hGf6Ds1Ae0UiOpZxWqVbNm3Kl'],
      /NAME of an environment variable, e\.g\. OPENAI_API_KEY, not a key/,
    ],
    [['--actor', 'llm'], /needs --provider/],
    [['--actor', 'llm', '--provider', 'openai', '--base-url', 'http://localhost:99999/v1'], /is not a URL a request can be sent to/],
    [['--actor', 'llm', '--provider', 'openai', '--base-url', 'http://localhost:8080/v1?api-version=1'], /holds a query/],
    [['--actor', 'llm', '--provider', 'openai', '--base-url', 'https://me:sk-proj-abcdefghijklmnop@llm.example/v1'], /holds credentials/],
    [['--actor', 'agent'], /needs --agent/],
    // A model the agent CLI would read as an option of its own (`--model --yolo`).
    [['--actor', 'agent', '--agent', 'gemini', '--model=--yolo'], /reconciliation\.model "--yolo" holds white space or starts with "-"/],
    [['--actor', 'agent', '--agent', 'claude', '--provider', 'openai'], /--provider goes with --actor llm/],
    [['--agent', 'claude'], /--agent goes with --actor agent/],
  ])('init %j: exit 2, nothing created', async (flags, message) => {
    const { dir, run } = repo();
    const r = await run('init', ...flags);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('sk-proj-abcdefghijklmnop');
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  it.each([
    [['--actor', 'agent'], ['agent']],
    [['--actor', 'llm'], ['provider']],
  ])('init %j: exit 2 missing-option naming the flag the actor needs', async (flags, options) => {
    // No git repository is needed to refuse the flags: no process is started.
    const dir = tempDir();
    const r = await runAgents(['init', ...flags, '--format', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout)).toMatchObject({ exit_code: 2, error: { code: 'missing-option', detail: { command: 'init', options } } });
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  it.each([
    [['--agent', 'claude'], 'agent', ['agent']],
    [['--actor', 'command', '--provider', 'openai'], 'provider', ['llm']],
    [['--base-url', 'http://localhost:8080'], 'base-url', ['llm']],
    [['--actor', 'none', '--api-key-env', 'MY_KEY'], 'api-key-env', ['llm']],
    [['--model', 'm'], 'model', ['agent', 'llm']],
  ])('init %j without its actor: exit 2 naming the actors the flag goes with', async (flags, option, actors) => {
    const { dir, run } = repo();
    const r = await run('init', ...flags, '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail).toEqual({ option, actors });
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  it('in a terminal, init asks which actor; a wrong answer is asked again', async () => {
    const stdin = new PassThrough();
    let out = '';
    const io = { stdin, stdout: { write: (c: string) => (out += c), isTTY: true }, stderr: { write: () => true }, env: {}, cwd: REPO };
    const asked = askActor(io);
    stdin.write('9\n');
    stdin.write('4\n');
    await expect(asked).resolves.toEqual({ actor: 'llm', provider: 'openai', model: 'gpt-4.1-mini', api_key_env: 'OPENAI_API_KEY' });
    expect(out).toContain('1) Claude Code');
    expect(out).toContain('"9" is not one of 1-8');
    const later = askActor(io);
    stdin.write('\n');
    await expect(later).resolves.toBeUndefined();
  });

  it('init leaves no files beyond the store it reports', async () => {
    const { dir, run } = repo();
    const r = await run('init', '--actor', 'command', '--format', 'json');
    const created = (JSON.parse(r.stdout) as { created: string[] }).created;
    expect(created).toContain('actors/example-actor.mjs');
    expect(fileList(join(dir, '.agents')).filter((f) => !f.endsWith('.gitkeep'))).toEqual(created.filter((c) => !c.endsWith('/')).sort());
  });
});
