import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CHECK_ACTION } from '../../src/mcp/check-action.ts';
import { GuardService } from '../../src/service/guard-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { agents, BIN } from '../helpers/cli.ts';
import { git } from '../helpers/git.ts';
import { initializedRepo } from '../helpers/guard.ts';
import { makeReadOnly } from '../helpers/read-only.ts';
import { runAgents } from '../helpers/main.ts';

const INV = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';
const INV2 = '01JGGEBWJTQ6P08NTXZQ7TKM3R';
const PLAN = '01JH5G411EVHG9XHQ43X20SSN4';

function guardYaml(id: string, text: string, guard: string[], severity = 'error'): string {
  return [`id: ${id}`, `text: ${text}`, `severity: ${severity}`, 'guard:', ...guard.map((l) => `  ${l}`), ''].join('\n');
}

/** A repository with a store: one global invariant guarding secrets/ and `rm -r`, a project app at services/app/**, a plan. */
async function repo(extra: { config?: string } = {}): Promise<string> {
  const dir = await initializedRepo();
  writeFileSync(
    join(dir, '.agents/global', `${INV}.yaml`),
    guardYaml(INV, 'Agents never touch secrets', [
      'write: ["secrets/**"]',
      'command: ["\\\\brm\\\\s+-r"]',
      'content: ["AKIA[0-9A-Z]{16}"]',
    ]),
  );
  mkdirSync(join(dir, '.agents/projects/app'), { recursive: true });
  writeFileSync(join(dir, '.agents/projects/app/project.yaml'), 'paths: ["services/app/**"]\n');
  mkdirSync(join(dir, '.agents/plans', PLAN), { recursive: true });
  writeFileSync(join(dir, '.agents/plans', PLAN, 'plan.yaml'), `id: ${PLAN}\nproject: app\n`);
  if (extra.config !== undefined) writeFileSync(join(dir, '.agents/config.yaml'), extra.config);
  return dir;
}

/** Writes and stages `paths` (one line each), then `guard check --staged`: each finding's code and file. */
async function stagedFindings(dir: string, paths: readonly string[]): Promise<[string, string][]> {
  for (const path of paths) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), 'x\n');
    git(dir, 'add', path);
  }
  const json = JSON.parse((await runAgents(['--format', 'json', 'guard', 'check', '--staged'], { cwd: dir })).stdout);
  return json.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file]);
}

/**
 * Runs `f` with the clock 10 s ahead: the store's files then look older than the coarsest tick a file system keeps
 * times in, and a kept index built after them is trusted (an index built just after a change is built again).
 */
async function later<T>(f: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + 10_000);
    return await f();
  } finally {
    vi.useRealTimers();
  }
}

const claude = (dir: string, tool: string, input: Record<string, unknown>) =>
  JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 't1' });

