import { describe, expect, it } from 'vitest';
import { buildGuardIndex, type GuardAction, type GuardIndex } from '../../src/core/guard.ts';
import { indexFits, isGuardIndexFrame } from '../../src/core/guard-index-shape.ts';
import type { Scope } from '../../src/core/model.ts';
import { scopedInvariant } from '../helpers/invariants.ts';

const NOW = new Date('2026-12-02T12:00:00Z');
const APP: Scope = { kind: 'project', project: 'app' };

/** An index through JSON, as the hook reads it: a global guard, and one of the project app at services/app/**. */
function kept(plan?: { id: string; project: string }): GuardIndex {
  const index = buildGuardIndex({
    invariants: [
      scopedInvariant('01JGGEBWJTQ6P08NTXZQ7T0001', { kind: 'global' }, 'No secrets', { guard: { write: ['secrets/**'] } }),
      scopedInvariant('01JGGEBWJTQ6P08NTXZQ7T0002', APP, 'No SQL', { guard: { write: ['**/*.sql'] } }),
    ],
    projects: new Map([['app', { paths: ['services/app/**'] }]]),
    waivers: [],
    now: NOW,
    ...(plan ? { plan } : {}),
  });
  return JSON.parse(JSON.stringify(index));
}

const inApp: GuardAction = { tool: 'Write', files: ['services/app/a.sql'], texts: [] };

describe('a kept guard index', () => {
  it('as built fits any action, and every part of it', () => {
    const index = kept();
    expect(isGuardIndexFrame(index)).toBe(true);
    expect(isGuardIndexFrame(kept({ id: '01JH5G411EVHG9XHQ43X20SSN4', project: 'app' }))).toBe(true);
    for (const action of [inApp, { tool: 'Bash', files: [], texts: [], command: 'ls', cwd: 'services/app' }, undefined])
      expect(indexFits(index, action)).toBe(true);
  });

  it('whose own fields are damaged is not one', () => {
    const damages: ((i: Record<string, unknown>) => void)[] = [
      (i) => (i.plan = 5),
      (i) => (i.onError = 'maybe'),
      (i) => (i.caseless = false),
      (i) => (i.rules = {}),
      (i) => (i.heads = []),
      (i) => delete i.projects,
      (i) => (i.extra = 1),
      (i) => (i.planProject = 'app'),
    ];
    for (const damage of damages) {
      const index = kept() as unknown as Record<string, unknown>;
      damage(index);
      expect(isGuardIndexFrame(index)).toBe(false);
    }
  });

  it('whose part an action reads is damaged does not fit that action, nor a call that reads every part', () => {
    type Parts = {
      rules: Record<string, unknown>[];
      contexts: Record<string, Record<string, unknown>>;
      heads: Record<string, unknown>;
      projects: Record<string, unknown>;
    };
    const damages: ((i: Parts) => void)[] = [
      (i) => (i.rules[1]!.text = 5),
      (i) => (i.rules[1]!.locked = false),
      (i) => (i.rules[1]!.guard = { write: [] }),
      (i) => (i.rules[1]!.guard = { write: 'x', tool: ['t'] }),
      (i) => (i.rules[1]!.guard = { paths: ['x'] }),
      (i) => (i.contexts.app!.rules = [0, 2]),
      (i) => (i.contexts.app!.rules = [0, -1]),
      (i) => (i.contexts.app!.waived = { 1: 'soon' }),
      (i) => delete i.contexts.app!.waived,
      (i) => delete i.contexts[''],
      (i) => (i.heads.services = 'app'),
      (i) => (i.heads.services = ['app', 'gone']),
      (i) => (i.projects.app = 'services/app/**'),
    ];
    for (const damage of damages) {
      const index = kept();
      damage(index as unknown as Parts);
      expect(isGuardIndexFrame(index)).toBe(true);
      expect([indexFits(index, inApp), indexFits(index)]).toEqual([false, false]);
    }
  });
});
