// A plan whose project has no folder (removed by hand, renamed in a merge, a typo in plan.yaml) resolves without
// the project's invariants: every reader of its set says so (unknown-project, at plan.yaml's `project`), and the
// gate fails (docs/adr/0118-a-plan-whose-project-is-gone-says-so.md).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';

const PLAN_FILE = `plans/${EXAMPLE_PLAN}/plan.yaml`;
/** Where the example's plan.yaml names its project (line 3, the value after `project: `). */
const AT = `${PLAN_FILE}:3:10`;

/** The example store with its plan's project renamed away: `project: ghost` in plan.yaml. */
function ghostStore(): string {
  const root = exampleStore();
  const file = join(root, PLAN_FILE);
  writeFileSync(file, readFileSync(file, 'utf8').replace('project: myapp', 'project: ghost'));
  return root;
}

const json = async (root: string, ...args: string[]) => {
  const r = await runAgents(['--store', root, '--format', 'json', ...args]);
  return { code: r.code, stderr: r.stderr, doc: JSON.parse(r.stdout) };
};

describe('a plan whose project is gone', () => {
  it('fails plan status with the reason unknown-project, and gives the warning in JSON and on stderr', async () => {
    const root = ghostStore();
    const r = await json(root, 'plan', 'status', EXAMPLE_PLAN);
    expect(r.code).toBe(1);
    expect(r.doc.reasons.map((x: { code: string; level: string }) => `${x.level}:${x.code}`)).toEqual([
      'fail:unknown-project',
      'fail:not-run',
    ]);
    expect(r.doc.warnings).toEqual([
      expect.objectContaining({ code: 'unknown-project', severity: 'warning', file: PLAN_FILE, line: 3, col: 10 }),
    ]);
    expect(r.stderr).toContain(`warning: ${AT} unknown-project:`);
    // Relaxed on purpose, it only reports; the other reasons decide.
    const allowed = await json(root, 'plan', 'status', EXAMPLE_PLAN, '--allow', 'unknown-project', '--allow', 'not-run');
    expect(allowed.code).toBe(0);
    expect(allowed.doc.reasons.map((x: { code: string; allowed: boolean }) => [x.code, x.allowed])).toEqual([
      ['unknown-project', true],
      ['not-run', true],
    ]);
    const text = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('fail  unknown-project: ');
    expect(text.stdout).toContain(AT);
  });

  it('is said by plan show, invariant list --effective and export --stdout, which still answer', async () => {
    const root = ghostStore();
    const show = await json(root, 'plan', 'show', EXAMPLE_PLAN);
    expect(show.code).toBe(0);
    expect(
      show.doc.warnings.map((w: { code: string; file: string; line: number; col: number }) => [w.code, w.file, w.line, w.col]),
    ).toEqual([['unknown-project', PLAN_FILE, 3, 10]]);
    expect(show.stderr).toContain(`warning: ${AT} unknown-project:`);
    for (const args of [
      ['invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN],
      ['--format', 'json', 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN],
      ['export', '--stdout', '--target', 'agents-md', '--plan', EXAMPLE_PLAN],
      ['plan', 'show', EXAMPLE_PLAN],
    ]) {
      const r = await runAgents(['--store', root, ...args]);
      expect(r.code, args.join(' ')).toBe(0);
      // Once per command, on stderr: stdout keeps its shape (an array for list --effective --format json).
      expect(r.stderr.split(`warning: ${AT} unknown-project:`).length, args.join(' ')).toBe(2);
    }
    // The text export --stdout hands an agent runtime tells it too: its reader never sees stderr.
    const exported = await json(root, 'export', '--stdout', '--target', 'agents-md', '--plan', EXAMPLE_PLAN);
    expect(exported.doc.content).toContain('(no projects/ghost/)');
    const whole = await json(exampleStore(), 'export', '--stdout', '--target', 'agents-md', '--plan', EXAMPLE_PLAN);
    expect(whole.doc.content).not.toContain('(no projects/');
  });

  it('is in the library answer of effective, and said through the notice', async () => {
    const root = ghostStore();
    const notices: string[] = [];
    const service = new InvariantService(root, { notice: (m) => notices.push(m) });
    const r = await service.effective({ plan: EXAMPLE_PLAN });
    expect(r.warnings.map((w) => [w.code, w.severity, w.file, w.line, w.col])).toEqual([['unknown-project', 'warning', PLAN_FILE, 3, 10]]);
    expect(notices).toEqual([expect.stringContaining(`warning: ${AT} unknown-project:`)]);
    // A project's own set, and a plan of no project, warn of nothing.
    expect((await service.effective({ project: 'myapp' })).warnings).toEqual([]);
    expect(notices).toHaveLength(1);
  });

  it('warns of nothing while the folder is there: with files, or renamed back', async () => {
    const root = exampleStore();
    const clean = await json(root, 'plan', 'status', EXAMPLE_PLAN);
    expect(clean.doc.warnings).toEqual([]);
    expect(clean.doc.reasons.map((x: { code: string }) => x.code)).toEqual(['not-run']);
    expect(clean.stderr).toBe('');
    // Renamed in a merge: the plan still names the old name.
    renameSync(join(root, 'projects/myapp'), join(root, 'projects/web'));
    const renamed = await json(root, 'plan', 'show', EXAMPLE_PLAN);
    expect(renamed.doc.warnings.map((w: { code: string }) => w.code)).toEqual(['unknown-project']);
    // An empty folder is a project of this working tree (docs/store-format.md): nothing is left out of the set.
    mkdirSync(join(root, 'projects/myapp'));
    const empty = await json(root, 'plan', 'show', EXAMPLE_PLAN);
    expect(empty.doc.warnings).toEqual([]);
    expect(empty.stderr).toBe('');
  });
});
