import {
  type FieldChange,
  type InvariantChange,
  type PlanChange,
  type TargetDiff,
  targetChanged,
  type WaiverChange,
} from '../core/diff.ts';
import type { WaiverFieldChange } from '../core/diff-meta.ts';
import { describeScope, type Scope, type ScopedInvariant } from '../core/model.ts';
import { quoteText } from '../core/plain-text.ts';
import type { DiffResult, SideInfo } from '../service/review-service.ts';
import type { PolicyMove } from '../service/review-extends.ts';
import { invariantJson } from './invariant.ts';
import { waiverJson } from './plan.ts';
import type { Style } from '../core/style.ts';

/** A short reference to an invariant in JSON output. */
export interface InvariantRefJson {
  id: string;
  text: string;
  severity: string;
  active: boolean;
  scope: Scope['kind'];
  project: string | null;
  plan: string | null;
  path: string;
}

/** The reference keys of the full invariant JSON shape (render.ts), in the same order. */
function ref(inv: ScopedInvariant): InvariantRefJson {
  const { id, text, severity, active, scope, project, plan, path } = invariantJson(inv);
  return { id, text, severity, active, scope, project, plan, path };
}

/**
 * Whether a change's invariant is inactive on the side it is shown by, its `active` unchanged: a file added (or removed,
 * moved, edited) that is in no effective set, which the listing of files alone would show as any other.
 */
export function inactiveFile(c: InvariantChange): boolean {
  return (c.after ?? c.before)!.active === false && !c.fields.some((f) => f.field === 'active');
}

/** A changed field of an invariant or a waiver; a scope is described as the invariant JSON does. */
function fieldJson(f: FieldChange | WaiverFieldChange): { field: string; before: unknown; after: unknown } {
  const scoped = (v: unknown) => (f.field === 'scope' ? describeScope(v as Scope) : v);
  return { field: f.field, before: scoped(f.before), after: scoped(f.after) };
}

function sideJson(s: SideInfo): {
  label: string;
  kind: string;
  commit: string | null;
  merge_base_of: [string, string] | null;
  missing_store: string | null;
} {
  return {
    label: s.label,
    kind: s.kind,
    commit: s.commit ?? null,
    merge_base_of: s.mergeBaseOf ?? null,
    missing_store: s.missingStore ?? null,
  };
}

export function summary(
  d: DiffResult,
): Record<'added' | 'removed' | 'edited' | 'moved', number> & { plans: number; targets: number; waivers: number; projectPaths: number } {
  const count = (c: InvariantChange['change']) => d.invariants.filter((i) => i.change === c).length;
  return {
    added: count('added'),
    removed: count('removed'),
    edited: count('edited'),
    moved: count('moved'),
    plans: d.plans.length,
    // --project and --all-projects report sets that did not change: they are not counted as changed.
    targets: d.targets.filter(targetChanged).length,
    waivers: d.waivers.length,
    projectPaths: d.projectPaths.length,
  };
}

/** The stable JSON shape of a diff (docs/json-output.md); `target` gives each effective set's entry. */
export function diffJson(d: DiffResult, target: (t: TargetDiff) => unknown = targetJson): Record<string, unknown> {
  const s = summary(d);
  return {
    range: d.range,
    before: sideJson(d.before),
    after: sideJson(d.after),
    summary: {
      added: s.added,
      removed: s.removed,
      edited: s.edited,
      moved: s.moved,
      plans_changed: s.plans,
      targets_changed: s.targets,
      waivers_changed: s.waivers,
      project_paths_changed: s.projectPaths,
    },
    invariants: d.invariants.map((c) => ({
      change: c.change,
      id: c.id,
      path: c.path,
      from_path: c.fromPath ?? null,
      before: c.before ? ref(c.before) : null,
      after: c.after ? ref(c.after) : null,
      fields: c.fields.map(fieldJson),
    })),
    waivers: d.waivers.map((c) => ({
      change: c.change,
      id: c.id,
      path: c.path,
      from_path: c.fromPath ?? null,
      before: c.before ? waiverJson(c.before) : null,
      after: c.after ? waiverJson(c.after) : null,
      fields: c.fields.map(fieldJson),
      invariant: c.invariant ? ref(c.invariant) : null,
    })),
    project_paths: d.projectPaths.map((p) => ({ project: p.project, before: p.before, after: p.after })),
    policy_sources: (d.policySources ?? []).map((m) => ({
      name: m.name,
      before: m.before,
      after: m.after,
      ref_unchanged: m.refUnchanged,
      not_pinned: m.notPinned,
      entered: m.entered.map((i) => i.id),
      left: m.left.map((i) => i.id),
      edited: m.edited.map((i) => i.id),
    })),
    policy_order: d.policyOrder ?? null,
    plans: d.plans.map((p) => ({
      change: p.change,
      plan: p.plan,
      project_before: p.before?.project ?? null,
      project_after: p.after?.project ?? null,
    })),
    targets: d.targets.map((t) => target(t)),
  };
}