describe('agents guard hook', () => {
  it('denies in the protocol of the client it recognises, and says nothing about an unguarded action', async () => {
    const dir = await repo();
    const deny = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'Write', { file_path: join(dir, 'secrets/a'), content: 'x' }),
    });
    expect(deny.code).toBe(0);
    expect(JSON.parse(deny.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(JSON.parse(deny.stdout).hookSpecificOutput.permissionDecisionReason).toContain(INV);
    const allow = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'Write', { file_path: join(dir, 'src/a'), content: 'x' }),
    });
    expect(allow).toEqual({ code: 0, stdout: '', stderr: '' });
    // Reading a guarded file writes nothing: a write guard says nothing of it.
    const read = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Read', { file_path: join(dir, 'secrets/a') }) });
    expect(read).toEqual({ code: 0, stdout: '', stderr: '' });
    // So does the MCP filesystem server's read tool; its move into the guarded folder is a write there.
    const mcpRead = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'mcp__filesystem__read_text_file', { path: join(dir, 'secrets/a') }),
    });
    expect(mcpRead).toEqual({ code: 0, stdout: '', stderr: '' });
    const move = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: claude(dir, 'mcp__filesystem__move_file', { source: join(dir, 'src/a'), destination: join(dir, 'secrets/a') }),
    });
    expect(JSON.parse(move.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });

  it('where git ignores case (core.ignorecase, as on macOS and Windows), a path in another case meets the guard: hook, try and check', async () => {
    const dir = await repo();
    git(dir, 'config', 'core.ignorecase', 'true');
    const r = await runAgents(['guard', 'hook', '--client', 'claude'], {
      cwd: dir,
      input: claude(dir, 'Write', { file_path: join(dir, 'SECRETS/prod.env'), content: 'x' }),
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await runAgents(['guard', 'try', '--path', 'Services/App/Secrets/../../../Secrets/a'], { cwd: dir })).code).toBe(1);
    expect(await stagedFindings(dir, ['Secrets/b.env'])).toEqual([['guard-violation', 'Secrets/b.env']]);
  });

  it('where git keeps case, another case is another path', async () => {
    const dir = await repo();
    git(dir, 'config', 'core.ignorecase', 'false');
    expect((await runAgents(['guard', 'try', '--path', 'SECRETS/a'], { cwd: dir })).code).toBe(0);
    expect((await runAgents(['guard', 'try', '--path', 'secrets/a'], { cwd: dir })).code).toBe(1);
  });

  it('resolves `..` and links before matching', async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    symlinkSync('secrets', join(dir, 'public'));
    for (const p of [join(dir, 'src/../secrets/a'), join(dir, 'public/a'), 'public/b']) {
      const r = await runAgents(['guard', 'hook', '--client', 'claude'], {
        cwd: dir,
        input: claude(dir, 'Write', { file_path: p, content: 'x' }),
      });
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, p).toBe('deny');
    }
  });

  it("answers Cursor's documented inputs in Cursor's protocol", async () => {
    const dir = await repo();
    const common = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: [dir] };
    const shell = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: JSON.stringify({ ...common, hook_event_name: 'beforeShellExecution', command: 'rm -r build', cwd: dir }),
    });
    expect(JSON.parse(shell.stdout)).toMatchObject({ permission: 'deny' });
    const mcp = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: JSON.stringify({
        ...common,
        hook_event_name: 'beforeMCPExecution',
        tool_name: 'put',
        tool_input: { v: 'AKIAABCDEFGHIJKLMNOP' },
      }),
    });
    expect(JSON.parse(mcp.stdout)).toMatchObject({ permission: 'deny' });
    const read = await runAgents(['guard', 'hook'], {
      cwd: dir,
      input: JSON.stringify({ ...common, hook_event_name: 'beforeReadFile', file_path: join(dir, 'secrets/a') }),
    });
    expect(read).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('records a violation in the active plan (AGENTS_PLAN, else plan activate), and logs every decision', async () => {
    const dir = await repo();
    const input = claude(dir, 'Bash', { command: 'rm -r build' });
    await runAgents(['guard', 'hook'], { cwd: dir, input, env: { AGENTS_PLAN: PLAN } });
    expect((await runAgents(['plan', 'activate', PLAN.slice(0, 8)], { cwd: dir })).code).toBe(0);
    await runAgents(['guard', 'hook'], { cwd: dir, input });
    const folder = join(dir, '.agents/plans', PLAN, 'violations');
    const files = readdirSync(folder);
    expect(files).toHaveLength(2);
    const v = readFileSync(join(folder, files[0]!), 'utf8');
    expect(v).toContain(`invariant_id: ${INV}`);
    expect(v).toContain('rm -r build');
    expect(v).toContain('session s1');
    expect((await runAgents(['plan', 'status', PLAN], { cwd: dir })).code).toBe(1);
    const audit = readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ client: 'claude', tool: 'Bash', decision: 'deny', plan: PLAN, command: 'rm -r build' });
    expect((await runAgents(['plan', 'activate', '--clear'], { cwd: dir })).code).toBe(0);
    await runAgents(['guard', 'hook'], { cwd: dir, input });
    expect(readdirSync(folder)).toHaveLength(2);
    // The plan's project gone: the deny and its record go by the set as it resolves (a file's guards are its own
    // project's), and the audit line says what the plan's set lacks.
    writeFileSync(join(dir, '.agents/plans', PLAN, 'plan.yaml'), `id: ${PLAN}\nproject: gone\n`);
    const gone = await runAgents(['guard', 'hook'], { cwd: dir, input, env: { AGENTS_PLAN: PLAN } });
    expect(JSON.parse(gone.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(readdirSync(folder)).toHaveLength(3);
    const last = JSON.parse(readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    expect(last.violation.id).toBeDefined();
    expect(last.warnings).toEqual([expect.stringContaining(`plans/${PLAN}/plan.yaml:2:10 unknown-project:`)]);
  });

  it('records a deny whose path, command or session holds control or bidirectional characters, escaped, and a long command cut whole', async () => {
    const dir = await repo();
    const env = { AGENTS_PLAN: PLAN };
    const inputs = [
      claude(dir, 'Write', { file_path: join(dir, 'secrets/\u202eevil.txt'), content: 'x' }),
      claude(dir, 'Bash', { command: 'rm -r \u001b[2J build\u0085' }),
      JSON.stringify({
        session_id: 's\u007f2',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 'secrets/b' },
      }),
      // One of the two puts the 10,000th character inside a surrogate pair, whichever the length of the line before it.
      claude(dir, 'Bash', { command: `rm -r ${'😀'.repeat(11_000)}` }),
      claude(dir, 'Bash', { command: `rm -r x${'😀'.repeat(11_000)}` }),
    ];
    for (const input of inputs) expect((await runAgents(['guard', 'hook'], { cwd: dir, input, env })).stdout).toContain('"deny"');
    const listed = await runAgents(['--format', 'json', 'invariant', 'violation', 'list', '--plan', PLAN], { cwd: dir });
    const details: string[] = JSON.parse(listed.stdout).map((v: { details: string }) => v.details);
    expect(details).toHaveLength(inputs.length);
    expect(details[0]).toContain('path secrets/\\u202eevil.txt');
    expect(details[1]).toContain('command "rm -r \\u001b[2J build\\u0085"');
    expect(details[2]).toContain('session s\\u007f2');
    for (const d of details.slice(3)) {
      expect([...d]).toHaveLength(10_000);
      expect(/\p{Surrogate}/u.test(d)).toBe(false);
    }
  });

  it.each([
    ['deny', 2],
    ['allow', 0],
  ])('malformed input under guard.on_error: %s exits %i, the reason on stderr, nothing on stdout', async (onError, code) => {
    const dir = await repo({ config: `version: 1\nguard:\n  on_error: ${onError}\n` });
    for (const input of ['{"tool_name": ', '[]', JSON.stringify({ cwd: dir, tool_name: 'Write' })]) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
      expect(r.code, input).toBe(code);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^agents guard: .+/);
    }
  });

  it('an unreadable store is answered by on_error too (deny by default)', async () => {
    const dir = await repo();
    writeFileSync(join(dir, '.agents/global', `${INV2}.yaml`), 'id: [unclosed\n');
    const r = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, 'Write', { file_path: 'src/a', content: 'x' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('rebuilds its index when the store changes, and answers from it when not', async () => {
    const dir = await repo();
    const input = claude(dir, 'Write', { file_path: 'docs/a.md', content: 'x' });
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
    const index = join(dir, '.git/agents/guard-index.json');
    const before = readFileSync(index, 'utf8');
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
    expect(readFileSync(index, 'utf8')).toBe(before);
    writeFileSync(join(dir, '.agents/global', `${INV2}.yaml`), guardYaml(INV2, 'Docs are generated', ['write: ["docs/**"]']));
    expect(
      JSON.parse((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).hookSpecificOutput.permissionDecisionReason,
    ).toContain(INV2);
    // An edit in place of a guarded file (its folder unchanged) is seen too.
    const folder = statSync(join(dir, '.agents/global')).ctimeMs;
    writeFileSync(join(dir, '.agents/global', `${INV2}.yaml`), guardYaml(INV2, 'Docs are generated', ['write: ["other/**"]']));
    expect(statSync(join(dir, '.agents/global')).ctimeMs).toBe(folder);
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
    // An edit in place that gives an invariant without a guard one (in global, then in a project) is seen too.
    const INV3 = '01JGGEBWJTQ6P08NTXZQ7TKM4S';
    for (const folder of ['global', 'projects/app']) {
      const file = join(dir, '.agents', folder, `${INV3}.yaml`);
      const target = folder === 'global' ? 'notes/a.md' : 'services/app/notes/a.md';
      const noted = claude(dir, 'Write', { file_path: target, content: 'x' });
      writeFileSync(file, `id: ${INV3}\ntext: Notes are written by people\n`);
      expect((await runAgents(['guard', 'hook'], { cwd: dir, input: noted })).stdout).toBe('');
      const folderTime = statSync(dirname(file)).ctimeMs;
      writeFileSync(file, guardYaml(INV3, 'Notes are written by people', [`write: ["${dirname(target)}/**"]`]));
      expect(statSync(dirname(file)).ctimeMs).toBe(folderTime);
      const answer = JSON.parse((await runAgents(['guard', 'hook'], { cwd: dir, input: noted })).stdout);
      expect(answer.hookSpecificOutput.permissionDecision, folder).toBe('deny');
      expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(INV3);
      rmSync(file);
    }
    // git commands that rewrite git's index (status, add) do not make the hook read the store again, once the store's
    // last change is older than a file system's tick (the index built just after it is built again once).
    await later(async () => {
      expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
      git(dir, 'add', '-A');
      const kept = readFileSync(index, 'utf8');
      expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
      expect(readFileSync(index, 'utf8')).toBe(kept);
    });
  });
});

describe('agents guard hook, its input through the real process', () => {
  /** `agents guard hook` as a client starts it: its input written to a pipe in `pieces`, `pause` ms apart. */
  function hookProcess(
    dir: string,
    pieces: readonly (string | Buffer)[],
    pause = 0,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'guard', 'hook'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.on('error', () => undefined);
      const write = (i: number): void => {
        if (i === pieces.length) child.stdin.end();
        else child.stdin.write(pieces[i]!, () => setTimeout(() => write(i + 1), pause));
      };
      write(0);
    });
  }

  it('reads all of it when it comes in pieces, and refuses one over 16 MiB under on_error', async () => {
    const dir = await repo();
    const input = claude(dir, 'Write', { file_path: join(dir, 'secrets/a'), content: 'x' });
    const cut = input.length >> 1;
    const pieces = await hookProcess(dir, [input.slice(0, cut), input.slice(cut)], 150);
    expect(pieces.code).toBe(0);
    expect(JSON.parse(pieces.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    const allowed = await hookProcess(dir, [claude(dir, 'Write', { file_path: join(dir, 'src/a'), content: 'x' })]);
    expect(allowed).toEqual({ code: 0, stdout: '', stderr: '' });
    const huge = await hookProcess(dir, [Buffer.alloc(16 * 1024 * 1024, 0x20), '{}']);
    expect(huge.code).toBe(2);
    expect(huge.stdout).toBe('');
    expect(huge.stderr).toMatch(/16 MiB/);
  });
});

describe("agents guard hook, its own bundle's way to the rest of the tool", () => {
  it('builds a missing index, records a deny in the active plan, and answers on_error for an unreadable store, as the real process', async () => {
    const dir = await initializedRepo();
    writeFileSync(join(dir, '.agents/global', `${INV}.yaml`), guardYaml(INV, 'Agents never touch secrets', ['write: ["secrets/**"]']));
    mkdirSync(join(dir, '.agents/plans', PLAN), { recursive: true });
    writeFileSync(join(dir, '.agents/plans', PLAN, 'plan.yaml'), `id: ${PLAN}\n`);
    const hook = (file: string) =>
      agents(['guard', 'hook'], {
        cwd: dir,
        input: claude(dir, 'Write', { file_path: join(dir, file), content: 'x' }),
        env: { AGENTS_PLAN: PLAN },
      });
    expect(hook('src/a')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(dir, '.git/agents/guard-index.json'))).toBe(true);
    const deny = hook('secrets/a');
    expect(JSON.parse(deny.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    const violations = readdirSync(join(dir, '.agents/plans', PLAN, 'violations'));
    expect(violations).toHaveLength(1);
    expect(readFileSync(join(dir, '.agents/plans', PLAN, 'violations', violations[0]!), 'utf8')).toContain(`invariant_id: ${INV}`);
    writeFileSync(join(dir, '.agents/global', `${INV2}.yaml`), 'id: [unclosed\n');
    const broken = hook('src/a');
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/^agents guard: .+/);
  });
});

describe("agents guard hook, a project's paths", () => {
  it('sees a project.yaml edited in place that makes the project hold the file, though the index placed it in none', async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.agents/projects/web'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/web/project.yaml'), 'paths: ["web/**"]\n');
    const GEN = '01JGGEBWJTQ6P08NTXZQ7TKM6V';
    writeFileSync(
      join(dir, '.agents/projects/web', `${GEN}.yaml`),
      guardYaml(GEN, 'Generated files are never edited', ['write: ["**/generated/**"]']),
    );
    const input = claude(dir, 'Write', { file_path: 'services/api/generated/a.ts', content: 'x' });
    // Built and kept: the file is in no project, so nothing guards it.
    expect((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).toBe('');
    // The web project now also covers services/api/**: its folder and every other file stay as they were.
    const folderTime = statSync(join(dir, '.agents/projects/web')).ctimeMs;
    writeFileSync(join(dir, '.agents/projects/web/project.yaml'), 'paths: ["web/**", "services/api/**"]\n');
    expect(statSync(join(dir, '.agents/projects/web')).ctimeMs).toBe(folderTime);
    const answer = JSON.parse((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain(GEN);
    // And guard check, from the index the hook kept.
    expect(await stagedFindings(dir, ['services/api/generated/a.ts'])).toEqual([['guard-violation', 'services/api/generated/a.ts']]);
  });
});

describe('agents guard hook, the kept index', () => {
  it('is built again when it does not decode, and still denies', async () => {
    const dir = await repo();
    const input = claude(dir, 'Write', { file_path: 'secrets/a.env', content: 'x' });
    const deny = async () => JSON.parse((await runAgents(['guard', 'hook'], { cwd: dir, input })).stdout).hookSpecificOutput;
    expect((await deny()).permissionDecision).toBe('deny');
    // Later, when an index of the store is trusted (the one built just after its change is built again once).
    await later(async () => {
      expect((await deny()).permissionDecision).toBe('deny');
      const index = join(dir, '.git/agents/guard-index.json');
      const kept = readFileSync(index, 'utf8');
      // A rule of it garbled, or no index at all: never read as an index without that rule.
      const garbled = kept.replace('"guard":{', '"guard":{{');
      expect(garbled).not.toBe(kept);
      for (const text of [garbled, 'not an index', '']) {
        writeFileSync(index, text);
        const answer = await deny();
        expect(answer.permissionDecision).toBe('deny');
        expect(answer.permissionDecisionReason).toContain(INV);
        expect(readFileSync(index, 'utf8')).toBe(kept);
      }
    });
  });

  it('is built again when it decodes but is not of the shape the build gives, never answered from nor tripped over', async () => {
    const dir = await repo();
    const input = claude(dir, 'Write', { file_path: 'secrets/a.env', content: 'x' });
    const hook = async () => runAgents(['guard', 'hook'], { cwd: dir, input });
    expect((await hook()).code).toBe(0);
    // Later, when an index of the store is trusted (the one built just after its change is built again once).
    await later(() => damaged(dir, hook));
  });

  async function damaged(dir: string, hook: () => ReturnType<typeof runAgents>): Promise<void> {
    expect((await hook()).code).toBe(0);
    const index = join(dir, '.git/agents/guard-index.json');
    const kept = readFileSync(index, 'utf8');
    expect(kept).not.toContain('~racy');
    type Stored = {
      stamps: unknown;
      index: Record<string, unknown> & { rules: Record<string, unknown>[]; contexts: Record<string, unknown> | unknown[] };
    };
    const damages: ((d: Stored) => void)[] = [
      (d) => (d.index.rules[0]!.text = 5),
      (d) => delete d.index.rules[0]!.guard,
      (d) => ((d.index.rules[0]!.guard as Record<string, unknown>).write = 'secrets/**'),
      (d) => (d.index.rules[0]!.guard = {}),
      (d) => (d.index.contexts = []),
      (d) => delete (d.index.contexts as Record<string, unknown>)[''],
      (d) => (((d.index.contexts as Record<string, unknown>)[''] as { rules: number[] }).rules = [7]),
      (d) => (d.index.heads = null),
      (d) => (d.stamps = null),
      (d) => (d.index.onError = 'maybe'),
      // Of the shape, but a pattern RE2 refuses, which the build never keeps: the store is read again when it fails.
      (d) => ((d.index.rules[0]!.guard as Record<string, unknown>).content = ['(?<=x)AKIA']),
    ];
    for (const damage of damages) {
      const stored = JSON.parse(kept) as Stored;
      damage(stored);
      writeFileSync(index, JSON.stringify(stored));
      const r = await hook();
      expect(r.code).toBe(0);
      const answer = JSON.parse(r.stdout).hookSpecificOutput;
      expect(answer.permissionDecision).toBe('deny');
      expect(answer.permissionDecisionReason).toContain('"Agents never touch secrets"');
      expect(readFileSync(index, 'utf8')).toBe(kept);
    }
    // So does guard check at the commit.
    const refused = kept.replace('"AKIA[0-9A-Z]{16}"', '"(?<=x)AKIA"');
    expect(refused).not.toBe(kept);
    writeFileSync(index, refused);
    expect(await stagedFindings(dir, ['secrets/b.env'])).toEqual([['guard-violation', 'secrets/b.env']]);
  }

  it('is not trusted while a change it was built after is younger than the coarsest tick a file system keeps times in', async () => {
    const dir = await repo();
    const action = { tool: 'Write', files: ['secrets/a'], texts: [] };
    const rebuilt = async () => (await new GuardService(join(dir, '.agents'), {}).index(action)).rebuilt;
    expect(await rebuilt()).toBe(true);
    // The store was written just now: where times are kept in seconds, an edit in place in the same second, of the
    // same size, would keep every figure of its stamp, so the index is built again rather than trusted.
    expect(await rebuilt()).toBe(true);
    await later(async () => {
      expect(await rebuilt()).toBe(true);
      expect(await rebuilt()).toBe(false);
    });
  });

  it('that cannot be written (a folder in its place) still answers, and leaves no temporary file', async () => {
    const dir = await repo();
    const input = claude(dir, 'Write', { file_path: 'secrets/a.env', content: 'x' });
    await runAgents(['guard', 'hook'], { cwd: dir, input });
    const index = join(dir, '.git/agents/guard-index.json');
    rmSync(index);
    mkdirSync(index);
    for (let i = 0; i < 2; i++) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
    expect(readdirSync(join(dir, '.git/agents')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('agents guard hook, a plan named by a prefix', () => {
  it('keeps the index of the plan the prefix names, and sees an edit in place of its invariants', async () => {
    const dir = await repo();
    const rule = join(dir, '.agents/plans', PLAN, `${INV2}.yaml`);
    writeFileSync(rule, guardYaml(INV2, 'Plan files stay', ['write: ["planonly/**"]']));
    const env = { AGENTS_PLAN: PLAN.slice(0, 10).toLowerCase() };
    const input = claude(dir, 'Write', { file_path: 'planonly/a', content: 'x' });
    const decide = async () => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input, env });
      return r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
    };
    const index = join(dir, '.git/agents/guard-index.json');
    // The first deny records a violation, whose folder the plan's folder then holds: the next call builds the index again.
    expect(await decide()).toBe('deny');
    expect(await decide()).toBe('deny');
    await later(async () => {
      // Built again once: the index kept was built just after a change to the store (the file system's tick).
      expect(await decide()).toBe('deny');
      const built = statSync(index).ino;
      expect(await decide()).toBe('deny');
      // Not built again: the kept index was the prefix's plan's (an index written again is a new file).
      expect(statSync(index).ino).toBe(built);
    });
    writeFileSync(rule, guardYaml(INV2, 'Plan files stay', ['write: ["elsewhere/**"]']));
    expect(await decide()).toBe('none');
  });
});

describe('agents guard hook, the waiver its reason names', () => {
  it("lets the action through once given: the project's for its folder, an active plan's for a file of no project", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'services/app'), { recursive: true });
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const bash = JSON.stringify({
      session_id: 's1',
      cwd: join(dir, 'services/app'),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -r build' },
    });
    const write = claude(dir, 'Write', { file_path: join(dir, 'secrets/a'), content: 'x' });
    const answer = async (input: string) => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input });
      return r.stdout === '' ? undefined : (JSON.parse(r.stdout).hookSpecificOutput as { permissionDecisionReason: string });
    };
    /** Runs the waiver the reason names, PLAN standing for the plan of the store. */
    const waive = async (reason: string) => {
      const m = /agents invariant waive (\S+) --(plan|project) (\S+)/.exec(reason);
      expect(m, reason).not.toBeNull();
      const target = m![3] === 'PLAN' ? PLAN : m![3]!;
      const args = ['invariant', 'waive', m![1]!, `--${m![2]}`, target, '--reason', 'r', '--owner', 'o', '--expires', expires];
      const r = await runAgents(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      return m![3];
    };
    expect(await waive((await answer(bash))!.permissionDecisionReason)).toBe('app');
    expect(await answer(bash)).toBeUndefined();
    expect(await waive((await answer(write))!.permissionDecisionReason)).toBe('PLAN');
    expect((await runAgents(['plan', 'activate', PLAN], { cwd: dir })).code).toBe(0);
    expect(await answer(write)).toBeUndefined();
  });
});

