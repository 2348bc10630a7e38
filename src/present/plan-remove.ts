// `plan remove`'s output (docs/json-output.md): the plan removed, its files, and the active plan it cleared.
import type { Style } from '../core/style.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { PlanRemoved } from '../service/plans/types.ts';
import { planJson } from './plan.ts';

export function planRemovedJson(r: PlanRemoved) {
  return {
    plan: planJson(r.plan),
    folder: r.folder,
    removed: r.removed,
    left: r.left ?? null,
    active_cleared: r.activeCleared,
    // Why the active plan could not be checked or cleared, for a caller reading the JSON alone (stderr has the note).
    active_error: r.activeError ?? null,
    // Which failed: `read` (whether it named the plan is unknown) or `write` (it names the plan still).
    active_failure: r.activeFailure ?? null,
    commit: r.commit ?? null,
  };
}

export function planRemovedText(s: Style, r: PlanRemoved): string {
  const n = r.removed.length;
  return [
    `${s.yellow('removed')} plan ${s.bold(r.plan.id)} (${r.folder}/, ${n} file${n === 1 ? '' : 's'})`,
    ...(r.plan.goal ? [`  ${escapeUnsafe(r.plan.goal)}`] : []),
    ...(r.activeCleared ? ['  it was the active plan: no plan is active now'] : []),
    ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
  ].join('\n');
}

/** What the removal leaves to do, for stderr: a temporary left behind, an active plan that could not be cleared. */
export function planRemovedNotes(r: PlanRemoved, agents: string): string[] {
  return [
    ...(r.left !== undefined
      ? [`${r.left} could not be deleted; the plan is gone for every reader. Run \`${agents} validate --fix\` to delete it.`]
      : []),
    // Read and found naming the plan, only its clearing failed: said so, not as a file that could not be checked.
    ...(r.activeError === undefined
      ? []
      : r.activeFailure === 'write'
        ? [
            `the active plan names ${r.plan.id}, and could not be cleared (${r.activeError}). Run \`${agents} plan activate --clear\` once it can be written.`,
          ]
        : [`the active plan could not be read (${r.activeError}). Run \`${agents} plan activate --clear\` if it named ${r.plan.id}.`]),
  ];
}
