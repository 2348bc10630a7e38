/**
 * Parsing the files a review reads: the parsers (and the schema validators
 * they bring) are loaded on first use, so a diff between revisions starts git
 * before loading them and loads them while git answers.
 */
import type { Diagnostic } from '../../core/diagnostics.ts';
import { badId, type PathKind } from '../../core/layout.ts';
import type { Plan, ProjectMeta, ScopedInvariant } from '../../core/model.ts';
import type { ScopedWaiver } from '../../core/waivers.ts';
import type { YamlSyntax } from '../../core/parse-core.ts';
import type { ReadResult } from '../../store/tree-source.ts';

export type Parsing = typeof import('../../core/parse-core.ts') &
  Pick<typeof import('../../store/read-plan.ts'), 'readFailure' | 'badName'> &
  Pick<typeof import('../../core/parse-meta.ts'), 'parseProjectMeta'> &
  Pick<typeof import('../../core/waiver-file.ts'), 'parseWaiver'>;
let parsing: Promise<Parsing> | undefined;
export function loadParsing(): Promise<Parsing> {
  parsing ??= Promise.all([
    import('../../core/parse-core.ts'),
    import('../../store/read-plan.ts'),
    import('../../core/parse-meta.ts'),
    import('../../core/waiver-file.ts'),
  ]).then(([core, read, meta, waiver]) => ({
    ...core,
    readFailure: read.readFailure,
    badName: read.badName,
    parseProjectMeta: meta.parseProjectMeta,
    parseWaiver: waiver.parseWaiver,
  }));
  return parsing;
}

/** The parse of one blob at one path, shared by both sides when the file did not change. */
export interface Parsed {
  invariant?: ScopedInvariant;
  plan?: Plan;
  waiver?: ScopedWaiver;
  /** A project.yaml's content. */
  project?: ProjectMeta;
  diagnostics: Diagnostic[];
}

/** One file of a side from its bytes (a diagnostic when it could not be read or is misnamed). */
export function parseFile(at: Parsing, p: string, kind: PathKind, r: ReadResult | undefined, syntax?: YamlSyntax): Parsed {
  if (kind.kind === 'bad-id') return { diagnostics: [badId(p, kind)] };
  if (kind.kind === 'bad-name') return { diagnostics: [at.badName(p, kind.problem)] };
  if (!r?.ok) return { diagnostics: [at.readFailure(p, r ?? { ok: false, code: 'missing', message: 'is missing' })] };
  if (kind.kind === 'invariant') {
    const parsed = at.parseInvariant(p, r.bytes, kind.scope, kind.id, true, syntax);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { invariant: parsed.value } : {}) };
  }
  if (kind.kind === 'plan') {
    const parsed = at.parsePlan(p, r.bytes, kind.plan, syntax);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { plan: parsed.value } : {}) };
  }
  if (kind.kind === 'waiver') {
    const parsed = at.parseWaiver(p, r.bytes, kind.id, syntax);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { waiver: { ...parsed.value, scope: kind.scope, path: p } } : {}) };
  }
  if (kind.kind === 'project-meta') {
    const parsed = at.parseProjectMeta(p, r.bytes, syntax);
    return { diagnostics: parsed.diagnostics, ...(parsed.value ? { project: parsed.value } : {}) };
  }
  return { diagnostics: [] };
}