describe('agents guard hook and guard try, the folders a command runs in', () => {
  it("judges a command by the project of each folder it may run in: a cd of it, and ~ read as the agent's home folder", async () => {
    const dir = await repo();
    const DEPLOY = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
    writeFileSync(
      join(dir, '.agents/projects/app', `${DEPLOY}.yaml`),
      guardYaml(DEPLOY, 'App is deployed by CI', ['command: ["make deploy"]']),
    );
    mkdirSync(join(dir, 'services/app'), { recursive: true });
    // The repository in the home folder: `~/<repo>/services/app` is the project's folder.
    const env = { HOME: dirname(dir) };
    const app = `~/${basename(dir)}/services/app`;
    const hook = async (input: Record<string, unknown>) => {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, env, input: JSON.stringify({ session_id: 's1', cwd: dir, ...input }) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout === ''
        ? 'none'
        : ((JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision ?? JSON.parse(r.stdout).decision) as string);
    };
    const bash = (command: string, cwd = dir) => hook({ cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    expect(await bash('make deploy')).toBe('none');
    expect(await bash('make deploy', app)).toBe('deny');
    for (const command of [`cd ${app} && make deploy`, 'cd services/app && make deploy', 'cd services; cd app; make deploy'])
      expect(await bash(command), command).toBe('deny');
    expect(await bash('cd docs && make deploy')).toBe('none');
    const gemini = (dir_path: string) =>
      hook({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'make deploy', dir_path } });
    expect(await gemini(app)).toBe('deny');
    expect(await gemini('services/app')).toBe('deny');
    expect(await gemini('docs')).toBe('none');
    const tryIn = async (cwd: string) =>
      (await runAgents(['guard', 'try', '--command', 'make deploy', '--cwd', cwd], { cwd: dir, env })).code;
    expect(await tryIn(app)).toBe(1);
    expect(await tryIn('docs')).toBe(0);
  });
});

/** A user of the system's passwd file whose home folder holds `dir` (`systemd-network`'s is `/`), for `~user/…`. */
function userHolding(dir: string): { name: string; home: string } | undefined {
  if (!existsSync('/etc/passwd')) return undefined;
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [name, , , , , home] = line.split(':');
    if (name && home?.startsWith('/') && (home === '/' || dir.startsWith(`${home}/`))) return { name, home };
  }
  return undefined;
}

