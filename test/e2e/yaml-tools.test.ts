import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseCanonicalYaml } from '../../src/core/canonical-yaml.ts';
import { REPO } from '../helpers/cli.ts';
import { useExampleActor } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';
import { gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

const LONG =
  'Never delete production data without a reviewed backup plan, a second approver and a rollback path that was tested this week; see: the runbook # data-safety, "quoted" and it\'s naïve 日本語 😀';
const AUTHOR = 'Maximiliane Theodora Wilhelmina von Hohenzollern-Sigmaringen und Weißenfels';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(dir, f))
    .sort();
}

/** Runs the CLI in the repository, failing the test with its output when it fails. */
async function run(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await runAgents(args, { cwd, env: { GIT_AUTHOR_NAME: AUTHOR, ...env } });
  expect(r.code, `agents ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

describe('files the tool writes, under the YAML tools repositories run', () => {
  it('pass yamllint (default rules) and prettier --check, for a store written by every writing command', async () => {
    const repo = tempDir();
    gitInit(repo);
    await run(repo, ['init']);
    const store = join(repo, '.agents');
    await run(repo, ['project', 'add', 'myapp']);
    await run(repo, ['action', 'add', 'local/deploy', '--description', LONG]);
    const id = async (args: string[]) => (JSON.parse(await run(repo, [...args, '--format', 'json'])) as { id: string }).id;
    const inv = await id(['invariant', 'add', '--global', '--rationale', LONG, '--tag', 'data', LONG]);
    const template = await id(['invariant', 'add', '--action', 'local/deploy', '--rationale', LONG, `Template: ${LONG}`]);
    const other = await id(['invariant', 'add', '--project', 'myapp', `Project: ${LONG}`]);
    await run(repo, ['invariant', 'edit', inv, '--text', `Edited: ${LONG}`, '--rationale', `Edited: ${LONG}`, '--severity', 'warning']);
    await run(repo, ['invariant', 'move', other, '--global']);
    const plan = JSON.parse(
      await run(repo, ['plan', 'use', 'local/deploy', '--project', 'myapp', '--goal', `Goal: ${LONG}`, '--format', 'json']),
    ) as { id?: string; plan?: { id: string } };
    const planId = plan.id ?? plan.plan!.id;
    const violation = await id(['invariant', 'violation', 'add', '--plan', planId, '--invariant', inv, '--details', `Details: ${LONG}`]);
    await run(repo, ['invariant', 'violation', 'resolve', violation, '--note', `Note: ${LONG}`]);
    await run(repo, [
      'invariant',
      'waive',
      inv,
      '--plan',
      planId,
      '--reason',
      `Reason: ${LONG}`,
      '--owner',
      AUTHOR,
      '--expires',
      '2099-01-01',
    ]);
    await run(repo, ['invariant', 'edit', template, '--text', `Template, changed: ${LONG}`]);
    await run(repo, ['plan', 'sync', planId, '--yes']);
    useExampleActor(store);
    await run(repo, ['plan', 'strategize', planId]);
    // export writes Markdown (no YAML file); run it so a YAML file it might write would be checked too.
    await run(repo, ['export', '--target', 'agents-md', '--target', 'cursor']);

    const files = yamlFiles(repo).filter((f) => !f.includes('/.git/'));
    const kinds = new Set(files.map((f) => relative(store, f).replace(/[0-9A-Z]{26}/g, 'ID')));
    for (const kind of [
      'config.yaml',
      'global/ID.yaml',
      'actions/local/deploy/action.yaml',
      'actions/local/deploy/ID.yaml',
      'plans/ID/plan.yaml',
      'plans/ID/ID.yaml',
      'plans/ID/violations/ID.yaml',
      'plans/ID/waivers/ID.yaml',
      'plans/ID/decisions/ID.yaml',
      'plans/ID/enforcement/ID.yaml',
    ]) {
      expect([...kinds], [...kinds].join(' ')).toContain(kind);
    }
    // The long values really are in the files (so the width rule was put to the test).
    expect(files.some((f) => readFileSync(f, 'utf8').includes('created_by: >-'))).toBe(true);
    expect(files.some((f) => f.includes(`/plans/${planId}/`) && readFileSync(f, 'utf8').includes('Template, changed:'))).toBe(true);

    const lint = spawnSync('yamllint', ['-f', 'parsable', ...files], { encoding: 'utf8' });
    // Warnings (document-start: the files open with a schema modeline, not `---`) leave the exit status 0.
    expect(lint.stdout.split('\n').filter((l) => l.includes('[error]'))).toEqual([]);
    expect(lint.status, lint.stdout).toBe(0);
    // The fast reader reads every record the tool wrote (config.yaml, edited here by hand with a flow sequence, aside), as yaml does.
    for (const f of files.filter((f) => !f.endsWith('config.yaml'))) {
      const source = readFileSync(f, 'utf8');
      expect(parseCanonicalYaml(source), f).toStrictEqual(parse(source));
    }
    const prettier = spawnSync(join(REPO, 'node_modules/.bin/prettier'), ['--check', '--no-config', ...files], { encoding: 'utf8' });
    expect(prettier.status, prettier.stdout + prettier.stderr).toBe(0);
  });
});
