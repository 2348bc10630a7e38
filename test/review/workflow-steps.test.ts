import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitAll, GIT_ENV, gitInit } from '../helpers/git.ts';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

const WORKFLOW = fileURLToPath(new URL('../../docs/github-workflow.yml', import.meta.url));

type Step = { name?: string; run?: string };

/**
 * The shell of one step of docs/github-workflow.yml, run in `dir` with an `npx` that records what it was asked and,
 * with `real`, runs it with this build of agents (`npx --yes -p agents-invariants agents ARGS`).
 */
function runStep(dir: string, name: string, real = false): string[] {
  const steps = (parse(readFileSync(WORKFLOW, 'utf8')) as { jobs: { review: { steps: Step[] } } }).jobs.review.steps;
  const step = steps.find((s) => s.name === name)!;
  const bin = join(dir, '.bin');
  const log = join(bin, 'calls');
  rmSync(log, { force: true });
  const run = real ? `shift 4\nexec node '${join(REPO, 'bin/agents.js')}' "$@"\n` : '';
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$*" >> '${log}'\n${run}`);
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

describe('docs/github-workflow.yml: a pull request that removes the whole store', () => {
  it('passes every check, and the diff reports the store removed', () => {
    const dir = tempDir('agents-workflow-');
    gitInit(dir);
    mkdirSync(join(dir, '.bin'));
    writeFileSync(join(dir, '.gitignore'), '.bin/\n');
    mkdirSync(join(dir, '.agents/global'), { recursive: true });
    writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const id = '01JG1000000000000000000000';
    writeFileSync(
      join(dir, `.agents/global/${id}.yaml`),
      `id: ${id}\ntext: Never write secrets\nseverity: error\nactive: true\ncreated_at: 2026-01-01T00:00:00Z\ncreated_by: A <a@example.com>\nguard:\n  write: [secrets/**]\n`,
    );
    commitAll(dir, 'store');
    rmSync(join(dir, '.agents'), { recursive: true });
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets/key'), 'k\n');
    commitAll(dir, 'remove the store');
    // Each step fails the test unless its shell ends with exit 0 (runStep).
    expect(runStep(dir, 'Validate the store', true)).toEqual([]);
    for (const name of [
      'Exported instruction files are up to date',
      'Guards hold over the pull request',
      'Effective-set diff of this pull request',
    ])
      expect(runStep(dir, name, true)).toHaveLength(1);
    expect(readFileSync(join(dir, 'invariant-diff.md'), 'utf8')).toContain(`| removed | \`${id}\``);
  });
});
