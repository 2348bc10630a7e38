import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preCommitScript } from '../../src/store/hooks.ts';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
/** How the README installs the package: from the repository at this version's tag (it is not on the npm registry). */
const install = `npm install --save-dev github:agents-invariants/agents#v${version}`;

// The hook's hint must install the package as the README does: `npm install -g agents` installs an unrelated
// package, and `npm install -g agents-invariants` nothing while the package is not on the npm registry.
describe('the pre-commit hook without an agents command', () => {
  for (const exportCheck of [false, true]) {
    it(`${exportCheck ? 'with' : 'without'} the export check: exits 1 and says to install the package as the README does`, () => {
      const dir = tempDir('agents-hook-');
      const hook = join(dir, 'pre-commit');
      writeFileSync(hook, preCommitScript(undefined, exportCheck));
      chmodSync(hook, 0o755);
      // A PATH with sh's own folder only: no agents command, no node_modules/.bin in this folder.
      let status = 0;
      let stderr = '';
      try {
        execFileSync('/bin/sh', [hook], { cwd: dir, env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        const e = error as { status: number; stderr: Buffer };
        status = e.status;
        stderr = e.stderr.toString();
      }
      expect(status).toBe(1);
      expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain(install);
      expect(stderr).toContain(install);
      expect(stderr).not.toMatch(/npm install -g agents/);
      // The hook to remove is the one that ran, wherever core.hooksPath put it, not always .git/hooks/pre-commit.
      expect(stderr).toContain(`remove ${hook}`);
    });
  }
});

describe('the pre-commit hook with two agents commands', () => {
  for (const exportCheck of [false, true]) {
    it(`${exportCheck ? 'with' : 'without'} the export check: runs the repository's node_modules/.bin/agents, not the one on PATH`, () => {
      const dir = tempDir('agents-hook-');
      const hook = join(dir, 'pre-commit');
      writeFileSync(hook, preCommitScript(undefined, exportCheck));
      chmodSync(hook, 0o755);
      const fake = (folder: string, name: string) => {
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'agents'), `#!/bin/sh\necho "${name} $*" >> "${join(dir, 'ran')}"\n`);
        chmodSync(join(folder, 'agents'), 0o755);
      };
      fake(join(dir, 'node_modules', '.bin'), 'pinned');
      fake(join(dir, 'global'), 'global');
      mkdirSync(join(dir, '.agents'));
      execFileSync('/bin/sh', [hook], { cwd: dir, env: { PATH: `${join(dir, 'global')}:/usr/bin:/bin` }, stdio: 'ignore' });
      const ran = readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n');
      expect(ran).toEqual(exportCheck ? ['pinned validate --staged', 'pinned export --check'] : ['pinned validate --staged']);
      // Where there is no store (a branch from before it), validate passes in silence and no export is checked.
      rmSync(join(dir, '.agents'), { recursive: true });
      rmSync(join(dir, 'ran'));
      execFileSync('/bin/sh', [hook], { cwd: dir, env: { PATH: `${join(dir, 'global')}:/usr/bin:/bin` }, stdio: 'ignore' });
      expect(readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n')).toEqual(['pinned validate --staged']);
      // With no copy in the repository, the one on PATH runs.
      rmSync(join(dir, 'node_modules'), { recursive: true });
      rmSync(join(dir, 'ran'));
      execFileSync('/bin/sh', [hook], { cwd: dir, env: { PATH: `${join(dir, 'global')}:/usr/bin:/bin` }, stdio: 'ignore' });
      expect(readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n')[0]).toBe('global validate --staged');
    });
  }
});

describe('the pre-commit hook of a store in a package of a monorepo', () => {
  for (const exportCheck of [false, true]) {
    it(`${exportCheck ? 'with' : 'without'} the export check: runs the copy nearest the store, then the top's, then PATH's`, () => {
      const dir = tempDir('agents-hook-');
      const hook = join(dir, 'pre-commit');
      writeFileSync(hook, preCommitScript("services/it's/.agents", exportCheck));
      chmodSync(hook, 0o755);
      const fake = (folder: string, name: string) => {
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'agents'), `#!/bin/sh\necho "${name} $1" >> "${join(dir, 'ran')}"\n`);
        chmodSync(join(folder, 'agents'), 0o755);
      };
      const run = () => {
        execFileSync('/bin/sh', [hook], { cwd: dir, env: { PATH: `${join(dir, 'global')}:/usr/bin:/bin` }, stdio: 'ignore' });
        const ran = readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n');
        rmSync(join(dir, 'ran'));
        return ran[0];
      };
      fake(join(dir, "services/it's/node_modules/.bin"), 'package');
      fake(join(dir, 'node_modules/.bin'), 'top');
      fake(join(dir, 'global'), 'global');
      expect(run()).toBe('package validate');
      rmSync(join(dir, "services/it's/node_modules"), { recursive: true });
      expect(run()).toBe('top validate');
      rmSync(join(dir, 'node_modules'), { recursive: true });
      expect(run()).toBe('global validate');
    });
  }
});

describe('the pre-commit hook of a store whose path starts with -', () => {
  it('names it ./-… so that validate and export --check do not read it as an option', () => {
    for (const exportCheck of [false, true]) {
      const script = preCommitScript('-policies', exportCheck);
      expect(script).toContain("--store './-policies'");
      expect(script).not.toContain("--store '-policies'");
    }
  });
});