describe("agents guard try, a folder named from another user's home (~user)", () => {
  it("judges cd ~user/… as that user's home folder where the system lists the user, else as a folder of that name", async (t) => {
    const dir = await repo();
    const user = userHolding(realpathSync(dir));
    if (!user) return t.skip();
    const DEPLOY = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
    writeFileSync(
      join(dir, '.agents/projects/app', `${DEPLOY}.yaml`),
      guardYaml(DEPLOY, 'App is deployed by CI', ['command: ["make deploy"]']),
    );
    mkdirSync(join(dir, 'services/app'), { recursive: true });
    const app = `~${user.name}/${relative(user.home, realpathSync(dir))}/services/app`;
    const tryCommand = async (command: string) => (await runAgents(['guard', 'try', '--command', command], { cwd: dir })).code;
    expect(await tryCommand(`cd ${app} && make deploy`)).toBe(1);
    expect(await tryCommand(`cd docs; cd ${app}; make deploy`)).toBe(1);
    expect((await runAgents(['guard', 'try', '--command', 'make deploy', '--cwd', app], { cwd: dir })).code).toBe(1);
    // A name the system does not list is left as the shell leaves it: a folder of that name, of no project here.
    expect(await tryCommand('cd ~no-such-user-0x7f/services/app && make deploy')).toBe(0);
  });
});

