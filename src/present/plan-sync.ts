// The shape `plan sync` prints (docs/json-output.md): the plan, each change the action template's drift makes to its
// promoted copies, what is skipped and why; built here so that the command only gathers what the service did.
import type { Style } from '../core/style.ts';
import type { SyncResult } from '../service/plan-service.ts';
import { invariantJson } from './invariant.ts';
import { strandedJson, strandedNote } from './invariant-write.ts';
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
    stranded_waivers: strandedJson(r),
    commit: r.commit ?? null,
  };
}

/**
 * One change or skip of a sync in words: its word (changed, removed, added, skipped), the rest of its line, and the
 * lines under it that say what changes. The CLI's text and the TUI's confirmation both say these.
 */
export interface SyncEntry {
  word: 'changed' | 'removed' | 'added' | 'skipped';
  rest: string;
  under: string[];
}

export function syncEntries(r: Pick<SyncResult, 'changes' | 'skipped'>): SyncEntry[] {
  const out: SyncEntry[] = [];
  for (const c of r.changes) {
    if (c.kind === 'changed') {
      const under: string[] = [];
      if (c.before.text !== c.after.text) under.push(`"${c.before.text}" → "${c.after.text}"`);
      if (c.before.severity !== c.after.severity) under.push(`severity ${c.before.severity} → ${c.after.severity}`);
      const active = activeChangeText(c.before, c.after);
      if (active) under.push(active);
      out.push({ word: 'changed', rest: `  ${c.before.id} (${(c.drift.fields ?? []).join(', ')})`, under });
    } else if (c.kind === 'removed') {
      out.push({
        word: 'removed',
        rest: `  ${c.before.id} "${c.before.text}" (origin ${c.drift.origin_id} left ${c.drift.action})`,
        under: [],
      });
    } else {
      const id = c.after ? `${c.after.id} ` : '';
      out.push({ word: 'added', rest: `    ${id}"${c.origin.text}" (from ${c.drift.action} ${c.origin.id})`, under: [] });
    }
  }
  for (const k of r.skipped) out.push({ word: 'skipped', rest: `  ${k.drift.kind} ${k.drift.origin_id}: ${k.reason}`, under: [] });
  return out;
}

/** The text of `plan sync`: synced or would sync, one line per change with what it changes, then what is skipped. */
export function syncText(s: Style, r: SyncResult): string {
  const lines: string[] = [];
  const n = r.changes.length;
  if (n === 0)
    lines.push(`plan ${r.plan.id} is in step with its action template${r.skipped.length ? ' (apart from what is skipped below)' : ''}`);
  else lines.push(`${r.applied ? s.green('synced') : 'would sync'} plan ${s.bold(r.plan.id)}: ${n} change${n === 1 ? '' : 's'}`);
  const hue = { changed: s.yellow, removed: s.red, added: s.green } as const;
  for (const e of syncEntries(r)) {
    lines.push(e.word === 'skipped' ? `  ${s.dim(`${e.word}${e.rest}`)}` : `  ${hue[e.word](e.word)}${e.rest}`);
    for (const u of e.under) lines.push(`      ${u}`);
  }
  if (r.commit) lines.push(`  committed ${r.commit.slice(0, 12)}`);
  return lines.join('\n');
}

/** The notes on stderr of the plan's waivers the sync left behind: of a copy it removed, or made inactive. */
export function syncStrandedNotes(r: SyncResult, agents: string): string[] {
  const notes: string[] = [];
  for (const c of r.changes) {
    if (c.kind === 'added') continue;
    const after = c.kind === 'changed' ? c.after : undefined;
    for (const w of r.strandedWaivers ?? []) if (w.invariant_id === c.before.id) notes.push(strandedNote(w, c.before.id, after, agents));
  }
  return notes;
}
