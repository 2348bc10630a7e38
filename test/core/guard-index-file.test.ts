import { describe, expect, it } from 'vitest';
import { actionProjects, buildGuardIndex, evaluateGuards, type GuardAction, GuardMatchers, indexPart } from '../../src/core/guard.ts';
import { encodeGuardIndex, GUARD_INDEX_FORMAT, KeptGuardIndex } from '../../src/core/guard-index-file.ts';
import { compileRegex } from '../../src/core/guard-patterns.ts';
import type { Guard, Scope, ScopedInvariant } from '../../src/core/model.ts';
import type { ScopedWaiver } from '../../src/core/waivers.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const NOW = new Date('2026-12-02T12:00:00Z');
const PLAN = '01JH5G411EVHG9XHQ43X20SSN4';

/** Names whose order differs once written as JSON (a quote or a backslash is escaped), or beyond ASCII. */
const ODD = ['a"b', 'a!b', 'a\\b', 'a#b', 'é', 'z', 'x\ty', 'app'];

function store(): { invariants: ScopedInvariant[]; projects: Map<string, { paths: string[] }>; waivers: ScopedWaiver[] } {
  const projects = new Map<string, { paths: string[] }>();
  for (const [i, name] of ODD.entries()) projects.set(name, { paths: [`${name}/**`, `shared/${i}/**`, `*.p${i}`] });
  const invariants: ScopedInvariant[] = [];
  let n = 0;
  const add = (scope: Scope, guard: Guard) => {
    n++;
    const id = `01JGGEBWJTQ6P08NTXZQ7T${String(n).padStart(4, '0')}`;
    invariants.push(scopedInvariant(id, scope, `invariant ${n}`, { guard }));
    return id;
  };
  add({ kind: 'global' }, { write: ['vendor/**'], command: ['^rm '], content: ['SECRET_[0-9]{4}'], tool: ['drop'] });
  for (const [i, name] of ODD.entries()) {
    add({ kind: 'project', project: name }, { write: [`${name}/gen/**`], command: [`deploy-${i}`], content: [`KEY${i}`] });
  }
  add({ kind: 'plan', plan: PLAN }, { write: ['**/*.lock'] });
  const waived = add({ kind: 'project', project: 'z' }, { write: ['z/w/**'] });
  const waivers: ScopedWaiver[] = [
    {
      id: '01JH5G411EVHG9XHQ43X20W000',
      invariant_id: waived,
      reason: 'r',
      owner: 'o',
      expires: '2026-12-31',
      created_at: '2026-12-01T00:00:00Z',
      scope: { kind: 'project', project: 'z' },
      path: 'x',
    },
  ];
  return { invariants, projects, waivers };
}

/** Every action the store's guards can tell apart: each kind, in each project, in none, from each folder. */
function actions(): GuardAction[] {
  const out: GuardAction[] = [];
  const places = ['', 'vendor/x', 'nowhere/a.ts', 'shared/3/a.ts', 'b.p2', 'a.lock', ...ODD.flatMap((p) => [`${p}/a.ts`, `${p}/gen/a.ts`])];
  for (const place of places) {
    const texts = [[], ['SECRET_1234'], ['KEY3 and KEY5'], ['nothing']];
    for (const t of texts) if (place !== '') out.push({ tool: 'Write', files: [place], texts: t });
    for (const command of ['rm -r x', 'deploy-2', 'deploy-7 now', 'ls'])
      out.push({ tool: 'Bash', files: [], texts: [], command, cwd: place.replace(/\/[^/]*$/, '') });
    out.push({ tool: 'drop', files: [], texts: [], cwd: place });
  }
  out.push({ tool: 'Write', files: ODD.map((p) => `${p}/gen/b.ts`), texts: ['SECRET_9999'] });
  out.push({ tool: 'Write', files: [], texts: ['KEY1'] });
  return out;
}

describe('the kept guard index', () => {
  for (const plan of [false, true]) {
    it(`judges every action from only its part as from the whole index${plan ? ', with a plan active' : ''}`, () => {
      const s = store();
      const index = buildGuardIndex({ ...s, plan: plan ? { id: PLAN } : undefined, now: NOW });
      const kept = KeptGuardIndex.open(encodeGuardIndex(index, {}))!;
      expect(kept.plan).toBe(plan ? PLAN : null);
      const m = new GuardMatchers(compileRegex);
      let decided = 0;
      for (const action of actions()) {
        const part = indexPart(kept, action);
        const whole = evaluateGuards(index, action, NOW, m);
        expect(evaluateGuards(part, action, NOW, m), JSON.stringify(action)).toEqual(whole);
        expect(actionProjects(part, action)).toEqual(actionProjects(index, action));
        if (whole.decision !== 'none') decided++;
      }
      // The actions do reach guards of every kind: the comparison is not of empty verdicts.
      expect(decided).toBeGreaterThan(40);
    });
  }

  it("keeps each stamp: the fixed folders' in its first line, each project's on that project's line", () => {
    const s = store();
    const index = buildGuardIndex({ ...s, now: NOW });
    const stamps: Record<string, string> = { '': '1', global: '2#h', projects: '3', 'config.yaml': '-' };
    for (const name of ODD) {
      stamps[`projects/${name}`] = `p:${name}`;
      stamps[`projects/${name}/waivers`] = '-';
    }
    stamps['projects/empty'] = 'e';
    const kept = KeptGuardIndex.open(encodeGuardIndex(index, stamps))!;
    for (const [path, value] of Object.entries(stamps)) expect(kept.stamp(path), path).toBe(value);
    expect(kept.stamp('projects/other')).toBeUndefined();
    expect(kept.stamp('plans/x')).toBeUndefined();
    expect(kept.context('empty')).toBeUndefined();
    expect(kept.globs('a"b')).toEqual(['a"b/**', 'shared/0/**', '*.p0']);
    expect(kept.head('shared')).toEqual(ODD);
    expect(kept.head('nothing')).toBeUndefined();
  });

  it('is refused when it is of another format, cut short or not an index at all (the caller rebuilds it)', () => {
    const text = new TextDecoder().decode(encodeGuardIndex(buildGuardIndex({ ...store(), now: NOW }), { '': '1' }));
    const open = (t: string) => KeptGuardIndex.open(new TextEncoder().encode(t));
    expect(open(text)).toBeDefined();
    const header = JSON.parse(text.slice(0, text.indexOf('\n')));
    const other = `${JSON.stringify({ ...header, format: GUARD_INDEX_FORMAT - 1 })}${text.slice(text.indexOf('\n'))}`;
    for (const bad of [
      '',
      '{}',
      JSON.stringify({ format: 3, stamps: {}, index: { rules: [] } }),
      other,
      text.slice(0, text.length - 200),
      text.slice(0, text.indexOf('\n') - 1),
    ])
      expect(open(bad)).toBeUndefined();
    // A line that does not decode throws when it is read, never answers as if there were no guard.
    const garbled = text.replace(/\n"app"\t[^\n]*/, '\n"app"\t{"stamps":');
    const kept = open(garbled)!;
    expect(() => indexPart(kept, { tool: 'Write', files: ['app/a.ts'], texts: [] })).toThrow();
  });
});
