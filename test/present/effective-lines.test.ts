import { describe, expect, it } from 'vitest';
import type { ScopedInvariant } from '../../src/core/model.ts';
import type { EffectiveEntry } from '../../src/core/resolve.ts';
import { makeStyle } from '../../src/core/style.ts';
import { type EffectiveData, effectiveData, effectiveLines, effectiveMarkdown } from '../../src/present/effective.ts';
import type { WaiverState } from '../../src/service/invariant-service.ts';
import { runAgents } from '../helpers/main.ts';
import { exampleStore } from '../helpers/plans.ts';

const id = (n: number) => `01JDQ6X5Z8W4N3B2C1D${String(n).padStart(7, '0')}`;

function entry(n: number, scope: ScopedInvariant['scope'], shadows: EffectiveEntry['shadows'] = []): EffectiveEntry {
  const invariant = {
    id: id(n),
    text: `Keep record ${n}`,
    severity: 'error',
    active: true,
    tags: n % 2 ? ['ops'] : [],
    scope,
    path: `x/${id(n)}.yaml`,
  } as unknown as ScopedInvariant;
  return { invariant, shadows };
}

describe('effectiveLines', () => {
  it('gives every entry its lines in order across the pieces it is built in, with its hidden copies and waivers', () => {
    const project = { kind: 'project', project: 'app' } as const;
    const global = { kind: 'global' } as const;
    const shadow = { id: id(9000), scope: 'global', path: `global/${id(9000)}.yaml`, overridden: false };
    // 600 project entries (more than two pieces of 256), then 300 global ones.
    const entries = [
      ...Array.from({ length: 600 }, (_, i) => entry(i, project, i === 255 || i === 256 ? [shadow as never] : [])),
      ...Array.from({ length: 300 }, (_, i) => entry(600 + i, global)),
    ];
    const waiver = {
      id: 'W1',
      invariant_id: id(256),
      scope: project,
      expires: '2999-12-31T00:00:00Z',
      owner: 'Ops',
      reason: 'Legacy',
      holds: true,
    } as unknown as WaiverState;
    const target = { kind: 'project', project: 'app' } as never;
    const text = [...effectiveLines(makeStyle(false), { target, entries, waivers: [waiver] })].join('\n').split('\n');

    // What each entry shows, one line at a time, as a reader expects it.
    const expected = [`Effective set of project app: 900 invariants  (plan > project > global > inherited)`, '', 'project app'];
    for (const [i, e] of entries.entries()) {
      if (i === 600) expected.push('', 'global');
      const inv = e.invariant;
      expected.push(`  ${String(i + 1).padStart(2)}. ${inv.text}`);
      expected.push(`      ${[inv.id, 'error', ...(inv.tags.length ? ['#ops'] : [])].join(' · ')}`);
      for (const r of e.shadows) expected.push(`      shadows ${r.scope} ${r.id}  ${r.path}`);
      if (i === 256) expected.push(`      waived until 2999-12-31T00:00:00Z (project app, W1, owner Ops): Legacy`);
    }
    expect(text).toEqual(expected);
  });
});

describe('invariant list --effective with a pattern', () => {
  it('says the entries are those the pattern matched, not the size of the whole set', async () => {
    const root = exampleStore();
    const whole = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp'], { cwd: root });
    expect(whole.code).toBe(0);
    expect(whole.stdout.split('\n')[0]).toMatch(/^Effective set of project myapp: 3 invariants {2}\(/);
    const some = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp', 'tests'], { cwd: root });
    expect(some.code).toBe(0);
    expect(some.stdout.split('\n')[0]).toMatch(/^Effective set of project myapp: 1 invariant matching "tests" {2}\(/);
  });
});

describe('effectiveMarkdown', () => {
  it('says how many invariants apply, one in the singular', () => {
    const data = (count: number) =>
      ({ target: { kind: 'project', project: 'app', plan: null }, count, invariants: [], warnings: [] }) as unknown as EffectiveData;
    expect(effectiveMarkdown(data(1))).toContain('\n1 invariant applies (precedence');
    expect(effectiveMarkdown(data(2))).toContain('\n2 invariants apply (precedence');
  });

  it('says each waiver under the entry it waives, held or expired, as the CLI text says them', () => {
    const project = { kind: 'project', project: 'app' } as const;
    const entries = [entry(1, project), entry(2, project)];
    const waiver = (n: number, holds: boolean) =>
      ({
        id: `W${n}`,
        invariant_id: id(n),
        scope: project,
        expires: holds ? '2999-12-31' : '2001-01-01',
        owner: 'Ops',
        reason: 'Legacy',
        holds,
        path: `projects/app/waivers/W${n}.yaml`,
        created_at: '2000-01-01T00:00:00Z',
      }) as unknown as WaiverState;
    const result = {
      target: { kind: 'project', project: 'app' } as never,
      entries,
      waivers: [waiver(1, true), waiver(2, false)],
      warnings: [],
    };
    const md = effectiveMarkdown(effectiveData(result)).split('\n');
    const text = [...effectiveLines(makeStyle(false), result)].join('\n').split('\n');
    for (const n of [1, 2]) {
      const said = text.find((l) => l.includes(`(project app, W${n}, owner Ops): Legacy`))!.trim();
      expect(md[md.findIndex((l) => l.startsWith(`${n}. Keep record ${n} `)) + 1]).toBe(`   ${said[0]!.toUpperCase()}${said.slice(1)}`);
    }
  });
});
