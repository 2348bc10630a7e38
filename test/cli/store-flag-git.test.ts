// The commands that run git (export, guard check) name the --store they were given in what they say to run: a process test.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { git, GIT_ENV, gitInit } from '../helpers/git.ts';
import { directMain } from '../../src/cli/direct-main.ts';
import { main } from '../../src/cli/main.ts';
import { agentsCommandOf } from '../../src/cli/context.ts';
import { CHECK_ACTION } from '../../src/mcp/check-action.ts';
import { newToolContext } from '../../src/mcp/tools.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir } from '../helpers/tmp.ts';

/** A store's folder a shell must quote, as `--store` is given it. */
const STORE = "tools/my agents's";

/** The words after `agents` of each command `text` names in backticks. */
function commandsIn(text: string): string[][] {
  return [...text.matchAll(/`agents ([^`]+)`/g)].map((m) => shellWords(m[1]!));
}

describe('the commands export and guard check name under --store', () => {
  it("export's refusal of a block edited by hand: the export --force that discards the edit", async () => {
    const cwd = tempDir();
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const run = (...args: string[]) => runAgents(['--store', STORE, ...args], { cwd });
    expect((await run('invariant', 'add', '--global', 'Never push to main')).code).toBe(0);
    appendFileSync(join(cwd, STORE, 'config.yaml'), 'export:\n  targets: [agents-md]\n');
    expect((await run('export')).code).toBe(0);
    // Outside git the store's parent folder is the repository's top, where the export writes.
    const file = join(cwd, STORE, '..', 'AGENTS.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Never push to main', 'Never push to main, mostly'));
    // The other files are written, the edited one left alone: exit 1, the refusal said on stderr.
    const refused = await run('export');
    expect(refused.code).toBe(1);
    expect(commandsIn(refused.stderr)).toEqual([['--store', STORE, 'export', '--force']]);
    const dry = await run('export', '--dry-run');
    expect(dry.code).toBe(1);
    expect(commandsIn(dry.stderr)).toEqual([['--store', STORE, 'export', '--force']]);
  });

  it('the refusal of an active plan the store does not hold: the plan activate that replaces it', async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const r = await runAgents(['--store', STORE, '--format', 'json', 'guard', 'check'], {
      cwd,
      env: { AGENTS_PLAN: '01M8ZZZZZZZZZZZZZZZZZZZZZZ' },
    });
    expect(r.code).toBe(2);
    expect(commandsIn(JSON.parse(r.stdout).error.hint)).toEqual([['--store', STORE, 'plan', 'activate', 'ID']]);
  });

  it("a guard violation's waiver: the invariant waive and the plan activate it names, in the text and in JSON", async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const run = (...args: string[]) => runAgents(['--store', STORE, ...args], { cwd });
    const added = await run('--format', 'json', 'invariant', 'add', '--global', 'Never touch secrets', '--guard-write', 'secrets/**');
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    git(cwd, 'add', '-A');
    mkdirSync(join(cwd, 'secrets'));
    writeFileSync(join(cwd, 'secrets', 'prod.env'), 'x\n');
    git(cwd, 'add', '-A');
    const waive = [
      '--store',
      STORE,
      'invariant',
      'waive',
      id,
      '--plan',
      'PLAN',
      '--reason',
      '…',
      '--owner',
      '…',
      '--expires',
      'YYYY-MM-DD',
    ];
    // Run without a terminal, as in CI, the hint names AGENTS_PLAN for the check and `plan activate` only as what keeps one.
    const activate = ['--store', STORE, 'plan', 'activate'];
    const text = await run('guard', 'check', '--staged');
    expect(text.code).toBe(1);
    expect(commandsIn(text.stdout)).toEqual([waive, activate]);
    const json = await run('--format', 'json', 'guard', 'check', '--staged');
    expect(json.code).toBe(1);
    const [violation] = (JSON.parse(json.stdout) as { diagnostics: { code: string; hint: string }[] }).diagnostics;
    expect(violation?.code).toBe('guard-violation');
    expect(commandsIn(violation!.hint)).toEqual([waive, activate]);
  });

  it("validate --staged, started without the parser (directMain): its diagnostics' commands", async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    writeFileSync(join(cwd, STORE, 'global', 'bad.yaml'), 'id: [\n');
    git(cwd, 'add', '-A');
    let stdout = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await directMain(['--store', STORE, 'validate', '--staged'], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: { write: () => true },
      stdin,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' },
      cwd,
    });
    expect(code).toBe(1);
    expect(commandsIn(stdout)).toEqual([['--store', STORE, 'validate', '--fix']]);
  });
});

describe('the commands a guard tells an agent to run under --store', () => {
  /** A repository whose store at STORE guards secrets/**; the invariant's id. */
  async function guarded(): Promise<{ cwd: string; id: string }> {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const added = await runAgents(
      ['--store', STORE, '--format', 'json', 'invariant', 'add', '--global', 'Never touch secrets', '--guard-write', 'secrets/**'],
      { cwd },
    );
    expect(added.code, added.stderr).toBe(0);
    return { cwd, id: (JSON.parse(added.stdout) as { id: string }).id };
  }

  /** The words of the waive and plan activate commands a deny's reason names (plain, not in backticks). */
  const waivers = (reason: string) => {
    const m = /To waive it: (agents .*?), then (agents .*?) \(no project/.exec(reason);
    expect(m, reason).not.toBeNull();
    return [shellWords(m![1]!), shellWords(m![2]!)];
  };
  const waive = (store: string, id: string) => [
    ['agents', '--store', store, 'invariant', 'waive', id, '--plan', 'PLAN', '--reason', '…', '--owner', '…', '--expires', 'YYYY-MM-DD'],
    ['agents', '--store', store, 'plan', 'activate', 'PLAN'],
  ];

  it("guard try's reason names the run's --store", async () => {
    const { cwd, id } = await guarded();
    const r = await runAgents(['--store', STORE, '--format', 'json', 'guard', 'try', '--path', 'secrets/a.pem'], { cwd });
    expect(r.code, r.stderr).toBe(1);
    const { decision, reason } = JSON.parse(r.stdout) as { decision: string; reason: string };
    expect(decision).toBe('deny');
    expect(waivers(reason)).toEqual(waive(STORE, id));
  });

  it("the hook's deny reasons name the store's absolute path: a guard's waiver, and a write into the store", async () => {
    const { cwd, id } = await guarded();
    // Started from the session's folder, as a client starts it; the agent's shell may be anywhere by then.
    const hook = async (file: string) => {
      const input = JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd,
        tool_name: 'Write',
        tool_input: { file_path: join(cwd, file), content: 'x' },
      });
      const r = await runAgents(['--store', STORE, 'guard', 'hook', '--client', 'claude'], {
        cwd,
        input,
        env: { CLAUDE_PROJECT_DIR: cwd },
      });
      expect(r.code, r.stderr).toBe(0);
      const answer = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
      return answer.hookSpecificOutput.permissionDecisionReason;
    };
    const root = join(cwd, STORE);
    expect(waivers(await hook('secrets/a.pem'))).toEqual(waive(root, id));
    expect(await hook(`${STORE}/global/new.yaml`)).toContain(`(${agentsCommandOf(root)} invariant add, edit, waive…)`);
    // A store the hook cannot judge by (a policy source not pinned yet): the reason's commands, by guard.on_error's deny.
    appendFileSync(join(root, 'config.yaml'), 'extends:\n  - name: policy\n    url: ../policy\n    ref: main\n');
    const unpinned = await runAgents(['--store', STORE, 'guard', 'hook', '--client', 'claude'], {
      cwd,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'Bash', tool_input: { command: 'ls' } }),
      env: { CLAUDE_PROJECT_DIR: cwd },
    });
    expect(unpinned.code).toBe(2);
    expect(commandsIn(unpinned.stderr)).toEqual([
      ['--store', root, 'extends', 'update'],
      ['--store', root, 'extends', 'fetch'],
    ]);
  });

  it("MCP check_action's reason names the server's --store", async () => {
    const { cwd, id } = await guarded();
    const root = join(cwd, STORE);
    const ctx = newToolContext(new InvariantService(root), { ...process.env, ...GIT_ENV }, agentsCommandOf(root));
    const answer = await CHECK_ACTION.run({ path: 'secrets/a.pem' }, ctx);
    expect(answer.data.decision).toBe('deny');
    expect(waivers(answer.data.reason as string)).toEqual(waive(root, id));
  });
});

describe('invariant diff --format markdown cut short under --store', () => {
  it("names the whole report's command with the run's --store", async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    // More added invariants than one pull-request comment holds.
    for (let i = 0; i < 900; i++) {
      const id = `01JDQ6X5Z8W4N3B2C1D${String(i).padStart(7, '0')}`;
      writeFileSync(join(cwd, STORE, 'global', `${id}.yaml`), `id: ${id}\ntext: Never deploy service number ${i} on a Friday afternoon\n`);
    }
    git(cwd, 'add', '-A');
    const r = await runAgents(['--store', STORE, 'invariant', 'diff', '--staged', '--format', 'markdown'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const footer = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(footer).toMatch(/^\*\*Cut short:\*\*/);
    // No range was given, and none is named: `HEAD` is refused on a branch with no commit yet. The command runs as printed.
    const [command] = commandsIn(footer);
    expect(command).toEqual(['--store', STORE, 'invariant', 'diff', '--staged']);
    expect((await runAgents(command!, { cwd })).code).toBe(0);
  });
});

describe('guard install under --store', () => {
  it('writes a hook that finds that store from the session folder, and --check finds it installed', async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const added = await runAgents(
      ['--store', STORE, 'invariant', 'add', '--global', 'Never touch secrets', '--guard-write', 'secrets/**'],
      {
        cwd,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    const home = tempDir();
    // A folder's own settings without the hook, which the install warns of with the check that lists them.
    mkdirSync(join(cwd, 'sub/.claude'), { recursive: true });
    writeFileSync(join(cwd, 'sub/.claude/settings.json'), '{}\n');
    const installed = await runAgents(['--store', STORE, 'guard', 'install', '--client', 'claude'], { cwd, env: { HOME: home } });
    expect(installed.code, installed.stderr).toBe(0);
    const lists = /\((agents .*?) lists these\)/.exec(installed.stderr)?.[1];
    expect(lists && shellWords(lists)).toEqual(['agents', '--store', STORE, 'guard', 'install', '--check']);
    const settings = JSON.parse(readFileSync(join(cwd, '.claude/settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
    const words = shellWords(command.replace(/ \|\| exit 2$/, ''));
    expect(words).toEqual(['agents', '--store', STORE, 'guard', 'hook', '--client', 'claude']);
    // Run as Claude Code runs it: from the agent's shell's folder, the session's folder in CLAUDE_PROJECT_DIR.
    const hook = await runAgents(words.slice(1), {
      cwd: join(cwd, 'sub'),
      env: { CLAUDE_PROJECT_DIR: cwd },
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd: join(cwd, 'sub'),
        tool_name: 'Write',
        tool_input: { file_path: join(cwd, 'secrets/a.pem'), content: 'x' },
      }),
    });
    expect(hook.code, hook.stderr).toBe(0);
    const answer = JSON.parse(hook.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('Never touch secrets');
    // An entry from before the store was named (the bare program) is put right by the install, which the check names.
    const bare = structuredClone(settings);
    bare.hooks.PreToolUse[0].hooks[0].command = 'agents guard hook --client claude || exit 2';
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify(bare));
    const stale = await runAgents(['--store', STORE, 'guard', 'install', '--client', 'claude', '--check'], { cwd, env: { HOME: home } });
    expect(stale.code).toBe(1);
    expect(stale.stderr).not.toContain('check it with --program');
    // Started by `agents`, not `agents --store STORE`: the install that replaces it.
    expect(commandsIn(stale.stderr)).toEqual([
      ['--store', STORE],
      ['--store', STORE, 'guard', 'install', '--client', 'claude'],
    ]);
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify(settings));
    // The top's entry is installed; the folder's settings still lack it.
    rmSync(join(cwd, 'sub/.claude'), { recursive: true });
    const check = await runAgents(['--store', STORE, 'guard', 'install', '--client', 'claude', '--check'], { cwd, env: { HOME: home } });
    expect(check.code, check.stderr).toBe(0);
    // An entry of another program with the store's --store: the --program the check names finds it.
    const npx = structuredClone(settings);
    npx.hooks.PreToolUse[0].hooks[0].command = command.replace(/^agents /, 'npx agents ');
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify(npx));
    const other = await runAgents(['--store', STORE, 'guard', 'install', '--client', 'claude', '--check'], { cwd, env: { HOME: home } });
    expect(other.code).toBe(1);
    const rows = await runAgents(['--store', STORE, '--format', 'json', 'guard', 'install', '--client', 'claude', '--check'], {
      cwd,
      env: { HOME: home },
    });
    expect(JSON.parse(rows.stdout)[0]).toMatchObject({ status: 'missing', program: 'npx agents' });
    const named = /--program ('(?:[^']|'\\'')*'|\S+),/.exec(other.stderr)?.[1];
    expect(named && shellWords(named)).toEqual(['npx agents']);
    const found = await runAgents(
      ['--store', STORE, 'guard', 'install', '--client', 'claude', '--check', '--program', shellWords(named!)[0]!],
      {
        cwd,
        env: { HOME: home },
      },
    );
    expect(found.code, found.stderr).toBe(0);
  });
});

describe('more refusals under --store that name a command', () => {
  it("invariant diff of revisions that hold no store: the init that makes it at the run's --store", async () => {
    const cwd = tempDir();
    gitInit(cwd);
    git(cwd, 'commit', '-q', '--allow-empty', '-m', 'a');
    git(cwd, 'commit', '-q', '--allow-empty', '-m', 'b');
    const r = await runAgents(['--store', STORE, '--format', 'json', 'invariant', 'diff', 'HEAD~1..HEAD'], { cwd });
    expect(r.code).toBe(2);
    expect(commandsIn(JSON.parse(r.stdout).error.hint)).toEqual([['--store', STORE, 'init']]);
  });

  it('guard hook at a terminal: the guard try to use instead', async () => {
    const cwd = tempDir();
    gitInit(cwd);
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    let stderr = '';
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const code = await main(['--store', STORE, 'guard', 'hook', '--client', 'claude'], {
      stdout: { write: () => true },
      stderr: { write: (c: string) => (stderr += c) },
      stdin,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' },
      cwd,
    });
    expect(code).toBe(2);
    expect(commandsIn(stderr)).toEqual([['--store', STORE, 'guard', 'try']]);
  });

  it('guard try with no action: missing-option, the commands it names carrying --store', async () => {
    const cwd = tempDir();
    expect((await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd })).code).toBe(0);
    const r = await runAgents(['--store', STORE, 'guard', 'try'], { cwd });
    expect(r.code).toBe(2);
    expect(commandsIn(r.stderr)).toEqual([
      ['--store', STORE, 'guard', 'try', '--path', 'infra/prod.tf'],
      ['--store', STORE, 'guard', 'try', '--help'],
    ]);
    const json = await runAgents(['--store', STORE, '--format', 'json', 'guard', 'try'], { cwd });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'missing-option', detail: { command: 'guard try' } });
  });
});
