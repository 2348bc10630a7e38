// The files a shell command writes, read from its text, judged by the write guards and the folders the hook keeps,
// through each client's shell tool (docs/guard.md, "Shell commands").
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { parseClientInput } from '../../src/core/guard-clients.ts';
import { GuardService } from '../../src/service/guard-service.ts';
import { MAX_FOLDER_FILES } from '../../src/service/guard-paths.ts';
import { runAgents } from '../helpers/main.ts';
import { guardedRepo } from '../helpers/guard.ts';

/** Each client's shell call, and whether its answer denies. */
const clients: Record<string, { input: (dir: string, command: string) => unknown; denied: (stdout: string) => boolean }> = {
  claude: {
    input: (dir, command) => ({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
    denied: (out) => JSON.parse(out).hookSpecificOutput.permissionDecision === 'deny',
  },
  codex: {
    // Codex CLI's shell tool takes an argv.
    input: (dir, command) => ({
      session_id: 's',
      turn_id: 't',
      cwd: dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'shell',
      tool_input: { command: ['bash', '-lc', command] },
    }),
    denied: (out) => JSON.parse(out).hookSpecificOutput.permissionDecision === 'deny',
  },
  gemini: {
    input: (dir, command) => ({
      session_id: 's',
      cwd: dir,
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command },
    }),
    denied: (out) => JSON.parse(out).decision === 'deny',
  },
  cursor: {
    input: (dir, command) => ({ conversation_id: 'c', workspace_roots: [dir], hook_event_name: 'beforeShellExecution', command, cwd: dir }),
    denied: (out) => JSON.parse(out).permission === 'deny',
  },
};

describe('agents guard hook, a shell command that writes a file', () => {
  it('denies a guarded file or a kept folder written by a redirection, tee, cp, mv, rm, sed -i, dd, eval, bash -c, $(…), a patch file or an archive, from every client', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/k.pem'), 'k\n');
    writeFileSync(join(dir, 'notes.md'), 'n\n');
    // A patch file and an archive on disk, each naming the guarded file: the hook reads them.
    writeFileSync(join(dir, 'fix.diff'), '--- a/secrets/k.pem\n+++ b/secrets/k.pem\n@@ -1 +1 @@\n-k\n+x\n');
    execFileSync('tar', ['-czf', join(dir, 'a.tgz'), '-C', dir, 'secrets/k.pem']);
    writeFileSync(join(dir, 'fix.sh'), "sed -i 's/k/x/' secrets/k.pem\n");
    const commands = [
      'echo x > secrets/k.pem',
      'cat notes.md | tee -a secrets/k.pem',
      'cp notes.md secrets/',
      'mv secrets/k.pem notes.md',
      'rm -rf secrets',
      "sed -i 's/k/x/' secrets/k.pem",
      'dd if=notes.md of=secrets/k.pem',
      'eval \'echo x >sec""rets/k.pem\'',
      `bash -c 'install notes.md secrets/n'`,
      'echo "$(touch secrets/new)"',
      "cat > secrets/k.pem <<'EOF'\nx\nEOF",
      'cd secrets && echo x > k.pem',
      'ln -s secrets lnk && echo x > lnk/k.pem',
      'for f in a; do curl -o secrets/k.pem https://example.com; done',
      'echo x > .git/agents/active-plan',
      'git restore secrets',
      'git checkout HEAD -- secrets/k.pem',
      'patch -p1 secrets/k.pem fix.diff',
      'npx prettier --write secrets/k.pem',
      "git apply <<'EOF'\n--- a/secrets/k.pem\n+++ b/secrets/k.pem\n@@ -1 +1 @@\n-k\n+x\nEOF",
      'git apply fix.diff',
      'patch -p1 < fix.diff',
      'tar xzf a.tgz',
      'gunzip secrets/k.pem.gz',
      'curl -so new.tgz https://example.com/new.tgz && tar xzf new.tgz -C secrets',
      'F=secrets/k.pem; echo x > "$F"',
      'for f in notes.md secrets/k.pem; do sed -i s/k/x/ "$f"; done',
      'echo secrets/k.pem | xargs rm',
      `python3 -c "open('secrets/k.pem', 'w').write('x')"`,
      "python3 - <<'EOF'\np = 'secrets/k.pem'\nopen(p, 'a').write('x')\nEOF",
      `node -e "require('fs').writeFileSync('secrets/k.pem', 'x')"`,
      'bash fix.sh',
    ];
    for (const [client, { input, denied }] of Object.entries(clients))
      for (const command of commands) {
        const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(input(dir, command)) });
        expect([r.code, r.stdout !== '' && denied(r.stdout)], `${client}: ${command}`).toEqual([0, true]);
      }
    // What writes elsewhere, or only names the folder in its text, says nothing.
    for (const command of [
      'echo x > notes.md',
      'rm -rf build',
      'echo "> secrets/k.pem"',
      'git commit -m "rm -rf secrets"',
      'ls secrets 2>/dev/null',
      'git restore --staged secrets',
      'git checkout main',
      'npx prettier --check secrets/k.pem',
      'git apply --check fix.diff',
      'tar -tzf a.tgz',
      'tar -xzf a.tgz -C build',
      'curl -so new.tgz https://example.com/new.tgz && tar xzf new.tgz -C build',
      `python3 -c "print(open('secrets/k.pem').read())"`,
    ]) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(clients.claude!.input(dir, command)) });
      expect([r.code, r.stdout], command).toEqual([0, '']);
    }
    // guard try judges a command as the hook does.
    expect((await runAgents(['guard', 'try', '--command', 'cp notes.md secrets/'], { cwd: dir })).code).toBe(1);
  });
});

