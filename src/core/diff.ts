import { diffProjectPaths, diffWaiverFiles, type ProjectPathsChange, type WaiverChange } from './diff-meta.ts';
import { diffIdFiles, type IdFileChange } from './id-files.ts';

export type { IdFileChange } from './id-files.ts';
export type { ProjectPathsChange, WaiverChange } from './diff-meta.ts';
import { classifyPath } from './layout.ts';
import { scopeFolder, type Plan, type ProjectMeta, type Scope, type ScopedInvariant, type Target } from './model.ts';
import { textKey } from './normalise.ts';
import { appliesTo, resolveEffective } from './resolve.ts';
import type { ScopedWaiver } from './waivers.ts';

/**
 * What changed between two trees of one store (`agents invariant diff`).
 * Pure: the service reads the trees, works out which files changed (by blob
 * id) and which targets they can affect, and hands the parsed invariants here.
 */

/** A project or a plan, named the same way on both sides (a plan's project may differ). */
export type TargetRef = { kind: 'project'; project: string } | { kind: 'plan'; plan: string };

/** One side of a diff: the invariants read (any superset of what the targets need) and every plan. */
export interface DiffSide {
  invariants: readonly ScopedInvariant[];
  plans: ReadonlyMap<string, Plan>;
  /** The projects this side has (a folder, or a plan that targets it); absent: every project asked about. */
  projects?: ReadonlySet<string>;
}

export type InvariantField =
  | 'text'
  | 'severity'
  | 'active'
  | 'locked'
  | 'tags'
  | 'rationale'
  | 'overrides'
  | 'created_at'
  | 'created_by'
  | 'source'
  | 'guard'
  | 'scope';

export interface FieldChange {
  field: InvariantField;
  before: unknown;
  after: unknown;
}

/** A file-level change of one invariant. */
export type InvariantChange = IdFileChange<ScopedInvariant, FieldChange>;

export interface PlanChange {
  change: 'added' | 'removed' | 'retargeted';
  plan: string;
  before?: Plan;
  after?: Plan;
}

/** An entry of an effective set, as the diff reports it. */
export interface EntryRef {
  invariant: ScopedInvariant;
}

export interface ShadowChange {
  invariant: ScopedInvariant;
  /** The copy that hides it now (newly shadowed) or hid it before (no longer shadowed). */
  by: ScopedInvariant;
  /** Newly shadowed: whether it was in the effective set before (false: it is new, and hidden on arrival). */
  wasEffective?: boolean;
}

export interface EntryEdit {
  invariant: ScopedInvariant;
  fields: FieldChange[];
}

/** How one project's or plan's effective set changed. */
export interface TargetDiff {
  target: TargetRef;
  /** A plan's project on each side (absent: the plan targets no project, or does not exist on that side). */
  projectBefore?: string;
  projectAfter?: string;
  /** Whether the plan or project exists on each side (a project: see DiffSide.projects). */
  existsBefore: boolean;
  existsAfter: boolean;
  countBefore: number;
  countAfter: number;
  /** In the set after, not before, and not because a shadowing copy went away. */
  entered: ScopedInvariant[];
  /** In the set before, not after, and not because a copy now hides it. */
  left: ScopedInvariant[];
  newlyShadowed: ShadowChange[];
  /** Back in the set because the copy that hid it went away (deleted, edited, moved, deactivated). */
  noLongerShadowed: ShadowChange[];
  /** In the set on both sides, with fields that changed (severity, text, scope…). */
  changed: EntryEdit[];
}

export interface StoreDiff {
  invariants: InvariantChange[];
  plans: PlanChange[];
  targets: TargetDiff[];
  /** Waiver files added, removed, edited or moved (diff-meta.ts). */
  waivers: WaiverChange[];
  /** Projects whose paths changed (diff-meta.ts). */
  projectPaths: ProjectPathsChange[];
}

const FIELDS: readonly Exclude<InvariantField, 'scope'>[] = [
  'text',
  'severity',
  'active',
  // A policy source's floor (docs/extends.md, "Floors"): set or lifted, it decides what a copy here may weaken.
  'locked',
  'tags',
  'rationale',
  'overrides',
  'created_at',
  'created_by',
  'source',
  'guard',
];

