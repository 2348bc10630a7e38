import { existsSync, mkdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, useActor, type DecisionFile, type EnforcementFile } from '../helpers/plans.ts';
import { gone } from '../helpers/process-gone.ts';
import { runReadOnly } from '../helpers/read-only.ts';
import { tempDir } from '../helpers/tmp.ts';
import { runKilledAtUnlink } from '../reliability/kill.ts';

// The example plan's effective set, in order (seed merge example).
const IDS = ['01M8KK3EF09G9ET4TAJAHQWPMN', '01M8KJXYP0GVPRF8KRRE9G8474', '01M8KJZS90J6DRJJ8E264B9DFX', '01M8KJT9G0XNWEM589ZS7FV0VT'];

const READ_STDIN = `
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
`;

function strategize(root: string, ...extra: string[]) {
  return runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, ...extra]);
}

/** The one run so far: its enforcement file and decision node, checked to point at each other. */
function onlyRun(root: string): { run: EnforcementFile; node: DecisionFile } {
  const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
  const nodes = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
  expect(runs).toHaveLength(1);
  expect(nodes).toHaveLength(1);
  const run = runs[0]!;
  const node = nodes[0]!;
  expect(node).toMatchObject({ type: 'invariant_enforced', parent_id: null, enforcement_id: run.id });
  expect(run.decision_id).toBe(node.id);
  expect(run.records.map((r) => r.invariant_id)).toEqual(IDS);
  for (const r of run.records) expect(r.decision_id).toBe(node.id);
  return { run, node };
}

/** Whether process `pid` has ended, polling for up to 5 s. */
describe('plan strategize with a command actor', () => {
  it('records every invariant enforced when the actor says so (the example actor)', async () => {
    const root = exampleStore();
    const r = await strategize(root, '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(true);
    const { run, node } = onlyRun(root);
    expect(run.actor).toBe('command');
    expect(run.error).toBeUndefined();
    expect(run.records.every((x) => x.enforced)).toBe(true);
    expect(run.records[3]!.actor_response).toMatch(/guard/);
    expect(node.summary).toBe('4 of 4 invariants enforced (command actor)');
    expect(out.decision.id).toBe(node.id);
    expect(out.enforcement.records).toEqual(run.records);
    // Each written file carries its schema modeline.
    const nodeText = readFileSync(join(root, 'plans', EXAMPLE_PLAN, 'decisions', `${node.id}.yaml`), 'utf8');
    expect(nodeText.split('\n')[0]).toBe('# yaml-language-server: $schema=../../../schemas/decision.schema.json');
  });

  it('records what the actor refused, and exits 1', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
const results = request.invariants.map((inv) => ({ invariant_id: inv.id, enforced: !/Python/.test(inv.text), response: /Python/.test(inv.text) ? 'the plan needs Python 3.12' : 'ok' }));
console.log(JSON.stringify({ results }));`,
    );
    const r = await strategize(root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not all enforced: 3 of 4');
    const { run, node } = onlyRun(root);
    expect(run.records.map((x) => [x.enforced, x.actor_response])).toEqual([
      [false, 'the plan needs Python 3.12'],
      [true, 'ok'],
      [true, 'ok'],
      [true, 'ok'],
    ]);
    expect(run.error).toBeUndefined();
    expect(node.summary).toBe('3 of 4 invariants enforced (command actor)');
  });

  it('sends the plan, the context file and the effective set as one JSON request, in the store folder', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
import { writeFileSync } from 'node:fs';
writeFileSync('request.json', JSON.stringify({ request, cwd: process.cwd() }));
console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
    );
    const ctxFile = join(root, '..', 'context.md');
    writeFileSync(ctxFile, 'Step 1: bump the interpreter.\n');
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', ctxFile]);
    expect(r.code).toBe(0);
    const seen = JSON.parse(readFileSync(join(root, 'request.json'), 'utf8'));
    expect(seen.cwd).toBe(root);
    expect(seen.request.protocol).toBe('agents-reconcile/1');
    expect(seen.request.plan).toEqual({ id: EXAMPLE_PLAN, action: null, project: 'myapp', goal: 'Upgrade the myapp API to Python 3.13' });
    expect(seen.request.context).toBe('Step 1: bump the interpreter.\n');
    expect(seen.request.invariants.map((i: { id: string }) => i.id)).toEqual(IDS);
    expect(seen.request.invariants[0]).toEqual({
      id: IDS[0],
      text: 'Use Python 3.13 only',
      severity: 'error',
      scope: 'plan',
      tags: [],
      source: { kind: 'plan' },
    });
  });

  it.each([
    [
      'crashes',
      `process.stderr.write('boom: out of memory\\n'); process.kill(process.pid, 'SIGSEGV');`,
      /crashed \(killed by SIGSEGV\).*boom: out of memory/,
    ],
    [
      'exits non-zero',
      `${READ_STDIN} process.stderr.write('no API key\\n'); process.exit(3);`,
      /exited with status 3; its standard error ends: no API key/,
    ],
    ['prints garbage', `${READ_STDIN} console.log('Sure! Here are the results: ...');`, /answer is not JSON/],
    ['prints nothing', `${READ_STDIN}`, /printed no answer/],
    [
      'exits 0 having said why on standard error alone',
      `${READ_STDIN} process.stderr.write('OPENAI_API_KEY is not set\\n');`,
      /printed no answer on standard output; its standard error ends: OPENAI_API_KEY is not set$/,
    ],
    [
      'prints garbage and says why on standard error',
      `${READ_STDIN} console.log('Traceback (most recent call last):'); process.stderr.write('model not found: gpt-9\\n');`,
      /answer is not JSON .*; its standard error ends: model not found: gpt-9$/,
    ],
    [
      'prints an answer that breaks the schema',
      `${READ_STDIN} console.log(JSON.stringify({ results: [{ invariant_id: request.invariants[0].id, enforced: 'yes', response: 'x' }] }));`,
      /does not match actor-response.schema.json: results.0.enforced must be boolean/,
    ],
    ['adds an unknown key', `${READ_STDIN} console.log(JSON.stringify({ results: [], verdict: 'fine' }));`, /unknown key "verdict"/],
    [
      'prints an answer that is not UTF-8',
      `${READ_STDIN} const [head, ...rest] = JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: '@' })) }).split('@');