describe('agents guard hook, a package manager that changes its package', () => {
  it('denies a guarded manifest written by npm install or yarn add from every client, where the package is; lets npm test by', async () => {
    const dir = await guardedRepo({ write: ['package.json'] });
    writeFileSync(join(dir, 'package.json'), '{}\n');
    mkdirSync(join(dir, 'src'));
    for (const [client, { input, denied }] of Object.entries(clients))
      for (const command of ['npm install left-pad', 'cd src && yarn add left-pad']) {
        const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(input(dir, command)) });
        expect([r.code, r.stdout !== '' && denied(r.stdout)], `${client}: ${command}`).toEqual([0, true]);
      }
    for (const command of ['npm test', 'npm run build', 'npm ci']) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(clients.claude!.input(dir, command)) });
      expect([r.code, r.stdout], command).toEqual([0, '']);
    }
  });
});

describe('a tool given a command beside the folders it moves or deletes itself', () => {
  it("judges both, and refuses a large folder the tool names though its command names it too; the command's alone by its name", async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/k.pem'), 'k\n');
    mkdirSync(join(dir, 'big'));
    for (let i = 0; i <= MAX_FOLDER_FILES; i++) writeFileSync(join(dir, 'big', `f${i}`), '');
    const service = new GuardService(join(dir, '.agents'), {});
    const action = (tool: string, toolInput: unknown) =>
      service.toAction(
        parseClientInput(
          JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput }),
        ),
      );
    // The command's own move of secrets/ is judged beside the tool's move, not replaced by it.
    expect(action('mcp__fs__move_file', { source: 'a', destination: 'b', command: 'mv secrets pub' }).files).toContain('secrets/k.pem');
    expect(action('mcp__fs__delete_file', { path: 'a', command: 'rm -rf secrets' }).files).toContain('secrets/k.pem');
    // A folder of more files than are judged, named by the tool itself, is refused, as without the command.
    expect(() => action('mcp__fs__move_file', { source: 'big', destination: 'pub', command: 'rm -rf big' })).toThrow(UsageError);
    expect(() => action('mcp__fs__delete_file', { path: 'big', command: 'rm -rf big' })).toThrow(UsageError);
    // Named by a shell command's text alone, it is judged by its name.
    expect(action('Bash', { command: 'rm -rf big' }).files).toEqual(['big']);
    expect(action('mcp__fs__move_file', { source: 'a', destination: 'b', command: 'rm -rf big' }).files).toContain('big');
  });
});
