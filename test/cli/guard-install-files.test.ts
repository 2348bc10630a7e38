// `agents guard install` on settings files a person wrote: their hooks are never lost, and what it
// cannot merge is refused with the place, writing nothing (docs/guard.md, "Installing the hook").
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD_CLIENTS } from '../../src/core/guard-clients.ts';
import { programOnPath } from '../../src/store/program-path.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

async function store(): Promise<string> {
  const dir = tempDir();
  mkdirSync(join(dir, '.git'));
  expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
  return dir;
}

/** Writes `text` to the client's settings file, runs the install and says its exit code and the file's bytes after. */
async function install(dir: string, file: string, text: string, client: string): Promise<{ code: number; stderr: string; after: string }> {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
  const r = await runAgents(['guard', 'install', '--client', client], { cwd: dir });
  return { code: r.code, stderr: r.stderr, after: readFileSync(join(dir, file), 'utf8') };
}

describe('agents guard install, settings of another shape', () => {
  it('refuses an event that is no list and a `hooks` that is no object: exit 2, file:line:col, nothing written', async () => {
    const dir = await store();
    const object =
      '{\n  "hooks": {\n    "PreToolUse": {"matcher": "Bash", "hooks": [{"type": "command", "command": "./my-audit.sh"}]}\n  }\n}\n';
    const a = await install(dir, '.claude/settings.json', object, 'claude');
    expect(a).toMatchObject({ code: 2, after: object });
    expect(a.stderr).toContain('.claude/settings.json:3:19');
    const text = '{"hooks": "see docs/hooks.md"}\n';
    const b = await install(dir, '.codex/hooks.json', text, 'codex');
    expect(b).toMatchObject({ code: 2, after: text });
    expect(b.stderr).toContain('.codex/hooks.json:1:11');
    // A byte order mark in front is no column, as an editor counts.
    const c = await install(dir, '.codex/hooks.json', `\uFEFF${text}`, 'codex');
    expect(c).toMatchObject({ code: 2, after: `\uFEFF${text}` });
    expect(c.stderr).toContain('.codex/hooks.json:1:11:');
  });

  it('refuses an entry the client would not read (not an object, a matcher that is no string, hooks that are no list): exit 2, nothing written, --check too', async () => {
    const dir = await store();
    for (const text of ['{"hooks":{"PreToolUse":[null,5,{"matcher":5}]}}\n', '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":null}]}}\n']) {
      const r = await install(dir, '.claude/settings.json', text, 'claude');
      expect(r).toMatchObject({ code: 2, after: text });
      expect(r.stderr).toContain('.claude/settings.json:1:');
      const check = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude', '--check'], { cwd: dir });
      expect(errorOf(check)).toMatchObject({ exit_code: 2 });
    }
  });

  it("refuses a project whose .codex/config.toml or .claude/settings.local.json switches the client's hooks off: exit 2, nothing written, --check too", async () => {
    const dir = await store();
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/config.toml'), 'model = "o3"\n\n[features]\nhooks = false # for now\n');
    const r = await runAgents(['guard', 'install', '--client', 'codex'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.codex/config.toml:4:9');
    expect(existsSync(join(dir, '.codex/hooks.json'))).toBe(false);
    expect((await runAgents(['guard', 'install', '--client', 'codex', '--check'], { cwd: dir })).code).toBe(2);
    writeFileSync(join(dir, '.codex/config.toml'), '[features]\nhooks = true\n');
    expect((await runAgents(['guard', 'install', '--client', 'codex'], { cwd: dir })).code).toBe(0);
    // Claude Code reads its local settings over the project's.
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.local.json'), '{\n  "model": "x",\n  "disableAllHooks": true\n}\n');
    const local = await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir });
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('.claude/settings.local.json:3:22');
    expect(existsSync(join(dir, '.claude/settings.json'))).toBe(false);
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--check'], { cwd: dir })).code).toBe(2);
    // Claude Code skips a local file with a comment whole, its switch too: the hook runs.
    writeFileSync(join(dir, '.claude/settings.local.json'), '{\n  // mine\n  "disableAllHooks": true\n}\n');
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
  });

  it("refuses a comment or a trailing comma in Claude Code's settings.json, and a trailing comma in Gemini CLI's, which each client skips whole: exit 2 at file:line:col, nothing written, --check too", async () => {
    const dir = await store();
    for (const [file, client, text, at] of [
      ['.claude/settings.json', 'claude', '{\n  // the team\'s\n  "model": "x"\n}\n', '.claude/settings.json:2:3'],
      ['.claude/settings.json', 'claude', '{\n  "model": "x",\n}\n', '.claude/settings.json:3:1'],
      ['.gemini/settings.json', 'gemini', '{\n  // kept\n  "tools": {},\n}\n', '.gemini/settings.json:4:1'],
    ] as const) {
      const r = await install(dir, file, text, client);
      expect(r).toMatchObject({ code: 2, after: text });
      expect(r.stderr).toContain(at);
      const check = await runAgents(['--format', 'json', 'guard', 'install', '--client', client, '--check'], { cwd: dir });
      expect(errorOf(check)).toMatchObject({ exit_code: 2 });
      rmSync(join(dir, file));
    }
  });

  it("keeps the user's hook in a group it shares with ours", async () => {
    const dir = await store();
    const shared =
      '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./audit.sh"},{"type":"command","command":"agents guard hook --client claude","timeout":30}]}]}}\n';
    const r = await install(dir, '.claude/settings.json', shared, 'claude');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.after).hooks.PreToolUse[0].hooks[0]).toEqual({ type: 'command', command: './audit.sh' });
  });
});