process.stdout.write(Buffer.concat([Buffer.from(head), ...rest.flatMap((part) => [Buffer.from([0xc3, 0x28]), Buffer.from(part)])]));`,
      /is not UTF-8 text \(line 1, column \d+ of its output\)/,
    ],
  ])('records enforced: false with the reason when the actor %s, and exits 1', async (_name, script, reason) => {
    const root = exampleStore();
    useActor(root, script);
    const r = await strategize(root);
    expect(r.code).toBe(1);
    const { run, node } = onlyRun(root);
    expect(run.error).toMatch(reason);
    for (const x of run.records) {
      expect(x.enforced).toBe(false);
      expect(x.actor_response).toMatch(/^not enforced: /);
      expect(x.actor_response).toMatch(reason);
    }
    expect(node.summary).toMatch(/^0 of 4 invariants enforced \(command actor\); actor failed: /);
    expect(r.stdout).toContain('actor failed:');
  });

  it.each([
    [
      'on standard error, exiting 1',
      `process.stderr.write('Incorrect API key provided: ' + process.env.OPENAI_API_KEY + '\\n'); process.exit(1);`,
    ],
    ['on standard output, as its answer', `console.log('Error: bad key ' + process.env.ANTHROPIC_API_KEY);`],
  ])(
    'an actor wrapping a model client that says its key back %s: the key is in no file the run wrote, nor in its output',
    async (_, body) => {
      const root = exampleStore();
      useActor(root, `${READ_STDIN} ${body}`);
      const key = 'sk-proj-wrapped-key-4f9a2c';
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json'], {
        env: { OPENAI_API_KEY: key, ANTHROPIC_API_KEY: key },
      });
      expect(r.code).toBe(1);
      const { run, node } = onlyRun(root);
      expect(run.error).toContain('[key]');
      expect(run.records.every((x) => !x.enforced)).toBe(true);
      const written = fileList(root).map((f) => readFileSync(join(root, f), 'utf8'));
      for (const text of [r.stdout, r.stderr, node.summary, ...written]) expect(text).not.toContain(key);
    },
  );

  it("an actor's stderr on success, passed on to the caller, has the key taken out", async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN} process.stderr.write('using key ' + process.env.GEMINI_API_KEY + '\\n'); console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
    );
    const { commandActor } = await import('../../src/enforce/actors.ts');
    const key = 'AIzaSy-wrapped-key-77b1';
    const told: string[] = [];
    const actor = commandActor({
      command: ['node', 'actors/fixture-actor.mjs'],
      timeoutMs: 20_000,
      cwd: root,
      env: { ...process.env, GEMINI_API_KEY: key },
      onStderr: (t) => told.push(t),
    });
    const out = await actor.evaluate({
      protocol: 'agents-reconcile/1',
      plan: { id: EXAMPLE_PLAN, action: null, project: null, goal: null },
      context: null,
      invariants: [],
    });
    expect(out.ok).toBe(true);
    expect(told).toEqual(['using key [key]']);
  });

  it('records a missing result, and a doubled one, as not enforced; ignores answers for unknown ids', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
const [a, b, c] = request.invariants;
console.log(JSON.stringify({ results: [
  { invariant_id: a.id, enforced: true, response: 'yes' },
  { invariant_id: c.id, enforced: true, response: 'one' },
  { invariant_id: c.id, enforced: true, response: 'two' },
  { invariant_id: '01M8KK0000000000000000000Z', enforced: true, response: 'stray' },
] }));`,
    );
    const r = await strategize(root, '--format', 'json');
    expect(r.code).toBe(1);
    const { run } = onlyRun(root);
    expect(run.error).toBeUndefined();
    expect(run.records.map((x) => [x.enforced, x.actor_response])).toEqual([
      [true, 'yes'],
      [false, 'not enforced: the actor gave no result for this invariant'],
      [false, 'not enforced: the actor gave 2 results for this invariant'],
      [false, 'not enforced: the actor gave no result for this invariant'],
    ]);
    expect(JSON.parse(r.stdout).problems).toEqual([
      'the actor answered for 01M8KK0000000000000000000Z, which was not asked about; ignored',
    ]);
  });

  it('stops an actor that hangs past timeout_ms, with every process it started', async () => {
    const root = exampleStore();
    // The actor ignores SIGTERM, starts a helper that holds its stdout, and never answers.
    useActor(
      root,
      `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
process.on('SIGTERM', () => {});
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
writeFileSync('helper.pid', String(helper.pid));
setInterval(() => {}, 1000);`,
      800,
    );
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.code).toBe(1);
    const { run } = onlyRun(root);
    expect(run.error).toBe('the actor `node actors/fixture-actor.mjs` did not answer within 800 ms (timeout_ms) and was stopped');
    expect(run.records.every((x) => !x.enforced && x.actor_response.includes('timeout_ms'))).toBe(true);
    expect(await gone(Number(readFileSync(join(root, 'helper.pid'), 'utf8')))).toBe(true);
  });

  it('takes the answer of an actor that exits while a helper it started still holds its output, and stops the helper', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
writeFileSync('helper.pid', String(helper.pid));
console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));
process.exit(0);`,
    );
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.code).toBe(0);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
    expect(await gone(Number(readFileSync(join(root, 'helper.pid'), 'utf8')))).toBe(true);
  });

  it('stops a helper the actor left running in its group without its output (a background job) once the actor exits', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
helper.unref();
writeFileSync('helper.pid', String(helper.pid));
console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
    );
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.code).toBe(0);
    expect(onlyRun(root).run.records.every((x) => x.enforced)).toBe(true);
    expect(await gone(Number(readFileSync(join(root, 'helper.pid'), 'utf8')))).toBe(true);
  });

  it.each([
    ['SIGINT', 'Cancelled: the actor was stopped and nothing was written.', 130],
    ['SIGTERM', 'Cancelled by SIGTERM: the actor was stopped and nothing was written.', 143],
    ['SIGHUP', 'Cancelled by SIGHUP: the actor was stopped and nothing was written.', 129],
  ] as const)('stops the actor and the helper it started, and writes nothing, on %s (exit %s)', async (signal, message, exit) => {
    const root = exampleStore();
    // The helper stays in the actor's process group, as an LLM client started by a wrapper does.
    useActor(
      root,
      `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync('helper.pid', String(helper.pid));
