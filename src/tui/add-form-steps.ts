// The add and edit forms' steps: their order's lists (scopes, severities, states), the step a refusal is about and
// the key line each step shows, apart from the form that draws them.
import { SEVERITIES, type Scope, type Severity } from '../core/model.ts';
import type { ScopeCatalog } from '../service/invariant-service.ts';
import { fitKeys, plain } from './plain.ts';
import type { SelectItem } from './SelectList.tsx';

export type Step = 'scope' | 'new-project' | 'text' | 'severity' | 'tags' | 'rationale' | 'guard' | 'active' | 'confirm' | 'saving';
export type ScopeChoice = Scope | 'new-project';

export const ACTIVE_ITEMS: SelectItem<boolean>[] = [
  { label: 'active', value: true, hint: 'applies' },
  { label: 'inactive', value: false, hint: 'kept in the store, not applied' },
];

export const SEVERITY_ITEMS: SelectItem<Severity>[] = SEVERITIES.map((s) => ({
  label: s,
  value: s,
  hint: s === 'error' ? 'a violation fails the check' : s === 'warning' ? 'reported, does not fail' : 'for information',
}));

export function scopeItems(catalog: ScopeCatalog): SelectItem<ScopeChoice>[] {
  const items: SelectItem<ScopeChoice>[] = [{ label: 'global', value: { kind: 'global' }, hint: 'every project and plan' }];
  for (const p of catalog.projects) items.push({ label: `project ${p}`, value: { kind: 'project', project: p } });
  items.push({ label: 'project (new)…', value: 'new-project', hint: 'type a name' });
  for (const a of catalog.actions) {
    const [ns = '', name = ''] = a.split('/');
    items.push({ label: `action ${a}`, value: { kind: 'action', ns, name }, hint: 'copied into plans made from it' });
  }
  for (const plan of catalog.plans) {
    const hint = plain([plan.project ? `project ${plan.project}` : '', plan.goal ?? ''].filter(Boolean).join(' · '));
    items.push({ label: `plan ${plan.id}`, value: { kind: 'plan', plan: plan.id }, ...(hint ? { hint } : {}) });
  }
  return items;
}

/** Refusals about the store as the save met it (another writer's lock, a change under it, a write the disk refused). */
const RETRIED: ReadonlySet<string> = new Set(['locked', 'store-changed', 'write-failed']);

/**
 * The step whose answer a refusal of `add` or `edit` is about, by how the refusal begins (service/invariants/rules.ts,
 * core/guard-entries.ts): a word met elsewhere in a message (a project named "tagging", a pattern holding "tag") must
 * not send the user to another step. One about no answer (`code`: a lock, the store changed) stays at the
 * confirmation.
 */
export function stepOfProblem(message: string, code?: string): Step {
  // Nothing the form asked is wrong: the same save may pass once the other writer is done, so Enter tries it again.
  if (code !== undefined && RETRIED.has(code)) return 'confirm';
  if (/^(tag "|\S+ has no tag ")/.test(message)) return 'tags';
  if (/^the rationale /.test(message)) return 'rationale';
  if (/^(write glob|command pattern|content pattern) "/.test(message)) return 'guard';
  return 'text';
}

/**
 * The key line under the form: only keys that work on this step (a test presses each), within `columns`. On a narrow
 * terminal Shift-Tab back gives way first, then n (Esc cancels as well): the way out stays whole on the line.
 */
export function formHint(step: Step, steps: readonly Step[], columns = Number.POSITIVE_INFINITY): string {
  const keys: string[] = [];
  if (step === 'confirm') keys.push('Enter/y save', 'n cancel');
  if (step !== 'saving') keys.push('Esc cancel');
  if (step === 'new-project' || steps.indexOf(step) > 0) keys.push('Shift-Tab back');
  const giveWay = [keys.indexOf('Shift-Tab back'), keys.indexOf('n cancel')].filter((i) => i >= 0);
  return fitKeys(keys, giveWay, columns);
}
