/**
 * The one section `agents export --stdout` prints: a plan's or a project's
 * whole effective set, with the precedence it holds. Pure.
 */
import type { ExportSection } from './export.ts';
import { describeScope, type Target } from './model.ts';
import type { EffectiveEntry } from './resolve.ts';

export function standaloneSection(t: Target, entries: readonly EffectiveEntry[]): ExportSection {
  // The precedence said is the one the set holds: inherited invariants come last, below global.
  const below = entries.some((e) => e.invariant.scope.kind === 'inherited') ? ' > inherited' : '';
  return t.kind === 'plan'
    ? {
        title: `Plan ${t.plan}`,
        scope: describeScope({ kind: 'plan', plan: t.plan }),
        notes: [`The effective set of plan ${t.plan}${t.project ? ` (project ${t.project})` : ''}: plan > project > global${below}.`],
        entries,
      }
    : {
        title: `Project ${t.project}`,
        scope: `project ${t.project}`,
        notes: [`The effective set of project ${t.project}: project > global${below}.`],
        entries,
      };
}
