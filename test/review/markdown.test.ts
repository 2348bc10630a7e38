import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { boundedMarkdownLines, diffMarkdownLines, MARKDOWN_LIMIT, MARKDOWN_MARKER } from '../../src/present/diff-markdown.ts';
import { ReviewService } from '../../src/service/review-service.ts';
import { G1, G2, G3, P1, P2, PLAN, Q1, Repo, ulid, X1 } from './repo.ts';
import { runAgents } from '../helpers/main.ts';
import { DOLLAR } from '../../src/core/plain-text.ts';

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

  it('stays within what GitHub takes as one comment, cut at a line and saying how much is left out', async () => {
    const repo = new Repo();
    repo.inv('projects/app', P1, 'All API changes need tests');
    repo.commit('base');
    // 700 new global invariants: a table row and an entry of project app's set each, far over one comment.
    for (let i = 0; i < 700; i++) repo.inv('global', ulid(`G${String(i).padStart(4, '0')}`), `Rule ${i}: ${'keep it so '.repeat(10)}`);
    repo.commit('many');
    const r = await runAgents(['invariant', 'diff', 'HEAD^1..HEAD', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const lines = r.stdout.split('\n').slice(0, -1);
    expect(lines[0]).toBe(MARKDOWN_MARKER);
    expect(r.stdout.split(MARKDOWN_MARKER)).toHaveLength(2);

    const d = await new ReviewService(repo.store).diff({ range: 'HEAD^1..HEAD' });
    const full = [...diffMarkdownLines(d)];
    const kept = lines.slice(0, -2);
    expect(full.slice(0, kept.length)).toEqual(kept);
    // The closing line counts exactly the lines left out.
    expect(lines.at(-2)).toBe('');
    expect(Number(/(\d+) more line/.exec(lines.at(-1)!)?.[1])).toBe(full.length - kept.length);

    // A report that fits to the character is written whole; one character less and it is cut.
    const size = full.reduce((n, l) => n + l.length + 1, 0);
    expect([...boundedMarkdownLines(d, size)]).toEqual(full);
    const cut = [...boundedMarkdownLines(d, size - 1)];
    expect(cut.reduce((n, l) => n + l.length + 1, 0)).toBeLessThanOrEqual(size - 1);
    expect(cut).not.toEqual(full);
    expect(cut.slice(0, -2)).toEqual(full.slice(0, cut.length - 2));
  });

  it('a branch name holding backticks and HTML stays inside its code span', async () => {
    const repo = pullRequest();
    const branch = 'x`<b>bold</b>`y';
    repo.git('branch', branch, 'feature');
    for (const range of [`base..${branch}`, `base...${branch}`]) {
      const r = await runAgents(['invariant', 'diff', range, '--format', 'markdown'], { cwd: repo.dir });
      expect(r.code).toBe(0);
      const html = marked.parse(r.stdout.split('\n')[3]!, { async: false });
      expect(html).not.toContain('<b>');
      expect(html).toContain('<code>x`&lt;b&gt;bold&lt;/b&gt;`y</code>');
    }
  });

  it('an invariant text naming @someone or #123 neither mentions nor links from the comment', async () => {
    const repo = pullRequest();
    repo.inv('global', G3, 'Ask @octocat before closing #123').commit('mention');
    const r = await runAgents(['invariant', 'diff', 'HEAD^1..HEAD', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const html = marked.parse(r.stdout, { async: false });
    expect(html).toContain('octocat');
    expect(html).not.toMatch(/@[A-Za-z0-9]|#[0-9]/);
  });
  it('an invariant text holding dollars opens no math expression in the comment', async () => {
    const repo = pullRequest();
    repo.inv('global', G3, 'Never echo $HOME/$PATH or $$ into logs').commit('dollars');
    const r = await runAgents(['invariant', 'diff', 'HEAD^1..HEAD', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    // GitHub renders `$…$` on one line as TeX, hiding the dollars: none is left bare.
    const lines = r.stdout.split('\n').filter((l) => l.includes('Never echo'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.replaceAll(DOLLAR, '')).not.toContain('$');
  });

  it('a tag or guard holding | or backticks stays inside its table cell', async () => {
    const repo = pullRequest();
    repo.inv('global', G3, 'Never run rm', { tags: '["a|b"]', guard: JSON.stringify({ command: ['rm -rf|drop'] }) }).commit('guarded');
    repo.inv('global', G3, 'Never run rm', { tags: '["a|c", "x`y"]', guard: JSON.stringify({ command: ['rm|`x`'] }) }).commit('edited');
    const r = await runAgents(['invariant', 'diff', 'HEAD^1..HEAD', '--format', 'markdown'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const html = marked.parse(r.stdout, { async: false });
    const row = html.split('<tr>').find((x) => x.includes(G3))!;
    expect(row.match(/<td>/g)).toHaveLength(4);
    expect(row).toContain('<code>{&quot;command&quot;:[&quot;rm|`x`&quot;]}</code>');
    expect(row).toContain('<code>[&quot;a|c&quot;,&quot;x`y&quot;]</code>');
  });
});