describe('agents guard try', () => {
  it('names the invariant that would decide, and exits 1 for a deny, 0 for none', async () => {
    const dir = await repo();
    const r = await runAgents(['--format', 'json', 'guard', 'try', '--command', 'rm -r build'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', hits: [{ invariant: INV, kind: 'command', entry: '\\brm\\s+-r' }] });
    expect((await runAgents(['guard', 'try', '--path', 'src/a.ts'], { cwd: dir })).code).toBe(0);
    expect((await runAgents(['guard', 'try'], { cwd: dir })).code).toBe(2);
  });

  it('answers as the hook does for the same call: a patch, given as apply_patch or to a shell, and a tool that only reads', async () => {
    const dir = await repo();
    const mcp = { service: new InvariantService(join(dir, '.agents')), plans: undefined as never, env: process.env, agents: 'agents' };
    const hit = (h: { invariant: string; kind: string; entry: string; subject: string }) => [h.invariant, h.kind, h.entry, h.subject];
    /** The hook's decision and hits (from its audit log), `guard try`'s and MCP check_action's, for one call. */
    const verdicts = async (tool: string, input: Record<string, unknown>, given: string[], mcpArgs: Record<string, string>) => {
      const hooked = await runAgents(['guard', 'hook'], { cwd: dir, input: claude(dir, tool, input) });
      expect(hooked.code, hooked.stderr).toBe(0);
      const audit = JSON.parse(readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8').trim().split('\n').at(-1)!);
      const tried = JSON.parse((await runAgents(['--format', 'json', 'guard', 'try', '--tool', tool, ...given], { cwd: dir })).stdout);
      const asked = (await CHECK_ACTION.run({ tool, ...mcpArgs }, mcp)).data as typeof tried;
      expect(asked).toEqual(tried);
      return [audit.decision, audit.hits.map(hit), tried.decision, tried.hits.map(hit)];
    };
    const KEY = 'AKIAABCDEFGHIJKLMNOP';
    const patches = [
      `*** Add File: secrets/new.pem\n+${KEY}`,
      '*** Update File: secrets/a.pem\n@@\n-old\n+new',
      '*** Update File: docs/a.md\n*** Move to: secrets/a.md\n@@\n+x',
      '*** Update File: secrets/b.md\n*** Move to: docs/b.md\n@@\n+x',
      '*** Delete File: secrets/old.pem',
    ].map((body) => `*** Begin Patch\n${body}\n*** End Patch\n`);
    for (const patch of [...patches, patches.join('')]) {
      const [hookDecision, hookHits, tryDecision, tryHits] = await verdicts('apply_patch', { input: patch }, ['--content', patch], {
        content: patch,
      });
      expect(hookDecision, patch).toBe('deny');
      expect([tryDecision, tryHits], patch).toEqual([hookDecision, hookHits]);
      const script = `cd secrets/.. && apply_patch <<'EOF'\n${patch}EOF\n`;
      const shell = await verdicts('Bash', { command: script }, ['--command', script], { command: script });
      expect(shell[2], script).toBe('deny');
      expect([shell[2], shell[3]]).toEqual([shell[0], shell[1]]);
    }
    const docs = '*** Begin Patch\n*** Add File: docs/c.md\n+x\n*** End Patch\n';
    expect(await verdicts('apply_patch', { input: docs }, ['--content', docs], { content: docs })).toEqual(['none', [], 'none', []]);
    // A tool that only reads writes nothing, for the hook and for try.
    expect(await verdicts('Read', { file_path: 'secrets/a.pem' }, ['--path', 'secrets/a.pem'], { path: 'secrets/a.pem' })).toEqual([
      'none',
      [],
      'none',
      [],
    ]);
  });

  it.each([[['--path', '']], [['--path', 'src/a.ts', '--path', ' ']], [['--tool', '', '--path', 'x']], [['--command', '']]])(
    'an empty value (%j) is a usage error, never a verdict of none',
    async (args) => {
      const dir = await repo();
      const r = await runAgents(['--format', 'json', 'guard', 'try', ...args], { cwd: dir });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'missing-value' } });
    },
  );
});

