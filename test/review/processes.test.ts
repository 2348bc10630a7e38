import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agents } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';
import { Repo, ulid } from './repo.ts';

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A `git` earlier on PATH that records each invocation's arguments, then runs the real git. */
function gitSpy(): { env: Record<string, string>; calls: () => string[] } {
  const dir = tempDir('agents-gitspy-');
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const shim = join(dir, 'git');
  writeFileSync(shim, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${REAL_GIT}' "$@"\n`);
  chmodSync(shim, 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
    calls: () => readFileSync(log, 'utf8').split('\n').filter((l) => l !== ''),
  };
}

/** A repository whose second commit changes `n` invariant files in each of three scopes. */
function storeWith(n: number): Repo {
  const repo = new Repo();
  const id = (scope: string, i: number) => ulid(`${scope}${String(i).padStart(4, '0')}`);
  for (let i = 0; i < n; i++) {
    repo.inv('global', id('G', i), `Global rule ${i}`).inv('projects/myapp', id('P', i), `Project rule ${i}`).inv('projects/other', id('Q', i), `Other rule ${i}`);
  }
  repo.commit('one');
  for (let i = 0; i < n; i++) {
    repo.inv('global', id('G', i), `Global rule ${i}, edited`).inv('projects/myapp', id('P', i), `Project rule ${i}, edited`).inv('projects/other', id('Q', i), `Other rule ${i}, edited`);
  }
  repo.commit('two');
  return repo;
}

function gitCallsOfDiff(n: number): string[] {
  const repo = storeWith(n);
  const spy = gitSpy();
  const r = agents(['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo.dir, env: spy.env });
  expect(r.code).toBe(0);
  expect((JSON.parse(r.stdout) as { summary: { edited: number } }).summary.edited).toBe(3 * n);
  return spy.calls().map((c) => c.split(' ')[0]!);
}

describe('reading revisions costs a fixed number of git processes', () => {
  it('one cat-file --batch per revision, whatever the number of files', () => {
    const small = gitCallsOfDiff(2);
    const large = gitCallsOfDiff(60);
    expect(small.filter((c) => c === 'cat-file')).toHaveLength(2);
    expect(large.filter((c) => c === 'cat-file')).toHaveLength(2);
    expect(large).toEqual(small);
    expect(large.length).toBeLessThanOrEqual(8);
  });
});
