/**
 * Exported instruction files read by the real agent clients (docs/export.md): Codex CLI reads at
 * most 32 KiB of the AGENTS.md files and leaves the rest unread, unsaid, so an export that writes
 * more warns.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCli } from '../helpers/agent-clis.ts';
import { runAgentClient } from '../helpers/agent-run.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { startModelServer } from '../helpers/model-server.ts';
import { tempDir } from '../helpers/tmp.ts';

/** A repository whose store holds `count` global invariants of about 150 characters each, the last one marked. */
function repository(count: number): { dir: string; home: string } {
  const root = tempDir('agents-export-e2e-');
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.agents/global'), { recursive: true });
  mkdirSync(home);
  gitInit(dir);
  writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
  for (let i = 0; i < count; i++) {
    const id = `01JGGEBWJTQ6P08N${String(i).padStart(10, '0')}`;
    const text = `${i === count - 1 ? 'The last invariant: ' : ''}Invariant ${i} keeps the service's promise about ${'its data '.repeat(10)}`;
    writeFileSync(join(dir, '.agents/global', `${id}.yaml`), `id: ${id}\ntext: "${text.trim()}"\nseverity: error\n`);
  }
  return { dir, home };
}

describe('exported files in Codex CLI', { timeout: 600_000 }, () => {
  it.for([
    { count: 20, read: true },
    { count: 400, read: false },
  ])('$count invariants: Codex reads the last one: $read; export warns when it would not', async ({ count, read }) => {
    const bin = await agentCli('codex');
    const { dir, home } = repository(count);
    const exported = await runAgents(['export'], { cwd: dir });
    expect(exported.code).toBe(0);
    const warned = exported.stderr.split('\n').some((l) => l.startsWith('agents: warning: AGENTS.md is'));
    expect(warned).toBe(statSync(join(dir, 'AGENTS.md')).size > 32_768);
    expect(warned).toBe(!read);
    const server = await startModelServer(() => ({ text: 'done' }));
    try {
      const r = await runAgentClient('codex', bin, dir, { PATH: process.env.PATH ?? '', HOME: home, ...GIT_ENV }, home, server.url);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const prompt = server.generations()[0]!.text;
      expect(prompt).toContain('Invariant 0 keeps');
      expect(prompt.includes('The last invariant')).toBe(read);
    } finally {
      await server.close();
    }
  });
});
