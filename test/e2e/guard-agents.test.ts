/**
 * The guard hook in real agent clients (docs/guard.md): Claude Code, Codex CLI
 * and Gemini CLI, at pinned versions (test/helpers/agent-clis.ts), each run
 * headless against a scripted model on 127.0.0.1 that makes the agent try, in
 * turn, a write to a guarded path, a guarded shell command, a write through a
 * link into the guarded folder, and an allowed write. The hook is installed
 * with `agents guard install`, exactly as a user would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentCliName, agentCli } from '../helpers/agent-clis.ts';
import { runAgentClient } from '../helpers/agent-run.ts';
import { BIN } from '../helpers/cli.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { type ModelRequest, type ModelServer, type Reply, startModelServer } from '../helpers/model-server.ts';
import { guardedYaml, tempDir } from '../helpers/tmp.ts';

const INVARIANT = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';
const PLAN = '01JH5G411EVHG9XHQ43X20SSN4';
const ORIGINAL = 'original secret\n';

/** A repository with a store whose one global invariant guards protected/ and `rm -r`, an active plan, a link into protected/. */
async function project(): Promise<{ dir: string; home: string }> {
  const root = tempDir('agents-guard-e2e-');
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  gitInit(dir);
  expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
  writeFileSync(
    join(dir, '.agents/global', `${INVARIANT}.yaml`),
    guardedYaml(INVARIANT, 'Agents never change the protected folder and never delete folders recursively', {
      write: ['protected/**'],
      command: ['\\brm\\s+-[a-zA-Z]*r'],
    }),
  );
  mkdirSync(join(dir, '.agents/plans', PLAN), { recursive: true });
  writeFileSync(join(dir, '.agents/plans', PLAN, 'plan.yaml'), `id: ${PLAN}\ngoal: tidy the build\n`);
  mkdirSync(join(dir, 'protected'));
  writeFileSync(join(dir, 'protected/secret.txt'), ORIGINAL);
  mkdirSync(join(dir, 'build/sub'), { recursive: true });
  writeFileSync(join(dir, 'build/sub/keep.o'), 'o');
  mkdirSync(join(dir, 'notes'));
  // A link outside the guarded folder that leads into it.
  symlinkSync('protected', join(dir, 'shortcut'));
  return { dir, home };
}

/** The scripted conversation: the n-th tool call once the conversation carries n tool results, then "done". */
function steps(calls: { tool: string; input: unknown }[]): (r: ModelRequest) => Reply {
  return (r) => {
    const next = calls[r.toolResults.length];
    if (next && r.tools.includes(next.tool)) return { tool: next.tool, input: next.input };
    return { text: 'done' };
  };
}

/** The environment of a client run: a private HOME, the plan active, no network but the model server. */
function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENTS_PLAN: PLAN,
    NO_COLOR: '1',
    ...GIT_ENV,
  };
  return env;
}

function violations(dir: string): string[] {
  const folder = join(dir, '.agents/plans', PLAN, 'violations');
  return existsSync(folder) ? readdirSync(folder).map((f) => readFileSync(join(folder, f), 'utf8')) : [];
}

/** What every client run must show. */
async function assertGuarded(dir: string, server: ModelServer, allowedFile: string): Promise<void> {
  // The guarded file is untouched, nothing was written through the link, the command did not run.
  expect(readFileSync(join(dir, 'protected/secret.txt'), 'utf8')).toBe(ORIGINAL);
  expect(readdirSync(join(dir, 'protected')).sort()).toEqual(['secret.txt']);
  expect(existsSync(join(dir, 'build/sub/keep.o'))).toBe(true);
  // The allowed write happened.
  expect(readFileSync(join(dir, allowedFile), 'utf8')).toContain('fine');
  // The model was told why, with the invariant's id, in the tool results it received.
  // The last request carries every tool result of the conversation.
  const last = server
    .generations()
    .filter((r) => r.toolResults.length > 0)
    .at(-1);
  const told = (last?.toolResults ?? [])
    .map((t) => JSON.stringify(t))
    .filter((t) => t.includes(INVARIANT) && t.includes('Blocked by invariant'));
  expect(told.length).toBe(3);
  // Each deny is a violation of the active plan, and the plan's gate fails.
  const recorded = violations(dir);
  expect(recorded.length).toBe(3);
  for (const v of recorded) expect(v).toContain(`invariant_id: ${INVARIANT}`);
  expect(recorded.some((v) => v.includes('protected/new.txt'))).toBe(true);
  expect(recorded.some((v) => v.includes('rm -r build'))).toBe(true);
  expect((await runAgents(['plan', 'status', PLAN], { cwd: dir })).code).toBe(1);
}

