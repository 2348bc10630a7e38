// `validate --fix` for a hand-written invariant file without an `id`
// (docs/validation.md, "--fix"): it gets one, a fresh ULID (or the ULID its
// file name already is), and the file takes that name. Without this, a file
// written by hand had no way to get an id but to make one up.
import { ulid } from 'ulid';
import { AgentsError } from '../core/errors.ts';
import { classifyPath } from '../core/layout.ts';
import { isUlid } from '../core/names.ts';
import { parseYaml } from '../core/parse.ts';
import { removeFile, writeFileAtomic } from '../store/atomic-write.ts';
import type { WorkingTreeSource } from '../store/tree-source.ts';
import type { Fix } from './result.ts';

/** `text` with `id: ID` as its first key: after the leading comments (the modeline) and a `---`, keeping the file's line ends. */
export function withId(text: string, id: string): string {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  let at = 0;
  while (at < lines.length && (lines[at]!.startsWith('#') || lines[at]!.startsWith('\uFEFF#') || lines[at] === '---')) at++;
  lines.splice(at, 0, `id: ${id}`);
  return lines.join(eol);
}

/**
 * Gives an invariant file that has no `id` key one: the ULID its name is,
 * else a fresh one, and renames the file to it.
 * Undefined when the file is not an invariant of a scope, cannot be read or
 * parsed, or has an `id` already (the rename fix handles those).
 */
export function assignId(tree: WorkingTreeSource, file: string, claimed: Set<string>, newId: () => string = ulid): Fix | undefined {
  const kind = classifyPath(file);
  if (!(kind.kind === 'invariant' || (kind.kind === 'bad-id' && kind.scope !== undefined))) return undefined;
  const r = tree.readOne(file);
  if (!r.ok) return undefined;
  const data = parseYaml(file, r.bytes).value?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || 'id' in data) return undefined;
  const slash = file.lastIndexOf('/');
  const base = file.slice(slash + 1, -'.yaml'.length);
  // A file named by a ULID is that invariant's file (the layout's rule): its name is its id.
  const id = isUlid(base) ? base : newId();
  claimed.add(id);
  const to = `${file.slice(0, slash + 1)}${id}.yaml`;
  const message = to === file ? `added id ${id} to ${file}` : `added id ${id} to ${file} and renamed it to ${to}`;
  const fix: Fix = to === file ? { file, action: 'add-id', message, done: true } : { file, action: 'add-id', to, message, done: true };
  try {
    const text = withId(new TextDecoder().decode(r.bytes), id);
    if (to === file) writeFileAtomic(tree.root, file, text, 'replace');
    else {
      writeFileAtomic(tree.root, to, text, 'create');
      removeFile(tree.root, file);
    }
    return fix;
  } catch (error) {
    if (!(error instanceof AgentsError)) throw error;
    return { ...fix, done: false, message: `${message}: not done, ${error.message}`, failed: true };
  }
}
