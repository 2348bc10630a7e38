// `agents export --dry-run` prints a diff `git apply` takes (docs/export.md), CRLF files included.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { monorepo } from './repo.ts';

describe('agents export --dry-run, a CRLF file', () => {
  it("keeps the file's carriage returns in the diff, so that git apply gives what the export writes", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), 'intro\r\nmore\r\n');
    const r = await runAgents(['export', '--dry-run', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' intro\r\n');
    expect(r.stdout).not.toContain('\\r');
    writeFileSync(join(repo, 'change.diff'), r.stdout);
    const apply = spawnSync('git', ['apply', 'change.diff'], { cwd: repo, encoding: 'utf8' });
    expect(apply.stderr).toBe('');
    const applied = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    writeFileSync(join(repo, 'AGENTS.md'), 'intro\r\nmore\r\n');
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    expect(applied).toBe(readFileSync(join(repo, 'AGENTS.md'), 'utf8'));
    expect(applied.startsWith('intro\r\nmore\r\n\r\n<!-- agents:begin')).toBe(true);
  });

  it("keeps a byte order mark at the file's start raw in the diff, so that git apply finds the line", async () => {
    const repo = monorepo();
    const mine = '\ufeffMy notes\n\n';
    writeFileSync(join(repo, 'AGENTS.md'), mine);
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    const exported = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  severities: [error]\n');
    const r = await runAgents(['export', '--dry-run', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' \ufeffMy notes\n');
    writeFileSync(join(repo, 'change.diff'), r.stdout);
    const apply = spawnSync('git', ['apply', 'change.diff'], { cwd: repo, encoding: 'utf8' });
    expect(apply.stderr).toBe('');
    const applied = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    expect(applied).not.toBe(exported);
    writeFileSync(join(repo, 'AGENTS.md'), exported);
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe(applied);
  });
});
