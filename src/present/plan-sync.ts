// The shape `plan sync` prints (docs/json-output.md): the plan, each change the action template's drift makes to its
// promoted copies, what is skipped and why; built here so that the command only gathers what the service did.
import type { Style } from '../core/style.ts';
import type { SyncResult } from '../service/plan-service.ts';
import { invariantJson } from './invariant.ts';
import { activeChangeText, planJson } from './plan.ts';

/** The JSON of `plan sync`: an added copy not yet written gives its origin's text and severity as `after`. */
export function syncJson(r: SyncResult) {
  return {
    plan: planJson(r.plan),
    applied: r.applied,
    changes: r.changes.map((c) => ({
      kind: c.kind,
      action: c.drift.action,
      origin_id: c.drift.origin_id,
      plan_invariant_id: c.kind === 'added' ? (c.after?.id ?? null) : c.before.id,
      fields: c.drift.fields ?? [],
      before: c.kind === 'added' ? null : invariantJson(c.before),
      after:
        c.kind === 'removed'
          ? null
          : c.kind === 'changed'
            ? invariantJson(c.after)
            : c.after
              ? invariantJson(c.after)
              : { text: c.origin.text, severity: c.origin.severity },
    })),
    skipped: r.skipped.map((k) => ({ kind: k.drift.kind, action: k.drift.action, origin_id: k.drift.origin_id, reason: k.reason })),
    commit: r.commit ?? null,
  };
}

/** The text of `plan sync`: synced or would sync, one line per change with what it changes, then what is skipped. */
export function syncText(s: Style, r: SyncResult): string {
  const lines: string[] = [];
  const n = r.changes.length;
  if (n === 0)
    lines.push(`plan ${r.plan.id} is in step with its action template${r.skipped.length ? ' (apart from what is skipped below)' : ''}`);
  else lines.push(`${r.applied ? s.green('synced') : 'would sync'} plan ${s.bold(r.plan.id)}: ${n} change${n === 1 ? '' : 's'}`);
  for (const c of r.changes) {
    if (c.kind === 'changed') {
      lines.push(`  ${s.yellow('changed')}  ${c.before.id} (${(c.drift.fields ?? []).join(', ')})`);
      if (c.before.text !== c.after.text) lines.push(`      "${c.before.text}" → "${c.after.text}"`);
      if (c.before.severity !== c.after.severity) lines.push(`      severity ${c.before.severity} → ${c.after.severity}`);
      const active = activeChangeText(c.before, c.after);
      if (active) lines.push(`      ${active}`);
    } else if (c.kind === 'removed') {
      lines.push(`  ${s.red('removed')}  ${c.before.id} "${c.before.text}" (origin ${c.drift.origin_id} left ${c.drift.action})`);
    } else {
      lines.push(`  ${s.green('added')}    ${c.after ? `${c.after.id} ` : ''}"${c.origin.text}" (from ${c.drift.action} ${c.origin.id})`);
    }
  }
  for (const k of r.skipped) lines.push(`  ${s.dim(`skipped  ${k.drift.kind} ${k.drift.origin_id}: ${k.reason}`)}`);
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  return lines.join('\n');
}