describe('agents guard install', () => {
  it("merges the hook into each client's settings, keeping the rest; twice is once; --check tells", async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.claude'));
    const mine = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine' }] }] },
    };
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(mine));
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex,gemini,cursor', '--check'], { cwd: dir })).code).toBe(1);
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex', '--client', 'gemini,cursor'], { cwd: dir })).code).toBe(0);
    const files = ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json', '.cursor/hooks.json'];
    const first = files.map((f) => readFileSync(join(dir, f), 'utf8'));
    const settings = JSON.parse(first[0]!);
    expect(settings.permissions).toEqual(mine.permissions);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(settings.hooks.PreToolUse[0]).toEqual(mine.hooks.PreToolUse[0]);
    expect(settings.hooks.PreToolUse[1].hooks[0].command).toBe('agents guard hook --client claude || exit 2');
    expect(JSON.parse(first[2]!).hooks.BeforeTool[0].hooks[0].command).toBe('agents guard hook --client gemini || exit 2');
    expect(Object.keys(JSON.parse(first[3]!).hooks)).toEqual(['beforeShellExecution', 'beforeMCPExecution', 'preToolUse']);
    const again = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex,gemini,cursor'], { cwd: dir });
    expect(JSON.parse(again.stdout).map((r: { status: string }) => r.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(files.map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(first);
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex,gemini,cursor', '--check'], { cwd: dir })).code).toBe(0);
  });

  it("removes the temporaries a killed install left beside the settings (git would show them for ever), not a running one's", async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.claude'));
    const dead = '.claude/.settings.json.999999999.0a1b2c3d.tmp';
    const running = `.claude/.settings.json.${process.ppid}.0a1b2c3d.tmp`;
    for (const temp of [dead, running]) writeFileSync(join(dir, temp), '{"hooks": {');
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    expect(readdirSync(join(dir, '.claude')).sort()).toEqual([running.slice('.claude/'.length), 'settings.json'].sort());
  });

  it('refuses settings that are not JSON or not UTF-8, writing nothing, and an unknown client', async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini/settings.json'), '{ "a": ');
    const r = await runAgents(['guard', 'install', '--client', 'claude,gemini'], { cwd: dir });
    expect(r.code).toBe(2);
    // Where, as file:line:col: the text ends on line 1 after its 7 characters.
    expect(r.stderr).toContain('.gemini/settings.json:1:8: not valid JSON');
    expect(readdirSync(dir)).not.toContain('.claude');
    expect((await runAgents(['guard', 'install', '--client', 'vim'], { cwd: dir })).code).toBe(2);
    // Bytes that are not UTF-8 (a Latin-1 é) would be written back as U+FFFD: refused where they stand.
    const latin1 = Buffer.from([...Buffer.from('{"note": "caf'), 0xe9, ...Buffer.from('"}\n')]);
    writeFileSync(join(dir, '.gemini/settings.json'), latin1);
    const bad = await runAgents(['guard', 'install', '--client', 'gemini'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('.gemini/settings.json:1:14: not UTF-8 text');
    expect(readFileSync(join(dir, '.gemini/settings.json'))).toEqual(latin1);
  });

  it("a client's folder that cannot be written stops the install before any client's file is written (exit 2)", async () => {
    const dir = await repo();
    const codex = join(dir, '.codex');
    mkdirSync(codex);
    const undo = makeReadOnly(codex);
    if (undo === undefined) {
      console.log('skipped: cannot bind-mount here (needs mount)');
      return;
    }
    try {
      const r = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).ok).toBe(false);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'write-failed', detail: { path: '.codex/hooks.json' } });
      expect(existsSync(join(dir, '.claude'))).toBe(false);
      expect(readdirSync(codex)).toEqual([]);
    } finally {
      undo();
    }
  });
});

