import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MARKDOWN_MARKER } from '../../src/present/diff.ts';

const WORKFLOW = fileURLToPath(new URL('../../docs/github-workflow.yml', import.meta.url));

describe('docs/github-workflow.yml', () => {
  it('is valid YAML that validates, diffs as markdown and updates the comment found by the marker', () => {
    const text = readFileSync(WORKFLOW, 'utf8');
    const wf = parse(text) as { jobs: { review: { steps: { run?: string; with?: { script?: string } }[] } } };
    const steps = wf.jobs.review.steps;
    const runs = steps.map((s) => s.run ?? '');
    expect(runs).toContain('npx --yes -p agents-invariants agents validate --format github');
    expect(runs).toContain('npx --yes -p agents-invariants agents invariant diff HEAD^1..HEAD --format markdown > invariant-diff.md');
    // The exported instruction files are checked, and a pull request touching only them runs the workflow.
    expect(runs).toContain('npx --yes -p agents-invariants agents export --check');
    // A store that extends policy sources fetches the pins of both sides before it validates and diffs.
    const fetch = runs.findIndex((r) => r.includes('agents extends fetch --rev HEAD^1'));
    expect(fetch).toBeGreaterThanOrEqual(0);
    expect(runs[fetch]).toMatch(/agents extends fetch\n/);
    expect(fetch).toBeLessThan(runs.indexOf('npx --yes -p agents-invariants agents validate --format github'));
    const on = (parse(text) as { on: { pull_request: { paths: string[] } } }).on.pull_request.paths;
    expect(on).toEqual(expect.arrayContaining(['.agents/**', '**/AGENTS.md', '.cursor/rules/**']));
    expect(steps.some((s) => s.with?.script?.includes(`const marker = '${MARKDOWN_MARKER}';`))).toBe(true);
  });
});
