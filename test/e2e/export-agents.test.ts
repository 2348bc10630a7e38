/**
 * Exported instruction files read by the real agent clients (docs/export.md): Codex CLI reads at
 * most 32 KiB of the AGENTS.md files from the repository's top down to its folder, and leaves the
 * rest unread, unsaid, so an export that writes more warns.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCli } from '../helpers/agent-clis.ts';
import { runAgentClient } from '../helpers/agent-run.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { startModelServer } from '../helpers/model-server.ts';
import { tempDir } from '../helpers/tmp.ts';

/** An invariant of about 150 characters, the last of its scope marked. */
function invariant(folder: string, n: number, text: string): void {
  const id = `01JGGEBWJTQ6P08N${String(n).padStart(10, '0')}`;
  writeFileSync(
    join(folder, `${id}.yaml`),
    `id: ${id}\ntext: "${text} keeps the service's promise about${' its data'.repeat(10)}"\nseverity: error\n`,
  );
}

/** A repository with `global` global invariants and `billing` of project billing (services/billing/**). */
function repository(global: number, billing: number): { dir: string; home: string } {
  const root = tempDir('agents-export-e2e-');
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.agents/global'), { recursive: true });
  mkdirSync(join(dir, '.agents/projects/billing'), { recursive: true });
  mkdirSync(join(dir, 'services/billing'), { recursive: true });
  mkdirSync(home);
  gitInit(dir);
  writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
  writeFileSync(join(dir, '.agents/projects/billing/project.yaml'), 'paths:\n  - services/billing/**\n');
  for (let i = 0; i < global; i++)
    invariant(join(dir, '.agents/global'), i, i === global - 1 ? 'The last global invariant' : `Invariant ${i}`);
  for (let i = 0; i < billing; i++)
    invariant(join(dir, '.agents/projects/billing'), 5000 + i, i === billing - 1 ? 'The last billing invariant' : `Billing invariant ${i}`);
  return { dir, home };
}

describe('exported files in Codex CLI', { timeout: 600_000 }, () => {
  it.for([
    // Under the limit: everything is read, nothing said.
    { global: 20, billing: 0, cwd: '.', last: 'The last global invariant', read: true, warned: [] },
    // One file over it: its end is not read.
    { global: 400, billing: 0, cwd: '.', last: 'The last global invariant', read: false, warned: ['AGENTS.md'] },
    // Each file under it, the two together over it: the project's file, read last, is cut.
    {
      global: 180,
      billing: 40,
      cwd: 'services/billing',
      last: 'The last billing invariant',
      read: false,
      warned: ['AGENTS.md, services/billing/AGENTS.md'],
    },
  ])(
    '$global global and $billing billing invariants, Codex in $cwd: reads "$last": $read',
    async ({ global, billing, cwd, last, read, warned }) => {
      const bin = await agentCli('codex');
      const { dir, home } = repository(global, billing);
      const exported = await runAgents(['export'], { cwd: dir });
      expect(exported.code).toBe(0);
      const warnings = exported.stderr
        .split('\n')
        .filter((l) => l.includes('AGENTS.md') && l.includes('bytes'))
        .map((l) => /^agents: warning: (.*?) (is|are) \d+ bytes/.exec(l)?.[1]);
      expect(warnings).toEqual(warned);
      const server = await startModelServer(() => ({ text: 'done' }));
      try {
        const env = { PATH: process.env.PATH ?? '', HOME: home, ...GIT_ENV };
        const r = await runAgentClient('codex', bin, join(dir, cwd), env, home, server.url);
        expect(r.code, r.stderr.slice(-2000)).toBe(0);
        const prompt = server.generations()[0]!.text;
        expect(prompt).toContain('Invariant 0 keeps');
        expect(prompt.includes(last)).toBe(read);
      } finally {
        await server.close();
      }
    },
  );
});
