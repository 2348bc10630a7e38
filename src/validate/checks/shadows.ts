import type { Diagnostic } from '../../core/diagnostics.ts';
import { describeScope, scopeFolder, type Plan } from '../../core/model.ts';
import { shadowMap } from '../../core/shadow.ts';
import type { Located } from './located.ts';
import type { SharedText } from './context.ts';

/** The same text at a lower precedence: never applies where the higher copy does. */
export function checkShadows(shared: SharedText, plans: ReadonlyMap<string, Plan>, located: Located): Diagnostic[] {
  const out: Diagnostic[] = [];
  const map = shadowMap(shared.invariants, plans);
  // Copies hidden on purpose: another copy of the text names them in `overrides` (checkOverrides checks the names).
  const overridden = new Set<string>();
  for (const inv of shared.invariants) if (inv.overrides !== undefined) overridden.add(inv.overrides);
  for (const inv of shared.invariants) {
    const info = map.get(inv.id);
    if (!info || overridden.has(inv.id)) continue;
    for (const by of info.shadowedBy) {
      if (scopeFolder(by.scope) === scopeFolder(inv.scope)) continue; // a duplicate, reported above
      out.push(
        located.at(
          inv.path,
          ['text'],
          'shadowed',
          'warning',
          `${inv.id} (${describeScope(inv.scope)}) is shadowed by ${by.id} (${describeScope(by.scope)}, ${by.path}): the same text at a higher precedence`,
          `Nothing is lost, but one copy is redundant: delete the lower one unless it must apply elsewhere. A copy that replaces it on purpose (e.g. with another severity) says so with \`overrides: ${inv.id}\` (\`agents invariant edit ${by.id} --overrides ${inv.id}\`).`,
          [{ file: by.path, ...located.where(by.path, ['text']), message: `the copy that applies: ${by.id}` }],
        ),
      );
    }
  }
  return out;
}
