import { quoteText } from './plain-text.ts';

/** Crockford base32 ULID: 26 characters, upper case, first character 0-7. */
export const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** A project, an action namespace or an action name (docs/store-format.md). */
export const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Names Windows keeps for devices, alone or before an extension (`nul`, `aux.d`): no file or folder may take one. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\.|$)/;

/** Shortest id prefix accepted where a command takes an id (docs/commands.md). */
export const MIN_PREFIX = 4;

export function isUlid(value: string): boolean {
  return ULID_RE.test(value);
}

export function isName(value: string): boolean {
  // "." and ".." need no test of their own: a name cannot start with a dot.
  return NAME_RE.test(value) && !WINDOWS_DEVICE.test(value) && !value.endsWith('.');
}

/** Whether a folder of `projects/` is a project: a valid name that is not reserved (`projects/global/` is none). */
export function isProjectName(value: string): boolean {
  return isName(value) && !RESERVED_PROJECT_NAMES.includes(value);
}

/** Why `value` is not a valid name, or null when it is. */
export function nameProblem(value: string, what: string): string | null {
  if (value === '') return `${what} is empty`;
  if (value === '.' || value === '..') return `${what} ${quoteText(value)} is not allowed`;
  if (value.length > 64) return `${what} ${quoteText(truncate(value))} is longer than 64 characters`;
  if (!NAME_RE.test(value)) {
    return `${what} ${quoteText(truncate(value))} must start with a lower-case letter or digit and hold only a-z, 0-9, ".", "_" and "-"`;
  }
  // A folder of such a name cannot be checked out on Windows: git refuses the path there.
  if (WINDOWS_DEVICE.test(value))
    return `${what} ${quoteText(value)} is a device name Windows reserves (con, prn, aux, nul, com1–9, lpt1–9)`;
  if (value.endsWith('.')) return `${what} ${quoteText(truncate(value))} ends with ".", which Windows drops from a folder's name`;
  if (what === 'project' && RESERVED_PROJECT_NAMES.includes(value))
    return `project ${quoteText(value)} is a reserved name (a scope word, or the name of the global instruction file an export writes: agents-global.mdc)`;
  return null;
}

/**
 * Project names that would read as a scope, or whose exported files would be
 * those of the global scope (`agents-global.mdc`, always applied).
 */
export const RESERVED_PROJECT_NAMES: readonly string[] = Object.freeze([
  'global',
  'project',
  'projects',
  'plan',
  'plans',
  'action',
  'actions',
  'inherited',
  'extends',
]);

/** Why `value` is not a ULID, or null when it is. */
export function ulidProblem(value: string, what: string): string | null {
  if (ULID_RE.test(value)) return null;
  if (ULID_RE.test(value.toUpperCase())) return `${what} ${quoteText(value)} must be upper case`;
  return `${what} ${quoteText(truncate(value))} is not a ULID (26 characters of Crockford base32, e.g. 01JDQ6X5Z8W4N3B2C1D0E9F8G7)`;
}

export interface ActionRef {
  ns: string;
  name: string;
}

/**
 * Parses `ns/name`; returns a reason string when it is malformed. `source`: the policy source the name followed
 * (`SOURCE:NS/NAME`, docs/extends.md), which the reason then names with it, as it was given.
 */
export function parseActionRef(value: string, source?: string): ActionRef | string {
  const shown = quoteText(truncate(source === undefined ? value : `${source}:${value}`));
  const form =
    source === undefined
      ? "NS/NAME (or SOURCE:NS/NAME, a policy source's template), e.g. local/code-coverage"
      : `SOURCE:NS/NAME, e.g. ${source}:local/code-coverage`;
  if (source !== undefined && value === '') return `action ${shown} names no template after the policy source's name: write ${form}`;
  const parts = value.split('/');
  if (parts.length !== 2) return `action ${shown} must be ${form}`;
  const [ns, name] = parts as [string, string];
  // An empty side is said with the whole value, which alone shows where it is missing.
  if (ns === '' || name === '') return `action ${shown} has an empty ${ns === '' ? 'namespace' : 'name'}: it must be ${form}`;
  return nameProblem(ns, 'action namespace') ?? nameProblem(name, 'action name') ?? { ns, name };
}

/**
 * The agent's own text a reason or a record quotes (a command, a path, a tool's argument): whole up to `max`
 * characters, else cut by `truncate` with its whole length after it, so that a megabyte command is not handed back
 * to the model and the person whole, whichever client asked.
 */
export function truncateCounted(value: string, max = 300): string {
  if (value.length <= max) return value;
  let length = 0;
  for (const _ of value) length++;
  return `${truncate(value, max)} (${length} characters)`;
}

export function truncate(value: string, max = 60): string {
  if (value.length <= max) return value;
  // Cut between characters as a reader sees them (graphemes): a letter keeps its combining accent, a flag and an
  // emoji with its skin tone stay whole instead of leaving a stray half before the "…".
  // Only the head is segmented: a break at or before `max` is decided by the characters up to the one after it, and
  // segmenting a whole megabyte command took seconds, past the time a client waits for its hook.
  let cut = 0;
  const head = value.slice(0, max + 2);
  for (const { index, segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(head)) {
    if (index + segment.length > max - 1) break;
    cut = index + segment.length;
  }
  if (cut === 0) {
    // One character longer than the whole cut: never between the two halves of a character outside the BMP, which
    // prints as U+FFFD and is no JSON string.
    const high = value.charCodeAt(max - 2);
    cut = high >= 0xd800 && high <= 0xdbff ? max - 2 : max - 1;
  }
  return `${value.slice(0, cut)}…`;
}

/** Counts code points, as JSON Schema's maxLength does. */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Code points HFS+ leaves out of a name (git's is_hfs_dotgit skips them too): `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * A path as the most forgiving file system names it: composed, without the code points HFS+ ignores, without case
 * (upper then lower, so `ı` and `ſ` meet `i` and `s` as NTFS's and APFS's tables have them), and without the dots and
 * spaces Windows drops at a name's end. The reserved folders are compared so on every system, whatever git says of
 * the repository: a folder mounted from another system, or a core.ignorecase set wrong, must not let `.GIT/config`
 * through (docs/adr/0091-reserved-paths-matched-without-case.md); the guards' globs so where git ignores case.
 */
export function loosely(path: string): string {
  return path
    .normalize('NFC')
    .replace(HFS_IGNORED, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/[. ]+(?=[\\/]|$)/g, '');
}
