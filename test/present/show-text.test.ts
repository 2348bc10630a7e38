import { describe, expect, it } from 'vitest';
import { makeStyle } from '../../src/core/style.ts';
import type { ScopedInvariant } from '../../src/core/model.ts';
import { showText, unreadFilesText } from '../../src/present/invariant.ts';

describe('invariant show as text', () => {
  it('gives every field the file holds, overrides among them', () => {
    const text = showText(
      {
        invariant: {
          id: '01M8KJZS90J6DRJJ8E264B9DFX',
          text: 'Log all changes',
          severity: 'warning',
          active: true,
          tags: [],
          overrides: '01M8KJW430VF8WCABSB8RTQ8RY',
          scope: { kind: 'project', project: 'myapp' },
          path: 'projects/myapp/01M8KJZS90J6DRJJ8E264B9DFX.yaml',
        },
        appliesTo: 'project myapp',
        shadow: { shadows: [], shadowedBy: [] },
      },
      makeStyle(false),
    );
    expect(text.split('\n').map((row) => row.split(/ {2,}/))).toContainEqual(['overrides', '01M8KJW430VF8WCABSB8RTQ8RY']);
  });

  it('says a copy hidden on purpose as overridden, one hidden by accident as shadowed, as the effective set says them', () => {
    const inv = (id: string, scope: ScopedInvariant['scope'], overrides?: string) =>
      ({
        id,
        text: 'Keep backups',
        severity: 'error',
        active: true,
        tags: [],
        scope,
        path: `${id}.yaml`,
        ...(overrides ? { overrides } : {}),
      }) as ScopedInvariant;
    const [plan, project, global, inherited] = [
      '01M8KK5920RS6CGAVDFVYYJ0B4',
      '01M8KJZS90J6DRJJ8E264B9DFX',
      '01M8KJW430VF8WCABSB8RTQ8RY',
      '01M8KJT9G0XNWEM589ZS7FV0VT',
    ];
    // The project copy overrides the global one, and shadows the inherited one; a plan copy shadows it. (Its own
    // `overrides` row holds the id alone: the rows of relations name the scope too.)
    const mine = inv(project, { kind: 'project', project: 'myapp' }, global);
    const shown = (subject: ScopedInvariant, shadows: ScopedInvariant[], shadowedBy: ScopedInvariant[]) =>
      showText({ invariant: subject, appliesTo: 'x', shadow: { shadows, shadowedBy } }, makeStyle(false))
        .split('\n')
        .map((row) => row.split(/ {2,}/))
        .filter(([k, v]) => /shadow|overrid/.test(k!) && v!.includes(' '));
    const g = inv(global, { kind: 'global' });
    const i = inv(inherited, { kind: 'inherited', source: 'policy', order: 0 });
    const p = inv(plan, { kind: 'plan', plan: '01M8KK5920RS6CGAVDFVYYJ0B5' });
    expect(shown(mine, [g, i], [p]).map(([k, v]) => `${k} ${v}`)).toEqual([
      `overrides global ${global}`,
      `shadows inherited policy ${inherited}`,
      `shadowed by plan 01M8KK5920RS6CGAVDFVYYJ0B5 ${plan}`,
    ]);
    expect(shown(g, [], [mine]).map(([k, v]) => `${k} ${v}`)).toEqual([`overridden by project myapp ${project}`]);
  });
});

describe('the warning of files left unread', () => {
  const problem = (file: string) => ({ file, line: 2, col: 7, code: 'yaml-syntax' as const, message: 'bad', severity: 'error' as const });
  it('names each invalid file, the verb agreeing with how many, and the command that shows the problems', () => {
    const one = unreadFilesText([problem('global/A.yaml')], 'the copies', 'agents');
    expect(one).toMatch(/global\/A\.yaml is invalid and was not read: run `agents validate` to see the problem$/);
    const two = unreadFilesText([problem('global/A.yaml'), problem('global/B.yaml'), problem('global/B.yaml')], 'the copies', 'agents');
    expect(two).toMatch(
      /2 files are invalid \(global\/A\.yaml, global\/B\.yaml\) and were not read: run `agents validate` to see the 3 problems$/,
    );
    expect(unreadFilesText([], 'the copies', 'agents')).toBeUndefined();
  });
});
