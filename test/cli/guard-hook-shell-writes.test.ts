// The files a shell command writes, read from its text, judged by the write guards and the folders the hook keeps,
// through each client's shell tool (docs/guard.md, "Shell commands").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  it('denies a guarded file or a kept folder written by a redirection, tee, cp, mv, rm, sed -i, dd, eval, bash -c or $(…), from every client', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/k.pem'), 'k\n');
    writeFileSync(join(dir, 'notes.md'), 'n\n');
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
    ]) {
      const r = await runAgents(['guard', 'hook'], { cwd: dir, input: JSON.stringify(clients.claude!.input(dir, command)) });
      expect([r.code, r.stdout], command).toEqual([0, '']);
    }
    // guard try judges a command as the hook does.
    expect((await runAgents(['guard', 'try', '--command', 'cp notes.md secrets/'], { cwd: dir })).code).toBe(1);
  });
});
