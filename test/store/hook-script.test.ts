import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preCommitScript } from '../../src/store/hooks.ts';
import { tempDir } from '../helpers/tmp.ts';

// The hook's hint must name the package as published: `npm install -g agents` installs an unrelated package.
describe('the pre-commit hook without an agents command', () => {
  for (const exportCheck of [false, true]) {
    it(`${exportCheck ? 'with' : 'without'} the export check: exits 1 and names the npm package agents-invariants`, () => {
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
      expect(stderr).toContain('npm install -g agents-invariants');
      expect(stderr).not.toMatch(/npm install -g agents[^-]/);
    });
  }
});
