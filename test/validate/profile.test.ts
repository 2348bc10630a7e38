import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/validate/checks/registry.ts';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8GB';

/** The `--profile` table on stderr: each step named once, with its milliseconds and those of garbage collection in it. */
function profileRows(stderr: string): Map<string, { ms: number; cpu: number; gc: number }> {
  const at = stderr.indexOf('profile:\n');
  expect(at).toBeGreaterThanOrEqual(0);
  const lines = stderr.slice(at).split('\n');
  expect(lines[1]).toMatch(/^ {2}step +ms +cpu ms +gc ms$/);
  const rows = new Map<string, { ms: number; cpu: number; gc: number }>();
  for (const line of lines.slice(2)) {
    const m = /^ {2}(\S+) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d)$/.exec(line);
    if (!m) break;
    expect(rows.has(m[1]!), m[1]).toBe(false);
    rows.set(m[1]!, { ms: Number(m[2]), cpu: Number(m[3]), gc: Number(m[4]) });
  }
  return rows;
}

/** The steps of a whole run without a policy source, in the order they run: the listing's checks before `files`. */
const STEPS = [
  'list',
  ...CHECKS.filter((c) => c.stage === 'listing').map((c) => c.name),
  'files',
  ...CHECKS.filter((c) => c.stage === 'content').map((c) => c.name),
  'total',
];

describe('validate --profile', () => {
  const store = () =>
    testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Never delete production data'),
      [`projects/web/${B}.yaml`]: invariantYaml(B, 'Never delete production data!'),
      'projects/web/project.yaml': 'paths:\n  - "web/**"\n',
    });

  it('names every check of the registry, the listing and the file-by-file checks, then the total, on stderr', async () => {
    const r = await runAgents(['--store', store(), 'validate', '--profile', '--no-cache']);
    // The report is unchanged: a near-duplicate warning and missing modelines, no error.
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('near-duplicate');
    const rows = profileRows(r.stderr);
    expect([...rows.keys()]).toStrictEqual(STEPS);
    for (const { ms, cpu, gc } of rows.values()) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(cpu).toBeGreaterThanOrEqual(0);
      // Collection inside a step is part of its time.
      expect(gc).toBeLessThanOrEqual(ms + 0.1);
    }
  });

  it('leaves stdout a clean JSON report, and is silent without the flag', async () => {
    const s = store();
    const r = await runAgents(['--store', s, 'validate', '--profile', '--format', 'json']);
    expect(JSON.parse(r.stdout).ok).toBe(true);
    const rows = profileRows(r.stderr);
    expect(rows.has('near-duplicates')).toBe(true);
    expect(rows.get('total')!.cpu).toBeGreaterThan(0);
    const plain = await runAgents(['--store', s, 'validate', '--format', 'json']);
    expect(plain.stderr).not.toContain('profile');
  });
});

describe('the --profile example of docs/validation.md', () => {
  it('shows every step a run has, in its order', () => {
    const page = readFileSync(join(REPO, 'docs/validation.md'), 'utf8');
    const section = page.slice(page.indexOf('### Which check is slow'));
    const example = /```console\n([\s\S]*?)```/.exec(section)![1]!;
    expect([...profileRows(example).keys()]).toStrictEqual(STEPS);
  });
});