describe('agents guard install --check, the folders below the top', () => {
  it("reports a folder's settings a session started there reads: without the hook (missing), switching hooks off (off, at line:col), with it (installed)", async () => {
    const dir = await repo();
    expect((await runAgents(['guard', 'install', '--client', 'claude,codex,gemini'], { cwd: dir })).code).toBe(0);
    const check = async () => {
      const r = await runAgents(['--format', 'json', 'guard', 'install', '--client', 'claude,codex,gemini', '--check'], { cwd: dir });
      return { code: r.code, rows: (JSON.parse(r.stdout) as { file: string }[]).filter((row) => row.file.includes('/.')) };
    };
    expect(await check()).toEqual({ code: 0, rows: [] });
    const write = (file: string, text: string) => {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    // Codex CLI reads each folder's config.toml up to the top; Claude Code and Gemini CLI the folder's own settings.
    write('services/billing/.codex/config.toml', 'model = "o3"\n[features]\nhooks = false\n');
    write('services/api/.codex/config.toml', '[features]\nhooks = true\n');
    write('web/.claude/settings.json', '{"permissions": {}}\n');
    write('web/.gemini/settings.json', '{"hooksConfig": {"enabled": false}}\n');
    write('docs/.claude/settings.local.json', '{"disableAllHooks": true}\n');
    git(dir, 'add', 'web');
    // The install writes the top's files only, and names each folder's that leaves a session there unguarded.
    const install = await runAgents(['guard', 'install', '--client', 'claude,codex,gemini'], { cwd: dir });
    expect(install.code).toBe(0);
    for (const at of ['services/billing/.codex/config.toml:3:9', 'web/.claude/settings.json', 'docs/.claude/settings.local.json:1:21'])
      expect(install.stderr).toContain(at);
    expect(install.stderr).not.toContain('services/api');
    expect(await check()).toEqual({
      code: 1,
      rows: [
        { client: 'claude', file: 'docs/.claude/settings.local.json', status: 'off', line: 1, col: 21 },
        { client: 'claude', file: 'web/.claude/settings.json', status: 'missing' },
        { client: 'codex', file: 'services/billing/.codex/config.toml', status: 'off', line: 3, col: 9 },
        { client: 'gemini', file: 'web/.gemini/settings.json', status: 'off', line: 1, col: 29 },
      ],
    });
    // The entry copied into a folder's settings by hand is installed there.
    rmSync(join(dir, 'docs'), { recursive: true });
    rmSync(join(dir, 'services'), { recursive: true });
    rmSync(join(dir, 'web/.gemini'), { recursive: true });
    copyFileSync(join(dir, '.claude/settings.json'), join(dir, 'web/.claude/settings.json'));
    expect(await check()).toEqual({ code: 0, rows: [{ client: 'claude', file: 'web/.claude/settings.json', status: 'installed' }] });
  });
});

describe('agents guard check', () => {
  it('checks the staged diff: paths written and lines added, as text, JSON, GitHub annotations and SARIF', async () => {
    const dir = await repo();
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
    expect((await runAgents(['guard', 'check', '--staged'], { cwd: dir })).code).toBe(0);
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/prod.env'), 'X=1\n');
    writeFileSync(join(dir, 'config.ts'), 'const a = 1;\nconst key = "AKIAABCDEFGHIJKLMNOP";\n');
    writeFileSync(join(dir, 'ok.ts'), 'fine\n');
    git(dir, 'add', '-A');
    const text = await runAgents(['guard', 'check', '--staged'], { cwd: dir });
    expect(text.code).toBe(1);
    const json = JSON.parse((await runAgents(['--format', 'json', 'guard', 'check', '--staged'], { cwd: dir })).stdout);
    expect(json.diagnostics.map((d: { file: string; line: number; code: string }) => [d.code, d.file, d.line])).toEqual([
      ['guard-violation', 'config.ts', 2],
      ['guard-violation', 'secrets/prod.env', 0],
    ]);
    const gh = (await runAgents(['guard', 'check', '--staged', '--format', 'github'], { cwd: dir })).stdout;
    expect(gh).toContain('::error file=config.ts,line=2');
    const sarif = JSON.parse((await runAgents(['guard', 'check', '--staged', '--format', 'sarif'], { cwd: dir })).stdout);
    expect(sarif.runs[0].results).toHaveLength(2);
    git(dir, 'commit', '-qm', 'bad');
    expect((await runAgents(['guard', 'check', 'HEAD~1..HEAD'], { cwd: dir })).code).toBe(1);
    expect((await runAgents(['guard', 'check', 'nosuch..HEAD'], { cwd: dir })).code).toBe(2);
  });
});

describe('agents guard check, the index', () => {
  it("is checked against every changed file's project, not only the first file's", async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.agents/projects/web'), { recursive: true });
    writeFileSync(join(dir, '.agents/projects/web/project.yaml'), 'paths: ["services/web/**"]\n');
    const WEB = '01JGGEBWJTQ6P08NTXZQ7TKM5T';
    const file = join(dir, '.agents/projects/web', `${WEB}.yaml`);
    writeFileSync(file, `id: ${WEB}\ntext: Web pages are generated\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
    // The index is built and kept by a check of a change in the app project alone.
    mkdirSync(join(dir, 'services/app'), { recursive: true });
    writeFileSync(join(dir, 'services/app/a.ts'), 'x\n');
    git(dir, 'add', 'services/app/a.ts');
    expect((await runAgents(['guard', 'check', '--staged'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, '.git/agents/guard-index.json'))).toBe(true);
    // Edited in place: the web project gains a guard; its folder is unchanged.
    writeFileSync(file, guardYaml(WEB, 'Web pages are generated', ['write: ["services/web/pages/**"]']));
    expect(await stagedFindings(dir, ['services/app/a.ts', 'services/web/pages/index.html'])).toEqual([
      ['guard-violation', 'services/web/pages/index.html'],
    ]);
  });
});

describe('agents guard check, the stamps taken while git diffs', () => {
  it('answer from the kept index while nothing changed, and see a global guard or a project.yaml edited in place', async () => {
    const dir = await repo();
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
    expect(await stagedFindings(dir, ['docs/a.md'])).toEqual([]);
    const index = join(dir, '.git/agents/guard-index.json');
    const kept = readFileSync(index, 'utf8');
    expect(await stagedFindings(dir, ['docs/a.md'])).toEqual([]);
    expect(readFileSync(index, 'utf8')).toBe(kept);
    // The global folder is unchanged by an edit in place: the file's own stamp tells.
    const file = join(dir, '.agents/global', `${INV}.yaml`);
    const folder = statSync(dirname(file)).ctimeMs;
    writeFileSync(file, guardYaml(INV, 'Agents never touch secrets', ['write: ["secrets/**", "docs/**"]']));
    expect(statSync(dirname(file)).ctimeMs).toBe(folder);
    expect(await stagedFindings(dir, ['docs/a.md'])).toEqual([['guard-violation', 'docs/a.md']]);
    git(dir, 'rm', '-q', '--cached', 'docs/a.md');
    // A project.yaml edited in place moves a file into the project that guards it.
    const APP = '01JGGEBWJTQ6P08NTXZQ7TKM6V';
    writeFileSync(join(dir, '.agents/projects/app', `${APP}.yaml`), guardYaml(APP, 'Tools are generated', ['write: ["tools/gen/**"]']));
    expect(await stagedFindings(dir, ['tools/gen/a.ts'])).toEqual([]);
    writeFileSync(join(dir, '.agents/projects/app/project.yaml'), 'paths: ["services/app/**", "tools/**"]\n');
    expect(await stagedFindings(dir, ['tools/gen/a.ts'])).toEqual([['guard-violation', 'tools/gen/a.ts']]);
  });
});

describe('validate', () => {
  it('reports a guard pattern that does not compile, at the guard key (exit 1)', async () => {
    const dir = await repo();
    writeFileSync(
      join(dir, '.agents/global', `${INV2}.yaml`),
      guardYaml(INV2, 'Bad pattern', ['command: ["(?=lookahead)"]', 'write: ["/abs/**"]']),
    );
    const r = await runAgents(['--format', 'json', 'validate'], { cwd: dir });
    expect(r.code).toBe(1);
    const found = JSON.parse(r.stdout).diagnostics.filter((d: { code: string }) => d.code === 'guard-invalid');
    expect(found).toHaveLength(2);
    expect(found.map((d: { file: string; line: number }) => [d.file, d.line])).toEqual([
      [`global/${INV2}.yaml`, 5],
      [`global/${INV2}.yaml`, 6],
    ]);
  });
});

describe('invariant add and edit', () => {
  it('write a guard from --guard-* flags, replace a list, remove it; a bad pattern writes nothing', async () => {
    const dir = await repo();
    const add = await runAgents(
      [
        '--format',
        'json',
        'invariant',
        'add',
        '--global',
        'No lock files by hand',
        '--guard-write',
        '**/*.lock',
        '--guard-command',
        '^npm i',
      ],
      { cwd: dir },
    );
    expect(add.code, add.stderr).toBe(0);
    const id = JSON.parse(add.stdout).id as string;
    expect(JSON.parse(add.stdout).guard).toEqual({ write: ['**/*.lock'], command: ['^npm i'] });
    expect((await runAgents(['guard', 'try', '--path', 'a/yarn.lock'], { cwd: dir })).code).toBe(1);
    const edit = await runAgents(['--format', 'json', 'invariant', 'edit', id, '--guard-write', '**/package-lock.json'], { cwd: dir });
    expect(edit.code, edit.stderr).toBe(0);
    const shown = JSON.parse((await runAgents(['--format', 'json', 'invariant', 'show', id], { cwd: dir })).stdout);
    expect(JSON.stringify(shown)).toContain('"guard":{"write":["**/package-lock.json"],"command":["^npm i"]}');
    expect((await runAgents(['guard', 'try', '--path', 'a/yarn.lock'], { cwd: dir })).code).toBe(0);
    expect((await runAgents(['invariant', 'edit', id, '--clear-guard'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, '.agents/global', `${id}.yaml`), 'utf8')).not.toContain('guard');
    const bad = await runAgents(['invariant', 'add', '--global', 'Bad one', '--guard-command', '(a'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(readdirSync(join(dir, '.agents/global'))).toHaveLength(3);
  });

  it("refuse a write glob that names a folder of the repository's files (secrets), which would guard nothing below it", async () => {
    const dir = await repo();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/k.pem'), 'k\n');
    const error = async (...args: string[]) => {
      const r = await runAgents(['--format', 'json', 'invariant', ...args], { cwd: dir });
      return [r.code, JSON.parse(r.stdout).error?.code, JSON.parse(r.stdout).error?.detail];
    };
    const refused = [2, 'guard-write-folder', { glob: 'secrets', suggestion: 'secrets/**' }];
    expect(await error('add', '--global', 'Never touch the keys', '--guard-write', 'secrets')).toEqual(refused);
    expect(await error('edit', INV, '--guard-write', '**/*.key', '--guard-write', 'secrets')).toEqual(refused);
    expect(readdirSync(join(dir, '.agents/global')).sort()).toEqual(['.gitkeep', `${INV}.yaml`]);
    expect(readFileSync(join(dir, '.agents/global', `${INV}.yaml`), 'utf8')).toContain('secrets/**');
    // A pattern that matches folders alone names folders, each it matches, and says so: not "a folder".
    const wild = await runAgents(['--format', 'json', 'invariant', 'add', '--global', 'Never touch the keys', '--guard-write', 'secr*'], {
      cwd: dir,
    });
    expect([wild.code, JSON.parse(wild.stdout).error.code]).toEqual([2, 'guard-write-folder']);
    expect(JSON.parse(wild.stdout).error.message).toMatch(/ names folders .* below them$/);
    // The glob the refusal offers is taken, and denies the file below the folder.
    // A folder git ignores, whose files it lists none of, is named by a glob all the same.
    mkdirSync(join(dir, 'vault'));
    writeFileSync(join(dir, 'vault/k.pem'), 'k\n');
    writeFileSync(join(dir, '.gitignore'), 'vault/\n');
    expect(await error('add', '--global', 'Never touch the vault', '--guard-write', 'vault')).toEqual([
      2,
      'guard-write-folder',
      { glob: 'vault', suggestion: 'vault/**' },
    ]);
    expect((await error('add', '--global', 'Never touch the keys', '--guard-write', 'secrets/**'))[0]).toBe(0);
    expect((await runAgents(['guard', 'try', '--path', 'secrets/k.pem'], { cwd: dir })).code).toBe(1);
    const report = JSON.parse((await runAgents(['--format', 'json', 'validate'], { cwd: dir })).stdout);
    expect(report.diagnostics.filter((d: { code: string }) => d.code === 'guard-write-folder')).toEqual([]);
    writeFileSync(join(dir, '.agents/global', `${INV2}.yaml`), guardYaml(INV2, 'Keep the vault', ['write: [vault, "**/*.pem"]']));
    const warned = JSON.parse((await runAgents(['--format', 'json', 'validate'], { cwd: dir })).stdout);
    expect(
      warned.diagnostics.filter((d: { code: string }) => d.code === 'guard-write-folder').map((d: { file: string }) => d.file),
    ).toEqual([`global/${INV2}.yaml`]);
    // Where git ignores case the guard matches Secrets as secrets, a file only: the folder is named in any case.
    git(dir, 'config', 'core.ignorecase', 'true');
    expect(await error('add', '--global', 'Never touch the keys', '--guard-write', 'Secrets')).toEqual([
      2,
      'guard-write-folder',
      { glob: 'Secrets', suggestion: 'Secrets/**' },
    ]);
    expect((await runAgents(['guard', 'try', '--path', 'SECRETS/k.pem'], { cwd: dir })).code).toBe(1);
  });
});
