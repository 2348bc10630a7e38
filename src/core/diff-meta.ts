/**
 * The changes of a diff beside the invariants' (docs/review.md): waivers
 * granted, edited or lifted, and projects whose paths changed. Neither
 * changes an effective set, but a waiver changes what the gates let through,
 * and a project's paths which files its rules reach.
 */
import { diffIdFiles, type IdFileChange } from './id-files.ts';
import type { ProjectMeta, ScopedInvariant } from './model.ts';
import { waiverFolder, type ScopedWaiver } from './waivers.ts';

export type WaiverField = 'scope' | 'invariant_id' | 'reason' | 'owner' | 'expires' | 'created_at' | 'created_by';

export interface WaiverFieldChange {
  field: WaiverField;
  before: unknown;
  after: unknown;
}

/** A waiver file added, removed, edited or moved, with the invariant it waives when a side read holds it. */
export interface WaiverChange extends IdFileChange<ScopedWaiver, WaiverFieldChange> {
  invariant?: ScopedInvariant;
}

/** A project whose `paths` (project.yaml) differ: `null` on a side without project.yaml or without paths. */
export interface ProjectPathsChange {
  project: string;
  before: string[] | null;
  after: string[] | null;
}

const WAIVER_FIELDS: readonly Exclude<WaiverField, 'scope'>[] = ['invariant_id', 'reason', 'owner', 'expires', 'created_at', 'created_by'];

/** Fields that differ between two versions of one waiver (scope included when it moved). */
export function waiverFieldChanges(before: ScopedWaiver, after: ScopedWaiver): WaiverFieldChange[] {
  const out: WaiverFieldChange[] = [];
  if (waiverFolder(before.scope) !== waiverFolder(after.scope)) out.push({ field: 'scope', before: before.scope, after: after.scope });
  for (const f of WAIVER_FIELDS) {
    const a = before[f] ?? null;
    const b = after[f] ?? null;
    if (a !== b) out.push({ field: f, before: a, after: b });
  }
  return out;
}

/**
 * File-level changes of the changed waiver files of each side, each with the
 * invariant it waives, looked up by id in `invariants` (the first found).
 */
export function diffWaiverFiles(
  before: readonly ScopedWaiver[],
  after: readonly ScopedWaiver[],
  invariants: Iterable<ScopedInvariant>,
): WaiverChange[] {
  const changes: WaiverChange[] = diffIdFiles(before, after, waiverFieldChanges);
  if (changes.length === 0) return changes;
  const wanted = new Set(changes.map((c) => (c.after ?? c.before)!.invariant_id));
  const found = new Map<string, ScopedInvariant>();
  for (const inv of invariants) if (wanted.has(inv.id) && !found.has(inv.id)) found.set(inv.id, inv);
  for (const c of changes) {
    const inv = found.get((c.after ?? c.before)!.invariant_id);
    if (inv) c.invariant = inv;
  }
  return changes;
}

/** The projects whose paths differ, of those whose project.yaml changed (absent on a side: no such file there). */
export function diffProjectPaths(before: ReadonlyMap<string, ProjectMeta>, after: ReadonlyMap<string, ProjectMeta>): ProjectPathsChange[] {
  const out: ProjectPathsChange[] = [];
  for (const project of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(project)?.paths ?? null;
    const a = after.get(project)?.paths ?? null;
    // Globs are a set: a new order of the same ones covers the same files.
    const key = (paths: string[] | null) => (paths ? JSON.stringify([...paths].sort()) : null);
    if (key(b) !== key(a)) out.push({ project, before: b, after: a });
  }
  return out.sort((x, y) => (x.project < y.project ? -1 : 1));
}
