import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitAll, GIT_ENV, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

const WORKFLOW = fileURLToPath(new URL('../../docs/github-workflow.yml', import.meta.url));

type Step = { name?: string; run?: string };

/** The shell of one step of docs/github-workflow.yml, run in `dir` with an `npx` that only records what it was asked. */
function runStep(dir: string, name: string): string[] {
  const steps = (parse(readFileSync(WORKFLOW, 'utf8')) as { jobs: { review: { steps: Step[] } } }).jobs.review.steps;
  const step = steps.find((s) => s.name === name)!;
  const bin = join(dir, '.bin');
  const log = join(bin, 'calls');
  rmSync(log, { force: true });
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$*" >> '${log}'\n`);
  chmodSync(join(bin, 'npx'), 0o755);
  const r = spawnSync('bash', ['-e', '-c', step.run!], {
    cwd: dir,
    env: { ...process.env, ...GIT_ENV, PATH: `${bin}:${process.env.PATH}` },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  try {
    return readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    return [];
  }
}

describe('docs/github-workflow.yml: fetching the policy sources', () => {
  it("fetches each side's pins where that side has a lock: a pull request dropping extends still fetches the base's", () => {
    const dir = tempDir('agents-workflow-');
    gitInit(dir);
    mkdirSync(join(dir, '.bin'));
    writeFileSync(join(dir, '.gitignore'), '.bin/\n');
    mkdirSync(join(dir, '.agents'));
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\n');
    commitAll(dir, 'no sources');
    writeFileSync(join(dir, '.agents/extends.lock.yaml'), 'version: 1\nsources: []\n');
    commitAll(dir, 'a lock');
    const name = 'Fetch the policy sources';
    expect(runStep(dir, name)).toEqual(['--yes -p agents-invariants agents extends fetch']);
    rmSync(join(dir, '.agents/extends.lock.yaml'));
    commitAll(dir, 'extends dropped');
    expect(runStep(dir, name)).toEqual(['--yes -p agents-invariants agents extends fetch --rev HEAD^1']);
    commitAll(dir, 'neither side');
    expect(runStep(dir, name)).toEqual([]);
  });
});
