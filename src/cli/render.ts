import { describeScope, type Guard, type ScopedInvariant } from '../core/model.ts';
import type { EffectiveEntry, ShadowRef } from '../core/resolve.ts';
import type { CliContext } from './context.ts';
import { jsonPieces, STREAM } from '../core/json-stream.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { safeJson, safeText } from './safe-output.ts';
import { writePieces } from './write-pieces.ts';

/** The stable JSON shape of one invariant (docs/json-output.md). */
export interface InvariantJson {
  id: string;
  text: string;
  severity: string;
  active: boolean;
  scope: 'global' | 'inherited' | 'project' | 'action' | 'plan';
  /** Only on an inherited invariant: the name of the policy source it comes from (docs/extends.md). */
  inherited_from?: string;
  /** Only on an inherited invariant marked `locked: true`. */
  locked?: true;
  /** Only on an invariant with a guard (docs/guard.md). */
  guard?: Guard;
  project: string | null;
  action: string | null;
  plan: string | null;
  path: string;
  tags: string[];
  rationale: string | null;
  overrides: string | null;
  created_at: string | null;
  created_by: string | null;
  source: { kind: string; ref: string | null; origin_id: string | null } | null;
}

export function invariantJson(inv: ScopedInvariant): InvariantJson {
  const s = inv.scope;
  return {
    id: inv.id,
    text: inv.text,
    severity: inv.severity,
    active: inv.active,
    scope: s.kind,
    project: s.kind === 'project' ? s.project : null,
    action: s.kind === 'action' ? `${s.ns}/${s.name}` : null,
    plan: s.kind === 'plan' ? s.plan : null,
    path: inv.path,
    tags: inv.tags,
    rationale: inv.rationale ?? null,
    overrides: inv.overrides ?? null,
    created_at: inv.created_at ?? null,
    created_by: inv.created_by ?? null,
    source: inv.source ? { kind: inv.source.kind, ref: inv.source.ref ?? null, origin_id: inv.source.origin_id ?? null } : null,
    ...(s.kind === 'inherited' ? { inherited_from: s.source } : {}),
    ...(inv.locked ? { locked: true as const } : {}),
    ...(inv.guard ? { guard: inv.guard } : {}),
  };
}

export function shadowJson(s: { id: string; scope: { kind: string } | string; path: string }): { id: string; scope: string; path: string } {
  return { id: s.id, scope: typeof s.scope === 'string' ? s.scope : s.scope.kind, path: s.path };
}

/** One entry of an effective set: copies hidden by accident (`shadows`) apart from those hidden on purpose (`overridden`, named by an `overrides` field). */
export function effectiveEntryJson(
  e: EffectiveEntry,
): InvariantJson & { shadows: ReturnType<typeof shadowJson>[]; overridden: ReturnType<typeof shadowJson>[] } {
  return {
    ...invariantJson(e.invariant),
    shadows: e.shadows.filter((r) => !r.overridden).map(shadowJson),
    overridden: e.shadows.filter((r) => r.overridden).map(shadowJson),
  };
}

/** The text lines under an effective entry: "shadows global 01…" or, for a copy hidden on purpose, "overrides global 01…". */
export function hiddenCopyLines(e: EffectiveEntry, label: (word: string) => string, withPath: (path: string) => string): string[] {
  return e.shadows.map((r) => `${label(r.overridden ? 'overrides' : 'shadows')} ${r.scope} ${r.id}${withPath(r.path)}`);
}

/** A near-duplicate in JSON: the other invariant and how near it is. */
export function nearJson(m: { invariant: ScopedInvariant; kind: string }): {
  id: string;
  scope: string;
  path: string;
  text: string;
  kind: string;
} {
  return { id: m.invariant.id, scope: m.invariant.scope.kind, path: m.invariant.path, text: m.invariant.text, kind: m.kind };
}

/** The notes printed after a write: what the invariant shadows, is shadowed by, and nearly repeats. */
export function relationNotes(
  r: {
    shadows: readonly ScopedInvariant[];
    shadowedBy: readonly ScopedInvariant[];
    near: readonly { invariant: ScopedInvariant; kind: string }[];
  },
  warn: (s: string) => string,
): string[] {
  const lines: string[] = [];
  for (const o of r.shadows) lines.push(`  note: it shadows the copy in ${describeScope(o.scope)} (${o.id})`);
  for (const o of r.shadowedBy) lines.push(`  note: it is shadowed by the copy in ${describeScope(o.scope)} (${o.id})`);
  for (const m of r.near) {
    const how = m.kind === 'punctuation' ? 'the same but for punctuation' : 'one character apart';
    lines.push(
      `  ${warn('warning')}: nearly repeats ${describeScope(m.invariant.scope)} ${m.invariant.id} "${m.invariant.text}" (${how}); both apply`,
    );
  }
  return lines;
}

let yamlStringify: ((data: unknown) => string) | undefined;

/**
 * Loads what `format` needs before a command runs: `yaml`'s writer for
 * `--format yaml`, and nothing otherwise (commands that print text or JSON
 * never load it). main() calls it once the options are parsed.
 */
export async function prepareFormat(format: CliContext['format']): Promise<void> {
  if (format === 'yaml' && !yamlStringify) {
    yamlStringify = (await import('./yaml-output.ts')).toYaml;
  }
}

/** Prints `data` as JSON or YAML, or `text()` for people. */
export function emit(ctx: CliContext, data: unknown, text: () => string): void {
  switch (ctx.format) {
    case 'json':
      ctx.io.stdout.write(`${safeJson(data)}\n`);
      return;
    case 'yaml':
      if (!yamlStringify) throw new Error('YAML output is not loaded: await prepareFormat(ctx.format) before the command runs');
      ctx.io.stdout.write(yamlStringify(data));
      return;
    case 'text': {
      const out = safeText(text(), ctx.color);
      if (out !== '') ctx.io.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
    }
  }
}

/**
 * As `emit`, for a list that may be long (docs/json-output.md, "Large
 * outputs are streamed"): JSON is the same text as `emit` gives for the array
 * of `items`, and text the concatenation of `text`'s pieces, but each is
 * built and written piece by piece, so neither the objects nor the text of
 * 100,000 entries are ever in memory at once. YAML is written whole.
 */
export async function emitList(ctx: CliContext, items: () => Iterable<unknown>, text: () => Iterable<string>): Promise<void> {
  const plainPiece = (piece: string) => escapeUnsafe(piece, { newlines: true });
  switch (ctx.format) {
    case 'json':
      await writePieces(ctx.io.stdout, jsonPiecesOf(items()), plainPiece);
      return;
    case 'yaml':
      emit(ctx, [...items()], () => '');
      return;
    case 'text':
      await writePieces(ctx.io.stdout, text(), (piece) => safeText(piece, ctx.color));
  }
}

function* jsonPiecesOf(items: Iterable<unknown>): Generator<string> {
  yield* jsonPieces(STREAM, items);
  yield '\n';
}

export function scopeLabel(inv: ScopedInvariant): string {
  return describeScope(inv.scope);
}

export function shadowLabel(s: ShadowRef): string {
  return `${s.scope} ${s.id}`;
}
