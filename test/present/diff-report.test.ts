import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { TargetDiff } from '../../src/core/diff.ts';
import { makeStyle } from '../../src/core/style.ts';
import { diffJson, diffTextLines } from '../../src/present/diff.ts';
import { boundedMarkdownLines, diffMarkdownLines } from '../../src/present/diff-markdown.ts';
import type { DiffResult } from '../../src/service/review-service.ts';
import { emptyTargetDiff } from '../helpers/diff.ts';

const PLAN = '01JDQ6X5Z8W4N3B2C1D0000001';

function report(t: Partial<TargetDiff>): DiffResult {
  const target = emptyTargetDiff({ kind: 'plan', plan: PLAN }, t);
  return {
    range: 'A..B',
    before: { label: 'A', kind: 'revision', commit: 'a'.repeat(40) },
    after: { label: 'B', kind: 'revision', commit: 'b'.repeat(40) },
    changedPaths: [],
    invariants: [],
    plans: [],
    waivers: [],
    projectPaths: [],
    targets: [target],
  };
}

function titles(d: DiffResult): string[] {
  const text = [...diffTextLines(d, makeStyle(false))].find((l) => l.startsWith('Effective set of plan'))!;
  const markdown = [...diffMarkdownLines(d)].find((l) => l.startsWith('#### Plan'))!;
  return [text, markdown];
}

describe("invariant diff: a plan's project in its title", () => {
  it('is the project of the side that holds the plan when the plan was added or removed, never none → it', () => {
    const [text, markdown] = titles(report({ existsBefore: false, projectAfter: 'api', countAfter: 2 }));
    expect(text).toBe(`Effective set of plan ${PLAN} (project api): new plan, 2 invariants`);
    expect(markdown).toBe(`#### Plan \`${PLAN}\` (project \`api\`): new plan, 2 invariants`);
    const [gone, goneMarkdown] = titles(report({ existsAfter: false, projectBefore: 'api', countBefore: 2 }));
    expect(gone).toBe(`Effective set of plan ${PLAN} (project api): plan removed (had 2)`);
    expect(goneMarkdown).toBe(`#### Plan \`${PLAN}\` (project \`api\`): plan removed (had 2)`);
  });

  it('is before → after when the plan, on both sides, was pointed at another project', () => {
    const [text, markdown] = titles(report({ projectBefore: 'api', countBefore: 1, countAfter: 1 }));
    expect(text).toBe(`Effective set of plan ${PLAN} (project api → none): 1 → 1 invariant`);
    expect(markdown).toBe(`#### Plan \`${PLAN}\` (project \`api\` → *none*): 1 → 1 invariant`);
  });
});

describe('invariant diff --format markdown: the sides compared', () => {
  it('names HEAD on a branch with no commit yet, never "the no commit yet"', () => {
    const d = report({ target: { kind: 'project', project: 'api' }, countAfter: 1 });
    d.before = { label: 'no commit yet', kind: 'revision' };
    d.after = { label: 'index', kind: 'index' };
    expect([...diffMarkdownLines(d)][3]).toMatch(/^Comparing `HEAD` \(no commit yet\) → the index: /);
    d.after = { label: 'working tree', kind: 'working tree' };
    expect([...diffMarkdownLines(d)][3]).toMatch(/^Comparing `HEAD` \(no commit yet\) → the working tree: /);
  });
});

describe('invariant diff: the summary', () => {
  it('counts as changed only the sets that changed, not those --project or --all-projects report unchanged', () => {
    const d = report({ target: { kind: 'project', project: 'api' }, countBefore: 2, countAfter: 2 });
    expect(diffJson(d).summary).toMatchObject({ targets_changed: 0 });
    expect([...diffTextLines(d, makeStyle(false))][1]).toBe('  no invariant changed; 0 effective sets changed');
    expect([...diffMarkdownLines(d)][3]).toMatch(/: no invariant changed; 0 effective sets changed\.$/);
  });
});

