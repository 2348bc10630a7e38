import { describe, expect, it } from 'vitest';
import { G1, G3, P1, P2, history, suiteDir } from './repo.ts';
import { runAgents } from '../helpers/main.ts';

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
});
