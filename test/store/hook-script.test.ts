import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
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
    });
  }
});