describe('invariant diff --format markdown: code spans outside the table', () => {
  it('show a | in a glob or a branch name as it is, with no backslash (only a table row reads one)', () => {
    const d = report({ target: { kind: 'project', project: 'web' }, existsBefore: false, countAfter: 1 });
    d.after = { label: 'feature|x', kind: 'revision', commit: 'b'.repeat(40) };
    d.projectPaths = [{ project: 'web', before: null, after: ['web/**', 'a|b`c'] }];
    const html = marked.parse([...diffMarkdownLines(d)].join('\n'), { async: false });
    expect(html).toContain('<code>feature|x</code>');
    expect(html).toContain('<code>a|b`c</code>');
    expect(html).not.toContain('\\|');
  });
});

describe('invariant diff --format markdown cut short', () => {
  it('names the command that gives the whole report, --staged kept for the index', () => {
    const entered = Array.from({ length: 40 }, (_, i) => ({
      id: `01JDQ6X5Z8W4N3B2C1D${String(i).padStart(7, '0')}`,
      text: `Rule ${i}`,
      scope: { kind: 'global' },
    }));
    const cut = (d: DiffResult) => [...boundedMarkdownLines(d, 1000)].at(-1)!;
    const staged = report({ target: { kind: 'project', project: 'api' }, countAfter: 40, entered: entered as never });
    staged.range = 'HEAD (staged)';
    staged.after = { label: 'index', kind: 'index' };
    // No range was given: none is named, as `HEAD` is refused on a branch with no commit yet.
    expect(cut(staged)).toContain('`agents invariant diff --staged`');
    staged.range = 'HEAD';
    expect(cut(staged)).toContain('`agents invariant diff HEAD --staged`');
    staged.range = 'main';
    expect(cut(staged)).toContain('`agents invariant diff main --staged`');
    const revisions = report({ target: { kind: 'project', project: 'api' }, countAfter: 40, entered: entered as never });
    expect(cut(revisions)).toContain('`agents invariant diff A..B`');
    const worktree = report({ target: { kind: 'project', project: 'api' }, countAfter: 40, entered: entered as never });
    worktree.range = 'HEAD';
    worktree.after = { label: 'working tree', kind: 'working tree' };
    expect(cut(worktree)).toContain('`agents invariant diff`, or');
  });

  it('quotes a range a shell would split or expand, so that the command runs as printed', () => {
    const entered = Array.from({ length: 40 }, (_, i) => ({
      id: `01JDQ6X5Z8W4N3B2C1D${String(i).padStart(7, '0')}`,
      text: `Rule ${i}`,
      scope: { kind: 'global' },
    }));
    const d = report({ target: { kind: 'project', project: 'api' }, countAfter: 40, entered: entered as never });
    d.range = 'main..feat$x;y';
    expect([...boundedMarkdownLines(d, 1000)].at(-1)!).toContain("`agents invariant diff 'main..feat$x;y'`");
  });

  it("repeats the run's --project, --plan and --all-projects in that command", () => {
    const entered = Array.from({ length: 40 }, (_, i) => ({
      id: `01JDQ6X5Z8W4N3B2C1D${String(i).padStart(7, '0')}`,
      text: `Rule ${i}`,
      scope: { kind: 'global' },
    }));
    const d = report({ target: { kind: 'project', project: 'api' }, countAfter: 40, entered: entered as never });
    const cut = (filters: Parameters<typeof boundedMarkdownLines>[2]) => [...boundedMarkdownLines(d, 1000, filters)].at(-1)!;
    expect(cut({ project: 'api' })).toContain('`agents invariant diff A..B --project api`');
    expect(cut({ plan: '01JDQ6X5Z8' })).toContain('`agents invariant diff A..B --plan 01JDQ6X5Z8`');
    expect(cut({ allProjects: true })).toContain('`agents invariant diff A..B --all-projects`');
    d.range = 'HEAD (staged)';
    d.after = { label: 'index', kind: 'index' };
    expect(cut({ project: 'api' })).toContain('`agents invariant diff --staged --project api`');
  });
});
