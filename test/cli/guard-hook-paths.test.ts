import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitInit } from '../helpers/git.ts';
import { GuardService } from '../../src/service/guard-service.ts';
import { runAgents } from '../helpers/main.ts';
import { GUARDED, guardedRepo } from '../helpers/guard.ts';
import { guardedYaml, tempDir } from '../helpers/tmp.ts';

const INV = GUARDED;

/** A repository whose store guards secrets/ (write) and `terraform apply` (command), with a project billing at services/billing/** A repository whose store guards secrets/ (write) and `terraform apply` (command). */
const repo = () => guardedRepo({ write: ['secrets/**'], command: ['\\bterraform\\s+apply\\b'] });

const claude = (dir: string, tool: string, input: Record<string, unknown>, cwd = dir) =>
  JSON.stringify({ session_id: 's1', cwd, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });

/** The hook's decision for one input: deny, ask, or none (no answer). */
async function decision(dir: string, input: string): Promise<string> {
  const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
}

describe("agents guard hook, writes into git's folder and the store", () => {
  it('denies file-tool writes there by itself, whatever the guards, and logs them; reads and other files are not its business', async () => {
    const dir = await repo();
    symlinkSync('.git', join(dir, 'gitlink'));
    const writes: [string, Record<string, unknown>][] = [
      ['Write', { file_path: join(dir, '.git/agents/guard-index.json'), content: '{}' }],
      ['Write', { file_path: '.git/agents/active-plan', content: '' }],
      ['Edit', { file_path: join(dir, '.git/hooks/pre-commit'), old_string: 'a', new_string: 'b' }],
      ['mcp__filesystem__write_file', { path: join(dir, 'gitlink/config'), content: 'x' }],
      ['MultiEdit', { file_path: join(dir, `.agents/global/${INV}.yaml`), edits: [{ old_string: 'error', new_string: 'info' }] }],
      ['Write', { file_path: '.agents/config.yaml', content: 'guard:\n  on_error: allow\n' }],
      ['Write', { file_path: join(dir, 'src/../.agents/projects/p/waivers/01JGGEBWJTQ6P08NTXZQ7TKM3R.yaml'), content: 'x' }],
      ['mcp__filesystem__move_file', { source: join(dir, 'notes.md'), destination: join(dir, '.git/info/exclude') }],
      ['apply_patch', { command: '*** Begin Patch\n*** Add File: .agents/global/x.yaml\n+x\n*** End Patch\n' }],
      // A .git below the top makes its folder a repository of its own, where Codex CLI reads none of the top's hooks.
      ['Write', { file_path: join(dir, 'services/.git'), content: 'gitdir: ../.git\n' }],
      ['apply_patch', { command: '*** Begin Patch\n*** Add File: services/.GIT./HEAD\n+ref: refs/heads/main\n*** End Patch\n' }],
    ];
    for (const [tool, input] of writes)
      expect(await decision(dir, claude(dir, tool, input)), `${tool} ${JSON.stringify(input)}`).toBe('deny');
    // Even when the store cannot be read: the guards are not needed to know the folder.
    writeFileSync(join(dir, '.agents/global/01JGGEBWJTQ6P08NTXZQ7TKM3R.yaml'), 'id: [unclosed\n');
    expect(await decision(dir, claude(dir, 'Write', { file_path: '.agents/global/01JGGEBWJTQ6P08NTXZQ7TKM3R.yaml', content: 'x' }))).toBe(
      'deny',
    );
    const audit = readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.map((a) => a.decision)).toEqual(Array(writes.length + 1).fill('deny'));
    expect(audit[0].reserved).toEqual([{ path: '.git/agents/guard-index.json', folder: 'git' }]);
    expect(audit[4].reserved).toEqual([{ path: `.agents/global/${INV}.yaml`, folder: 'store' }]);
    expect(audit[9].reserved).toEqual([{ path: 'services/.git', folder: 'nested-git' }]);
    expect(audit[10].reserved).toEqual([{ path: 'services/.GIT./HEAD', folder: 'nested-git' }]);
  });

  it('lets reads and writes elsewhere pass, and the same names outside the reserved folders', async () => {
    const dir = await repo();
    for (const [tool, input] of [
      ['Read', { file_path: join(dir, '.git/config') }],
      ['Read', { file_path: join(dir, `.agents/global/${INV}.yaml`) }],
      ['Write', { file_path: join(dir, 'docs/.git-notes.md'), content: 'x' }],
      ['Write', { file_path: join(dir, 'docs/.agents/x.md'), content: 'x' }],
      ['Write', { file_path: join(dir, '.agents-old/x.md'), content: 'x' }],
      ['Write', { file_path: join(dir, 'services/.gitignore'), content: 'x' }],
      ['Write', { file_path: join(dir, 'vendor/lib.git/x'), content: 'x' }],
    ] as const)
      expect(await decision(dir, claude(dir, tool, input)), JSON.stringify(input)).toBe('none');
  });

  it("denies writes to the clients' hook settings, in any folder of the repository and in the agent's home, and nothing beside them", async () => {
    const dir = await repo();
    const home = tempDir();
    const env = { HOME: home };
    const hook = async (tool: string, input: Record<string, unknown>) => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, tool, input), env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
    };
    const settings = [
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.codex/hooks.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.cursor/hooks.json',
    ];
    for (const file of settings) {
      expect(await hook('Write', { file_path: join(dir, file), content: '{"disableAllHooks": true}' }), file).toBe('deny');
      expect(await hook('Edit', { file_path: file, old_string: 'a', new_string: 'b' }), file).toBe('deny');
    }
    for (const file of ['.claude/settings.json', '.codex/config.toml', '.gemini/settings.json'])
      expect(await hook('Write', { file_path: join(home, file), content: '{}' }), `~/${file}`).toBe('deny');
    // Through a link, and moved into place.
    symlinkSync('.claude', join(dir, 'claude-link'));
    expect(await hook('Write', { file_path: join(dir, 'claude-link/settings.json'), content: '{}' })).toBe('deny');
    expect(
      await hook('mcp__filesystem__move_file', { source: join(dir, 'notes.md'), destination: join(dir, '.gemini/settings.json') }),
    ).toBe('deny');
    // A folder's own: a client started there reads them (Claude Code, Gemini CLI), or each folder's up to the top (Codex CLI).
    for (const file of ['docs/.claude/settings.json', 'services/billing/.codex/config.toml', 'a/b/.Gemini/settings.json'])
      expect(await hook('Write', { file_path: join(dir, file), content: '[features]\nhooks = false\n' }), file).toBe('deny');
    // The clients' other files, and files of the same name outside a client's folder, are the project's.
    for (const file of [
      '.claude/agents/reviewer.md',
      '.claude/commands/x.md',
      'docs/claude/settings.json',
      'docs/.codex/notes.toml',
      '.gemini/GEMINI.md',
    ])
      expect(await hook('Write', { file_path: join(dir, file), content: 'x' }), file).toBe('none');
    expect(await hook('Read', { file_path: join(dir, '.claude/settings.json') })).toBe('none');
    const audit = readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit[0].reserved).toEqual([{ path: '.claude/settings.json', folder: 'hooks' }]);
  });

  it("judges by the repository's own store from a folder below where an agent made a store of its own", async () => {
    const dir = await repo();
    // A file tool may write another `.agents/` (they are the project's files); the agent then works in that folder.
    mkdirSync(join(dir, 'sub/.agents/global'), { recursive: true });
    writeFileSync(join(dir, 'sub/.agents/config.yaml'), 'version: 1\nguard:\n  on_error: allow\n');
    const sub = join(dir, 'sub');
    const r = await runAgents(['guard', 'hook'], {
      cwd: sub,
      input: claude(dir, 'Write', { file_path: join(dir, 'secrets/k.pem'), content: 'x' }, sub),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it("judges by the store of the folder the session started in (CLAUDE_PROJECT_DIR), and a tool's relative path from there too, where Claude Code runs the hook in the folder its shell went to", async () => {
    const dir = await repo();
    // A nested clone with a store of its own and no guard: Claude Code runs the hook there after the agent's `cd vendor/lib`.
    const nested = join(dir, 'vendor/lib');
    mkdirSync(nested, { recursive: true });
    gitInit(nested);
    expect((await runAgents(['init'], { cwd: nested })).code).toBe(0);
    const hook = async (client: string, env: Record<string, string>, tool = 'Write', input: Record<string, unknown> = {}) => {
      const r = await runAgents(['guard', 'hook', '--client', client], {
        cwd: nested,
        env,
        input: claude(dir, tool, { file_path: join(dir, 'secrets/k.pem'), content: 'x', ...input }, nested),
      });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
    };
    expect(await hook('claude', { CLAUDE_PROJECT_DIR: dir })).toBe('deny');
    // Another client's variable, inherited from the session that started this one, names no folder of this one's.
    expect(await hook('codex', { CLAUDE_PROJECT_DIR: dir })).toBe('none');
    // An MCP server takes a relative path from its own folder, the session's, not the one the shell went to.
    const mcp = { file_path: undefined, path: 'secrets/k.pem' };
    expect(await hook('claude', { CLAUDE_PROJECT_DIR: dir }, 'mcp__fs__write_file', mcp)).toBe('deny');
  });

  it('reserves the agents package the hook runs from, inside the repository or out, unless it holds the repository', async () => {
    const dir = await repo();
    const installed = join(dir, 'node_modules/agents-invariants');
    const write = (program: string, file: string) =>
      new GuardService(join(dir, '.agents'), {}, undefined, { program }).toAction({ tool: 'Write', paths: [file], texts: [], cwd: dir })
        .reserved;
    expect(write(installed, join(installed, 'dist/hook.cjs'))).toEqual([
      { path: 'node_modules/agents-invariants/dist/hook.cjs', folder: 'program' },
    ]);
    const elsewhere = tempDir();
    expect(write(elsewhere, join(elsewhere, 'dist/hook.cjs'))).toEqual([{ path: join(elsewhere, 'dist/hook.cjs'), folder: 'program' }]);
    // The tool's own sources, a repository its package folder holds: every file would be reserved, so none is.
    expect(write(dir, join(dir, 'src/app.ts'))).toBeUndefined();
    expect(write(installed, join(dir, 'node_modules/other/index.js'))).toBeUndefined();
  });

  it('denies them in another case or spelling a forgiving file system takes for theirs, whatever core.ignorecase says', async () => {
    const dir = await repo();
    const home = tempDir();
    for (const ignorecase of ['true', 'false']) {
      git(dir, 'config', 'core.ignorecase', ignorecase);
      const hook = async (file: string) => {
        const r = await runAgents(['guard', 'hook'], {
          cwd: dir,
          input: claude(dir, 'Write', { file_path: file, content: 'x' }),
          env: { HOME: home },
        });
        expect(r.code, r.stderr).toBe(0);
        return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
      };
      for (const file of [
        '.GIT/config',
        '.Git/hooks/pre-commit',
        '.Agents/global/x.yaml',
        join(dir, '.AGENTS/config.yaml'),
        '.Claude/settings.json',
        '.claude/Settings.Local.json',
        '.GEMINI/settings.json',
        join(home, '.Codex/Config.toml'),
        '.g\u200cit/config',
        '.git./config',
        // A .git below the top, which would make docs/ a repository of its own.
        'docs/.GIT/x',
      ])
        expect(await hook(file), `${file} (core.ignorecase ${ignorecase})`).toBe('deny');
      for (const file of ['docs/.GIT-notes/x', '.Agents-old/x.md', '.Claude/agents/x.md'])
        expect(await hook(file), `${file} (core.ignorecase ${ignorecase})`).toBe('none');
    }
  });

  it('denies writes to the user settings a client reads from the folder its variable names (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME)', async () => {
    const dir = await repo();
    const [claudeDir, codexDir, geminiHome] = [tempDir(), tempDir(), tempDir()];
    const env = { HOME: tempDir(), CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: codexDir, GEMINI_CLI_HOME: geminiHome };
    const hook = async (file: string) => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Write', { file_path: file, content: '{}' }), env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
    };
    // Gemini CLI takes its variable for the home folder: its user settings are $GEMINI_CLI_HOME/.gemini/settings.json.
    const denied = [
      join(claudeDir, 'settings.json'),
      join(codexDir, 'hooks.json'),
      join(codexDir, 'config.toml'),
      join(geminiHome, '.gemini/settings.json'),
    ];
    for (const file of denied) expect(await hook(file), file).toBe('deny');
    for (const file of [join(claudeDir, 'agents/reviewer.md'), join(codexDir, 'AGENTS.md'), join(geminiHome, 'settings.json')])
      expect(await hook(file), file).toBe('none');
  });

  it("judges a path that starts with ~ as the home folder's too, as the MCP filesystem server takes it", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'public'));
    writeFileSync(join(dir, 'public/a.key'), 'k');
    const hook = async (home: string, tool: string, input: Record<string, unknown>) => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, tool, input), env: { HOME: home } });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
    };
    const home = tempDir();
    expect(await hook(home, 'mcp__filesystem__write_file', { path: '~/.claude/settings.json', content: '{}' })).toBe('deny');
    expect(await hook(home, 'mcp__filesystem__write_file', { path: '~/notes.md', content: 'x' })).toBe('none');
    // The repository in the home folder: ~/secrets is its secrets/, and so is a folder moved there.
    expect(await hook(dir, 'mcp__filesystem__write_file', { path: '~/secrets/key.pem', content: 'x' })).toBe('deny');
    expect(await hook(dir, 'mcp__filesystem__move_file', { source: '~/public', destination: '~/secrets' })).toBe('deny');
    expect(await hook(dir, 'mcp__filesystem__write_file', { path: '~/docs/a.md', content: 'x' })).toBe('none');
  });

  it("judges a file named under the repository's top in another case as its own where git ignores case, and only there", async () => {
    for (const ignorecase of [true, false]) {
      const dir = await repo();
      git(dir, 'config', 'core.ignorecase', String(ignorecase));
      const name = basename(dir);
      const other = join(dirname(dir), name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase());
      const input = claude(dir, 'Write', { file_path: join(other, 'secrets/key.pem'), content: 'x' });
      expect(await decision(dir, input), `core.ignorecase ${ignorecase}`).toBe(ignorecase ? 'deny' : 'none');
      expect(await decision(dir, claude(dir, 'Write', { file_path: join(other, 'docs/a.md'), content: 'x' }))).toBe('none');
      // So is the folder a command runs in: a project's command guard holds there too.
      const BILL = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
      mkdirSync(join(dir, '.agents/projects/billing'), { recursive: true });
      writeFileSync(join(dir, '.agents/projects/billing/project.yaml'), 'paths: ["services/billing/**"]\n');
      writeFileSync(
        join(dir, '.agents/projects/billing', `${BILL}.yaml`),
        guardedYaml(BILL, 'Billing is not deployed', { command: ['deploy'] }),
      );
      const bash = (cwd: string) => claude(dir, 'Bash', { command: 'make deploy' }, cwd);
      expect(await decision(dir, bash(join(other, 'services/billing'))), `core.ignorecase ${ignorecase}`).toBe(
        ignorecase ? 'deny' : 'none',
      );
      expect(await decision(dir, bash(join(other, 'services/other')))).toBe('none');
    }
  });

  it("covers a linked worktree's git folder and the common one", async () => {
    const dir = await repo();
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
    const wt = join(tempDir(), 'wt');
    // A server answering many calls (MCP check_action), started before the worktree was added.
    const server = new GuardService(join(dir, '.agents'), {}, undefined, { longLived: true });
    const served = (file: string) => server.toAction({ tool: 'Write', paths: [file], texts: [], cwd: dir }).reserved?.[0]?.folder;
    expect(served(join(wt, '.agents/config.yaml'))).toBeUndefined();
    git(dir, 'worktree', 'add', '-q', wt);
    expect(served(join(wt, '.agents/config.yaml'))).toBe('store');
    for (const file of [
      join(dir, '.git/worktrees/wt/HEAD'),
      join(dir, '.git/config'),
      join(wt, '.git'),
      join(wt, `.agents/global/${INV}.yaml`),
    ])
      expect(await decision(wt, claude(wt, 'Write', { file_path: file, content: 'x' })), file).toBe('deny');
    expect(await decision(wt, claude(wt, 'Write', { file_path: join(wt, 'src/a.ts'), content: 'x' }))).toBe('none');
    // Every other worktree's store, `.git` and hook settings too: outside this working tree, but as much the hook's.
    const reserved = (from: string, file: string) =>
      new GuardService(join(from, '.agents'), {}).toAction({ tool: 'Write', paths: [file], texts: [], cwd: from }).reserved?.[0]?.folder;
    for (const [from, other] of [
      [wt, dir],
      [dir, wt],
    ] as const) {
      expect(reserved(from, join(other, `.agents/global/${INV}.yaml`)), other).toBe('store');
      expect(reserved(from, join(other, '.agents/config.yaml')), other).toBe('store');
      expect(reserved(from, join(other, '.git')), other).toBe('git');
      for (const file of ['.claude/settings.json', '.codex/hooks.json', 'services/billing/.codex/config.toml'])
        expect(reserved(from, join(other, file)), `${other} ${file}`).toBe('hooks');
      expect(reserved(from, join(other, 'src/app.ts')), other).toBeUndefined();
    }
    expect(await decision(wt, claude(wt, 'Write', { file_path: join(dir, `.agents/global/${INV}.yaml`), content: 'x' }))).toBe('deny');

    // Another worktree's file is judged as the same path of the repository, by the guards of the hook's own store: a
    // guard and a project only wt's store holds hold in the main worktree for an agent working in wt, and not the reverse.
    const VAULT = '01JGGEBWJTQ6P08NTXZQ7TKM6V';
    const BILL = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
    writeFileSync(join(wt, `.agents/global/${VAULT}.yaml`), guardedYaml(VAULT, 'The vault is not written', { write: ['vault/**'] }));
    mkdirSync(join(wt, '.agents/projects/billing'), { recursive: true });
    writeFileSync(join(wt, '.agents/projects/billing/project.yaml'), 'paths: ["services/billing/**"]\n');
    writeFileSync(
      join(wt, '.agents/projects/billing', `${BILL}.yaml`),
      guardedYaml(BILL, 'Billing is not deployed', { command: ['deploy'] }),
    );
    for (const file of [join(dir, 'secrets/k.pem'), `${relative(wt, dir)}/secrets/k.pem`, join(dir, 'vault/x')])
      expect(await decision(wt, claude(wt, 'Write', { file_path: file, content: 'x' })), file).toBe('deny');
    expect(await decision(dir, claude(dir, 'Write', { file_path: join(wt, 'secrets/k.pem'), content: 'x' }))).toBe('deny');
    expect(await decision(dir, claude(dir, 'Write', { file_path: join(wt, 'vault/x'), content: 'x' }))).toBe('none');
    expect(await decision(wt, claude(wt, 'Bash', { command: 'make deploy' }, join(dir, 'services/billing')))).toBe('deny');
    expect(await decision(wt, claude(wt, 'Bash', { command: 'make deploy' }, join(dir, 'services/other')))).toBe('none');
    // guard try and the server's check_action say the same.
    expect((await runAgents(['guard', 'try', '--path', join(dir, 'vault/x')], { cwd: wt })).code).toBe(1);
    expect((await runAgents(['guard', 'try', '--command', 'make deploy', '--cwd', join(dir, 'services/billing')], { cwd: wt })).code).toBe(
      1,
    );
    expect(served(join(wt, 'secrets/k.pem'))).toBeUndefined();
    expect(server.toAction({ tool: 'Write', paths: [join(wt, 'secrets/k.pem')], texts: [], cwd: dir }).files).toEqual(['secrets/k.pem']);
    // A worktree inside the main one's tree: its file is its own path, and still the main tree's as well.
    const nested = join(dir, '.claude/worktrees/n');
    git(dir, 'worktree', 'add', '-q', nested);
    expect(await decision(dir, claude(dir, 'Write', { file_path: join(nested, 'secrets/k.pem'), content: 'x' }))).toBe('deny');
    expect(await decision(nested, claude(nested, 'Write', { file_path: join(dir, 'secrets/k.pem'), content: 'x' }))).toBe('deny');
    const from = (root: string, file: string) =>
      new GuardService(join(root, '.agents'), {}).toAction({ tool: 'Write', paths: [file], texts: [], cwd: root }).files;
    expect(from(dir, join(nested, 'src/a.ts'))).toEqual(['.claude/worktrees/n/src/a.ts', 'src/a.ts']);
    expect(from(nested, join(nested, 'src/a.ts'))).toEqual(['src/a.ts']);
    // And so is the folder a command runs in there.
    const ran = new GuardService(join(dir, '.agents'), {}).toAction({
      tool: 'Bash',
      paths: [],
      texts: [],
      command: 'x',
      cwd: join(nested, 'services'),
    });
    expect([ran.cwd, ...(ran.cwds ?? [])]).toEqual(['.claude/worktrees/n/services', 'services']);
    // The server lists the worktrees again after one is moved (git rewrites its gitdir file, not the worktrees/ folder).
    expect(served(join(nested, '.agents/config.yaml'))).toBe('store');
    const moved = join(tempDir(), 'moved');
    git(dir, 'worktree', 'move', wt, moved);
    expect(served(join(moved, '.agents/config.yaml'))).toBe('store');
    // So is each worktree's copy of the agents package installed in it: that worktree's sessions run it as their hook.
    const program = (from: string, file: string) =>
      new GuardService(join(from, '.agents'), {}, undefined, { program: join(from, 'node_modules/agents-invariants') }).toAction({
        tool: 'Write',
        paths: [file],
        texts: [],
        cwd: from,
      }).reserved?.[0]?.folder;
    expect(program(moved, join(dir, 'node_modules/agents-invariants/dist/hook.cjs'))).toBe('program');
    expect(program(dir, join(nested, 'node_modules/agents-invariants/dist/hook.cjs'))).toBe('program');
    expect(program(dir, join(moved, 'node_modules/other/index.js'))).toBeUndefined();
  });

  it('guard try says the same (exit 1, deny)', async () => {
    const dir = await repo();
    const r = await runAgents(['--format', 'json', 'guard', 'try', '--path', '.git/agents/guard-index.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', hits: [] });
    expect((await runAgents(['guard', 'try', '--path', '.agents/config.yaml'], { cwd: dir })).code).toBe(1);
    expect((await runAgents(['guard', 'try', '--path', 'src/a.ts'], { cwd: dir })).code).toBe(0);
  });

  it('a store given at the top of the repository (--store .) reserves only git', async () => {
    const dir = tempDir();
    gitInit(dir);
    mkdirSync(join(dir, 'global'));
    writeFileSync(join(dir, 'config.yaml'), 'version: 1\n');
    const r = await runAgents(['--store', dir, 'guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'Write', { file_path: 'src/a.ts', content: 'x' }),
    });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('agents guard hook, a link followed by `..`', () => {
  it('follows the link before it folds the `..`, as the system does: for a file, from a linked folder, and for the folder a command runs in', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'deep/dir'), { recursive: true });
    symlinkSync('deep/dir', join(dir, 'lnk'));
    for (const [file, cwd] of [
      [`${dir}/lnk/../../secrets/prod.env`, dir],
      ['lnk/../../secrets/prod.env', dir],
      ['../../secrets/k', join(dir, 'lnk')],
    ] as const)
      expect(await decision(dir, claude(dir, 'Write', { file_path: file, content: 'x' }, cwd)), `${cwd} ${file}`).toBe('deny');
    // The lexical reading (`lnk/..` is the top) is a file of no guard.
    expect(await decision(dir, claude(dir, 'Write', { file_path: `${dir}/lnk/../notes.md`, content: 'x' }))).toBe('none');
    // Gemini CLI folds the `..` first and writes where the folded path's links lead: through `sc` into secrets/.
    symlinkSync(tempDir(), join(dir, 'out'));
    symlinkSync('secrets', join(dir, 'sc'));
    for (const file of ['out/../sc/prod.env', `${dir}/out/../sc/prod.env`])
      expect(await decision(dir, claude(dir, 'Write', { file_path: file, content: 'x' })), file).toBe('deny');
    // The client's own folder, which the hook's process cannot see (Claude Code runs it in its shell's): guard.on_error.
    // So is one a link in the repository leads to, or a chain of links.
    symlinkSync('/proc/self/cwd/secrets', join(dir, 'own'));
    symlinkSync('own', join(dir, 'own2'));
    for (const file of [
      '/proc/self/cwd/secrets/prod.env',
      '/dev/fd/../../proc/self/cwd/secrets/prod.env',
      `${dir}/own/prod.env`,
      `${dir}/own2/prod.env`,
    ]) {
      const r = await runAgents(['guard', 'hook'], {
        cwd: dir,
        input: claude(dir, 'Write', { file_path: file, content: 'x' }, join(dir, 'deep')),
      });
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toContain('denied (guard.on_error: deny)');
    }
    expect((await runAgents(['guard', 'try', '--path', 'lnk/../../secrets/prod.env'], { cwd: dir })).code).toBe(1);

    const BILL = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
    mkdirSync(join(dir, '.agents/projects/billing'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/billing/project.yaml'), 'paths: ["services/billing/**"]\n');
    writeFileSync(
      join(dir, '.agents/projects/billing', `${BILL}.yaml`),
      guardedYaml(BILL, 'Billing is never published by an agent', { command: ['\\bnpm\\s+publish\\b'] }),
    );
    mkdirSync(join(dir, 'services/billing'), { recursive: true });
    const gemini = (dirPath: string) =>
      JSON.stringify({
        session_id: 's1',
        cwd: dir,
        hook_event_name: 'BeforeTool',
        tool_name: 'run_shell_command',
        tool_input: { command: 'npm publish', dir_path: dirPath },
      });
    // A shell's `cd` and Gemini CLI's dir_path fold the `..` first too.
    for (const dirPath of ['services/billing', 'lnk/../../services/billing', 'out/../services/billing']) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: gemini(dirPath) });
      expect(r.stdout === '' ? 'none' : JSON.parse(r.stdout).decision, dirPath).toBe('deny');
    }
    expect((await runAgents(['guard', 'try', '--command', 'npm publish', '--cwd', 'lnk/../../services/billing'], { cwd: dir })).code).toBe(
      1,
    );
  });
});