describe("agents guard install, the user's hooks of similar names", () => {
  it('keeps a hook whose command only holds `guard hook` inside another word, and adds ours beside it', async () => {
    const dir = await store();
    for (const command of ['~/bin/secret-guard hook --strict', './guard hook.sh']) {
      const group = { matcher: '*', hooks: [{ type: 'command', command }] };
      const r = await install(dir, '.claude/settings.json', `${JSON.stringify({ hooks: { PreToolUse: [group] } })}\n`, 'claude');
      expect(r.code, r.stderr).toBe(0);
      const groups = JSON.parse(r.after).hooks.PreToolUse;
      expect(groups[0]).toEqual(group);
      expect(groups.map((g: { hooks: { command: string }[] }) => g.hooks[0]!.command)).toEqual([
        command,
        'agents guard hook --client claude || exit 2',
      ]);
    }
  });
});

describe('agents guard install --check', () => {
  it('writes a --program given with blanks around it without them, so that a check without --program finds the hook', async () => {
    const dir = await store();
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--program', '  agents  '], { cwd: dir })).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')) as {
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    expect(settings.hooks.PreToolUse[0]!.hooks[0]!.command).toMatch(/^agents guard hook --client claude\b/);
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--check'], { cwd: dir })).code).toBe(0);
  });

  it('says installed only for what the install writes: not a hook limited to one tool, nor a command that merely names it', async () => {
    const dir = await store();
    const check = async () => (await runAgents(['guard', 'install', '--client', 'claude', '--check'], { cwd: dir })).code;
    const entry = (matcher: string, command: string) =>
      `${JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command, timeout: 30 }] }] } })}\n`;
    mkdirSync(join(dir, '.claude'));
    for (const text of [
      entry('Bash', 'agents guard hook --client claude'),
      entry('*', 'echo disabled: agents guard hook --client claude'),
      entry('*', 'agents guard hook --client claude --extra'),
      // The command of an earlier install: a hook that cannot start would let every call through.
      entry('*', 'agents guard hook --client claude'),
    ]) {
      writeFileSync(join(dir, '.claude/settings.json'), text);
      expect(await check()).toBe(1);
    }
    writeFileSync(join(dir, '.claude/settings.json'), entry('*', 'agents guard hook --client claude || exit 2'));
    expect(await check()).toBe(0);
    // What the install writes is what --check accepts.
    writeFileSync(join(dir, '.claude/settings.json'), entry('Bash', 'agents guard hook --client claude'));
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    expect(await check()).toBe(0);
  });

  it('names the program of a hook installed with another --program (row `program`), which a check without it calls missing', async () => {
    const dir = await store();
    const program = 'npx --no-install agents';
    expect((await runAgents(['guard', 'install', '--client', 'claude,cursor', '--program', program], { cwd: dir })).code).toBe(0);
    const check = async (...more: string[]) => {
      const r = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex,cursor', '--check', ...more], {
        cwd: dir,
      });
      return { code: r.code, rows: JSON.parse(r.stdout) as Record<string, unknown>[] };
    };
    expect(await check()).toEqual({
      code: 1,
      rows: [
        { client: 'claude', file: '.claude/settings.json', status: 'missing', program },
        { client: 'codex', file: '.codex/hooks.json', status: 'missing' },
        { client: 'cursor', file: '.cursor/hooks.json', status: 'missing', program },
      ],
    });
    // Given the program it was installed with, the entries are found; the client never installed is still missing.
    expect(await check('--program', program)).toEqual({
      code: 1,
      rows: [
        { client: 'claude', file: '.claude/settings.json', status: 'installed' },
        { client: 'codex', file: '.codex/hooks.json', status: 'missing' },
        { client: 'cursor', file: '.cursor/hooks.json', status: 'installed' },
      ],
    });
  });
});

