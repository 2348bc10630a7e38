import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { G1, G2, G3, P1, P2, PLAN, Q1, Repo, X1 } from './repo.ts';
import { runAgents } from '../helpers/main.ts';

const GOLDEN = fileURLToPath(new URL('../golden/invariant-diff.md', import.meta.url));

/** A pull request that shadows, edits, removes, moves, and writes markdown-looking text. */
function pullRequest(): Repo {
  const repo = new Repo();
  repo
    .inv('global', G1, 'Never delete production data')
    .inv('global', G2, 'Log all changes')
    .inv('global', G3, 'Write docs for every endpoint')
    .inv('projects/myapp', P1, 'All API changes need tests')
    .inv('projects/other', Q1, 'Keep the changelog current')
    .plan(PLAN, 'myapp')
    .inv(`plans/${PLAN}`, X1, 'Use Python 3.13 only');
  repo.commit('base');
  repo.git('tag', 'base');
  repo.git('checkout', '-q', '-b', 'feature');
  repo
    .inv('projects/myapp', P2, 'Log all changes')
    .inv('global', G1, 'Never delete production data', { severity: 'warning' })
    .rm(`global/${G3}.yaml`)
    .rm(`projects/myapp/${P1}.yaml`)
    .inv('global', P1, 'All API changes need tests')
    .inv(`plans/${PLAN}`, X1, 'Use *Python* 3.13 | only <b>');
  repo.commit('feature');
  return repo;
}

describe('agents invariant diff --format markdown', () => {
  it('matches the golden pull-request comment', async () => {
    const repo = pullRequest();
    const r = await runAgents(['invariant', 'diff', 'base...feature', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, r.stdout);
    expect(r.stdout).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('is the same on every run and starts with the marker line a bot looks for', async () => {
    const repo = pullRequest();
    const a = await runAgents(['invariant', 'diff', 'base..feature', '--format', 'markdown'], { cwd: repo.dir });
    const b = await runAgents(['invariant', 'diff', 'base..feature', '--format', 'markdown'], { cwd: repo.dir });
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout.split('\n')[0]).toBe('<!-- agents-invariant-diff -->');
  });

  it('says so when nothing changed', async () => {
    const repo = pullRequest();
    const r = await runAgents(['invariant', 'diff', 'feature..feature', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no invariant changed; 0 effective sets changed.');
  });
});