describe('agents guard hook, a dangling link', () => {
  it('is followed to the file a write through it would create, through a chain of links; a loop of links ends', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    symlinkSync('secrets/new.key', join(dir, 'notes.txt'));
    symlinkSync('notes.txt', join(dir, 'chain.txt'));
    mkdirSync(join(dir, 'docs'));
    symlinkSync('../secrets/third.key', join(dir, 'docs/key'));
    for (const file of [join(dir, 'notes.txt'), 'chain.txt', 'docs/key'])
      expect(await decision(dir, claude(dir, 'Write', { file_path: file, content: 'x' })), file).toBe('deny');
    expect((await runAgents(['guard', 'try', '--path', 'notes.txt'], { cwd: dir })).code).toBe(1);
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    expect(await decision(dir, claude(dir, 'Write', { file_path: 'loop-a', content: 'x' }))).toBe('none');
  });
});

describe('agents guard hook, a folder moved whole', () => {
  it('judges every file below the folder, at both ends of the move, where a copy goes, and a folder deleted; a link to a folder is moved, not its files', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets/deep'), { recursive: true });
    writeFileSync(join(dir, 'secrets/deep/key.pem'), 'k');
    mkdirSync(join(dir, 'public'));
    writeFileSync(join(dir, 'public/readme.md'), 'r');
    symlinkSync('secrets', join(dir, 'secrets-link'));
    const move = (source: string, destination: string) => claude(dir, 'mcp__filesystem__move_file', { source, destination });
    expect(await decision(dir, move(join(dir, 'secrets'), join(dir, 'public/old')))).toBe('deny');
    expect(await decision(dir, move('secrets/deep', 'elsewhere'))).toBe('deny');
    expect(await decision(dir, move('public', 'secrets/public'))).toBe('deny');
    expect(await decision(dir, move('public', 'secrets'))).toBe('deny');
    expect(await decision(dir, move('public', 'docs'))).toBe('none');
    expect(await decision(dir, move('secrets-link', 'other-link'))).toBe('none');
    // A folder deleted deletes each file below it: the guarded ones, and the hook settings (the hook's own entry).
    const remove = (path: string) => claude(dir, 'mcp__fs__delete_directory', { path });
    expect(await decision(dir, remove('secrets'))).toBe('deny');
    expect(await decision(dir, remove('public'))).toBe('none');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{}');
    expect(await decision(dir, remove('.claude'))).toBe('deny');
    expect(await decision(dir, remove('secrets-link'))).toBe('none');
    // A folder copied writes each of its files where it goes, and nothing where it was.
    const copy = (source: string, destination: string) => claude(dir, 'mcp__fs__copy_directory', { source, destination });
    expect(await decision(dir, copy('public', 'secrets'))).toBe('deny');
    expect(await decision(dir, copy('secrets', 'public/copy'))).toBe('none');
    // Only a move, a copy or a delete: another tool naming a folder (here the repository's top) is not judged by every file below it.
    expect(await decision(dir, claude(dir, 'mcp__code__search', { path: dir, query: 'x' }))).toBe('none');
    // guard try says the same of the same tool (a move's or a copy's two paths are its ends).
    const tried = async (tool: string, ...paths: string[]) =>
      (await runAgents(['guard', 'try', '--tool', tool, ...paths.flatMap((p) => ['--path', p])], { cwd: dir })).code;
    expect(await tried('mcp__fs__delete_directory', 'secrets')).toBe(1);
    expect(await tried('mcp__fs__delete_directory', 'public')).toBe(0);
    expect(await tried('mcp__filesystem__move_file', 'secrets', 'public/old')).toBe(1);
    expect(await tried('mcp__fs__copy_directory', 'public', 'secrets')).toBe(1);
    expect(await tried('mcp__fs__copy_directory', 'secrets', 'public/copy')).toBe(0);
  });
});

describe('agents guard hook in a sparse checkout that leaves store files out', () => {
  it('decides nothing it cannot see: the call gets guard.on_error (deny), not an allow without the missing guards', async () => {
    const dir = await repo();
    // A project of its own keeps .agents/projects in the checkout; the guarded global invariant is left out.
    writeFileSync(join(dir, '.agents/projects/.gitkeep'), '');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
    const write = claude(dir, 'Write', { file_path: join(dir, 'secrets/key.pem'), content: 'x' });
    expect(await decision(dir, write)).toBe('deny');
    git(dir, 'sparse-checkout', 'set', '--cone', '.agents/projects', 'src');
    // A call the hook cannot decide is denied by exit 2 with the reason on stderr (the clients' blocking answer).
    const r = await runAgents(['guard', 'hook'], { cwd: dir, input: write });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sparse checkout');
    git(dir, 'sparse-checkout', 'disable');
    expect(await decision(dir, write)).toBe('deny');
    expect(await decision(dir, claude(dir, 'Write', { file_path: join(dir, 'src/a.ts'), content: 'x' }))).toBe('none');
  });
});
