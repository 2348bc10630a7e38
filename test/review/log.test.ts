import { describe, expect, it } from 'vitest';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { G1, G3, P1, P2, PLAN, Repo, history, suiteDir, ulid } from './repo.ts';
import { runAgents } from '../helpers/main.ts';
import { gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';

interface LogJson {
  id: string;
  deleted: boolean;
  path: string | null;
  shallow: boolean;
  events: {
    commit: string;
    author: string;
    email: string;
    date: string;
    subject: string;
    change: string;
    path: string;
    scope: string;
    from_path: string | null;
    from_scope: string | null;
    text: string | null;
    fields: { field: string; before: unknown; after: unknown }[];
    invalid: { code: string; file: string; line: number; col: number } | null;
  }[];
}

describe('agents invariant log', () => {
  const { repo, c } = history(suiteDir());
  const [c1, c2, c3, c4, c5] = c as [string, string, string, string, string];
  const log = async (id: string): Promise<LogJson> => {
    const r = await runAgents(['invariant', 'log', id, '--format', 'json'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as LogJson;
  };

  it("reads the whole history whatever the user's log.follow says (git follows no glob pathspec)", async () => {
    const config = join(tempDir(), 'gitconfig');
    writeFileSync(config, '[log]\n\tfollow = true\n');
    const r = await runAgents(['invariant', 'log', G1, '--format', 'json'], { cwd: repo.dir, env: { GIT_CONFIG_GLOBAL: config } });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as LogJson).events.map((e) => [e.commit, e.change])).toEqual([
      [c3, 'edited'],
      [c1, 'added'],
    ]);
  });

  it("reads names and subjects in UTF-8 whatever the user's i18n.logOutputEncoding says", async () => {
    const own = new Repo().inv('global', G1, 'Never delete production data');
    own.git('add', '-A');
    own.git('commit', '-q', '--author=Jörg Ünal <j@example.com>', '-m', 'Règle ajoutée');
    const config = join(tempDir(), 'gitconfig');
    writeFileSync(config, '[i18n]\n\tlogOutputEncoding = ISO-8859-1\n');
    const r = await runAgents(['invariant', 'log', G1, '--format', 'json'], { cwd: own.dir, env: { GIT_CONFIG_GLOBAL: config } });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as LogJson).events.map((e) => [e.author, e.subject])).toEqual([['Jörg Ünal', 'Règle ajoutée']]);
  });

  it('shows commits, authors, dates and text changes, newest first', async () => {
    const l = await log(G1);
    expect(l.deleted).toBe(false);
    expect(l.path).toBe(`global/${G1}.yaml`);
    expect(l.events.map((e) => [e.commit, e.change])).toEqual([
      [c3, 'edited'],
      [c1, 'added'],
    ]);
    expect(l.events[0]).toMatchObject({
      author: 'Test Author',
      email: 'author@example.com',
      date: '2026-11-29T12:00:00+00:00',
      subject: 'c3 edit',
      scope: 'global',
      text: 'Never delete production data or backups',
      fields: [
        { field: 'text', before: 'Never delete production data', after: 'Never delete production data or backups' },
        { field: 'severity', before: 'error', after: 'warning' },
      ],
    });
    expect(l.events[1]).toMatchObject({ scope: 'global', text: 'Never delete production data', fields: [] });
  });

  it('follows a move between scopes (the id stays in the file name)', async () => {
    const l = await log(P1);
    expect(l.events.map((e) => [e.commit, e.change, e.from_scope, e.scope])).toEqual([
      [c5, 'moved', 'project myapp', 'global'],
      [c1, 'added', null, 'project myapp'],
    ]);
    expect(l.events[0]).toMatchObject({ path: `global/${P1}.yaml`, from_path: `projects/myapp/${P1}.yaml`, fields: [] });
  });

  it('shows a removal, and finds removed invariants by prefix', async () => {
    const l = await log(P2.slice(0, 6));
    expect(l.id).toBe(P2);
    expect(l.deleted).toBe(true);
    expect(l.path).toBeNull();
    expect(l.events.map((e) => [e.commit, e.change, e.text])).toEqual([
      [c4, 'removed', 'Log all changes'],
      [c2, 'added', 'Log all changes'],
    ]);
    const text = await runAgents(['invariant', 'log', G3], { cwd: repo.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${G3}  removed in ${c3.slice(0, 12)}`);
    expect(text.stdout).toContain('removed from global: "Write docs for every endpoint"');
  });

  it('an unknown id or an ambiguous prefix is a usage error', async () => {
    const unknown = await runAgents(['invariant', 'log', '01JZZZZZ'], { cwd: repo.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no invariant with id prefix 01JZZZZZ');
    const ambiguous = await runAgents(['invariant', 'log', '01JG'], { cwd: repo.dir });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('ambiguous');
    expect((await runAgents(['invariant', 'log', 'x!'], { cwd: repo.dir })).code).toBe(2);
  });

  it("a plan's id given for an invariant's is said to be the plan's", async () => {
    const r = await runAgents(['invariant', 'log', PLAN, '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'unknown-id',
      detail: { names: [{ kind: 'plan', id: PLAN, path: `plans/${PLAN}` }] },
    });
  });

  it('an invariant the store holds but no commit does yet is said to have no history, with its path', async () => {
    const fresh = ulid('N1');
    repo.inv('global', fresh, 'Rotate keys yearly');
    try {
      for (const id of [fresh, fresh.slice(0, 6)]) {
        const r = await runAgents(['invariant', 'log', id, '--format', 'json'], { cwd: repo.dir });
        expect(r.code).toBe(2);
        expect(JSON.parse(r.stdout).error.detail).toEqual({ id: fresh, path: `global/${fresh}.yaml` });
      }
    } finally {
      repo.rm(`global/${fresh}.yaml`);
    }
  });
});

describe('agents invariant log over invalid versions', () => {
  const log = async (repo: Repo, id: string): Promise<LogJson> => {
    const r = await runAgents(['invariant', 'log', id, '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as LogJson;
  };

  it('marks only the version that was invalid; the next valid one is compared with the last valid one; texts are kept', async () => {
    const V = ulid('V1');
    const repo = new Repo();
    const c1 = repo.inv('global', V, 'Never drop production data').commit('init');
    // The same invariant in another form (a byte order mark, CRLF line ends, a comment): no event, as diff sees none.
    const form = `\uFEFF# kept\n${invariantYaml(V, 'Never drop production data')}`.replace(/\n/g, '\r\n');
    repo.write(`global/${V}.yaml`, form).commit('form only');
    const c2 = repo.inv('global', V, 'Never drop production data', { severity: 'bogus' }).commit('bad');
    const c3 = repo.inv('global', V, 'Never drop production data', { severity: 'warning' }).commit('fixed');
    const c4 = repo.inv('global', V, 'Never drop production data', { severity: 'bogus' }).commit('bad again');
    const c5 = repo.rm(`global/${V}.yaml`).commit('removed');
    const l = await log(repo, V);
    expect(l.events.map((e) => [e.commit, e.change, e.text, e.invalid?.code ?? null, e.fields])).toEqual([
      [c5, 'removed', 'Never drop production data', null, []],
      [c4, 'edited', 'Never drop production data', 'schema', []],
      [c3, 'edited', 'Never drop production data', null, [{ field: 'severity', before: 'error', after: 'warning' }]],
      [c2, 'edited', 'Never drop production data', 'schema', []],
      [c1, 'added', 'Never drop production data', null, []],
    ]);
    const text = await runAgents(['invariant', 'log', V], { cwd: repo.dir });
    expect(text.stdout).toContain('removed from global: "Never drop production data"');
  });

  it('in a SHA-256 repository, tells an addition, a move and a removal as in a SHA-1 one (git writes no file as 64 zeros there)', async () => {
    const V = ulid('V4');
    const repo = new Repo(tempDir('agents-log-'), false);
    repo.git('init', '-q', '-b', 'main', '--object-format=sha256');
    const c1 = repo.inv('global', V, 'Never drop production data').commit('add');
    const c2 = repo.rm(`global/${V}.yaml`).inv('projects/app', V, 'Never drop production data').commit('move');
    const c3 = repo.rm(`projects/app/${V}.yaml`).commit('remove');
    const l = await log(repo, V);
    expect(l.events.map((e) => [e.commit, e.change, e.from_scope])).toEqual([
      [c3, 'removed', null],
      [c2, 'moved', 'global'],
      [c1, 'added', null],
    ]);
    expect([c1.length, l.deleted]).toEqual([64, true]);
  });

  it('a copy removed while another file holds the id leaves it in the store: not deleted, and where it lives now', async () => {
    const V = ulid('V2');
    const repo = new Repo();
    repo.inv('global', V, 'Never drop production data').commit('init');
    // A move made in two commits: the copy first, then the original removed.
    const copy = repo.inv('projects/app', V, 'Never drop production data').commit('copy');
    const gone = repo.rm(`global/${V}.yaml`).commit('remove the global one');
    const l = await log(repo, V);
    expect(l.events.map((e) => [e.commit, e.change, e.path])).toEqual([
      [gone, 'removed', `global/${V}.yaml`],
      [copy, 'added', `projects/app/${V}.yaml`],
      [expect.any(String), 'added', `global/${V}.yaml`],
    ]);
    expect([l.deleted, l.path]).toEqual([false, `projects/app/${V}.yaml`]);
    repo.rm(`projects/app/${V}.yaml`).commit('remove the last');
    expect((await log(repo, V)).deleted).toBe(true);
  });

  it('a store in a folder named with glob characters ([, *, ?) has its history found, not taken for a pattern', async () => {
    const V = ulid('V3');
    const top = tempDir('agents-log-');
    gitInit(top);
    const repo = new Repo(join(top, 'docs[1]*?'), false);
    const added = repo.inv('global', V, 'Never drop production data').commit('init');
    const l = await log(repo, V.slice(0, 8));
    expect([l.path, l.events.map((e) => [e.commit, e.change])]).toEqual([`global/${V}.yaml`, [[added, 'added']]]);
  });

  it('says a committed symbolic link is one, as diff does, and an add whose text is unknown shows none', async () => {
    const L = ulid('S1');
    const N = ulid('N1');
    const repo = new Repo();
    repo.write('global/.gitkeep', '').commit('base');
    symlinkSync('/tmp/elsewhere.yaml', join(repo.store, `global/${L}.yaml`));
    repo.write(`global/${N}.yaml`, 'text: [unclosed\n');
    repo.commit('link');
    const link = await log(repo, L);
    expect(link.events.map((e) => [e.change, e.invalid?.code, e.text])).toEqual([['added', 'symlink', null]]);
    const broken = await runAgents(['invariant', 'log', N], { cwd: repo.dir });
    expect(broken.code).toBe(0);
    expect(broken.stdout).toMatch(/added to global\n/);
  });

  it('shows what a merge made differ from every parent: a hand resolution, committed conflict markers', async () => {
    const V = ulid('M1');
    const repo = new Repo();
    repo.inv('global', V, 'Never drop production data').commit('init');
    const main = repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'side');
    const side = repo.inv('global', V, 'Never drop customer data').commit('side');
    repo.git('checkout', '-q', main);
    const ours = repo.inv('global', V, 'Never drop production data', { severity: 'warning' }).commit('ours');
    // Resolved by hand to a text neither side had.
    repo.git('merge', '-q', '--no-commit', '--no-ff', '-s', 'ours', 'side');
    const resolved = repo.inv('global', V, 'Never drop any data', { severity: 'warning' }).commit('merge side');
    repo.git('checkout', '-q', '-b', 'other', ours);
    const other = repo.inv('global', V, 'Never drop other data').commit('other');
    repo.git('checkout', '-q', main);
    repo.git('merge', '-q', '--no-commit', '--no-ff', '-s', 'ours', 'other');
    const markers = repo.write(`global/${V}.yaml`, `<<<<<<< HEAD\nid: ${V}\n=======\nid: ${V}\n>>>>>>> other\n`).commit('merge other');
    // A merge that takes one side whole is no change of its own.
    repo.git('checkout', '-q', '-b', 'plain', ours);
    repo.write('global/.gitkeep', '').commit('plain');
    repo.git('checkout', '-q', main);
    repo.git('merge', '-q', '--no-ff', '-m', 'merge plain', 'plain');

    const l = await log(repo, V);
    const byCommit = new Map(l.events.map((e) => [e.commit, e]));
    expect(byCommit.get(markers)).toMatchObject({ change: 'edited', invalid: { code: 'merge-conflict' } });
    expect(byCommit.get(resolved)).toMatchObject({
      change: 'edited',
      invalid: null,
      text: 'Never drop any data',
      fields: [{ field: 'text', before: 'Never drop production data', after: 'Never drop any data' }],
    });
    expect(l.events[0]!.commit).toBe(markers);
    expect(l.events.map((e) => e.commit).sort()).toEqual([markers, resolved, other, ours, side, l.events.at(-1)!.commit].sort());
  });

  it('shows an edit merged into a copy the other side moved once, at the commit that made it, either side first', async () => {
    const V = ulid('M4');
    const repo = new Repo();
    // Lines enough that git's rename detection pairs the moved file with the edited one.
    const inv = (folder: string, text: string) =>
      repo.inv(folder, V, text, { severity: 'error', active: 'true', rationale: '"Backups lag."' });
    const init = inv('global', 'Never drop production data').write('projects/api/.gitkeep', '').commit('init');
    const main = repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'edit');
    const edit = inv('global', 'Never drop customer data').commit('edit');
    repo.git('checkout', '-q', main);
    const move = inv('projects/api', 'Never drop production data').rm(`global/${V}.yaml`).commit('move');
    repo.git('merge', '-q', '--no-ff', '-m', 'merge edit', 'edit');
    // The other way round: the edit on the first parent, the move merged in.
    repo.git('checkout', '-q', '-b', 'back');
    const back = inv('global', 'Never drop customer data').rm(`projects/api/${V}.yaml`).commit('move back');
    repo.git('checkout', '-q', main);
    const again = inv('projects/api', 'Never drop any data').commit('edit again');
    repo.git('merge', '-q', '--no-ff', '-m', 'merge back', 'back');
    expect(readFileSync(join(repo.store, `global/${V}.yaml`), 'utf8')).toContain('Never drop any data');

    const l = await log(repo, V);
    // Where it lives now is where HEAD holds it, not the path the newest commit wrote on the side that moved away.
    expect([l.path, l.deleted]).toEqual([`global/${V}.yaml`, false]);
    expect(l.events.map((e) => [e.commit, e.change, e.fields.map((f) => f.field)]).sort()).toEqual(
      [
        [again, 'edited', ['text']],
        [back, 'moved', []],
        [move, 'moved', []],
        [edit, 'edited', ['text']],
        [init, 'added', []],
      ].sort(),
    );
  });

  it("shows each side's field once, at its own commit, when git merges two sides' edits of one file", async () => {
    const V = ulid('M2');
    const repo = new Repo();
    // Lines apart in the file, so that git merges an edit of each without a conflict.
    const inv = (text: string, rationale: string, severity = 'error') =>
      repo.inv('global', V, text, { severity, active: 'true', rationale: JSON.stringify(rationale) });
    const init = inv('Never drop production data', 'Backups lag.').commit('init');
    const main = repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'side');
    const side = inv('Never drop customer data', 'Backups lag.').commit('side');
    repo.git('checkout', '-q', main);
    const ours = inv('Never drop production data', 'Backups lag by a day.').commit('ours');
    repo.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const merged = readFileSync(join(repo.store, `global/${V}.yaml`), 'utf8');
    expect([merged.includes('customer'), merged.includes('by a day')]).toEqual([true, true]);
    // Resolved by hand to a text of its own, with the rationale of one side and the severity of the other.
    repo.git('checkout', '-q', '-b', 'late', init);
    const late = inv('Never drop late data', 'Backups lag.', 'warning').commit('late');
    repo.git('checkout', '-q', main);
    repo.git('merge', '-q', '--no-commit', '--no-ff', '-s', 'ours', 'late');
    const resolved = inv('Never drop any data', 'Backups lag by a day.', 'warning').commit('merge late');

    const l = await log(repo, V);
    // Commits made within one second have no order of their own: compared by commit, the merge of two sides' edits absent.
    const byCommit = l.events.map((e) => [e.commit, e.change, e.fields.map((f) => f.field)]);
    expect(byCommit.sort()).toEqual(
      [
        [resolved, 'edited', ['text']],
        [late, 'edited', ['text', 'severity']],
        [ours, 'edited', ['rationale']],
        [side, 'edited', ['text']],
        [init, 'added', []],
      ].sort(),
    );
    // Added on a branch and edited by the merge that brings it: added once, at the branch, and edited by the merge.
    const W = ulid('M3');
    repo.git('checkout', '-q', '-b', 'extra');
    const added = repo.inv('global', W, 'Never drop new data').commit('extra');
    repo.git('checkout', '-q', main);
    repo.git('merge', '-q', '--no-commit', '--no-ff', '-s', 'ours', 'extra');
    const edited = repo.inv('global', W, 'Never drop new or old data').commit('merge extra');
    const w = await log(repo, W);
    expect(w.events.map((e) => [e.commit, e.change, e.fields.map((f) => f.field)]).sort()).toEqual(
      [
        [edited, 'edited', ['text']],
        [added, 'added', []],
      ].sort(),
    );
  });
});
