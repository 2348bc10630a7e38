// config.yaml's `extends` (docs/extends.md): names and defaults. Kept apart
// from src/core/extends.ts, which needs the YAML parser that parses config.yaml.
import type { Diagnostic } from './diagnostics.ts';
import type { ExtendsSource } from './model.ts';
import { isName, nameProblem } from './names.ts';
import { hideCredentials, quoteText } from './plain-text.ts';

export const DEFAULT_SOURCE_PATH = '.agents';

/** Where a key of `extends[i]` is in the file: the parser's caller knows the file's positions, this module does not. */
export type PlaceEntry = (d: Diagnostic, index: number, key: 'name' | 'url') => Diagnostic;

function problem(file: string, message: string, hint: string): Diagnostic {
  return { code: 'schema', severity: 'error', file, line: 0, col: 0, message, hint };
}

/**
 * Whether config.yaml's text may declare sources: any mention of `extends`, not only a block key at the start
 * of a line (`{extends: …}` and `"extends":` are YAML too). A text without one need not be parsed for them. A
 * backslash may spell the key in a double-quoted escape (`"\x65xtends":`), and a NUL is a file in UTF-16 or
 * binary: either is parsed, so that the word's absence never stands for a store that extends nothing.
 */
export function mayExtend(text: string): boolean {
  return /extends|\\|\u0000/.test(text);
}

/**
 * The default name of a source: the last part of its URL or path, without a
 * trailing `.git`, `/.git` or `/`, lower-cased, every run of characters a name cannot
 * hold turned into one `-` (docs/extends.md, "Names"). Undefined when nothing
 * usable is left (then config.yaml must give `name`).
 */
export function defaultSourceName(url: string): string | undefined {
  // A repository's git folder named as such (`../policy/.git`) is the repository's, as `git clone` names it.
  const trimmed = url
    .replace(/[/\\]+$/, '')
    .replace(/[/\\]\.git$/i, '')
    .replace(/[/\\]+$/, '')
    .replace(/\.git$/i, '');
  // split gives at least one part.
  const last = trimmed.split(/[/\\:]/).pop()!;
  const name = last
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/\.+$/, '');
  // What is left is a name (names.ts), or none: empty, or a name Windows keeps for a device.
  return isName(name) ? name : undefined;
}

/**
 * What a key of a source in config.yaml must be, in words, for a value its schema pattern refuses (the pattern
 * itself tells a reader nothing); undefined for a key without such words.
 */
export function sourceKeyProblem(key: string, value: unknown, where: string): { message: string; hint: string } | undefined {
  const text = typeof value === 'string' ? value : '';
  switch (key) {
    case 'url': {
      const transport = /^(fd|ext)::/.exec(text)?.[1];
      return transport !== undefined
        ? {
            message: `${where} cannot use git's ${transport}:: transport, which runs or reads something on this machine rather than fetching a repository`,
            hint: 'Give the URL or path of the policy repository.',
          }
        : {
            message: `${where} cannot start with "-" or hold white space`,
            hint: 'Write a path that holds a space as a file:// URL, each space as %20 (file:///srv/My%20Policy.git).',
          };
    }
    case 'name':
      return {
        message: nameProblem(text, where) ?? `${where} is not a name`,
        hint: 'Give the source another `name:` (a-z, 0-9, ".", "_", "-").',
      };
    case 'ref':
      return {
        message: `${where} ${quoteText(text)} is not a tag, branch or full commit id (a-z, A-Z, 0-9, ".", "_", "/", "+", "-"; not starting with "-", without ".." or "//")`,
        hint: 'A revision such as v1~1 or main^ cannot be pinned: give the tag or branch, or the full commit id (`git rev-parse v1~1` in the source prints it).',
      };
    case 'path':
      return {
        message: `${where} ${quoteText(text)} is not a folder inside the source: a relative path without "/" at either end, without "." or ".." parts, of a-z, A-Z, 0-9, ".", "_", "-"`,
        hint: 'Write the store folder as the source repository names it from its top, e.g. policy or tools/.agents.',
      };
    default:
      return undefined;
  }
}

/** Raw entries of config.yaml's `extends` (schema-valid) → sources with defaults, and the problems a schema cannot say. */
export function sourcesFromConfig(
  file: string,
  raw: readonly { name?: string; url: string; ref: string; path?: string }[],
  place: PlaceEntry = (d) => d,
): { sources: ExtendsSource[]; diagnostics: Diagnostic[] } {
  const sources: ExtendsSource[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const [i, r] of raw.entries()) {
    // The schema's pattern lets through what names.ts refuses (a device name Windows keeps, a trailing dot):
    // `plan use NAME:ns/name` and the cache folder take the same names as projects.
    const refused = r.name === undefined ? null : nameProblem(r.name, `extends[${i}].name`);
    if (refused !== null) {
      diagnostics.push(place(problem(file, refused, 'Give the source another `name:` (a-z, 0-9, ".", "_", "-").'), i, 'name'));
      continue;
    }
    const name = r.name ?? defaultSourceName(r.url);
    if (name === undefined) {
      diagnostics.push(
        place(
          problem(
            file,
            `extends[${i}]: no name can be derived from the URL ${hideCredentials(r.url)}`,
            'Give the source a `name:` (a-z, 0-9, ".", "_", "-").',
          ),
          i,
          'url',
        ),
      );
      continue;
    }
    if (seen.has(name)) {
      diagnostics.push(
        place(
          problem(
            file,
            `extends[${i}]: two sources are named ${name}`,
            'Give one of them another `name:`; names address their invariants and actions.',
          ),
          i,
          r.name === undefined ? 'url' : 'name',
        ),
      );
      continue;
    }
    seen.add(name);
    sources.push({ name, url: r.url, ref: r.ref, path: r.path ?? DEFAULT_SOURCE_PATH });
  }
  return { sources, diagnostics };
}
