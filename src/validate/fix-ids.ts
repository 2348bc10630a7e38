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
import { withModelineIfMissing } from './modeline-text.ts';
import type { Fix } from './result.ts';
import { mostlyCrlf } from '../core/file-style.ts';

const BOM = '\uFEFF';

/**
 * `text` with `id: ID` as the first key of its mapping, or undefined when it
 * cannot be put there without rewriting the file. A block mapping gets the
 * line before its first key, at that key's indentation (after the leading
 * comments, the modeline, directives and `---`), a flow mapping the first
 * place after its `{`; the file's BOM and line ends are kept. The result is
 * parsed again and must hold the same data with the id added: a file that
 * parsed is never made one that does not.
 */
export function withId(text: string, id: string): string | undefined {
  const bom = text.startsWith(BOM) ? BOM : '';
  const body = text.slice(bom.length);
  const parsed = parseYaml('file.yaml', new TextEncoder().encode(body)).value;
  if (!parsed || parsed.source !== body) return undefined;
  const root = parsed.doc.contents as { items?: { key?: { range?: number[] } }[]; flow?: boolean; range?: number[] } | null;
  if (!root?.items || !root.range) return undefined;
  let next: string | undefined;
  if (root.flow) {
    const at = root.range[0]!;
    if (body[at] !== '{') return undefined;
    const rest = body.slice(at + 1);
    // The comma takes the space before the next key only when none follows it already: `{` at a line's end
    // would otherwise leave a trailing space, which yamllint refuses.
    const comma = root.items.length === 0 ? '' : /^\s/.test(rest) ? ',' : ', ';
    next = `${body.slice(0, at + 1)}id: ${id}${comma}${rest}`;
  } else {
    const at = root.items[0]?.key?.range?.[0];
    if (at === undefined) return undefined;
    const lineStart = body.lastIndexOf('\n', at - 1) + 1;
    const indent = body.slice(lineStart, at);
    // A key that shares its line with something else (`--- text: a`, `? text`) has no line of its own to go before.
    if (!/^[ ]*$/.test(indent)) return undefined;
    const eol = mostlyCrlf(body) ? '\r\n' : '\n';
    next = `${body.slice(0, lineStart)}${indent}id: ${id}${eol}${body.slice(lineStart)}`;
  }
  const after = parseYaml('file.yaml', new TextEncoder().encode(next));
  const data = after.value?.data;
  if (after.diagnostics.length > 0 || data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  if (Object.keys(data)[0] !== 'id' || JSON.stringify(data) !== JSON.stringify({ id, ...(parsed.data as object) })) return undefined;
  return `${bom}${next}`;
}

/** Why a rename or an id was not written, and whether the file system refused it (which fails the run). */
export interface Refusal {
  reason: string;
  failed: boolean;
}

/** `fix`, not done for `refused`; a rename keeps its new name, an id (a fresh one, never written) none. */
export function notDone(fix: Omit<Fix, 'done'>, refused: Refusal): Fix {
  const message = `kept ${fix.file}: ${refused.reason}`;
  const base: Fix =
    fix.to === undefined || fix.action !== 'rename'
      ? { file: fix.file, action: fix.action, message, done: false }
      : { file: fix.file, action: fix.action, to: fix.to, message, done: false };
  return refused.failed ? { ...base, failed: true } : base;
}

/** An invariant file of a scope, named by its id or not: the files a rename or an id is given to. */
export function isScopeInvariant(file: string): boolean {
  const kind = classifyPath(file);
  return kind.kind === 'invariant' || (kind.kind === 'bad-id' && kind.scope !== undefined);
}

/**
 * Gives an invariant file that has no `id` key one: the ULID its name is
 * (when no other file has that name: `nameShared` false), else a fresh one,
 * and renames the file to it.
 * Undefined when the file is not an invariant of a scope, cannot be read or
 * parsed, or has an `id` already (the rename fix handles those).
 */
export function assignId(
  tree: WorkingTreeSource,
  file: string,
  claimed: Set<string>,
  nameShared: boolean,
  /** Told the modeline fix when the file lacked its modeline and gets it in the same write. */
  also: Fix[] = [],
  /** Why nothing may be written now (its scope could not be locked): the fix is said, not made. */
  refused?: Refusal,
  newId: () => string = ulid,
): Fix | undefined {
  if (!isScopeInvariant(file)) return undefined;
  const r = tree.readOne(file);
  if (!r.ok) return undefined;
  const data = parseYaml(file, r.bytes).value?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || 'id' in data) return undefined;
  const slash = file.lastIndexOf('/');
  const base = file.slice(slash + 1, -'.yaml'.length);
  // A file named by a ULID is that invariant's file (the layout's rule): its name is its id, unless another file
  // already has that name (`id-reused`): writing it in would make the clash permanent, so it gets a fresh one.
  const id = isUlid(base) && !nameShared ? base : newId();
  const to = `${file.slice(0, slash + 1)}${id}.yaml`;
  const message = to === file ? `added id ${id} to ${file}` : `added id ${id} to ${file} and renamed it to ${to}`;
  const fix: Fix = to === file ? { file, action: 'add-id', message, done: true } : { file, action: 'add-id', to, message, done: true };
  const text = withId(new TextDecoder('utf-8', { ignoreBOM: true }).decode(r.bytes), id);
  if (text === undefined) {
    // Nothing is written: a rewrite of the whole file could lose its comments and layout.
    return {
      file,
      action: 'add-id',
      message: `kept ${file}: its mapping is written in a way an \`id:\` line cannot be added to safely; add \`id: ${id}\` as its first key by hand${to === file ? '' : `, and rename it to ${to}`}`,
      done: false,
    };
  }
  if (refused !== undefined) return notDone(fix, refused);
  claimed.add(id);
  const modelined = withModelineIfMissing(to, text);
  try {
    if (to === file) writeFileAtomic(tree.root, file, modelined ?? text, 'replace');
    else {
      writeFileAtomic(tree.root, to, modelined ?? text, 'create', file);
      removeFile(tree.root, file);
    }
    if (modelined !== undefined) also.push({ file: to, action: 'add-modeline', message: `added the schema modeline to ${to}`, done: true });
    return fix;
  } catch (error) {
    if (!(error instanceof AgentsError)) throw error;
    return { ...fix, done: false, message: `${message}: not done, ${error.message}`, failed: true };
  }
}
