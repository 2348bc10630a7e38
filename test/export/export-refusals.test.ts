// What `agents export` says when it leaves files alone (docs/export.md, "The managed block"): what it did
// write, and a fix that fits each kind of refusal.
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvariantService, UsageError } from '../../src/index.ts';
import { ExportService } from '../../src/service/export-service.ts';
import { runAgents } from '../helpers/main.ts';
import { makeReadOnly } from '../helpers/read-only.ts';
import { gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';
import { G1, inv, monorepo, snapshot } from './repo.ts';

const TARGETS = ['--target', 'agents-md,claude-md'];

describe('agents export, a file left alone', () => {
  it('a project folder that is a repository of its own (a submodule): exit 2 other-repository, nothing written', async () => {
    const repo = monorepo();
    // What a submodule's folder holds: a .git file naming its git folder.
    writeFileSync(join(repo, 'packages/ui/.git'), 'gitdir: ../../.git/modules/ui\n');
    const before = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'export-target-refused',
      detail: { path: 'packages/ui/AGENTS.md', reason: 'other-repository' },
    });
    expect(snapshot(repo)).toEqual(before);
    // A folder above it, and one beside it, are this repository's: with the project's paths kept out, it exports.
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n');
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
  });

  it('a project path into a store kept elsewhere than .agents/ (--store config/agents): exit 2 at its file:line:col, nothing written', async () => {
    const repo = monorepo();
    mkdirSync(join(repo, 'config'));
    renameSync(join(repo, '.agents'), join(repo, 'config/agents'));
    writeFileSync(join(repo, 'config/agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n  - config/agents/**\n');
    const before = snapshot(repo);
    const r = await runAgents(['--store', 'config/agents', 'export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('projects/web/project.yaml:3:5:');
    expect(snapshot(repo)).toEqual(before);
    // Named through a link to it, the store is the same folder of the repository: the same refusal, at the same place.
    symlinkSync('config/agents', join(repo, 'st'));
    const linked = await runAgents(['--store', 'st', 'export', '--target', 'agents-md'], { cwd: repo });
    expect([linked.code, linked.stderr]).toEqual([2, expect.stringContaining('projects/web/project.yaml:3:5:')]);
  });

  it('says nothing was written only when nothing was', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', ...TARGETS], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'AGENTS.md'), readFileSync(join(repo, 'AGENTS.md'), 'utf8').replace('production', 'prod'));
    writeFileSync(join(repo, `.agents/global/${G1}.yaml`), inv(G1, 'Never delete customer data').replace('../../', '../'));
    const r = await runAgents(['export', ...TARGETS], { cwd: repo });
    expect(r.code).toBe(1);
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain('Never delete customer data');
    expect(r.stderr).not.toContain('Nothing was written');
    // Nothing else to write: then it is so.
    const again = await runAgents(['export', ...TARGETS], { cwd: repo });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Nothing was written');
  });

  it('--check: a damaged block is not sent to --force, and a rule file without a block is not "edited by hand"', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', ...TARGETS], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'AGENTS.md'), readFileSync(join(repo, 'AGENTS.md'), 'utf8').replace(/<!-- agents:end -->\n/, ''));
    const damaged = await runAgents(['export', '--check', ...TARGETS], { cwd: repo });
    expect(damaged.code).toBe(1);
    expect(damaged.stdout.trim()).toBe('AGENTS.md:1: damaged');
    expect(damaged.stderr).not.toMatch(/agents export [^`]*--force/);

    mkdirSync(join(repo, '.cursor/rules'), { recursive: true });
    writeFileSync(join(repo, '.cursor/rules/agents-global.mdc'), '---\ndescription: mine\nalwaysApply: true\n---\nmy rule\n');
    const snap = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--check', '--target', 'cursor'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).files).toContainEqual({
      path: '.cursor/rules/agents-global.mdc',
      status: 'no agents block',
      line: null,
      diff: null,
    });
    expect(r.stderr).not.toContain('outside the block');
    expect(snapshot(repo)).toEqual(snap);
  });

  it('a read-only target file: the hint names the file, not its folder', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'CLAUDE.md'), 'My notes\n');
    const file = join(repo, 'CLAUDE.md');
    const undo = makeReadOnly(file);
    if (undo === undefined) {
      console.log('skipped: cannot bind-mount here (needs mount)');
      return;
    }
    try {
      const r = await runAgents(['export', '--target', 'claude-md'], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\nhint: Make CLAUDE\.md writable/);
    } finally {
      undo();
    }
  });
});

describe("agents export, a path Copilot's applyTo cannot hold", () => {
  it('an alternation is written as globs of their own; a comma in a name is exit 2 at its file:line:col, nothing written', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/{web,admin}/**\n  - packages/ui/**\n');
    const ok = await runAgents(['export', '--target', 'copilot'], { cwd: repo });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(repo, '.github/instructions/agents-web.instructions.md'), 'utf8')).toContain(
      'applyTo: "apps/web/**,apps/admin/**,packages/ui/**"',
    );
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n  - "docs/a,b/**"\n');
    const snap = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--target', 'cursor,copilot'], { cwd: repo });
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe('path-not-expressible');
    expect(error.detail).toEqual({ target: 'copilot', project: 'web', index: 1, path: 'docs/a,b/**' });
    expect(error.message.startsWith('projects/web/project.yaml:3:5: ')).toBe(true);
    expect(snapshot(repo)).toEqual(snap);
  });

  it('a "/" inside {…}: exit 2 at its file:line:col, nothing written; validate calls it project-path-invalid', async () => {
    // Copilot's applyTo would spread it into two folders (and Cline's picomatch match both) while which, validate
    // and the guard read a segment "{apps" that matches no file: the rules would bind where nothing enforces them.
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - "{apps/web,packages/ui}/**"\n');
    const snap = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--target', 'copilot,cline,agents-md'], { cwd: repo });
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.message.startsWith('projects/web/project.yaml:2:5: ')).toBe(true);
    expect(snapshot(repo)).toEqual(snap);
    const v = await runAgents(['--format', 'json', 'validate'], { cwd: repo });
    expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('project-path-invalid');
  });

  /** web's second path `glob`: export to `targets` is exit 2 at its file:line:col, nothing written; validate and which refuse it alike. */
  async function refusedByEveryReader(glob: string, targets: string): Promise<string> {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), `paths:\n  - apps/web/**\n  - "${glob}"\n`);
    const snap = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--target', targets], { cwd: repo });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.message.startsWith('projects/web/project.yaml:3:5: ')).toBe(true);
    expect(snapshot(repo)).toEqual(snap);
    const v = await runAgents(['--format', 'json', 'validate'], { cwd: repo });
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('project-path-invalid');
    expect((await runAgents(['which', 'apps/web/x.ts'], { cwd: repo })).code).toBe(3);
    return repo;
  }

  it('a class whose range runs backwards ([a-Z]): exit 2 at its file:line:col, as validate and which say, never an internal error', async () => {
    await refusedByEveryReader('packages/[a-Z]*/**', 'agents-md,cline');
  });

  it('a POSIX class ([[:alpha:]]): refused alike by export, validate, which and the guard, as the matcher would read it otherwise', async () => {
    // The matcher reads "[[:alpha:]" and a literal "]" (apps/a]x matches, apps/a does not) while a target's reader
    // takes a class of letters: one route (globProblem) refuses it for every reader.
    const repo = await refusedByEveryReader('packages/[[:alpha:]]*/**', 'agents-md,cursor');
    expect((await runAgents(['guard', 'check', '--staged'], { cwd: repo })).code).toBe(3);
    const add = await runAgents(['--format', 'json', 'project', 'add', 'ui', '--path', 'ui/[[:digit:]]*'], { cwd: repo });
    expect(add.code).toBe(2);
  });
});

describe('agents export, a store kept at the top of the repository', () => {
  it("writes the top's AGENTS.md, which is no file of the store, and refuses none of the store's own", async () => {
    const top = tempDir();
    // The store first (init takes no folder holding something else), then the repository around it.
    const init = await runAgents(['--store', '.', 'init'], { cwd: top });
    expect(init.code, init.stderr).toBe(0);
    gitInit(top);
    writeFileSync(join(top, 'config.yaml'), `${readFileSync(join(top, 'config.yaml'), 'utf8')}export:\n  targets: [agents-md]\n`);
    expect((await runAgents(['--store', '.', 'invariant', 'add', '--global', 'Never delete production data'], { cwd: top })).code).toBe(0);
    const r = await runAgents(['--store', '.', 'export'], { cwd: top });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).toContain('Never delete production data');
    expect((await runAgents(['--store', '.', 'export', '--check'], { cwd: top })).code).toBe(0);
  });
});

describe("the library's refusal of a target names plan()'s targets, not the command line's --target", () => {
  it("no targets, a link in a target file's place, a file no longer UTF-8 at apply: the hint leaves out the flag; standalone takes one target", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\n');
    const exporter = new ExportService(new InvariantService(join(repo, '.agents')));
    const refused = async (run: () => unknown): Promise<UsageError> => {
      try {
        await run();
      } catch (error) {
        if (error instanceof UsageError) return error;
        throw error;
      }
      throw new Error('not refused');
    };
    const none = await refused(() => exporter.plan({}));
    expect([none.code, none.hint]).toEqual(['no-export-targets', expect.stringMatching(/^Give targets /)]);
    const plan = await exporter.plan({ targets: ['agents-md'] });
    writeFileSync(join(repo, 'AGENTS.md'), Buffer.from([0xff, 0x0a]));
    const changed = await refused(() => exporter.apply(plan));
    expect([changed.code, (changed.detail as { reason: string }).reason]).toEqual(['export-target-refused', 'not-utf8']);
    symlinkSync('README.md', join(repo, 'CLAUDE.md'));
    const before = snapshot(repo);
    const linked = await refused(() => exporter.plan({ targets: ['claude-md'] }));
    expect([linked.code, (linked.detail as { reason: string }).reason]).toEqual(['export-target-refused', 'symbolic-link']);
    for (const e of [changed, linked]) expect([e.hint?.includes('--'), e.hint]).toEqual([false, expect.stringContaining('out of targets')]);
    expect(snapshot(repo)).toEqual(before);
    // standalone returns one format: a comma list is refused, never read as the first of its targets.
    const two = await refused(() => exporter.standalone({ project: 'web' }, 'cursor,claude-md'));
    expect([two.code, two.detail]).toEqual(['usage', { field: 'target', targets: ['claude-md', 'cursor'] }]);
    expect(await exporter.standalone({ project: 'web' }, 'claude-md,claude-md')).toContain('Never ship UI copy without review');
    // A blank target is no target: config.yaml's export.targets, which standalone never reads, is not offered.
    const blank = await refused(() => exporter.standalone({ project: 'web' }, ' , '));
    expect([blank.code, blank.hint?.includes('export.targets')]).toEqual(['no-export-targets', false]);
    // The command line names its flag, as before.
    const cli = await runAgents(['--format', 'json', 'export', '--target', 'claude-md'], { cwd: repo });
    expect([cli.code, JSON.parse(cli.stdout).error.hint]).toEqual([2, expect.stringContaining('with --target')]);
  });
});
