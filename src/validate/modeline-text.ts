// The text of a store file with the schema modeline in front (`validate --fix`): for a file fixed in place, and for
// a file --fix renames or gives an id, which takes its modeline in the same write (one run fixes it whole).
import { AgentsError } from '../core/errors.ts';
import { classifyPath } from '../core/layout.ts';
import { assertFitsStoreFile } from '../core/store-file-size.ts';
import { modeline } from '../core/serialize.ts';
import { MODELINE_RE, modelineProblem, modelineSchema, modelineTarget } from './check-file.ts';
import { mostlyCrlf } from '../core/file-style.ts';

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
  let out: string;
  if (at !== undefined) {
    const lines = text.split('\n');
    // Only the modeline itself: a comment after it on its line, and the line's end, stay.
    lines[at - 1] = lines[at - 1]!.replace(MODELINE_RE, right);
    out = `${bom}${lines.join('\n')}`;
  } else {
    const eol = mostlyCrlf(text) ? '\r\n' : '\n';
    out = `${bom}${right}${eol}${text}`;
  }
  // A file just under the size readers take would pass it with its modeline: it stays as it was (file-too-large).
  assertFitsStoreFile(file, out);
  return out;
}

/**
 * `text`, to be written at `file`, with its modeline when it lacks one (or has another schema's); undefined when it
 * has it, or when the file would be too large with it.
 */
export function withModelineIfMissing(file: string, text: string): string | undefined {
  const target = modelineTarget(file, classifyPath(file));
  if (target === undefined) return undefined;
  const bytes = Buffer.from(text);
  if (modelineProblem(bytes, target) === undefined) return undefined;
  try {
    return withModeline(file, bytes);
  } catch (error) {
    // Too large with it: the file is renamed or given its id without, and the modeline stays missing (reported).
    if (error instanceof AgentsError && error.code === 'file-too-large') return undefined;
    throw error;
  }
}
