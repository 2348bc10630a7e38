import { describeScope, type ScopedInvariant } from '../core/model.ts';
import type { ShadowRef } from '../core/resolve.ts';
import type { CliContext } from './io.ts';
import { safeJson, safeText } from './safe-output.ts';

/** The stable JSON shape of one invariant (docs/json-output.md). */
export interface InvariantJson {
  id: string;
  text: string;
  severity: string;
  active: boolean;
  scope: 'global' | 'project' | 'action' | 'plan';
  project: string | null;
  action: string | null;
  plan: string | null;
  path: string;
  tags: string[];
  rationale: string | null;
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
    created_at: inv.created_at ?? null,
    created_by: inv.created_by ?? null,
    source: inv.source ? { kind: inv.source.kind, ref: inv.source.ref ?? null, origin_id: inv.source.origin_id ?? null } : null,
  };
}

export function shadowJson(s: { id: string; scope: { kind: string } | string; path: string }): { id: string; scope: string; path: string } {
  return { id: s.id, scope: typeof s.scope === 'string' ? s.scope : s.scope.kind, path: s.path };
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

export function scopeLabel(inv: ScopedInvariant): string {
  return describeScope(inv.scope);
}

export function shadowLabel(s: ShadowRef): string {
  return `${s.scope} ${s.id}`;
}
