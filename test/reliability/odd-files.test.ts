// Odd files in a repository (a file where a folder goes, names that are not UTF-8, special files, links), and two
// writers at once: every reader says the same of each, and nothing is written or removed on a misreading.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, monorepo } from '../export/repo.ts';
import { commitAll } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';

/** The codes and files of a refused run's diagnostics (its JSON error document). */
function refusedWith(stdout: string): string[] {
  const doc = JSON.parse(stdout) as { error: { detail: { diagnostics: { code: string; file: string; severity: string }[] } } };
  return doc.error.detail.diagnostics.map((d) => `${d.severity} ${d.code} ${d.file}`);
}

describe("a file at a project's place", () => {
  it('is an error of validate, export, which and the guard alike, and export removes none of the exported files', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    commitAll(repo, 'exported');
    // A bad merge, or a tool that wrote a file of the project's name: the folder is gone and a file stands there.
    renameSync(join(repo, '.agents/projects/web'), join(repo, 'web-folder'));
    writeFileSync(join(repo, '.agents/projects/web'), 'notes\n');
    rmSync(join(repo, 'web-folder'), { recursive: true });
    const before = snapshot(repo);
    const validate = await runAgents(['--format', 'json', 'validate'], { cwd: repo });
    expect(validate.code).toBe(1);
    const found = (JSON.parse(validate.stdout) as { diagnostics: { code: string; file: string; severity: string }[] }).diagnostics;
    expect(found.filter((d) => d.file === 'projects/web').map((d) => `${d.severity} ${d.code}`)).toEqual(['error unknown-path']);
    for (const args of [
      ['export', '--target', 'agents-md'],
      ['export', '--check', '--target', 'agents-md'],
      ['which', 'apps/web/index.ts'],
      ['guard', 'check'],
      ['invariant', 'list', '--effective', '--project', 'web'],
      ['project', 'list'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(3);
      expect(refusedWith(r.stdout), args.join(' ')).toContain('error unknown-path projects/web');
    }
    // Nothing removed: the project's exported files stay until the store says the project is gone.
    expect(snapshot(repo)).toEqual(before);
  });
});
