// The end of an exported list item, `(scope, \`ID\`; shadows …; overrides …)`: written by the export, read back by
// import and by `import --replace` to know which entries a block or a copied rule came from.
import { type EffectiveEntry, shadowScope } from './resolve.ts';

/**
 * An exported list item's end, as renderEntries writes it: `(scope, \`ID\`; shadows …; overrides …)`, with or without
 * the scope and the copies it hides, whose ids are not its own. The id's backticks are a pair or none (`\1`): none in the
 * plain text an import reads.
 */
const ENTRY_END = /\((?:[^`()\n]*, )?(`?)([0-9A-HJKMNP-TV-Z]{26})\1(?:; (?:shadows|overrides) [^\n]*)?\)$/gm;

/** The ids of the entries an exported text lists. */
export function exportedEntryIds(text: string): string[] {
  return [...text.matchAll(ENTRY_END)].filter((m) => m[1] === '`').map((m) => m[2]!);
}

/** The id a rule ends with when it is an exported entry read back as plain text (copied out of a block), or undefined. */
export function exportedEntryId(rule: string): string | undefined {
  return [...rule.matchAll(ENTRY_END)].at(-1)?.[2];
}

/** The copies an entry hides, in the words of every other view: `shadows` by accident, `overrides` on purpose (its `overrides` field). */
export function describeShadows(entry: EffectiveEntry): string {
  let out = '';
  for (const [word, on] of [
    ['shadows', false],
    ['overrides', true],
  ] as const) {
    const copies = entry.shadows.filter((s) => (s.overridden ?? false) === on);
    if (copies.length > 0) out += `; ${word} ${copies.map((s) => `${shadowScope(s)} \`${s.id}\``).join(', ')}`;
  }
  return out;
}
