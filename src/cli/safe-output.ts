import { escapeUnsafe, escapeWorkflowCommands } from '../core/plain-text.ts';

/** The only escape sequences the CLI itself prints: the SGR codes of style.ts (bold, dim, normal, red, green, yellow, cyan, default colour). */
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

/**
 * The last step of every text output (docs/store-format.md, "Plain text
 * only"): whatever reached it — store content, file names, commit subjects,
 * an actor's words — leaves with its control and bidirectional characters
 * escaped. With colour on, the style codes the CLI adds pass; those can
 * recolour text, never move the cursor, erase or hide it. Nor can a line of it
 * start a GitHub Actions workflow command.
 */
export function safeText(text: string, color: boolean): string {
  return escapeWorkflowCommands(escapeStyled(text, color));
}

function escapeStyled(text: string, color: boolean): string {
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
 * A unified diff as text (`export --dry-run`), for `git apply` as much as for
 * eyes: as {@link safeText} without colour, but the carriage returns of a
 * CRLF file stay, or the patch would match none of its lines. One before a line
 * feed moves nothing on a terminal, so it always stays; a lone one could
 * overwrite the line shown, so it stays only where stdout is no terminal.
 */
export function safeDiffText(text: string, terminal: boolean): string {
  const kept = terminal ? '\r\n' : '\r';
  // A byte order mark opening a line of the file (after the diff's ' ', '-' or '+') stays too: it is
  // a file's first bytes, which export keeps, and an escaped one is a line that `git apply` cannot find.
  return text
    .split(/(?<=(?:^|\n)[ +-])\ufeff/)
    .map((part) =>
      part
        .split(kept)
        .map((piece) => escapeUnsafe(piece, { newlines: true }))
        .join(kept),
    )
    .join('\ufeff');
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