/**
 * `diffJson` for JSON or YAML text written a slice at a time (render.ts,
 * `emitDocument`): the same text, but each effective set's entries are made
 * only as `JSON.stringify` or the YAML writer reaches them (`toJSON`), so the
 * entries of a thousand projects are never all objects at once.
 */
export function diffJsonDeferred(d: DiffResult): Record<string, unknown> {
  return diffJson(d, (t) => ({ toJSON: () => targetJson(t) }));
}

function targetJson(t: TargetDiff): unknown {
  return {
    kind: t.target.kind,
    project: t.target.kind === 'project' ? t.target.project : null,
    plan: t.target.kind === 'plan' ? t.target.plan : null,
    project_before: t.projectBefore ?? null,
    project_after: t.projectAfter ?? null,
    exists_before: t.existsBefore,
    exists_after: t.existsAfter,
    count_before: t.countBefore,
    count_after: t.countAfter,
    entered: t.entered.map(ref),
    left: t.left.map(ref),
    newly_shadowed: t.newlyShadowed.map((x) => ({ ...ref(x.invariant), by: ref(x.by), was_effective: x.wasEffective ?? false })),
    no_longer_shadowed: t.noLongerShadowed.map((x) => ({ ...ref(x.invariant), by: ref(x.by) })),
    changed: t.changed.map((x) => ({ ...ref(x.invariant), fields: x.fields.map(fieldJson) })),
  };
}

function sideText(s: SideInfo): string {
  const notes = [
    ...(s.commit ? [s.commit.slice(0, 12)] : []),
    ...(s.missingStore !== undefined ? [noStoreText(s.missingStore, (x) => x)] : []),
  ];
  return notes.length > 0 ? `${s.label} (${notes.join('; ')})` : s.label;
}

/**
 * What a side holding no store where the diff reads it says: its files read as all added or all removed, which a
 * store renamed between the sides makes of every invariant it holds. `code`: how the folder's name is written.
 */
export function noStoreText(prefix: string, code: (text: string) => string): string {
  return `no store at ${code(prefix === '' ? './' : `${prefix}/`)}`;
}

/** The shared one-line quoting (core/plain-text.ts): nothing in a text can hide from the reviewer. */
function quote(text: string): string {
  return quoteText(text);
}

function fieldText(f: FieldChange): string {
  const v = (x: unknown) => (f.field === 'scope' ? describeScope(x as Scope) : typeof x === 'string' ? quote(x) : JSON.stringify(x));
  return `${f.field}: ${v(f.before)} → ${v(f.after)}`;
}

function waiverFieldText(f: WaiverFieldChange): string {
  const v = (x: unknown) => (f.field === 'scope' ? describeScope(x as Scope) : typeof x === 'string' ? quote(x) : JSON.stringify(x));
  return `${f.field}: ${v(f.before)} → ${v(f.after)}`;
}

/** What a waiver waives and until when: "waives 01J… "text" until 2027-01-31 (owner …): reason". */
function waivedText(c: WaiverChange): string {
  const w = (c.after ?? c.before)!;
  const text = c.invariant ? ` ${quote(c.invariant.text)}` : '';
  return `waives ${w.invariant_id}${text} until ${w.expires} (owner ${quote(w.owner)}): ${quote(w.reason)}`;
}

/** The globs of `a` that `b` does not hold, in `a`'s order. */
export function pathsOnly(a: readonly string[] | null, b: readonly string[] | null): string[] {
  const other = new Set(b ?? []);
  return (a ?? []).filter((g) => !other.has(g));
}

/** A plan's project in its title: before → after only for a plan on both sides pointed at another (an added one never was). */
export function planProjectText(t: TargetDiff, name: (project: string | undefined) => string): string {
  if (t.target.kind !== 'plan') return '';
  if (t.existsBefore && t.existsAfter && t.projectBefore !== t.projectAfter)
    return ` (project ${name(t.projectBefore)} → ${name(t.projectAfter)})`;
  const project = t.existsAfter ? t.projectAfter : t.projectBefore;
  return project ? ` (project ${name(project)})` : '';
}

function targetTitle(t: TargetDiff): string {
  if (t.target.kind === 'project') return `project ${t.target.project}`;
  return `plan ${t.target.plan}${planProjectText(t, (x) => x ?? 'none')}`;
}

