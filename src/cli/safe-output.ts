import { escapeUnsafe } from '../core/plain-text.ts';

/** The only escape sequences the CLI itself prints: the SGR codes of style.ts (bold, dim, normal, red, green, yellow, cyan, default colour). */
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

/**
 * The last step of every text output (docs/store-format.md, "Plain text
 * only"): whatever reached it — store content, file names, commit subjects,
 * an actor's words — leaves with its control and bidirectional characters
 * escaped. With colour on, the style codes the CLI adds pass; those can
 * recolour text, never move the cursor, erase or hide it.
 */
export function safeText(text: string, color: boolean): string {
  if (!color) return escapeUnsafe(text, { newlines: true });
  let out = '';
  let last = 0;
  OWN_SGR.lastIndex = 0;
  for (let m = OWN_SGR.exec(text); m !== null; m = OWN_SGR.exec(text)) {
    out += escapeUnsafe(text.slice(last, m.index), { newlines: true }) + m[0];
    last = m.index + m[0].length;
  }
  return out + escapeUnsafe(text.slice(last), { newlines: true });
}

/**
 * JSON for machines: the same data, with the characters JSON.stringify
 * leaves raw (C1 controls, DEL, bidirectional formatting) written as `\uXXXX`
 * escapes, so no terminal or log shows them raw and every parser reads the
 * same strings.
 */
export function safeJson(data: unknown): string {
  return escapeUnsafe(JSON.stringify(data, null, 2), { newlines: true });
}
