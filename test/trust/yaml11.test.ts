// Files other tools read (issue 30, G): every file a writer leaves means the
// same to YAML 1.1 readers (PyYAML, js-yaml 3 under ajv-cli) as to the schema.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { yaml11Reads } from '../../src/core/yaml11.ts';
import { REPO } from '../helpers/cli.ts';
import { useExampleActor } from '../helpers/plans.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

/** Which schema each written file follows, by its store path with ids replaced. */
const SCHEMA: [RegExp, string][] = [
  [/^config\.yaml$/, 'config'],
  [/^extends\.lock\.yaml$/, 'extends-lock'],
  [/^projects\/[^/]+\/project\.yaml$/, 'project'],
  [/^actions\/[^/]+\/[^/]+\/action\.yaml$/, 'action'],
  [/^plans\/ID\/plan\.yaml$/, 'plan'],
  [/^plans\/ID\/violations\/ID\.yaml$/, 'violation'],
  [/^plans\/ID\/waivers\/ID\.yaml$/, 'waiver'],
  [/^plans\/ID\/decisions\/ID\.yaml$/, 'decision'],
  [/^plans\/ID\/enforcement\/ID\.yaml$/, 'enforcement'],
  [/^(global|plans\/ID|projects\/[^/]+|actions\/[^/]+\/[^/]+)\/ID\.yaml$/, 'invariant'],
];

async function run(cwd: string, args: string[]): Promise<string> {
  const r = await runAgents(args, { cwd });
  expect(r.code, `agents ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A store written by every writer, with values YAML 1.1 reads as booleans, dates, numbers and null. */
async function writtenStore(): Promise<{ repo: string; store: string }> {
  const dir = tempDir();
  // A policy source whose tag is a YAML 1.1 timestamp.
  const policy = join(dir, 'policy');
  mkdirSync(policy);
  gitInit(policy);
  writeTree(policy, { '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8G1.yaml': invariantYaml('01JDQ6X5Z8W4N3B2C1D0E9F8G1', 'Tag releases') });
  commitAll(policy, 'v');
  git(policy, 'tag', '2026-12-01');
  const repo = join(dir, 'app');
  mkdirSync(repo);
  gitInit(repo);
  await run(repo, ['init']);
  const store = join(repo, '.agents');
  await run(repo, ['project', 'add', 'no', '--description', 'yes']);
  await run(repo, ['action', 'add', 'on/off', '--description', '2026-01-01']);
  const id = async (args: string[]) => (JSON.parse(await run(repo, [...args, '--format', 'json'])) as { id: string }).id;
  const inv = await id(['invariant', 'add', '--global', '--rationale', '2026-01-01T10:00:00Z', '--tag', 'on', '--tag', '1_000', 'yes']);
  await id(['invariant', 'add', '--action', 'on/off', '--tag', '0777', 'off']);
  const other = await id(['invariant', 'add', '--project', 'no', '--tag', '1:20', 'No']);
  await run(repo, ['invariant', 'edit', inv, '--text', 'Yes', '--rationale', '~', '--severity', 'warning']);
  await run(repo, ['invariant', 'move', other, '--global']);
  const plan = JSON.parse(await run(repo, ['plan', 'use', 'on/off', '--project', 'no', '--goal', 'null', '--format', 'json'])) as {
    id?: string;
    plan?: { id: string };
  };
  const planId = plan.id ?? plan.plan!.id;
  const violation = await id(['invariant', 'violation', 'add', '--plan', planId, '--invariant', inv, '--details', '1.5']);
  await run(repo, ['invariant', 'violation', 'resolve', violation, '--note', 'y']);
  await run(repo, ['invariant', 'waive', inv, '--plan', planId, '--reason', 'NO', '--owner', 'true', '--expires', '2099-01-01']);
  useExampleActor(store);
  await run(repo, ['plan', 'strategize', planId]);
  writeFileSync(
    join(store, 'config.yaml'),
    `${readFileSync(join(store, 'config.yaml'), 'utf8')}extends:\n  - name: policy\n    url: ${policy}\n    ref: "2026-12-01"\n`,
  );
  await run(repo, ['extends', 'update']);
  return { repo, store };
}

function yamlFiles(store: string): string[] {
  return readdirSync(store, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

describe('written files under YAML 1.1 readers', () => {
  it('PyYAML reads every written file as the store does, and ajv-cli (js-yaml 3) validates each against its schema', async () => {
    const { store } = await writtenStore();
    const files = yamlFiles(store);
    const kinds = new Map<string, string[]>();
    for (const f of files) {
      const schema = SCHEMA.find(([re]) => re.test(f.replace(/[0-9A-Z]{26}/g, 'ID')))?.[1];
      expect(schema, f).toBeDefined();
      kinds.set(schema!, [...(kinds.get(schema!) ?? []), f]);
    }
    expect([...kinds.keys()].sort()).toEqual(
      ['action', 'config', 'decision', 'enforcement', 'extends-lock', 'invariant', 'plan', 'project', 'violation', 'waiver'].sort(),
    );
    // PyYAML (YAML 1.1): the same data as the store's own reader, for every file.
    const py = spawnSync(
      'python3',
      ['-c', 'import json, sys, yaml\nprint(json.dumps([yaml.safe_load(open(f, encoding="utf-8")) for f in sys.argv[1:]]))', ...files],
      { cwd: store, encoding: 'utf8' },
    );
    expect(py.status, py.stderr).toBe(0);
    const read = JSON.parse(py.stdout) as unknown[];
    for (const [i, f] of files.entries()) expect(read[i], f).toEqual(parse(readFileSync(join(store, f), 'utf8')));
    // ajv-cli reads YAML with js-yaml 3: each file passes its schema. Its own command line (minimist, its
    // option check, its validate command) runs once per schema, in one process rather than ten.
    const jobs = [...kinds].map(([schema, list]) => [
      'validate',
      '--spec=draft2020',
      '--strict=false',
      '-c',
      'ajv-formats',
      '-s',
      join(REPO, 'schemas', `${schema}.schema.json`),
      ...list.flatMap((f) => ['-d', join(store, f)]),
    ]);
    const ajv = spawnSync(process.execPath, [join(REPO, 'test/helpers/ajv-cli-each.cjs')], {
      cwd: REPO,
      input: JSON.stringify(jobs),
      encoding: 'utf8',
    });
    expect(ajv.stdout + ajv.stderr).not.toMatch(/invalid|error/i);
    expect(ajv.status, ajv.stdout + ajv.stderr).toBe(0);
    expect(ajv.stdout.match(/ valid$/gm)?.length).toBe(files.length);
  });

  it.each([
    ['yes', true],
    ['Off', true],
    ['y', true],
    ['~', true],
    ['2026-01-01', true],
    ['2026-11-29T12:00:00Z', true],
    ['2001-12-14 21:59:43.10 -5', true],
    ['1:20', true],
    ['0777', true],
    ['1_000', true],
    ['.inf', true],
    ['<<', true],
    ['Never delete production data', false],
    ['yesterday', false],
    ['v1.2', false],
    ['2026-01', false],
  ])('%j: read as another type by YAML 1.1 → %s', (plain, other) => {
    expect(yaml11Reads(plain)).toBe(other);
  });
});
