// The text of a store file with the schema modeline in front (`validate --fix`): for a file fixed in place, and for
// a file --fix renames or gives an id, which takes its modeline in the same write (one run fixes it whole).
import { classifyPath } from '../core/layout.ts';
import { modeline } from '../core/serialize.ts';
import { missingModeline, modelineSchema } from './check-file.ts';

const BOM = '\uFEFF';
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of `file` with the modeline prepended, keeping a BOM first and the file's line endings. */
export function withModeline(file: string, bytes: Uint8Array): string {
  const schema = modelineSchema(classifyPath(file))!;
  let text = decoder.decode(bytes);
  const bom = text.startsWith(BOM) ? BOM : '';
  if (bom) text = text.slice(1);
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  return `${bom}${modeline(file, schema)}${eol}${text}`;
}

/** `text`, to be written at `file`, with the modeline in front when it lacks one; undefined when it has one. */
export function withModelineIfMissing(file: string, text: string): string | undefined {
  const bytes = Buffer.from(text);
  return missingModeline(bytes) === undefined || modelineSchema(classifyPath(file)) === undefined ? undefined : withModeline(file, bytes);
}
