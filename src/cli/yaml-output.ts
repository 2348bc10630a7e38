import { Document, visit } from 'yaml';
import { escapeUnsafe, hasUnsafe, startsWorkflowCommand } from '../core/plain-text.ts';
import { yaml11Reads } from '../core/yaml11.ts';

/**
 * `--format yaml` output (loaded only when that format is asked for). A
 * string holding a control or bidirectional character is written
 * double-quoted, where YAML reads `\uXXXX` escapes, and each such character
 * as one: the same data, nothing raw on the screen.
 */
export function toYaml(data: unknown): string {
  // Never an anchor and alias for an object met twice: each place holds its data, as in the JSON.
  const doc = new Document(data, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      // A line of a block scalar that starts `::` would be a GitHub Actions workflow command: double-quoted, it is no line of its own.
      // A string a YAML 1.1 reader (PyYAML) would take for a boolean, a date or a number written plain (`yes`, a
      // timestamp) is double-quoted too, as the store's files write it, so every reader gets the JSON output's data.
      // A tab, which texts may hold, is written `\t` as the store's files write it: PyYAML refuses a raw one in a
      // plain scalar ("found character '\t' that cannot start any token"). So is a line that ends in a space, which a
      // block scalar would leave at the end of an output line, yamllint's trailing-spaces error.
      const v = node.value;
      if (typeof v === 'string' && (hasUnsafe(v) || startsWorkflowCommand(v) || yaml11Reads(v) || /\t| (?:\n|$)/.test(v)))
        node.type = 'QUOTE_DOUBLE';
    },
  });
  // A double-quoted string stays on one line (its newlines as `\n`): folded, each of its lines would be one of the output's.
  return escapeUnsafe(doc.toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY }), { newlines: true });
}

/** Entries of a list written by one `toYaml`. */
const SLICE = 256;

/**
 * A top-level list as `toYaml` writes it, `slice` entries at a time: a block
 * sequence is its entries' text one after the other, so the pieces join into
 * the text of the whole list, which is never in memory at once.
 */
export function* yamlListPieces(items: Iterable<unknown>, slice = SLICE): Generator<string> {
  let some: unknown[] = [];
  let written = false;
  for (const item of items) {
    some.push(item);
    if (some.length === slice) {
      yield toYaml(some);
      some = [];
      written = true;
    }
  }
  // An empty list is `[]`, written only when nothing came before it.
  if (some.length > 0 || !written) yield toYaml(some);
}

/**
 * A document (a map) as `toYaml` writes it, in pieces: each key's entry on its
 * own, and a long list `slice` entries at a time under its key. A block map is
 * its entries' text one after the other, and a block sequence under a key its
 * items', so the pieces join into the text of the whole document.
 */
export function* yamlDocumentPieces(doc: object, slice = SLICE): Generator<string> {
  let any = false;
  for (const [key, value] of Object.entries(doc)) {
    if (value === undefined) continue;
    any = true;
    if (!Array.isArray(value) || value.length <= slice) {
      yield toYaml({ [key]: value });
      continue;
    }
    for (let at = 0; at < value.length; at += slice) {
      const text = toYaml({ [key]: value.slice(at, at + slice) });
      // `key:` heads the first slice; the others are items of the same list.
      yield at === 0 ? text : text.slice(text.indexOf('\n') + 1);
    }
  }
  if (!any) yield toYaml({});
}