writeFileSync('actor.pid', String(process.pid));
setInterval(() => {}, 1000);`,
    );
    const before = fileList(root);
    const child = spawn(process.execPath, [BIN, '--store', root, 'plan', 'strategize', EXAMPLE_PLAN], {
      env: { ...process.env, NO_COLOR: '1', CI: 'true' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    const pidFile = join(root, 'actor.pid');
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((res) => setTimeout(res, 50));
    expect(existsSync(pidFile)).toBe(true);
    child.kill(signal);
    expect(await closed).toBe(exit);
    expect(stderr).toContain(message);
    expect(fileList(root)).toEqual([...before, 'actor.pid', 'helper.pid'].sort());
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect(await gone(Number(readFileSync(join(root, 'helper.pid'), 'utf8')))).toBe(true);
  });

  it('SIGTERM as the run is written (its decision node put in place): the run is recorded whole, then exit 143, not the verdict', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
console.log(JSON.stringify({ results: request.invariants.map((inv) => ({ invariant_id: inv.id, enforced: true, response: 'ok' })) }));`,
    );
    const r = await runKilledAtUnlink(
      ['--store', root, '--format', 'json', 'plan', 'strategize', EXAMPLE_PLAN],
      { placedIn: join(root, 'plans', EXAMPLE_PLAN, 'decisions') },
      'SIGTERM',
    );
    expect([r.killed, r.code, JSON.parse(r.stdout).error?.code], r.stderr).toEqual([false, 143, 'cancelled']);
    expect(onlyRun(root).node.summary).toBe('4 of 4 invariants enforced (command actor)');
  });

  it('writes nothing on a stop signal while it waits for the plan lock after the actor answered (exit 143 for SIGTERM)', async () => {
    const root = exampleStore();
    const folder = join(root, 'plans', EXAMPLE_PLAN);
    // Another writer of the plan (a sync, a violation added) holds its lock while this run's actor answers.
    writeFileSync(join(folder, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const before = fileList(root);
    // Once strategize tries the lock (its temporary appears beside it), the CI job is cancelled.
    const watcher = watch(folder, (_event, name) => {
      if (!String(name).startsWith('..lock.')) return;
      watcher.close();
      process.emit('SIGTERM', 'SIGTERM');
    });
    try {
      const r = await strategize(root);
      expect(r.code).toBe(143);
    } finally {
      watcher.close();
      rmSync(join(folder, '.lock'));
    }
    expect(fileList(root)).toEqual(before.filter((f) => f !== `plans/${EXAMPLE_PLAN}/.lock`));
  });

  // ADR 0703: a program that cannot be started is a configuration error, as the agent actor's missing CLI is.
  it.each([
    ['not found on PATH', null, ['no-such-actor-program-xyz'], 'ENOENT', /no-such-actor-program-xyz was not found \(ENOENT\)/, {}],
    ['without the execute bit', 0o644, ['./actors/run.sh'], 'EACCES', /\.\/actors\/run\.sh may not be run \(EACCES\)/, {}],
    ['a folder', null, ['./actors'], 'EACCES', /\.\/actors is a folder, not a program/, {}],
    [
      'a script whose #! interpreter is missing',
      0o755,
      ['./actors/run.sh'],
      'ENOENT',
      /interpreter on its #! line/,
      { interpreter: '/no/such/interpreter' },
    ],
    // Saved with Windows line ends: the system looks for `/bin/sh\r`.
    ['a script with CRLF line ends', 0o700, ['./actors/run.sh'], 'ENOENT', /carriage return/, { interpreter: '/bin/sh\r' }],
    // Through env, the system starts env, which looks for `node\r`: refused before the start, not recorded as a failed run.
    ['an env script with CRLF line ends', 0o750, ['./actors/run.sh'], 'ENOENT', /carriage return/, { interpreter: 'node\r' }],
  ])(
    'refuses a program that cannot be started (%s): exit 2, code actor-not-started, nothing written',
    async (_name, mode, command, errno, message, extra) => {
      const root = exampleStore();
      const script: Record<number, string> = {
        0o644: '#!/bin/sh\necho {}\n',
        0o755: '#!/no/such/interpreter -x\necho {}\n',
        0o700: '#!/bin/sh\r\necho {}\r\n',
        0o750: '#!/usr/bin/env node\r\nconsole.log("{}")\r\n',
      };
      if (mode !== null) writeFileSync(join(root, 'actors/run.sh'), script[mode]!, { mode });
      writeFileSync(join(root, 'config.yaml'), `version: 1\nreconciliation:\n  command: ${JSON.stringify(command)}\n`);
      const before = fileList(root);
      const r = await strategize(root, '--format', 'json');
      expect(r.code).toBe(2);
      const { error } = JSON.parse(r.stdout);
      expect(error.code).toBe('actor-not-started');
      expect(error.detail).toEqual({ command, setting: 'reconciliation.command', errno, ...extra });
      expect(error.message).toMatch(message);
      expect(fileList(root)).toEqual(before);
      await expectShownProblem(root, error);
    },
  );

  /** `--show-prompt` finds what the run refused (`error`), as a warning: the request shown all the same, exit 0, nothing written. */
  async function expectShownProblem(
    root: string,
    error: { code: string; message: string; hint: string; detail: unknown },
    env?: NodeJS.ProcessEnv,
  ) {
    const before = fileList(root);
    const shown = await runAgents(
      ['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--show-prompt', '--format', 'json'],
      env ? { env } : {},
    );
    expect(shown.code).toBe(0);
    const out = JSON.parse(shown.stdout);
    expect(out).toMatchObject({ actor: 'command', request: { plan: { id: EXAMPLE_PLAN } } });
    expect(out.problem).toEqual({ code: error.code, message: error.message, hint: error.hint, detail: error.detail });
    expect(shown.stderr).toContain('actor-not-started');
    expect(fileList(root)).toEqual(before);
  }

  it('--show-prompt of a command actor that would start has no problem and no warning', async () => {
    const root = exampleStore();
    const shown = await strategize(root, '--show-prompt', '--format', 'json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).problem).toBeNull();
    expect(shown.stderr).not.toMatch(/warning/);
  });

  it('--show-prompt of the command actor with no reconciliation.command warns of the refusal a run makes', async () => {
    const root = exampleStore();
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  actor: command\n');
    const before = fileList(root);
    const run = await strategize(root, '--format', 'json');
    expect(run.code).toBe(2);
    const { error } = JSON.parse(run.stdout);
    const shown = await strategize(root, '--show-prompt', '--format', 'json');
    expect(shown.code).toBe(0);
    const out = JSON.parse(shown.stdout);
    expect(out).toMatchObject({ actor: 'command', request: { plan: { id: EXAMPLE_PLAN } } });
    expect(out.problem).toEqual({ code: error.code, message: error.message, hint: error.hint, detail: error.detail });
    expect(shown.stderr).toMatch(/\bwarning: /);
    expect(fileList(root)).toEqual(before);
  });

  // No shell runs the command: what a shell would have split or expanded names no program, and the message says so.
  it.each([
    ['"node actors/example-actor.mjs"', '[node, actors/example-actor.mjs]'],
    ['"~/bin/my-actor"', '~ in it is not expanded'],
    ['"$HOME/bin/my-actor"', 'a $VARIABLE in it is not expanded'],
  ])('a program written as a shell would read it, [%s], is exit 2, actor-not-started, saying why: %s', async (program, why) => {
    const root = exampleStore();
    writeFileSync(join(root, 'config.yaml'), `version: 1\nreconciliation:\n  command: [${program}]\n`);
    const before = fileList(root);
    const r = await strategize(root, '--format', 'json');
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stdout);
    expect([error.code, error.detail.errno]).toEqual(['actor-not-started', 'ENOENT']);
    expect(error.message).toContain(why);
    expect(fileList(root)).toEqual(before);
    await expectShownProblem(root, error);
  });

  it('refuses an actor script of the store that is not there (not committed, misspelt) as a program that cannot be started', async () => {
    const root = exampleStore();
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  command: [node, actors/not-committed.mjs]\n');
    const before = fileList(root);
    const r = await strategize(root, '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'actor-not-started',
      detail: {
        command: ['node', 'actors/not-committed.mjs'],
        setting: 'reconciliation.command',
        errno: 'ENOENT',
        missing: 'actors/not-committed.mjs',
      },
    });
    expect(fileList(root)).toEqual(before);
    await expectShownProblem(root, JSON.parse(r.stdout).error);
    // A shell's script naming one is no path: run, and its failure recorded.
    writeFileSync(join(root, 'config.yaml'), "version: 1\nreconciliation:\n  command: [sh, -c, 'actors/not-committed.mjs || exit 5']\n");
    expect((await strategize(root, '--format', 'json')).code).toBe(1);
    expect(records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')[0]!.error).toMatch(/exited with status 5/);
  });

  it('says of a program found on PATH whose #! interpreter is missing that the interpreter was not found, not the program', async () => {
    const root = exampleStore();
    const bin = tempDir();
    writeFileSync(join(bin, 'my-actor'), '#!/no/such/interpreter\necho {}\n', { mode: 0o755 });
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  command: ["my-actor"]\n');
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json'], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stdout);
    expect(error).toMatchObject({
      code: 'actor-not-started',
      detail: { command: ['my-actor'], errno: 'ENOENT', interpreter: '/no/such/interpreter' },
    });
    expect(error.message).toMatch(/my-actor names an interpreter on its #! line that was not found/);
    expect(fileList(root)).toEqual(before);
    await expectShownProblem(root, error, { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` });
  });

  it.each([
    ['no command is configured', 'version: 1\n', [], /no actor command configured/],
    ['the context file is missing', null, ['--context', 'missing.md'], /cannot read the context file missing.md: it does not exist/],
    ['the interactive actor has no terminal', null, ['--actor', 'interactive'], /needs a terminal/],
  ])('writes nothing and exits 2 when %s', async (_name, config, extra, message) => {
    const root = exampleStore();
    if (config !== null) writeFileSync(join(root, 'config.yaml'), config);
    const before = fileList(root);
    const r = await strategize(root, ...extra);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fileList(root)).toEqual(before);
  });

  it("says on stderr, before the actor runs, that the plan's template changed since (drift), naming plan sync; the run goes on", async () => {
    const root = exampleStore();
    const used = await runAgents(['--store', root, 'plan', 'use', 'local/code-coverage', '--project', 'myapp', '--format', 'json']);
    const id = (JSON.parse(used.stdout) as { plan: { id: string } }).plan.id;
    const run = () => runAgents(['--store', root, 'plan', 'strategize', id, '--format', 'json']);
    const inStep = await run();
    expect(inStep.code).toBe(0);
    expect(inStep.stderr).toBe('');
    const template = join(root, 'actions/local/code-coverage/01M8KK1KW0KPRSWWKENT2QZ1QM.yaml');
    const text = readFileSync(template, 'utf8');
    writeFileSync(template, text.replace(/^text: .*$/m, 'text: Minimum 90% coverage'));
    const drifted = await run();
    expect(drifted.code).toBe(0);
    expect(drifted.stderr).toContain('drift');
    expect(drifted.stderr).toContain(`plan sync ${id}`);
    expect(records<EnforcementFile>(root, id, 'enforcement')).toHaveLength(2);
    // An invalid template file, which the plan's set does not read, leaves the drift unknown: said, never a stop.
    writeFileSync(template, `${text}bogus: [\n`);
    const unknown = await run();
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toContain('01M8KK1KW0KPRSWWKENT2QZ1QM.yaml');
    expect(records<EnforcementFile>(root, id, 'enforcement')).toHaveLength(3);
  });

  it('exits 3 and runs no actor when a decision node is invalid', async () => {
    const root = exampleStore();
    writeFileSync(
      join(root, 'config.yaml'),
      "version: 1\nreconciliation:\n  command: [node, -e, \"require('fs').writeFileSync('ran', '')\"]\n",
    );
    const bad = `plans/${EXAMPLE_PLAN}/decisions/01M8KK0000000000000000000Z.yaml`;
    mkdirSync(join(root, 'plans', EXAMPLE_PLAN, 'decisions'));
    writeFileSync(join(root, bad), 'id: 01M8KK0000000000000000000Z\ntype: guess\n');
    const r = await strategize(root);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${bad}:2:7`);
    expect(existsSync(join(root, 'ran'))).toBe(false);
  });

  it('exits 2 (write-failed) and runs no actor when the store is read-only: its work could not be recorded', () => {
    const root = exampleStore();
    const mark = join(tempDir(), 'ran');
    writeFileSync(
      join(root, 'config.yaml'),
      `version: 1\nreconciliation:\n  command: [node, -e, "require('fs').writeFileSync('${mark}', '')"]\n`,
    );
    const r = runReadOnly(root, ['--format', 'json', 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('write-failed');
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(join(root, 'plans', EXAMPLE_PLAN, 'decisions'))).toBe(false);
  });
});

describe('the decision tree', () => {
  it('grows one node per run, each the child of the one before; nothing is overwritten', async () => {
    const root = exampleStore();
    useActor(
      root,
      `${READ_STDIN}
import { existsSync, writeFileSync } from 'node:fs';
const n = existsSync('runs') ? 2 : 1; writeFileSync('runs', '');
if (process.env.FAIL === '1') process.exit(9);
console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'run ' + n })) }));`,
    );
    expect((await strategize(root)).code).toBe(0);
    const first = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement')[0]!;
    const firstText = readFileSync(join(root, 'plans', EXAMPLE_PLAN, 'enforcement', `${first.id}.yaml`), 'utf8');
    expect((await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env: { FAIL: '1' } })).code).toBe(1);
    expect((await strategize(root)).code).toBe(0);
    const nodes = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
    const runs = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
    expect(nodes).toHaveLength(3);
    expect(runs).toHaveLength(3);
    expect(nodes.map((n) => n.parent_id)).toEqual([null, nodes[0]!.id, nodes[1]!.id]);
    expect(nodes.map((n) => n.enforcement_id)).toEqual(runs.map((r) => r.id));
    expect(runs.map((r) => r.records.filter((x) => x.enforced).length)).toEqual([4, 0, 4]);
    expect(runs[1]!.error).toBe('the actor `node actors/fixture-actor.mjs` exited with status 9');
    // The first run's file is byte for byte what it was.
    expect(readFileSync(join(root, 'plans', EXAMPLE_PLAN, 'enforcement', `${first.id}.yaml`), 'utf8')).toBe(firstText);

    const json = await runAgents(['--store', root, 'plan', 'decisions', EXAMPLE_PLAN.slice(0, 6), '--format', 'json']);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout).nodes as { id: string; parent_id: string | null; depth: number }[];
    expect(listed.map((n) => [n.id, n.parent_id, n.depth])).toEqual([
      [nodes[0]!.id, null, 0],
      [nodes[1]!.id, nodes[0]!.id, 1],
      [nodes[2]!.id, nodes[1]!.id, 2],
    ]);

    const text = (await runAgents(['--store', root, 'plan', 'decisions', EXAMPLE_PLAN])).stdout;
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Decision tree of plan ${EXAMPLE_PLAN}: 3 nodes`);
    expect(lines.slice(2)).toEqual([
      `${nodes[0]!.id}  invariant_enforced  ${nodes[0]!.created_at}`,
      '│  4 of 4 invariants enforced (command actor)',
      `${nodes[1]!.id}  invariant_enforced  ${nodes[1]!.created_at}`,
      `│  ${nodes[1]!.summary}`,
      `${nodes[2]!.id}  invariant_enforced  ${nodes[2]!.created_at}`,
      '   4 of 4 invariants enforced (command actor)',
      '',
    ]);
  });
});
