import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadsFor, WORKER_MIN_FILES } from '../../src/validate/check-pool.ts';
import { LISTED_PER_CODE } from '../../src/validate/limits.ts';
import { agents, REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const id = (n: number) => `01JDQ6X5Z8W4N3B2C1D${String(n).padStart(7, '0')}`;

const MISSING = 150; // modeline-missing (info): cut short in text and github
const BAD = 30; // severity not in the schema (error): cut short too
const GOOD = 40;

/**
 * A store outside git (no cache: every file is checked, as on a fresh clone)
 * with 150 files lacking their modeline, 30 with a schema error, 40 clean
 * ones and two sharing a text (one duplicate-text error).
 */
function longStore(): string {
  const tree: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < MISSING; i++, n++) tree[`global/${id(n)}.yaml`] = invariantYaml(id(n), `Never lose record ${n}`);
  for (let i = 0; i < BAD; i++, n++)
    tree[`global/${id(n)}.yaml`] = ML + invariantYaml(id(n), `Always log step ${n}`, { severity: 'fatal' });
  for (let i = 0; i < GOOD; i++, n++) tree[`global/${id(n)}.yaml`] = ML + invariantYaml(id(n), `Only deploy build ${n}`);
  tree[`global/${id(n)}.yaml`] = ML + invariantYaml(id(n), 'Keep one copy');
  n++;
  tree[`global/${id(n)}.yaml`] = ML + invariantYaml(id(n), 'keep  one copy');
  return testStore(tree);
}

/** The built binary: its worker threads run dist/validate-worker.js (from the sources, validate runs in one thread). */
function run(store: string, ...args: string[]) {
  return agents(['--store', store, 'validate', ...args], { cwd: tempDir() });
}

/** In this process: for what does not depend on the number of threads. */
function runHere(store: string, ...args: string[]) {
  return runAgents(['--store', store, 'validate', ...args], { cwd: tempDir() });
}

/** Diagnostics by code, from the complete JSON report. */
function countsByCode(json: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of JSON.parse(json).diagnostics as { code: string }[]) out.set(d.code, (out.get(d.code) ?? 0) + 1);
  return out;
}

