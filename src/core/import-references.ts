// The files a CLAUDE.md or GEMINI.md has its agent read: Claude Code and
// Gemini CLI take `@path` in those files as "read this file too" (relative
// to the file, or from the top with `/`), outside code. An import names the
// ones it does not import, so that no rule the agent follows is left behind
// unsaid.
import { closesFence, FENCE } from './markdown-blocks.ts';
import type { ImportKind } from './import-sources.ts';

/** The kinds whose agents follow `@path`. */
export const REFERENCING_KINDS: readonly ImportKind[] = Object.freeze(['claude-md', 'gemini-md']);

/** `@` at the start of a line or after white space, then a path: no white space, quotes, brackets or another `@`. */
const REFERENCE = /(?:^|\s)@([^\s@`'"<>()[\]{}]+)/g;

/** Each `@path` of `text` outside code blocks and code spans, with its 1-based line; trailing punctuation is not the path's. */
export function fileReferences(text: string): { line: number; ref: string }[] {
  const out: { line: number; ref: string }[] = [];
  const lines = text.split(/\r?\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    if (!line.includes('@')) continue;
    const prose = line.replace(/(`+)[\s\S]*?\1/g, ' ');
    for (const m of prose.matchAll(REFERENCE)) {
      // Trailing punctuation cut by a loop: `[.,;:!?]+$` tries each mark of a long run inside the path against the rest.
      let end = m[1]!.length;
      while (end > 0 && '.,;:!?'.includes(m[1]![end - 1]!)) end--;
      const ref = m[1]!.slice(0, end);
      if (ref !== '' && !ref.includes('://')) out.push({ line: i + 1, ref });
    }
  }
  return out;
}

/**
 * The repository-relative path `ref` names from the file at `rel` (itself
 * repository-relative): relative to the file's folder, or from the top for
 * `/…` when that is inside `top`. Undefined for a path outside the
 * repository, or in the home folder (`~/…`).
 */
export function resolveReference(ref: string, rel: string, top: string): string | undefined {
  if (ref.startsWith('~')) return undefined;
  let joined: string;
  if (ref.startsWith('/')) {
    const root = top.endsWith('/') ? top : `${top}/`;
    if (!ref.startsWith(root)) return undefined;
    joined = ref.slice(root.length);
  } else {
    const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    joined = dir === '' ? ref : `${dir}/${ref}`;
  }
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}

/**
 * Whether a path an `@` names that no file holds is a file's (a name with an extension, `docs/rules.md`), said as
 * missing, rather than a mention or a package (`@octocat`, `@types/node`), which the agents read as nothing either.
 */
export function namesAFile(path: string): boolean {
  return /(?:^|\/)[^/]*[^/.]\.[A-Za-z0-9]{1,10}$/.test(path);
}
