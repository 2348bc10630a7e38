/**
 * What `agents import` does not take from a rule file's front matter (Cursor, Copilot, Windsurf, Cline): the keys it
 * does not read, said as left out with their lines, and an `alwaysApply` that is neither true nor false, which skips
 * the file. Pure: the file's lines and its parsed front matter in (docs/import.md).
 */

import { folderPath, type SortedFiles } from './globs.ts';
import { globKey, type ImportKind } from './import-sources.ts';
import type { LeftOut } from './import-split.ts';
import { excerpt } from './markdown-blocks.ts';

/**
 * The keys the import reads in each kind's front matter (where it applies: its globs, `alwaysApply`, Windsurf's
 * `trigger`), and those that only name or describe the rule, which no invariant needs.
 */
const READ_KEYS: Partial<Record<ImportKind, ReadonlySet<string>>> = {
  cursor: new Set(['description', 'globs', 'alwaysApply']),
  'copilot-instructions': new Set(['description', 'name', 'applyTo', 'alwaysApply']),
  windsurf: new Set(['description', 'trigger', 'globs', 'alwaysApply']),
  clinerules: new Set(['description', 'paths', 'alwaysApply']),
};

/** A top-level key's line of YAML: the key bare or quoted, then a colon ending the line or before a blank. */
const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#"'-][^:#]*?|-[^\s:#][^:#]*?))[ \t]*:(?=[ \t]|$)/;

interface KeyAt {
  key: string;
  /** The file's line of the key (1-based), and the last line of its value. */
  line: number;
  end_line: number;
  /** The column (1-based) where its value starts on the key's line, and the value as written there ('' when below). */
  col: number;
  written: string;
}

/**
 * The top-level keys of the front matter of `lines` (the file's, the front matter on lines 2 to `bodyLine - 2`), each
 * with its lines: a value runs to the line before the next key, but for the blank and comment lines at its end.
 */
function keysAt(lines: readonly string[], bodyLine: number): KeyAt[] {
  const out: KeyAt[] = [];
  const last = bodyLine - 2;
  for (let n = 2; n <= last; n++) {
    const text = lines[n - 1]!.replace(/\r$/, '');
    const m = KEY_LINE.exec(text);
    if (m === null) continue;
    const rest = text.slice(m[0].length);
    const value = rest.trimStart();
    const key = m[1] ?? m[2]?.replace(/''/g, "'") ?? m[3]!;
    out.push({
      key,
      line: n,
      end_line: n,
      col: m[0].length + rest.length - value.length + 1,
      written: value.replace(/[ \t]+#.*$/, '').trim(),
    });
  }
  for (const [i, k] of out.entries()) {
    let end = i + 1 < out.length ? out[i + 1]!.line - 1 : last;
    while (end > k.line && /^\s*(#.*)?$/.test(lines[end - 1]!)) end--;
    k.end_line = end;
  }
  return out;
}

/**
 * The keys of a rule file's front matter that the import does not read (`priority: high`, Copilot's `excludeAgent`),
 * each as left out with its lines, in the order of the file: its agent may read them, and no invariant says them, so
 * they are said rather than dropped unseen. None for a kind whose agents read no front matter.
 */
export function unreadFrontMatter(
  kind: ImportKind,
  front: Readonly<Record<string, unknown>>,
  lines: readonly string[],
  bodyLine: number,
): LeftOut[] {
  const read = READ_KEYS[kind];
  if (read === undefined) return [];
  const unread = Object.keys(front).filter((k) => !read.has(k));
  if (unread.length === 0) return [];
  const at = keysAt(lines, bodyLine);
  return unread
    .map((key): LeftOut => {
      // A key written in flow style (`{priority: high}`) has no line of its own: the front matter's first is named.
      const k = at.find((a) => a.key === key) ?? { line: 2, end_line: 2 };
      return { line: k.line, end_line: k.end_line, reason: 'front-matter-key', excerpt: excerpt(lines, k.line - 1, k.end_line - 1) };
    })
    .sort((a, b) => a.line - b.line);
}

/**
 * Why the file's `alwaysApply` cannot be read (`yes`, `1`, a list), at file:line:col, or undefined for true, false
 * (also quoted) and none: read as not set, the rule would be skipped as one applied on request, against its own word.
 */
export function alwaysApplyProblem(
  rel: string,
  front: Readonly<Record<string, unknown>>,
  lines: readonly string[],
  bodyLine: number,
): string | undefined {
  const value = front.alwaysApply;
  if (value === undefined || value === null || typeof value === 'boolean') return undefined;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return undefined;
  const k = keysAt(lines, bodyLine).find((a) => a.key === 'alwaysApply');
  const written = k?.written ? k.written : JSON.stringify(value);
  const where = k === undefined ? `${rel}:2:1` : `${rel}:${k.line}:${k.written ? k.col : 1}`;
  return `its alwaysApply is ${written}, which is neither true nor false (${where}): write alwaysApply: true for a rule applied to every file, or false, and import it again`;
}

/**
 * Why a rule file's globs cannot make its project, at file:line: one names a folder of the repository's files and
 * matches none of them (`applyTo: services/api`), as `project add` refuses such a path (folderPath); its agent applies
 * the rule to no file, and the project would hold none. `paths` are the globs from the repository's top, `written`
 * the same as the file gives them; undefined when none names such a folder.
 */
export function folderGlobProblem(
  rel: string,
  kind: ImportKind,
  paths: readonly string[],
  written: readonly string[],
  files: SortedFiles,
  lines: readonly string[],
  bodyLine: number,
): string | undefined {
  const folder = folderPath(paths, files);
  if (folder === undefined) return undefined;
  const own = written[paths.indexOf(folder)] ?? folder;
  const as = own === folder ? `"${own}"` : `"${own}" ("${folder}" from the repository's top)`;
  const line = keysAt(lines, bodyLine).find((k) => k.key === globKey(kind))?.line ?? 2;
  return `its glob ${as} names a folder of the repository's files and matches none of them, as a glob is of files (${rel}:${line}): write ${own.replace(/\/+$/, '')}/** for every file below it, and import it again`;
}