/**
 * With AGENTS_E2E_TRANSCRIPT=FOLDER, a run's record for a person to read: each generation request the model
 * server received (the tools offered, the tool results carried back), and the violations recorded.
 */
function keepTranscript(client: string, dir: string, server: ModelServer): void {
  const folder = process.env.AGENTS_E2E_TRANSCRIPT;
  if (!folder) return;
  const requests = server
    .generations()
    .map((r) => ({ n: r.n, url: r.url, model: r.model, tools: r.tools.length, toolResults: r.toolResults }));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${client}.json`), `${JSON.stringify({ requests, violations: violations(dir) }, null, 2)}\n`);
}

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const program = `${process.execPath} ${BIN}`;

// The clients take a few seconds each to start; the first run installs them (see agent-clis.ts).
describe('the guard hook in real agent clients', { timeout: 600_000 }, () => {
  it('Claude Code: denies the guarded write, command and link; allows the rest; records the violations', async () => {
    const bin = await agentCli('claude' satisfies AgentCliName);
    const { dir, home } = await project();
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--program', program], { cwd: dir })).code).toBe(0);
    server = await startModelServer(
      steps([
        // A new file: Claude Code refuses to overwrite a file it has not read, before any hook runs.
        { tool: 'Write', input: { file_path: join(dir, 'protected/new.txt'), content: 'pwned' } },
        { tool: 'Bash', input: { command: 'rm -r build', description: 'remove the build folder' } },
        { tool: 'Write', input: { file_path: join(dir, 'shortcut/planted.txt'), content: 'pwned' } },
        { tool: 'Write', input: { file_path: join(dir, 'notes/allowed.txt'), content: 'fine' } },
      ]),
    );
    const r = await runAgentClient('claude', bin, dir, baseEnv(home), home, server.url);
    expect(r.code, r.stderr).toBe(0);
    await assertGuarded(dir, server, 'notes/allowed.txt');
    keepTranscript('claude', dir, server);
  });

  it("Codex CLI: denies apply_patch into the guarded folder (also through the link) and into a folder's hook settings, and the command; applies the allowed patch", async () => {
    const bin = await agentCli('codex');
    const { dir, home } = await project();
    expect((await runAgents(['guard', 'install', '--client', 'codex', '--program', program], { cwd: dir })).code).toBe(0);
    server = await startModelServer(
      steps([
        { tool: 'apply_patch', input: '*** Begin Patch\n*** Add File: protected/new.txt\n+pwned\n*** End Patch\n' },
        { tool: 'exec_command', input: { cmd: 'rm -r build' } },
        { tool: 'apply_patch', input: '*** Begin Patch\n*** Add File: shortcut/planted.txt\n+pwned\n*** End Patch\n' },
        // A folder's own settings, which switch the hooks off for a Codex session started there.
        {
          tool: 'apply_patch',
          input: '*** Begin Patch\n*** Add File: build/.codex/config.toml\n+[features]\n+hooks = false\n*** End Patch\n',
        },
        { tool: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes/allowed.txt\n+fine\n*** End Patch\n' },
      ]),
    );
    const r = await runAgentClient('codex', bin, dir, baseEnv(home), home, server.url);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(dir, 'build/.codex'))).toBe(false);
    await assertGuarded(dir, server, 'notes/allowed.txt');
  });

  it('Gemini CLI: denies the guarded write, command and link; allows the rest; records the violations', async () => {
    const bin = await agentCli('gemini');
    const { dir, home } = await project();
    // The team's settings hold a comment, as Gemini CLI allows: the install keeps it, and Gemini CLI reads the result.
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini/settings.json'), '{\n  // the settings of this repository\n  "tools": {}\n}\n');
    expect((await runAgents(['guard', 'install', '--client', 'gemini', '--program', program], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, '.gemini/settings.json'), 'utf8')).toContain('// the settings of this repository');
    server = await startModelServer(
      steps([
        { tool: 'write_file', input: { file_path: join(dir, 'protected/new.txt'), content: 'pwned' } },
        { tool: 'run_shell_command', input: { command: 'rm -r build', description: 'remove the build folder' } },
        { tool: 'write_file', input: { file_path: join(dir, 'shortcut/planted.txt'), content: 'pwned' } },
        { tool: 'write_file', input: { file_path: join(dir, 'notes/allowed.txt'), content: 'fine' } },
      ]),
    );
    const r = await runAgentClient('gemini', bin, dir, baseEnv(home), home, server.url);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    await assertGuarded(dir, server, 'notes/allowed.txt');
  });

  it("Claude Code: after a cd into a nested repository with a store of its own, the session's store still judges", async () => {
    const bin = await agentCli('claude');
    const { dir, home } = await project();
    // A vendored clone with a store and no guard: Claude Code runs the hook in its shell's folder, there.
    const nested = join(dir, 'vendor/lib');
    mkdirSync(nested, { recursive: true });
    gitInit(nested);
    expect((await runAgents(['init'], { cwd: nested })).code).toBe(0);
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--program', program], { cwd: dir })).code).toBe(0);
    server = await startModelServer(
      steps([
        { tool: 'Bash', input: { command: 'cd vendor/lib', description: 'enter the library' } },
        { tool: 'Write', input: { file_path: join(dir, 'protected/new.txt'), content: 'pwned' } },
      ]),
    );
    const r = await runAgentClient('claude', bin, dir, baseEnv(home), home, server.url);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, 'protected'))).toEqual(['secret.txt']);
    expect(violations(dir).length).toBe(1);
  });

  it('Claude Code: denies a patch file applied, an archive extracted and a Python edit into the guarded folder; the file is untouched', async () => {
    const bin = await agentCli('claude');
    const { dir, home } = await project();
    // Written before the session, as an agent writes them in one call and applies them in the next.
    writeFileSync(join(dir, 'fix.diff'), '--- a/protected/secret.txt\n+++ b/protected/secret.txt\n@@ -1 +1 @@\n-original secret\n+pwned\n');
    mkdirSync(join(home, 'pack/protected'), { recursive: true });
    writeFileSync(join(home, 'pack/protected/secret.txt'), 'pwned\n');
    execFileSync('tar', ['-czf', join(dir, 'drop.tgz'), '-C', join(home, 'pack'), 'protected']);
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--program', program], { cwd: dir })).code).toBe(0);
    server = await startModelServer(
      steps([
        { tool: 'Bash', input: { command: 'git apply fix.diff', description: 'apply the fix' } },
        { tool: 'Bash', input: { command: 'tar xzf drop.tgz', description: 'unpack the drop' } },
        {
          tool: 'Bash',
          input: { command: "python3 - <<'EOF'\np = 'protected/secret.txt'\nopen(p, 'w').write('pwned')\nEOF", description: 'edit it' },
        },
      ]),
    );
    const r = await runAgentClient('claude', bin, dir, baseEnv(home), home, server.url);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'protected/secret.txt'), 'utf8')).toBe(ORIGINAL);
    const recorded = violations(dir);
    expect(recorded.length).toBe(3);
    for (const v of recorded) expect(v).toContain(`invariant_id: ${INVARIANT}`);
  });

  // Claude Code and Codex CLI let a call through when its hook fails in any way but exit 2: the
  // installed command turns a hook that cannot start into a deny.
  it.for(['claude', 'codex', 'gemini'] as const)(
    "%s: a hook whose program is not on the agent's PATH denies the write, and the model is told the program is missing",
    async (client) => {
      const bin = await agentCli(client);
      const { dir, home } = await project();
      const missing = join(home, 'no-such-folder', 'agents');
      expect((await runAgents(['guard', 'install', '--client', client, '--program', missing], { cwd: dir })).code).toBe(0);
      const write =
        client === 'claude'
          ? { tool: 'Write', input: { file_path: join(dir, 'protected/new.txt'), content: 'pwned' } }
          : client === 'codex'
            ? { tool: 'apply_patch', input: '*** Begin Patch\n*** Add File: protected/new.txt\n+pwned\n*** End Patch\n' }
            : { tool: 'write_file', input: { file_path: join(dir, 'protected/new.txt'), content: 'pwned' } };
      server = await startModelServer(steps([write]));
      const r = await runAgentClient(client, bin, dir, baseEnv(home), home, server.url);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(readdirSync(join(dir, 'protected'))).toEqual(['secret.txt']);
      const results = server.generations().flatMap((g) => g.toolResults);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((t) => JSON.stringify(t).includes(missing))).toBe(true);
    },
  );
});
