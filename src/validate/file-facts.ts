import type { Diagnostic } from '../core/diagnostics.ts';
import type { PathKind } from '../core/layout.ts';
import type { Plan, ProjectMeta } from '../core/model.ts';

/**
 * What validation needs to know of one file, found from its path and bytes
 * alone: the same bytes at the same path always give the same facts, so they
 * can be kept between runs (see cache.ts). Short keys: a cache of a large
 * store holds one of these per file.
 */
export interface FileFacts {
  /** The file's own diagnostics: YAML, schema, id against the name, text length, record checks. */
  d?: Diagnostic[];
  /** Invariants that parsed: a 64-bit digest of the text key (docs/resolution.md); equal keys give equal digests. */
  k?: string;
  /** Invariants that parsed and are active: the punctuation-free key compared for near-duplicates (core/near-duplicates.ts). */
  n?: string;
  /** Invariants with `overrides`: the id it names. */
  v?: string;
  /** Invariants in a plan's scope: `source.origin_id` and `source.ref`. */
  o?: string;
  r?: string;
  /** plan.yaml that parsed: the plan. */
  p?: Plan;
  /** project.yaml that parsed: its description and paths. */
  j?: ProjectMeta;
  /** Waivers that parsed: the waived invariant and `expires` (the expiry is judged at each run, never cached). */
  w?: { i: string; x: string };
  /** Files that carry a modeline but lack it (and are not empty): their first line; with `l`, the modeline that names another schema. */
  m?: string;
  /** The line (1-based) of a modeline that names another schema than the file's own (`m` is that line). */
  l?: number;
  /** Invariants with a guard: its `write` globs, which the repository's files may show to name a folder. */
  g?: string[];
}

/** The kinds of path whose content validation checks file by file. */
export type ContentKind = Extract<
  PathKind,
  { kind: 'invariant' | 'plan' | 'action-meta' | 'project-meta' | 'config' | 'extends-lock' | 'record' | 'waiver' | 'bad-id' }
>;

/** A file the reader reads as its kind (a misnamed invariant file is not one: validate-tree.ts adds it itself). */
export function isContentKind(kind: PathKind): kind is Exclude<ContentKind, { kind: 'bad-id' }> {
  return (
    kind.kind === 'invariant' ||
    kind.kind === 'plan' ||
    kind.kind === 'action-meta' ||
    kind.kind === 'project-meta' ||
    kind.kind === 'config' ||
    kind.kind === 'extends-lock' ||
    kind.kind === 'record' ||
    kind.kind === 'waiver'
  );
}
