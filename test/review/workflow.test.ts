import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MARKDOWN_MARKER } from '../../src/present/diff-markdown.ts';

const WORKFLOW = fileURLToPath(new URL('../../docs/github-workflow.yml', import.meta.url));

describe('docs/github-workflow.yml', () => {
  it('is valid YAML that validates, diffs as markdown and updates the comment found by the marker', () => {
    const text = readFileSync(WORKFLOW, 'utf8');
    const wf = parse(text) as { jobs: { review: { steps: { run?: string; with?: { script?: string } }[] } } };
    const steps = wf.jobs.review.steps;
    const runs = steps.map((s) => s.run ?? '');
    // Validated when the checkout holds a store (a pull request may remove it).
    const validate = runs.findIndex((r) => r.includes('npx --yes -p agents-invariants agents validate --format github'));
    expect(validate).toBeGreaterThanOrEqual(0);
    expect(runs).toContain('npx --yes -p agents-invariants agents invariant diff HEAD^1..HEAD --format markdown > invariant-diff.md');
    // The exported instruction files are checked, and a pull request touching only them runs the workflow.
    expect(runs).toContain('npx --yes -p agents-invariants agents export --check');
    // A store that extends policy sources fetches the pins of both sides before it validates and diffs.
    const fetch = runs.findIndex((r) => r.includes('agents extends fetch --rev HEAD^1'));
    expect(fetch).toBeGreaterThanOrEqual(0);
    expect(runs[fetch]).toMatch(/agents extends fetch\n/);
    // Whether each side has a lock is asked in the step (test/review/workflow-steps.test.ts), not of the working tree alone.
    expect((steps[fetch] as { if?: string }).if).toBeUndefined();
    expect(fetch).toBeLessThan(validate);
    expect(steps.some((s) => s.with?.script?.includes(`const marker = '${MARKDOWN_MARKER}';`))).toBe(true);
  });

  it('checks the guards on every pull request, not only on those that touch the store (a guarded path lies outside it)', () => {
    const wf = parse(readFileSync(WORKFLOW, 'utf8')) as { on: { pull_request: { paths?: string[] } | null } };
    expect(wf.on.pull_request?.paths).toBeUndefined();
    const guard = steps().find((s) => s.run?.includes('agents guard check HEAD^1..HEAD'));
    expect(guard).toBeDefined();
    expect(guard!.if).toBeUndefined();
    // Whether the store or an exported file changed decides only whether a new comment is posted.
    const touched = steps().find((s) => s.id === 'touched')!;
    for (const path of ['.agents', "':(glob)**/AGENTS.md'", '.cursor/rules', '.clinerules']) expect(touched.run).toContain(path);
  });

  it('caches .git/agents without its locks, which a killed run would leave for the next to wait on, with one path to restore and save', () => {
    const cached = steps().filter((s) => s.uses?.startsWith('actions/cache/'));
    expect(cached.map((s) => s.uses)).toEqual(['actions/cache/restore@v4', 'actions/cache/save@v4']);
    const [restore, save] = cached.map((s) => s.with?.path?.trim().split('\n'));
    expect(restore).toEqual(save);
    expect(restore).toEqual(['.git/agents', '!.git/agents/**/.lock', '!.git/agents/**/.lock.break']);
  });

  type Step = {
    id?: string;
    if?: string;
    run?: string;
    uses?: string;
    env?: Record<string, string>;
    with?: { script?: string; path?: string };
  };
  const steps = () => (parse(readFileSync(WORKFLOW, 'utf8')) as { jobs: { review: { steps: Step[] } } }).jobs.review.steps;

  /** Runs the comment step's script as github-script would, against a pull request holding `comments`. */
  async function post(
    outcome: string,
    comments: { id: number; user: { type: string }; body: string }[],
    fail?: { status: number },
    touched = 'true',
  ) {
    const step = steps().find((s) => s.with?.script?.includes('const marker'))!;
    const calls: { update: { comment_id: number; body: string }[]; create: { body: string }[]; warnings: string[]; summary: string[] } = {
      update: [],
      create: [],
      warnings: [],
      summary: [],
    };
    const github = {
      paginate: async () => comments,
      rest: {
        issues: {
          listComments: {},
          updateComment: async (a: { comment_id: number; body: string }) => {
            if (fail) throw fail;
            calls.update.push(a);
          },
          createComment: async (a: { body: string }) => {
            if (fail) throw fail;
            calls.create.push(a);
          },
        },
      },
    };
    const context = {
      repo: { owner: 'o', repo: 'r' },
      issue: { number: 7 },
      sha: 'abcdef0123456789abcdef0123456789abcdef01',
      serverUrl: 'https://github.com',
      runId: 42,
    };
    const core = {
      warning: (m: string) => calls.warnings.push(m),
      summary: { addRaw: (b: string) => ({ write: async () => calls.summary.push(b) }) },
    };
    const fs = { readFileSync: () => `${MARKDOWN_MARKER}\nthis push's report\n` };
    const env = { ...step.env, DIFF_OUTCOME: outcome, STORE_TOUCHED: touched };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...a: string[]
    ) => (...v: unknown[]) => Promise<void>;
    const script = new AsyncFunction('require', 'github', 'context', 'core', 'process', step.with!.script!);
    await script(() => fs, github, context, core, { env });
    return calls;
  }

  it('comments even when a check before failed, and a failed diff replaces the earlier report rather than leaving it', async () => {
    for (const s of steps().filter((x) => x.id === 'diff' || x.with?.script?.includes('const marker')))
      expect(s.if).toMatch(/!cancelled\(\)/);
    expect(steps().find((s) => s.with?.script?.includes('const marker'))!.env!.DIFF_OUTCOME).toMatch(/^\$\{\{ steps\.diff\.outcome \}\}$/);
    const earlier = [
      { id: 1, user: { type: 'User' }, body: `${MARKDOWN_MARKER}\nforged` },
      { id: 2, user: { type: 'Bot' }, body: `${MARKDOWN_MARKER}\nan earlier push's report` },
    ];
    const ok = await post('success', earlier);
    expect(ok.update).toEqual([{ owner: 'o', repo: 'r', comment_id: 2, body: `${MARKDOWN_MARKER}\nthis push's report\n` }]);
    const failed = await post('failure', earlier);
    expect(failed.update).toHaveLength(1);
    expect(failed.update[0]!.comment_id).toBe(2);
    expect(failed.update[0]!.body.startsWith(`${MARKDOWN_MARKER}\n`)).toBe(true);
    expect(failed.update[0]!.body).toContain('abcdef012345');
    expect(failed.update[0]!.body).not.toContain('report');
  });

  it('a pull request that does not touch the store gets no new comment, but an earlier one is still brought up to date', async () => {
    const none = await post('success', [], undefined, 'false');
    expect(none.create).toEqual([]);
    expect(none.summary).toHaveLength(1);
    const earlier = [{ id: 2, user: { type: 'Bot' }, body: `${MARKDOWN_MARKER}\nan earlier push's report` }];
    const reverted = await post('success', earlier, undefined, 'false');
    expect(reverted.update.map((u) => u.comment_id)).toEqual([2]);
    expect((await post('success', [], undefined, 'true')).create).toHaveLength(1);
  });

  it('a token that may not comment (a pull request from a fork) leaves the report in the run summary; other errors still fail', async () => {
    const fork = await post('success', [], { status: 403 });
    expect(fork.summary).toEqual([`${MARKDOWN_MARKER}\nthis push's report\n`]);
    expect(fork.warnings).toHaveLength(1);
    await expect(post('success', [], { status: 500 })).rejects.toEqual({ status: 500 });
  });
});