export function targetCounts(t: TargetDiff): string {
  const kind = t.target.kind;
  if (!t.existsBefore) return `new ${kind}, ${t.countAfter} invariant${t.countAfter === 1 ? '' : 's'}`;
  if (!t.existsAfter) return `${kind} removed (had ${t.countBefore})`;
  return `${t.countBefore} → ${t.countAfter} invariant${t.countAfter === 1 ? '' : 's'}`;
}

export function summaryLine(d: DiffResult): string {
  const s = summary(d);
  const parts: string[] = [];
  for (const k of ['added', 'removed', 'edited', 'moved'] as const) if (s[k] > 0) parts.push(`${s[k]} ${k}`);
  const files = parts.length ? parts.join(', ') : 'no invariant changed';
  const plans = s.plans > 0 ? `, ${s.plans} plan${s.plans === 1 ? '' : 's'} changed` : '';
  const waivers = s.waivers > 0 ? `, ${s.waivers} waiver${s.waivers === 1 ? '' : 's'} changed` : '';
  const paths = s.projectPaths > 0 ? `, the paths of ${s.projectPaths} project${s.projectPaths === 1 ? '' : 's'} changed` : '';
  return `${files}${plans}${waivers}${paths}; ${s.targets} effective set${s.targets === 1 ? '' : 's'} changed`;
}

/** Text for people. */
export function diffText(d: DiffResult, s: Style): string {
  return [...diffTextLines(d, s)].join('\n');
}

/**
 * The lines of `diffText`, made as they are written: a change of many global
 * invariants in a store of many projects lists each of them in every
 * project's effective set, millions of lines that are never one string.
 */
export function* diffTextLines(d: DiffResult, s: Style): Generator<string> {
  yield s.bold(`Invariant changes: ${sideText(d.before)} → ${sideText(d.after)}`);
  yield `  ${summaryLine(d)}`;
  if (d.policyOrder) yield* ['', s.cyan(policyOrderTitle(d.policyOrder))];
  for (const m of d.policySources ?? []) {
    yield '';
    yield s.cyan(policyMoveTitle(m));
    for (const i of m.entered) yield `  ${s.green('+ entered')}  ${i.id}  ${quote(i.text)}`;
    for (const i of m.left) yield `  ${s.red('- left')}     ${i.id}  ${quote(i.text)}`;
    for (const i of m.edited) yield `  ${s.yellow('* edited')}   ${i.id}  ${quote(i.text)}`;
  }
  if (d.invariants.length > 0) {
    yield '';
    yield s.cyan('Files');
    for (const c of d.invariants) {
      const inv = (c.after ?? c.before)!;
      const label = c.change.padEnd(7);
      const colour = c.change === 'added' ? s.green : c.change === 'removed' ? s.red : s.yellow;
      const where =
        c.change === 'moved' ? `${describeScope(c.before!.scope)} → ${describeScope(c.after!.scope)}` : describeScope(inv.scope);
      yield `  ${colour(label)}  ${inv.id}  ${where}  ${quote(inv.text)}${inactiveFile(c) ? s.dim('  (inactive: in no effective set)') : ''}`;
      for (const f of c.fields) if (f.field !== 'scope') yield `           ${s.dim(fieldText(f))}`;
    }
  }
  if (d.waivers.length > 0) {
    yield '';
    yield s.cyan('Waivers');
    for (const c of d.waivers) {
      const w = (c.after ?? c.before)!;
      const colour = c.change === 'added' ? s.green : c.change === 'removed' ? s.red : s.yellow;
      const where = c.change === 'moved' ? `${describeScope(c.before!.scope)} → ${describeScope(w.scope)}` : describeScope(w.scope);
      yield `  ${colour(c.change.padEnd(7))}  ${w.id}  ${where}  ${waivedText(c)}`;
      for (const f of c.fields) if (f.field !== 'scope') yield `           ${s.dim(waiverFieldText(f))}`;
    }
  }
  if (d.projectPaths.length > 0) {
    yield '';
    yield s.cyan('Project paths');
    for (const p of d.projectPaths) {
      yield `  project ${p.project}`;
      for (const g of pathsOnly(p.after, p.before)) yield `    ${s.green('+')} ${quote(g)}`;
      for (const g of pathsOnly(p.before, p.after)) yield `    ${s.red('-')} ${quote(g)}`;
      if (p.after === null) yield `    ${s.dim('(no paths now: the project covers no files)')}`;
    }
  }
  if (d.plans.length > 0) {
    yield '';
    yield s.cyan('Plans');
    for (const p of d.plans) yield `  ${p.change.padEnd(10)}  ${p.plan}  ${planText(p)}`;
  }
  for (const t of d.targets) {
    yield '';
    yield s.cyan(`Effective set of ${targetTitle(t)}: ${targetCounts(t)}`);
    // Each line is yielded as made, never a target's whole list: a set may hold thousands of entries.
    for (const i of t.entered) yield `  ${s.green('+ entered')}            ${describeScope(i.scope)} ${i.id}  ${quote(i.text)}`;
    for (const i of t.left) yield `  ${s.red('- left')}               ${describeScope(i.scope)} ${i.id}  ${quote(i.text)}`;
    for (const x of t.newlyShadowed) {
      yield `  ${s.yellow('~ newly shadowed')}     ${describeScope(x.invariant.scope)} ${x.invariant.id}  ${quote(x.invariant.text)}`;
      yield `      ${s.dim(`by ${describeScope(x.by.scope)} ${x.by.id}${x.wasEffective ? '' : ' (hidden on arrival)'}`)}`;
    }
    for (const x of t.noLongerShadowed) {
      yield `  ${s.green('^ back in effect')}     ${describeScope(x.invariant.scope)} ${x.invariant.id}  ${quote(x.invariant.text)}`;
      yield `      ${s.dim(`was shadowed by ${describeScope(x.by.scope)} ${x.by.id}`)}`;
    }
    for (const x of t.changed) {
      yield `  ${s.yellow('* changed')}            ${describeScope(x.invariant.scope)} ${x.invariant.id}  ${quote(x.invariant.text)}`;
      for (const f of x.fields) yield `      ${s.dim(fieldText(f))}`;
    }
    if (listed(t) === 0) yield '  (unchanged)';
  }
}

