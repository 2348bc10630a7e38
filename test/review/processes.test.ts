import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distMeta, ESM_AGENTS, traceLoads } from '../helpers/loads.ts';
import { agents } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';
import { Repo, ulid } from './repo.ts';

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/**
 * A `git` earlier on PATH that records each invocation's arguments, and the
 * object names asked of `cat-file`, then runs the real git.
 */
function gitSpy(): { env: Record<string, string>; calls: () => string[]; objects: () => string[] } {
  const dir = tempDir('agents-gitspy-');
  const log = join(dir, 'calls.log');
  const objects = join(dir, 'objects.log');
  writeFileSync(log, '');
  writeFileSync(objects, '');
  const shim = join(dir, 'git');
  writeFileSync(
    shim,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n` +
      `if [ "$1" = cat-file ]; then tee -a '${objects}' | '${REAL_GIT}' "$@"; exit $?; fi\n` +
      `exec '${REAL_GIT}' "$@"\n`,
  );
  chmodSync(shim, 0o755);
  const lines = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  return { env: { PATH: `${dir}:${process.env.PATH ?? ''}` }, calls: () => lines(log), objects: () => lines(objects) };
}

/** A repository whose second commit changes `n` invariant files in each of three scopes. */
function storeWith(n: number): Repo {
  const repo = new Repo();
  const id = (scope: string, i: number) => ulid(`${scope}${String(i).padStart(4, '0')}`);
  for (let i = 0; i < n; i++) {
    repo
      .inv('global', id('G', i), `Global rule ${i}`)
      .inv('projects/myapp', id('P', i), `Project rule ${i}`)
      .inv('projects/other', id('Q', i), `Other rule ${i}`);
  }
  repo.commit('one');
  for (let i = 0; i < n; i++) {
    repo
      .inv('global', id('G', i), `Global rule ${i}, edited`)
      .inv('projects/myapp', id('P', i), `Project rule ${i}, edited`)
      .inv('projects/other', id('Q', i), `Other rule ${i}, edited`);
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
  it('one cat-file --batch for both revisions, whatever the number of files', () => {
    const small = gitCallsOfDiff(2);
    const large = gitCallsOfDiff(60);
    expect(small.filter((c) => c === 'cat-file')).toHaveLength(1);
    expect(large.sort()).toEqual(small.sort());
    expect(large.length).toBeLessThanOrEqual(8);
  });
});

describe('the review commands start as few git processes as they need', () => {
  it('a diff against the working tree: one rev-parse names the top folder and HEAD, then one ls-tree and one cat-file', () => {
    const repo = storeWith(2);
    repo.inv('global', ulid('G0000'), 'Global rule 0, edited again');
    const spy = gitSpy();
    const r = agents(['invariant', 'diff', '--format', 'json'], { cwd: repo.dir, env: spy.env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { edited: number } }).summary.edited).toBe(1);
    expect(spy.calls().map((c) => c.split(' ')[0])).toEqual(['rev-parse', 'ls-tree', 'cat-file']);
  });

  it('before the first commit, the diff still answers (every file added) after the same first rev-parse', () => {
    const repo = new Repo();
    repo.inv('global', ulid('G0'), 'Never delete production data');
    const spy = gitSpy();
    const r = agents(['invariant', 'diff', '--format', 'json'], { cwd: repo.dir, env: spy.env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { added: number } }).summary.added).toBe(1);
    expect(spy.calls()[0]!.split(' ')[0]).toBe('rev-parse');
  });

  it("guard check A..B: the commit B names and its date come from one cat-file, which reads B's guards too", () => {
    const repo = storeWith(2);
    const spy = gitSpy();
    const r = agents(['guard', 'check', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo.dir, env: spy.env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      spy
        .calls()
        .filter((c) => !c.startsWith('cat-file'))
        .map((c) => c.split(' ').find((w) => !/^-|=/.test(w))),
    ).toEqual(['diff', 'ls-tree', 'config']);
    expect(spy.objects()).toContain('HEAD^{commit}');
  });

  it('a log: one rev-parse names the top folder and whether the clone is shallow, then one log and one cat-file', () => {
    const repo = storeWith(2);
    const spy = gitSpy();
    const r = agents(['invariant', 'log', ulid('G0000'), '--format', 'json'], { cwd: repo.dir, env: spy.env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { shallow: boolean; events: unknown[] };
    expect(out.shallow).toBe(false);
    expect(out.events).toHaveLength(2);
    expect(spy.calls().map((c) => c.split(' ')[0])).toEqual(['rev-parse', 'log', 'cat-file']);
  });
});

/**
 * A store of `unrelated` projects of three invariants each besides myapp,
 * with plans for myapp and for the first unrelated project; the second
 * commit edits one of myapp's invariants.
 */
function storeWithUnrelated(unrelated: number): Repo {
  const repo = new Repo();
  repo
    .inv('global', ulid('G0'), 'Never delete production data')
    .inv('global', ulid('G1'), 'Log all changes')
    .inv('projects/myapp', ulid('P0'), 'All API changes need tests')
    .inv('projects/myapp', ulid('P1'), 'Keep the changelog current')
    .plan(ulid('XA'), 'myapp')
    .inv(`plans/${ulid('XA')}`, ulid('XA1'), 'Use Python 3.13 only')
    .plan(ulid('XB'), 'other-0')
    .inv(`plans/${ulid('XB')}`, ulid('XB1'), 'Use Go only');
  for (let i = 0; i < unrelated; i++) {
    for (let k = 0; k < 3; k++) repo.inv(`projects/other-${i}`, ulid(`Q${String(i).padStart(3, '0')}${k}`), `Other rule ${i}.${k}`);
  }
  repo.commit('one');
  repo.inv('projects/myapp', ulid('P0'), 'All API changes need tests, edited');
  repo.commit('two');
  return repo;
}

function diffReads(unrelated: number): { calls: string[]; objects: Set<string>; asked: number; needed: string[]; others: string[] } {
  const repo = storeWithUnrelated(unrelated);
  const spy = gitSpy();
  const r = agents(['invariant', 'diff', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo.dir, env: spy.env });
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as { summary: { edited: number }; targets: { project: string | null; plan: string | null }[] };
  expect(out.summary.edited).toBe(1);
  expect(out.targets.map((t) => t.project ?? t.plan)).toEqual(['myapp', ulid('XA')]);
  const blobs = (rev: string, path: string) =>
    repo
      .git('ls-tree', '-r', rev, '--', path)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(/\s+/)[2]!);
  // Both versions of the edited file, myapp's other invariant, global's two, both plan.yaml files,
  // and the invariant of the plan that targets myapp.
  const needed = [
    ...blobs('HEAD~1', `.agents/projects/myapp/${ulid('P0')}.yaml`),
    ...blobs('HEAD', '.agents/projects/myapp'),
    ...blobs('HEAD', '.agents/global'),
    ...blobs('HEAD', '.agents/plans'),
  ].filter((sha) => !blobs('HEAD', `.agents/plans/${ulid('XB')}/${ulid('XB1')}.yaml`).includes(sha));
  const others = Array.from({ length: unrelated }, (_, i) => blobs('HEAD', `.agents/projects/other-${i}`)).flat();
  const asked = spy.objects();
  return { calls: spy.calls().map((c) => c.split(' ')[0]!), objects: new Set(asked), asked: asked.length, needed, others };
}

describe('a diff between revisions reads what changed and what the changed targets need, not the whole tree', () => {
  it('asks git for the same number of objects whatever the number of unrelated projects, and for none of their files', () => {
    const few = diffReads(2);
    const many = diffReads(40);
    for (const run of [few, many]) {
      expect(run.needed).toHaveLength(8);
      for (const sha of run.needed) expect(run.objects.has(sha), sha).toBe(true);
      expect(run.others.length).toBeGreaterThan(0);
      for (const sha of run.others) expect(run.objects.has(sha), sha).toBe(false);
    }
    // Blobs and the trees of the folders walked: a fixed count, though the projects folder grows.
    expect(many.asked).toBe(few.asked);
    // The two start side by side: their order in the log is not fixed.
    expect(many.calls.sort()).toEqual(few.calls.sort());
    expect(many.calls).toEqual(['cat-file', 'rev-parse']);
  });
});

describe('a diff between revisions loads only what it uses', () => {
  it('neither simple-git nor the full YAML parser when every file is in the canonical shape', () => {
    const repo = storeWith(2);
    const r = traceLoads([ESM_AGENTS, 'invariant', 'diff', 'HEAD~1..HEAD'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const meta = distMeta();
    const inputs = r.dist.flatMap((f) => Object.keys(meta.outputs[f]?.inputs ?? {}));
    expect(inputs).toContain('src/service/review-service.ts');
    expect(inputs.filter((i) => i.includes('node_modules/simple-git/') || i.includes('node_modules/yaml/'))).toEqual([]);
  });
});