describe('agents guard install, a program the agents would not find', () => {
  it('warns when --program names a command on no folder of PATH but the node_modules/.bin npm adds for its run', async () => {
    const dir = await store();
    const bin = join(dir, 'node_modules/.bin');
    const own = join(dir, 'own-bin');
    for (const folder of [bin, own]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'agents'), '#!/bin/sh\n', { mode: 0o755 });
    }
    const git = dirname(programOnPath('git', process.env.PATH) ?? '/usr/bin/git');
    const install = async (path: string, npm: string | undefined, ...more: string[]) => {
      const r = await runAgents(['guard', 'install', '--client', 'claude', ...more], {
        cwd: dir,
        env: { PATH: [...path.split(delimiter), git].join(delimiter), npm_command: npm, npm_lifecycle_event: npm },
      });
      expect(r.code).toBe(0);
      return r.stderr.includes('warning: `agents`');
    };
    // Run through npx: the agents' own PATH lacks node_modules/.bin, so the hook would not start.
    expect(await install(bin, 'exec')).toBe(true);
    // --check runs in CI too, whose PATH is not the agents'.
    expect(await install(bin, 'exec', '--check')).toBe(false);
    // On a folder of the user's own PATH, or a PATH no npm run made, it is found as the agents will find it.
    expect(await install([bin, own].join(delimiter), 'exec')).toBe(false);
    expect(await install(bin, undefined)).toBe(false);
    // A program of another word, or named by its path, is not the default's concern.
    expect(await install(bin, 'exec', '--program', join(bin, 'agents'))).toBe(false);
    // Not run by npm, it is not npx that found it for this run.
    const bare = await runAgents(['guard', 'install', '--client', 'claude'], {
      cwd: dir,
      env: { PATH: git, npm_command: undefined, npm_lifecycle_event: undefined },
    });
    expect(bare.stderr).toContain('warning: `agents` is on no folder of PATH,');
  });

  it('warns when --program names its file from the top of the file system and no such file can be run', async () => {
    const dir = await store();
    writeFileSync(join(dir, 'plain'), 'not a program\n', { mode: 0o644 });
    for (const program of [join(dir, 'no-such-folder/agents'), join(dir, 'plain')]) {
      const r = await runAgents(['guard', 'install', '--client', 'claude', '--program', program], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`warning: \`${program}\` is no file this user can run`);
      expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain(`${program} guard hook --client claude`);
      // --check runs where the agents do not (CI): it says nothing of the program.
      expect((await runAgents(['guard', 'install', '--client', 'claude', '--check', '--program', program], { cwd: dir })).stderr).toBe('');
    }
  });
});

describe('agents guard install, empty arguments', () => {
  it('refuses an empty --program and a --client list that names no client (exit 2), writing nothing', async () => {
    const dir = await store();
    for (const args of [
      ['--client', 'claude', '--program', ''],
      ['--client', 'claude', '--program', '  '],
      ['--client', ''],
      ['--client', ','],
      ['--client', '', '--check'],
    ]) {
      expect((await runAgents(['guard', 'install', ...args], { cwd: dir })).code).toBe(2);
    }
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    const program = await runAgents(['guard', 'install', '--client', 'claude', '--program', '', '--format', 'json'], { cwd: dir });
    expect(errorOf(program)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'program' } });
    // A list that names no client is the value missing, answered with the clients to name.
    for (const client of ['', ',']) {
      const r = await runAgents(['guard', 'install', '--client', client, '--format', 'json'], { cwd: dir });
      expect(errorOf(r)).toEqual({ code: 'missing-value', exit_code: 2, detail: { option: 'client', choices: [...GUARD_CLIENTS] } });
    }
  });

  it('refuses a --client that is none of the clients as a value not among the choices (invalid-value), writing nothing', async () => {
    const dir = await store();
    const r = await runAgents(['guard', 'install', '--client', 'claude,clade', '--format', 'json'], { cwd: dir });
    expect(errorOf(r)).toEqual({
      code: 'invalid-value',
      exit_code: 2,
      detail: { option: 'client', value: 'clade', suggestions: ['claude'] },
    });
    expect(existsSync(join(dir, '.claude'))).toBe(false);
  });
});

