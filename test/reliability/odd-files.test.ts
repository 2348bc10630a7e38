// Odd files in a repository (a file where a folder goes, names that are not UTF-8, special files, links), and two
// writers at once: every reader says the same of each, and nothing is written or removed on a misreading.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, monorepo } from '../export/repo.ts';
import { agentsAsync } from '../helpers/cli.ts';
import { commitAll, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

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

/** `name` made a folder below `dir` by its bytes, with an AGENTS.md holding `text`; false where the file system takes only UTF-8 names. */
function bytesFolder(dir: string, name: Buffer, text: string): boolean {
  const folder = Buffer.concat([Buffer.from(`${dir}/`), name]);
  try {
    mkdirSync(folder, { recursive: true });
  } catch {
    return false;
  }
  writeFileSync(Buffer.concat([folder, Buffer.from('/AGENTS.md')]), text);
  return true;
}

/** The names of `dir`'s entries as bytes, in hex: what is on disk, mangled names too. */
const namesIn = (dir: string) =>
  readdirSync(dir, { encoding: 'buffer' })
    .map((n) => n.toString('hex'))
    .sort();

describe('a nested AGENTS.md in a folder whose name is not UTF-8', () => {
  const web = Buffer.from([0x77, 0x65, 0x62, 0xff]);

  it('import skips it with that reason, not as a file deleted from the working tree', async () => {
    const repo = monorepo();
    if (!bytesFolder(join(repo, 'apps'), web, '# Web\n\n- Never ship untranslated copy\n')) return;
    const r = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: { file: string; skipped: string | null }[] }).files;
    const odd = files.filter((f) => f.file.includes('\uFFFD'));
    expect(odd).toHaveLength(1);
    expect(odd[0]!.skipped).toMatch(/not UTF-8/);
    expect(odd[0]!.skipped).not.toMatch(/deleted/);
  });

  it('export refuses to write into it (exit 2, name-not-utf8), and makes no folder of the mangled name', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/*/**\n');
    if (!bytesFolder(join(repo, 'apps'), web, '# Web\n')) return;
    const before = namesIn(join(repo, 'apps'));
    const r = await runAgents(['--format', 'json', 'export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'export-target-refused',
      detail: { path: 'apps/web\uFFFD/AGENTS.md', reason: 'name-not-utf8' },
    });
    expect(namesIn(join(repo, 'apps'))).toEqual(before);
    expect(readFileSync(Buffer.concat([Buffer.from(join(repo, 'apps/')), web, Buffer.from('/AGENTS.md')]), 'utf8')).toBe('# Web\n');
  });

  it("export refuses a block it wrote there once (it can clear it by no name), and leaves the owner's own file alone", async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    const block = readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8');
    if (!bytesFolder(repo, web, block)) return;
    commitAll(repo, 'exported');
    const r = await runAgents(['--format', 'json', 'export', '--check', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'export-target-refused', detail: { reason: 'name-not-utf8' } });
    bytesFolder(repo, web, '# Notes of my own\n');
    expect((await runAgents(['export', '--check', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
  });
});

describe('two imports at once that make the same project', () => {
  it('each ends 0; the project is made once and holds each rule once, with no temporary left', async () => {
    const repo = tempDir();
    gitInit(repo);
    writeTree(repo, {
      '.agents/config.yaml': 'version: 1\n',
      '.agents/global/.gitkeep': '',
      '.agents/projects/.gitkeep': '',
      'services/billing/AGENTS.md': '# Billing\n\n- Never charge a card twice\n- Always run the tests\n',
    });
    commitAll(repo, 'repo');
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        agentsAsync(['--format', 'json', 'import', 'services/billing/AGENTS.md', '--project', 'billing', '--yes'], { cwd: repo }),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(
      runs.filter((r) => (JSON.parse(r.stdout) as { written: { projects: string[] } }).written.projects.includes('billing')),
    ).toHaveLength(1);
    expect(readdirSync(join(repo, '.agents/projects')).sort()).toEqual(['.gitkeep', 'billing']);
    expect(readdirSync(join(repo, '.agents/projects/billing')).filter((n) => n !== 'project.yaml')).toHaveLength(2);
    expect((await runAgents(['validate'], { cwd: repo })).code).toBe(0);
  });
});
