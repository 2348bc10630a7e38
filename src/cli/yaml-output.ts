import { Document, visit } from 'yaml';
import { escapeUnsafe, hasUnsafe } from '../core/plain-text.ts';

/**
 * `--format yaml` output (loaded only when that format is asked for). A
 * string holding a control or bidirectional character is written
 * double-quoted, where YAML reads `\uXXXX` escapes, and each such character
 * as one: the same data, nothing raw on the screen.
 */
export function toYaml(data: unknown): string {
  const doc = new Document(data);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasUnsafe(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return escapeUnsafe(doc.toString({ lineWidth: 0 }), { newlines: true });
}
