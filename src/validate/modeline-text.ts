// The text of a store file with the schema modeline in front (`validate --fix`): for a file fixed in place, and for
// a file --fix renames or gives an id, which takes its modeline in the same write (one run fixes it whole).
import { classifyPath } from '../core/layout.ts';
import { modeline } from '../core/serialize.ts';
import { modelineProblem, modelineSchema, modelineTarget } from './check-file.ts';

const BOM = '\uFEFF';
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The text of `file` with its modeline: put in front, keeping a BOM first and the file's line endings, or in place of
 * a modeline that names another schema.
 */
export function withModeline(file: string, bytes: Uint8Array): string {
  const kind = classifyPath(file);
  const right = modeline(file, modelineSchema(kind)!);
  let text = decoder.decode(bytes);
  const bom = text.startsWith(BOM) ? BOM : '';
  if (bom) text = text.slice(1);
  const at = modelineProblem(bytes, modelineTarget(file, kind))?.at;
  if (at !== undefined) {
    const lines = text.split('\n');
    lines[at - 1] = lines[at - 1]!.endsWith('\r') ? `${right}\r` : right;
    return `${bom}${lines.join('\n')}`;
  }
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  return `${bom}${right}${eol}${text}`;
}

/** `text`, to be written at `file`, with its modeline when it lacks one (or has another schema's); undefined when it has it. */
export function withModelineIfMissing(file: string, text: string): string | undefined {
  const target = modelineTarget(file, classifyPath(file));
  if (target === undefined) return undefined;
  const bytes = Buffer.from(text);
  return modelineProblem(bytes, target) === undefined ? undefined : withModeline(file, bytes);
}
