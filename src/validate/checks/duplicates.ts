import type { Diagnostic } from '../../core/diagnostics.ts';
import { describeScope, scopeFolder, type ScopedInvariant } from '../../core/model.ts';
import type { Located } from './located.ts';
import type { SharedText } from './context.ts';

/** Equal text keys (docs/resolution.md) inside one scope: every copy but the one resolution keeps is an error. */
export function checkDuplicates(shared: SharedText, located: Located): Diagnostic[] {
  const groups = new Map<string, ScopedInvariant[]>();
  for (const [i, inv] of shared.invariants.entries()) {
    const key = `${scopeFolder(inv.scope)}\u0000${shared.keys[i]!}`;
    const g = groups.get(key);
    if (g) g.push(inv);
    else groups.set(key, [inv]);
  }
  const out: Diagnostic[] = [];
  for (const g of groups.values()) {
    // The copy resolution keeps is reported as kept: the oldest active one (an inactive copy is in no set), else
    // the oldest. Every other copy is reported (a group of one has none).
    g.sort((a, b) => (a.id < b.id ? -1 : 1));
    const kept = g.find((inv) => inv.active) ?? g[0]!;
    const why = kept === g[0] ? `the older, ${kept.id}` : `${kept.id}, the older active copy`;
    for (const dup of g) {
      if (dup === kept) continue;
      out.push(
        located.at(
          dup.path,
          ['text'],
          'duplicate-text',
          'error',
          `same text as ${kept.id} (${kept.path}) in ${describeScope(dup.scope)}; a scope holds each text once`,
          `Delete one of the two files (resolution keeps ${why}).`,
          [{ file: kept.path, ...located.where(kept.path, ['text']), message: `the copy that is kept: ${kept.id}` }],
        ),
      );
    }
  }
  return out;
}