function same(a: unknown, b: unknown): boolean {
  // Field values are strings, booleans, lists of strings and maps (absent ones made null): two differ
  // exactly when their JSON texts do.
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Fields that differ between two versions of one invariant (scope included when it moved). */
export function invariantFieldChanges(before: ScopedInvariant, after: ScopedInvariant): FieldChange[] {
  const out: FieldChange[] = [];
  if (scopeFolder(before.scope) !== scopeFolder(after.scope)) out.push({ field: 'scope', before: before.scope, after: after.scope });
  for (const f of FIELDS) {
    const a = before[f] ?? null;
    const b = after[f] ?? null;
    if (!same(a, b)) out.push({ field: f, before: a, after: b });
  }
  return out;
}

/** File-level changes between two lists of invariants (diffIdFiles). */
export function diffInvariantFiles(before: readonly ScopedInvariant[], after: readonly ScopedInvariant[]): InvariantChange[] {
  return diffIdFiles(before, after, invariantFieldChanges);
}

/** Plans added, removed, or pointed at another project. */
export function diffPlans(before: ReadonlyMap<string, Plan>, after: ReadonlyMap<string, Plan>): PlanChange[] {
  const out: PlanChange[] = [];
  for (const [id, b] of before) {
    const a = after.get(id);
    if (!a) out.push({ change: 'removed', plan: id, before: b });
    else if ((a.project ?? null) !== (b.project ?? null)) out.push({ change: 'retargeted', plan: id, before: b, after: a });
  }
  for (const [id, a] of after) if (!before.has(id)) out.push({ change: 'added', plan: id, after: a });
  return out.sort((x, y) => (x.plan < y.plan ? -1 : 1));
}

/** What a store folder holds, for working out the targets a change reaches. */
export interface SideShape {
  /** Projects with a folder on this side. */
  projects: ReadonlySet<string>;
  plans: ReadonlyMap<string, Plan>;
}

/**
 * Target order. This comparator and the others of this file answer -1 or 1, never 0: V8's sort only asks
 * whether an answer is below zero, so keys that are equal (the lists sorted here hold none) sort alike either way.
 */
function compareTargets(a: TargetRef, b: TargetRef): number {
  if (a.kind !== b.kind) return a.kind === 'project' ? -1 : 1;
  const x = a.kind === 'project' ? a.project : a.plan;
  const y = b.kind === 'project' ? (b as { project: string }).project : (b as { plan: string }).plan;
  return x < y ? -1 : 1;
}

export function targetKey(t: TargetRef): string {
  return t.kind === 'project' ? `project:${t.project}` : `plan:${t.plan}`;
}

/** Every project and plan of either side (projects named only by a plan included). */
export function allTargets(before: SideShape, after: SideShape): TargetRef[] {
  const projects = new Set<string>([...before.projects, ...after.projects]);
  const plans = new Set<string>();
  for (const side of [before, after]) {
    for (const p of side.plans.values()) {
      plans.add(p.id);
      if (p.project) projects.add(p.project);
    }
  }
  const out: TargetRef[] = [...projects].map((project) => ({ kind: 'project' as const, project }));
  for (const plan of plans) out.push({ kind: 'plan', plan });
  return out.sort(compareTargets);
}

/**
 * The projects and plans whose effective set a set of changed store paths can
 * change: a global file reaches every project and plan; `projects/P/…` reaches
 * P and the plans targeting P on either side; `plans/X/…` (an invariant or
 * plan.yaml) reaches X. Action templates and plan records reach no target.
 */
export function affectedTargets(changedPaths: Iterable<string>, before: SideShape, after: SideShape): TargetRef[] {
  const found = new Map<string, TargetRef>();
  const add = (t: TargetRef) => found.set(targetKey(t), t);
  const plansOf = (project: string) => {
    for (const side of [before, after]) for (const p of side.plans.values()) if (p.project === project) add({ kind: 'plan', plan: p.id });
  };
  for (const path of changedPaths) {
    const kind = classifyPath(path);
    let scope: Scope | undefined;
    if (kind.kind === 'invariant' || (kind.kind === 'bad-id' && kind.scope)) scope = kind.scope;
    else if (kind.kind === 'plan') scope = { kind: 'plan', plan: kind.plan };
    if (!scope) continue;
    switch (scope.kind) {
      case 'global':
        return allTargets(before, after);
      case 'project':
        add({ kind: 'project', project: scope.project });
        plansOf(scope.project);
        break;
      case 'plan': {
        add({ kind: 'plan', plan: scope.plan });
        break;
      }
      // An action's invariants reach no target.
    }
  }
  return [...found.values()].sort(compareTargets);
}

/** The store folders a target's effective set is read from on one side. */
export function targetFolders(target: TargetRef, plans: ReadonlyMap<string, Plan>): string[] {
  if (target.kind === 'project') return [`projects/${target.project}`, 'global'];
  const project = plans.get(target.plan)?.project;
  return [`plans/${target.plan}`, ...(project ? [`projects/${project}`] : []), 'global'];
}

type State = { kept: true; inv: ScopedInvariant } | { kept: false; inv: ScopedInvariant; by: ScopedInvariant };

/** How a diff narrows and speeds up one target's resolution. */
export interface DiffTargetOptions {
  /**
   * Text keys of every changed invariant (both versions). Entries of other keys
   * are the same on both sides unless the plan itself changed, so only these
   * are resolved; the counts still cover the whole set.
   */
  onlyKeys?: ReadonlySet<string>;
  /** The text key of an invariant, memoised by the caller across targets. */
  keyOf?: (inv: ScopedInvariant) => string;
}

function states(target: TargetRef, side: DiffSide, options: DiffTargetOptions): { map: Map<string, State>; count: number } {
  let t: Target = target;
  if (target.kind === 'plan') {
    const plan = side.plans.get(target.plan);
    if (!plan) return { map: new Map(), count: 0 };
    t = { kind: 'plan', plan: target.plan, ...(plan.project ? { project: plan.project } : {}) };
  } else if (!exists(target, side)) {
    // A project that does not exist on this side has no set, as a plan that does not: not the global set alone.
    return { map: new Map(), count: 0 };
  }
  const keyOf = options.keyOf ?? ((inv: ScopedInvariant) => textKey(inv.text));
  const applicable = side.invariants.filter((inv) => inv.active && appliesTo(inv, t));
  const keys = new Set<string>();
  for (const inv of applicable) keys.add(keyOf(inv));
  const only = options.onlyKeys;
  const entries = resolveEffective(t, only ? applicable.filter((inv) => only.has(keyOf(inv))) : applicable, keyOf);
  const map = new Map<string, State>();
  // Made at the first shadow (most sets have none). Every shadow is one of the applicable invariants.
  let byPathOf: Map<string, ScopedInvariant> | undefined;
  for (const e of entries) {
    map.set(e.invariant.path, { kept: true, inv: e.invariant });
    for (const s of e.shadows) {
      byPathOf ??= new Map(applicable.map((inv) => [inv.path, inv]));
      map.set(s.path, { kept: false, inv: byPathOf.get(s.path)!, by: e.invariant });
    }
  }
  return { map, count: keys.size };
}

/** An invariant's identity across sides: its id (the file name), so a move between scopes is one entry. */
function byId(map: Map<string, State>): Map<string, State> {
  const out = new Map<string, State>();
  for (const s of map.values()) if (!out.has(s.inv.id) || s.kept) out.set(s.inv.id, s);
  return out;
}

/** Scope, then id: each list of a target diff holds one entry per id (byId). */
function precedenceOrder(a: ScopedInvariant, b: ScopedInvariant): number {
  const rank = { plan: 0, project: 1, global: 2, inherited: 3, action: 4 } as const;
  return rank[a.scope.kind] - rank[b.scope.kind] || (a.id < b.id ? -1 : 1);
}

function exists(target: TargetRef, side: DiffSide): boolean {
  return target.kind === 'project' ? (side.projects?.has(target.project) ?? true) : side.plans.has(target.plan);
}

/** How one target's effective set differs between two sides. */
export function diffTarget(target: TargetRef, before: DiffSide, after: DiffSide, options: DiffTargetOptions = {}): TargetDiff {
  // A plan or project that appears or disappears, or a plan that changes project, changes entries of every key.
  const planMoved =
    target.kind === 'plan'
      ? before.plans.has(target.plan) !== after.plans.has(target.plan) ||
        before.plans.get(target.plan)?.project !== after.plans.get(target.plan)?.project
      : exists(target, before) !== exists(target, after);
  const opts = planMoved ? { ...options, onlyKeys: undefined } : options;
  const b = states(target, before, opts);
  const a = states(target, after, opts);
  const bs = byId(b.map);
  const as = byId(a.map);
  const diff: TargetDiff = {
    target,
    existsBefore: exists(target, before),
    existsAfter: exists(target, after),
    countBefore: b.count,
    countAfter: a.count,
    entered: [],
    left: [],
    newlyShadowed: [],
    noLongerShadowed: [],
    changed: [],
  };
  if (target.kind === 'plan') {
    const pb = before.plans.get(target.plan)?.project;
    const pa = after.plans.get(target.plan)?.project;
    if (pb) diff.projectBefore = pb;
    if (pa) diff.projectAfter = pa;
  }
  const ids = new Set([...bs.keys(), ...as.keys()]);
  for (const id of ids) {
    const x = bs.get(id);
    const y = as.get(id);
    if (y?.kept) {
      if (!x) diff.entered.push(y.inv);
      else if (!x.kept) diff.noLongerShadowed.push({ invariant: y.inv, by: x.by });
      else if (x.inv !== y.inv) {
        // The reader shares one parsed object for a file unchanged on both sides: nothing to compare.
        const fields = invariantFieldChanges(x.inv, y.inv).filter(
          (f) => f.field === 'text' || f.field === 'severity' || f.field === 'scope',
        );
        if (fields.length > 0) diff.changed.push({ invariant: y.inv, fields });
      }
    } else if (y) {
      // Shadowed after.
      if (!x) diff.newlyShadowed.push({ invariant: y.inv, by: y.by, wasEffective: false });
      else if (x.kept) diff.newlyShadowed.push({ invariant: y.inv, by: y.by, wasEffective: true });
      // shadowed on both sides: still out of the set.
    } else if (x!.kept) {
      // Absent after: the id is in the set before.
      diff.left.push(x!.inv);
    }
  }
  diff.entered.sort(precedenceOrder);
  diff.left.sort(precedenceOrder);
  diff.newlyShadowed.sort((p, q) => precedenceOrder(p.invariant, q.invariant));
  diff.noLongerShadowed.sort((p, q) => precedenceOrder(p.invariant, q.invariant));
  diff.changed.sort((p, q) => precedenceOrder(p.invariant, q.invariant));
  return diff;
}

/** Whether a diff holds any change: an invariant, waiver or plan file, a project's paths, a reported target's effective set, a policy source's pin or order. */
export function hasChanges(d: StoreDiff & { policySources?: readonly unknown[]; policyOrder?: unknown }): boolean {
  return (
    d.invariants.length > 0 ||
    d.waivers.length > 0 ||
    d.projectPaths.length > 0 ||
    d.plans.length > 0 ||
    d.targets.some(targetChanged) ||
    // A policy source's pin moved, or the sources' order, is reported even when no invariant came with it.
    (d.policySources?.length ?? 0) > 0 ||
    d.policyOrder !== undefined
  );
}

/** Whether the target's effective set changed at all. */
export function targetChanged(d: TargetDiff): boolean {
  return (
    d.existsBefore !== d.existsAfter ||
    d.projectBefore !== d.projectAfter ||
    d.entered.length + d.left.length + d.newlyShadowed.length + d.noLongerShadowed.length + d.changed.length > 0
  );
}

/** The changed files of each side beside the invariants: waivers, and project.yaml by project. */
export interface ChangedMeta {
  waivers?: { before: readonly ScopedWaiver[]; after: readonly ScopedWaiver[] };
  projects?: { before: ReadonlyMap<string, ProjectMeta>; after: ReadonlyMap<string, ProjectMeta> };
}

/**
 * The whole diff: file-level changes from the changed invariants (and waivers,
 * project.yaml files) of each side, plan changes, and the effective-set change
 * of each target given. `before` and `after` must hold every invariant of the
 * folders the targets need, and `changed` every invariant whose file differs
 * between them (its key is what can change a target whose plan did not change).
 */
export function diffStores(
  changed: { before: readonly ScopedInvariant[]; after: readonly ScopedInvariant[] } & ChangedMeta,
  before: DiffSide,
  after: DiffSide,
  targets: readonly TargetRef[],
): StoreDiff {
  const index = (side: DiffSide) => {
    const m = new Map<string, ScopedInvariant[]>();
    for (const inv of side.invariants) {
      const f = scopeFolder(inv.scope);
      const list = m.get(f);
      if (list) list.push(inv);
      else m.set(f, [inv]);
    }
    return m;
  };
  const bi = index(before);
  const ai = index(after);
  // Inherited invariants (docs/extends.md) apply to every target, as global ones do.
  const inherited = (side: DiffSide) => side.invariants.filter((i) => i.scope.kind === 'inherited');
  const bInherited = inherited(before);
  const aInherited = inherited(after);
  const pick = (side: DiffSide, idx: Map<string, ScopedInvariant[]>, t: TargetRef): DiffSide => ({
    plans: side.plans,
    ...(side.projects ? { projects: side.projects } : {}),
    invariants: [...targetFolders(t, side.plans).flatMap((f) => idx.get(f) ?? []), ...(side === before ? bInherited : aInherited)],
  });
  // Keys are computed once per invariant (an unchanged file is one object on both sides).
  const keys = new Map<ScopedInvariant, string>();
  const keyOf = (inv: ScopedInvariant) => {
    let k = keys.get(inv);
    if (k === undefined) keys.set(inv, (k = textKey(inv.text)));
    return k;
  };
  const onlyKeys = new Set([...changed.before, ...changed.after].map(keyOf));
  return {
    invariants: diffInvariantFiles(changed.before, changed.after),
    plans: diffPlans(before.plans, after.plans),
    // A waiver names its invariant by id: the version after, else before, of the sides read.
    waivers: changed.waivers
      ? diffWaiverFiles(changed.waivers.before, changed.waivers.after, [...after.invariants, ...before.invariants])
      : [],
    projectPaths: changed.projects ? diffProjectPaths(changed.projects.before, changed.projects.after) : [],
    targets: [...targets].sort(compareTargets).map((t) => diffTarget(t, pick(before, bi, t), pick(after, ai, t), { onlyKeys, keyOf })),
  };
}