describe('long reports: 20 per code in text and github, everything in json and SARIF', () => {
  it('json and SARIF hold every diagnostic, text lists 20 of each code then counts the rest; --verbose lists all', async () => {
    const store = longStore();
    const json = await runHere(store, '--format', 'json');
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    const byCode = countsByCode(json.stdout);
    expect(byCode.get('modeline-missing')).toBe(MISSING);
    const schemaCodes = [...byCode].filter(([code, count]) => code !== 'modeline-missing' && count === BAD);
    expect(schemaCodes).toHaveLength(1);
    const [schemaCode] = schemaCodes[0]!;
    expect(byCode.get('duplicate-text')).toBe(1);
    expect(doc.diagnostics).toHaveLength(MISSING + BAD + 1);
    expect(doc.summary).toEqual({ error: BAD + 1, warning: 0, info: MISSING });

    const sarif = await runHere(store, '--format', 'sarif');
    expect(sarif.code).toBe(1);
    const results = JSON.parse(sarif.stdout).runs[0].results as { ruleId: string }[];
    expect(results).toHaveLength(MISSING + BAD + 1);
    expect(results.filter((r) => r.ruleId === 'modeline-missing')).toHaveLength(MISSING);

    const text = await runHere(store);
    expect(text.code).toBe(1);
    const listed = (out: string, code: string) => out.split('\n').filter((l) => new RegExp(`  (error|info)  ${code}  `).test(l)).length;
    expect(LISTED_PER_CODE).toBe(20);
    expect(listed(text.stdout, 'modeline-missing')).toBe(20);
    expect(listed(text.stdout, schemaCode)).toBe(20);
    expect(listed(text.stdout, 'duplicate-text')).toBe(1);
    expect(text.stdout).toContain(`… and ${MISSING - 20} more \`modeline-missing\`; \`--verbose\` lists all\n`);
    expect(text.stdout).toContain(`… and ${BAD - 20} more \`${schemaCode}\`; \`--verbose\` lists all\n`);
    expect(text.stdout).not.toContain('more `duplicate-text`');
    // The verdict still counts every one.
    expect(text.stdout).toContain(`failed  ${BAD + 1} errors, 0 warnings, ${MISSING} infos in`);

    const verbose = await runHere(store, '--verbose');
    expect(verbose.code).toBe(1);
    expect(listed(verbose.stdout, 'modeline-missing')).toBe(MISSING);
    expect(listed(verbose.stdout, schemaCode)).toBe(BAD);
    expect(verbose.stdout).not.toContain('… and');
  });

  it('github annotations and the step summary list 20 of each code; --verbose lists all', async () => {
    const store = longStore();
    const summary = join(tempDir(), 'summary.md');
    const r = await runAgents(['--store', store, 'validate', '--format', 'github'], {
      cwd: tempDir(),
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.code).toBe(1);
    const annotations = (out: string, code: string) =>
      out.split('\n').filter((l) => l.startsWith('::') && l.includes(`title=agents ${code}::`)).length;
    expect(annotations(r.stdout, 'modeline-missing')).toBe(20);
    expect(r.stdout).toContain(`… and ${MISSING - 20} more \`modeline-missing\`; \`--verbose\` lists all\n`);
    expect(r.stdout).toMatch(/; 41 of 181 are listed above; `--verbose` lists all\)\n$/);
    const rows = readFileSync(summary, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| info | `modeline-missing` |'));
    expect(rows).toHaveLength(20);

    const all = await runHere(store, '--format', 'github', '--verbose');
    expect(annotations(all.stdout, 'modeline-missing')).toBe(MISSING);
    expect(all.stdout).not.toContain('… and');
    expect(all.stdout).toContain('all 181 are listed above)');
  });

  it('gives the same report, byte for byte, with one thread and with the main thread beside worker threads', async () => {
    // Worker threads run the built worker; the CLI runs from dist/.
    expect(existsSync(join(REPO, 'dist/validate-worker.js'))).toBe(true);
    const store = longStore();
    // 222 files in four batches of 64 or fewer: --jobs 3 is the main thread and two workers, each taking batches.
    expect(threadsFor(222, 3)).toBe(3);
    for (const format of [['--verbose'], ['--format', 'json'], ['--format', 'sarif']]) {
      // One thread in this process; the main thread and one or two workers in the built binary.
      const one = await runHere(store, ...format, '--jobs', '1');
      expect(one.code).toBe(1);
      expect(one.stderr).toBe('');
      for (const jobs of ['2', '3']) expect(run(store, ...format, '--jobs', jobs)).toEqual(one);
    }
    // The thread count from the environment, for text as it is by default (cut short).
    const one = await runHere(store, '--jobs', '1');
    expect(agents(['--store', store, 'validate'], { cwd: tempDir(), env: { AGENTS_JOBS: '2' } })).toEqual(one);
  });

  it('refuses a --jobs or AGENTS_JOBS that is not a whole number from 1 (exit 2), before reading the store', async () => {
    const store = longStore();
    for (const [args, env] of [
      [['--jobs', '0'], {}],
      [['--jobs', '1.5'], {}],
      [[], { AGENTS_JOBS: 'many' }],
    ] as const) {
      const r = await runAgents(['--store', store, 'validate', ...args], { cwd: tempDir(), env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/(--jobs|AGENTS_JOBS) must be a whole number from 1 to 256/);
    }
    const json = await runAgents(['--store', store, 'validate', '--jobs', '0', '--format', 'json'], { cwd: tempDir() });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'invalid-value', detail: { option: 'jobs', value: '0' } });
  });
});

describe('long reports of fixes', () => {
  it('--fix lists 20 fixes of each kind in text, then counts the rest; --verbose and json list every one', async () => {
    const fixed = (out: string) => out.split('\n').filter((l) => /^fixed {2}added the schema modeline to /.test(l)).length;
    const text = await runHere(longStore(), '--fix');
    expect(text.code).toBe(1);
    expect(fixed(text.stdout)).toBe(20);
    expect(text.stdout).toContain(`… and ${MISSING - 20} more \`add-modeline\` fixes; \`--verbose\` lists all\n`);

    const verbose = await runHere(longStore(), '--fix', '--verbose');
    expect(verbose.code).toBe(1);
    expect(fixed(verbose.stdout)).toBe(MISSING);
    expect(verbose.stdout).not.toContain('more `add-modeline` fixes');

    const json = await runHere(longStore(), '--fix', '--format', 'json');
    const fixes = JSON.parse(json.stdout).fixes as { action: string; done: boolean }[];
    expect(fixes.filter((f) => f.action === 'add-modeline' && f.done)).toHaveLength(MISSING);
  });
});

describe('threadsFor', () => {
  it('uses one thread for few files unless asked, never more threads than batches of 64 files, and what --jobs says otherwise', () => {
    expect(threadsFor(100, undefined)).toBe(1);
    // A worker costs more to start than it saves below this many files (ADR 0504).
    expect(threadsFor(WORKER_MIN_FILES - 1, undefined)).toBe(1);
    expect(threadsFor(21_000, undefined)).toBe(1);
    expect(threadsFor(10, 4)).toBe(1);
    expect(threadsFor(130, 4)).toBe(3);
    expect(threadsFor(100_000, 1)).toBe(1);
    expect(threadsFor(100_000, 5)).toBe(5);
    expect(threadsFor(100_000, undefined)).toBeGreaterThanOrEqual(1);
  });
});