describe('agents guard install, linked or misplaced client files', () => {
  it('refuses to write through a linked client folder or settings file (exit 2), leaving the link and its target as they were', async () => {
    const dir = await store();
    const outside = tempDir();
    writeFileSync(join(outside, 'settings.json'), '{"model": "x"}\n');
    symlinkSync(outside, join(dir, '.claude'));
    const install = (...more: string[]) => runAgents(['guard', 'install', '--client', 'claude', ...more], { cwd: dir });
    expect((await install()).code).toBe(2);
    expect(readFileSync(join(outside, 'settings.json'), 'utf8')).toBe('{"model": "x"}\n');
    // Reading through the link is harmless: --check tells.
    expect((await install('--check')).code).toBe(1);
    rmSync(join(dir, '.claude'));
    mkdirSync(join(dir, '.claude'));
    symlinkSync(join(outside, 'settings.json'), join(dir, '.claude/settings.json'));
    expect((await install()).code).toBe(2);
    expect(lstatSync(join(dir, '.claude/settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, 'settings.json'), 'utf8')).toBe('{"model": "x"}\n');
    rmSync(join(dir, '.claude'), { recursive: true });
    writeFileSync(join(dir, '.claude'), 'x\n');
    const file = await install();
    expect(file.code).toBe(2);
    expect(readFileSync(join(dir, '.claude'), 'utf8')).toBe('x\n');
  });

  it("refuses a project's file that is the client's user settings (the home folder's, or CODEX_HOME's, GEMINI_CLI_HOME's): exit 2 user-settings, nothing written", async () => {
    const dir = await store();
    const install = (env: Record<string, string>) =>
      runAgents(['--format', 'json', 'guard', 'install', '--client', 'codex,claude'], { cwd: dir, env });
    const home = await install({ HOME: dir });
    expect(errorOf(home)).toMatchObject({ code: 'user-settings', exit_code: 2, detail: { client: 'codex' } });
    const moved = await install({ HOME: tempDir(), CODEX_HOME: join(dir, '.codex') });
    expect(errorOf(moved)).toMatchObject({ code: 'user-settings', detail: { path: join(dir, '.codex/hooks.json') } });
    // Gemini CLI reads $GEMINI_CLI_HOME/.gemini/settings.json: the repository there is its home folder.
    const gemini = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'gemini'], {
      cwd: dir,
      env: { HOME: tempDir(), GEMINI_CLI_HOME: dir },
    });
    expect(errorOf(gemini)).toMatchObject({
      code: 'user-settings',
      detail: { client: 'gemini', path: join(dir, '.gemini/settings.json') },
    });
    expect(existsSync(join(dir, '.codex')) || existsSync(join(dir, '.claude')) || existsSync(join(dir, '.gemini'))).toBe(false);
    expect((await install({ HOME: tempDir() })).code).toBe(0);
  });

  it('refuses a settings file with another name (a hard link): exit 2, both names as they were', async () => {
    const dir = await store();
    const outside = tempDir();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{"model": "x"}\n');
    linkSync(join(dir, '.claude/settings.json'), join(outside, 'settings.json'));
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(2);
    expect(readFileSync(join(outside, 'settings.json'), 'utf8')).toBe('{"model": "x"}\n');
    expect(lstatSync(join(dir, '.claude/settings.json')).nlink).toBe(2);
  });

  it('links to a target that holds the hook already: unchanged, installed', async () => {
    const dir = await store();
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    const outside = tempDir();
    writeFileSync(join(outside, 'settings.json'), readFileSync(join(dir, '.claude/settings.json')));
    rmSync(join(dir, '.claude/settings.json'));
    symlinkSync(join(outside, 'settings.json'), join(dir, '.claude/settings.json'));
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--check'], { cwd: dir })).code).toBe(0);
    expect(lstatSync(join(dir, '.claude/settings.json')).isSymbolicLink()).toBe(true);
  });
});

describe('agents guard install, two at once', () => {
  it("take turns: one waits for the other's lock, and writes nothing when it gives up", async () => {
    const dir = await store();
    const lock = join(dir, '.git/agents/guard-install/.lock');
    mkdirSync(join(lock, '..'), { recursive: true });
    // Held by this process, which is alive: the install waits for it, then gives up.
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const held = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex'], {
      cwd: dir,
      env: { AGENTS_LOCK_TIMEOUT_MS: '200' },
    });
    expect(held.code).toBe(2);
    expect(errorOf(held).code).toBe('locked');
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    // --check writes nothing, so it does not wait.
    expect((await runAgents(['guard', 'install', '--client', 'claude', '--check'], { cwd: dir })).code).toBe(1);
    rmSync(lock);
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex'], { cwd: dir })).code).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});

describe("agents guard install --check, the user's own settings", () => {
  it('reports a switch in the home folder that turns the hook off (off, at line:col) unless the project sets the key back, where each client looks for it', async () => {
    const dir = await store();
    const home = tempDir();
    const env = { HOME: home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, GEMINI_CLI_HOME: undefined };
    const write = (file: string, text: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
    };
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex,gemini'], { cwd: dir, env })).code).toBe(0);
    write(join(home, '.claude/settings.json'), '{"disableAllHooks": true}\n');
    write(join(home, '.gemini/settings.json'), '{\n  // mine\n  "hooksConfig": {"enabled": false}\n}\n');
    write(join(home, '.codex/config.toml'), '[features]\nhooks = false\n');
    const check = async (more: Record<string, string | undefined> = {}) => {
      const r = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex,gemini', '--check'], {
        cwd: dir,
        env: { ...env, ...more },
      });
      return { code: r.code, rows: (JSON.parse(r.stdout) as { status: string }[]).filter((row) => row.status !== 'installed') };
    };
    expect(await check()).toEqual({
      code: 1,
      rows: [
        { client: 'claude', file: join(home, '.claude/settings.json'), status: 'off', line: 1, col: 21 },
        { client: 'codex', file: join(home, '.codex/config.toml'), status: 'off', line: 2, col: 9 },
        { client: 'gemini', file: join(home, '.gemini/settings.json'), status: 'off', line: 3, col: 30 },
      ],
    });
    // The install writes the project's files and warns of each (exit 0).
    const install = await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir, env });
    expect(install.code).toBe(0);
    expect(install.stderr).toContain(`${join(home, '.claude/settings.json')}:1:21`);
    // The project sets each key back: its local settings for Claude Code, its settings and config.toml for the others.
    write(join(dir, '.claude/settings.local.json'), '{"disableAllHooks": false}\n');
    write(join(dir, '.codex/config.toml'), '[features]\nhooks = true\n');
    const gemini = readFileSync(join(dir, '.gemini/settings.json'), 'utf8');
    write(join(dir, '.gemini/settings.json'), gemini.replace('{', '{\n  "hooksConfig": {"enabled": true},'));
    expect(await check()).toEqual({ code: 0, rows: [] });
    // A local file Claude Code skips (a comment) sets nothing back.
    write(join(dir, '.claude/settings.local.json'), '{\n  // mine\n  "disableAllHooks": false\n}\n');
    expect((await check()).rows).toEqual([
      { client: 'claude', file: join(home, '.claude/settings.json'), status: 'off', line: 1, col: 21 },
    ]);
    rmSync(join(dir, '.claude/settings.local.json'));
    // CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME move the user's settings: the home folder's are then not read.
    const moved = tempDir();
    write(join(moved, 'settings.json'), '{"disableAllHooks": false}\n');
    expect(await check({ CLAUDE_CONFIG_DIR: moved })).toEqual({ code: 0, rows: [] });
    write(join(moved, 'config.toml'), '[features]\ncodex_hooks = false\n');
    write(join(moved, '.gemini/settings.json'), '{"hooksConfig": {"disabled": ["agents-guard"]}}\n');
    expect(await check({ CLAUDE_CONFIG_DIR: moved, CODEX_HOME: moved, GEMINI_CLI_HOME: moved })).toEqual({
      code: 1,
      // The project's hooks = true is read before codex_hooks; a name in Gemini CLI's disabled list is never set back.
      rows: [{ client: 'gemini', file: join(moved, '.gemini/settings.json'), status: 'off', line: 1, col: 31 }],
    });
  });
});