/** How many entries a target's lists hold: none means its set did not change (or only its plan's project did). */
export function listed(t: TargetDiff): number {
  return t.entered.length + t.left.length + t.newlyShadowed.length + t.noLongerShadowed.length + t.changed.length;
}

export function planText(p: PlanChange): string {
  if (p.change === 'retargeted') return `project ${p.before?.project ?? 'none'} → ${p.after?.project ?? 'none'}`;
  const plan = (p.after ?? p.before)!;
  return plan.project ? `targets project ${plan.project}` : 'targets no project';
}

/** "policy sources reordered: a, b → b, a": the first listed keeps a text both hold (docs/extends.md, "Review"). */
export function policyOrderTitle(o: { before: string[]; after: string[] }, code: (x: string) => string = (x) => x): string {
  const list = (names: string[]) => names.map(code).join(', ') || '(none)';
  return `policy sources reordered: ${list(o.before)} → ${list(o.after)}`;
}

/**
 * A source pinned on neither side, named without a pin on one or both (a first `extends:` committed without its
 * lock): that side is read without it, and every command that reads its policy sources refuses it until it is pinned.
 */
function unpinnedTitle(m: PolicyMove, name: string, code: (x: string) => string): string {
  const { before, after } = m.notPinned;
  if (after === null) return `policy source ${name} no longer named (it was not pinned before: ${code(before ?? '')})`;
  const was = before === null ? '' : ' still';
  return `policy source ${name}${was} not pinned: read without it, and refused (extends-not-pinned) by every command that reads the policy sources until \`extends update\` pins it: ${code(after)}`;
}

/** "policy source X moved from v3 to v4" (docs/extends.md, "Review"). */
export function policyMoveTitle(m: PolicyMove, code: (x: string) => string = (x) => x): string {
  // Names, refs and commit ids match their schemas' patterns: no markup can hide in them; a URL can hold any.
  const at = (p: { ref: string; commit: string }) =>
    p.ref === p.commit ? code(p.commit.slice(0, 12)) : `${code(p.ref)} (${code(p.commit.slice(0, 12))})`;
  const name = code(m.name);
  // A side whose config.yaml names the source without a matching pin reads it without it: said, not as a removal.
  if (!m.before && !m.after) return unpinnedTitle(m, name, code);
  if (!m.before)
    return m.notPinned.before
      ? `policy source ${name} pinned at ${at(m.after!)}, read without it before, where it was not pinned: ${code(m.notPinned.before)}`
      : `policy source ${name} added at ${at(m.after!)}`;
  if (!m.after)
    return m.notPinned.after
      ? `policy source ${name} not pinned now, read without it (was at ${at(m.before)}): ${code(m.notPinned.after)}`
      : `policy source ${name} removed (was at ${at(m.before)})`;
  const edited = m.refUnchanged ? ` (same ref ${code(m.after.ref)}: moved at the source, or the pin was edited by hand)` : '';
  const folder = m.before.path === m.after.path ? '' : `, now from the folder ${code(m.after.path)} (was ${code(m.before.path)})`;
  // A URL is anyone's to write in config.yaml: it is given to `code`, which a markdown caller makes hold any text.
  const url = m.before.url === m.after.url ? '' : `, now from ${code(m.after.url)} (was ${code(m.before.url)})`;
  return `policy source ${name} moved from ${at(m.before)} to ${at(m.after)}${edited}${folder}${url}`;
}
