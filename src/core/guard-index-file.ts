/**
 * The guard index as kept in `.git/agents/guard-index.json` (docs/guard.md,
 * "The index"). The first line is what every call reads: the plan, the
 * answer on error, the stamps of the store's fixed folders, and where each
 * section of the rest starts. Then one line per rule, per first segment of
 * the projects' globs and per project (its stamps, globs and context), each
 * section sorted by key. The hook runs before every tool call and needs the
 * lines of the few projects one action touches: it finds them by binary
 * search and parses only those, not the whole index of every project. Pure.
 */
import type { GuardContext, GuardIndex, GuardIndexLookup, GuardRule } from './guard.ts';

/** Bump when the file's shape changes: an index of another format is rebuilt. */
export const GUARD_INDEX_FORMAT = 4;

type Section = 'heads' | 'projects';

interface Header {
  format: number;
  plan: string | null;
  onError: 'deny' | 'allow';
  /** The stamps of everything but the project folders (theirs are on their project's line). */
  stamps: Record<string, string>;
  /** Where each section starts and ends, in characters from the start of the line after this one. */
  sections: Record<Section, [number, number]>;
  /** Where each rule's line starts, likewise (rules are read by their number). */
  rules: number[];
}

interface ProjectLine {
  stamps: Record<string, string>;
  globs?: string[];
  context?: GuardContext;
}

/** A project's own stamps: its folder and its waivers folder. */
const PROJECT_STAMP = /^projects\/([^/]+)(?:\/waivers)?$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NL = 0x0a;
const TAB = 0x09;

/** Byte order, the order of the sections' keys (UTF-8 bytes sort as code points). */
function compareBytes(a: Uint8Array, b: Uint8Array, bFrom = 0, bTo = b.length): number {
  const n = Math.min(a.length, bTo - bFrom);
  for (let i = 0; i < n; i++) if (a[i] !== b[bFrom + i]) return a[i]! - b[bFrom + i]!;
  return a.length - (bTo - bFrom);
}

/** The bytes of the kept index: `stamps` are what it was built from (store-relative path → stamp). */
export function encodeGuardIndex(index: GuardIndex, stamps: Record<string, string>): Uint8Array {
  const fixed: Record<string, string> = {};
  const perProject = new Map<string, ProjectLine>();
  const lineOf = (name: string) => {
    let line = perProject.get(name);
    if (!line) perProject.set(name, (line = { stamps: {} }));
    return line;
  };
  for (const [key, value] of Object.entries(stamps)) {
    const m = PROJECT_STAMP.exec(key);
    if (m) lineOf(m[1]!).stamps[key] = value;
    else fixed[key] = value;
  }
  for (const [name, globs] of Object.entries(index.projects)) lineOf(name).globs = globs;
  for (const [name, context] of Object.entries(index.contexts)) lineOf(name).context = context;
  const lines: Uint8Array[] = [];
  let at = 0;
  const push = (line: Uint8Array) => {
    lines.push(line);
    at += line.length;
  };
  const rules = index.rules.map((rule) => {
    const start = at;
    push(encoder.encode(`${JSON.stringify(rule)}\n`));
    return start;
  });
  // Sorted by the key's bytes as written (JSON): the reader compares the key it looks for, encoded alike, decoding none.
  const section = (entries: [string, unknown][]): [number, number] => {
    const start = at;
    const keyed = entries.map(([key, value]): [Uint8Array, unknown] => [encoder.encode(JSON.stringify(key)), value]);
    // JSON escapes every control character: a tab or a line break in a line is always one of these.
    for (const [key, value] of keyed.sort(([a], [b]) => compareBytes(a, b))) {
      push(key);
      push(encoder.encode(`\t${JSON.stringify(value)}\n`));
    }
    return [start, at];
  };
  const sections: Header['sections'] = { heads: section(Object.entries(index.heads)), projects: section([...perProject]) };
  const header: Header = { format: GUARD_INDEX_FORMAT, plan: index.plan, onError: index.onError, stamps: fixed, sections, rules };
  const head = encoder.encode(`${JSON.stringify(header)}\n`);
  const out = new Uint8Array(head.length + at);
  out.set(head, 0);
  let offset = head.length;
  for (const line of lines) {
    out.set(line, offset);
    offset += line.length;
  }
  return out;
}

/** A kept index, decoded line by line as it is read; a line that does not decode throws (the caller rebuilds). */
export class KeptGuardIndex implements GuardIndexLookup {
  readonly #bytes: Uint8Array;
  readonly #body: number;
  readonly #header: Header;
  readonly #decoded = new Map<string, unknown>();
  readonly #rules = new Map<number, GuardRule>();

  private constructor(bytes: Uint8Array, body: number, header: Header) {
    this.#bytes = bytes;
    this.#body = body;
    this.#header = header;
  }

  /** The index in `bytes`, or undefined when it is not one of this format. */
  static open(bytes: Uint8Array): KeptGuardIndex | undefined {
    const end = bytes.indexOf(NL);
    if (end < 0) return undefined;
    let header: Header;
    try {
      header = JSON.parse(decoder.decode(bytes.subarray(0, end))) as Header;
    } catch {
      return undefined;
    }
    if (header?.format !== GUARD_INDEX_FORMAT || typeof header.stamps !== 'object' || header.stamps === null) return undefined;
    const body = bytes.length - end - 1;
    for (const name of ['heads', 'projects'] as const) {
      const range = header.sections?.[name];
      if (!Array.isArray(range) || !(range[0] >= 0 && range[0] <= range[1] && range[1] <= body)) return undefined;
    }
    if (!Array.isArray(header.rules) || !header.rules.every((at) => at >= 0 && at < body)) return undefined;
    return new KeptGuardIndex(bytes, end + 1, header);
  }

  get plan(): string | null {
    return this.#header.plan;
  }

  get onError(): 'deny' | 'allow' {
    return this.#header.onError;
  }

  /** The stamp a store-relative path had when the index was built, or undefined when it was not taken. */
  stamp(path: string): string | undefined {
    const m = PROJECT_STAMP.exec(path);
    return m ? this.#project(m[1]!)?.stamps?.[path] : this.#header.stamps[path];
  }

  rule(i: number): GuardRule {
    let rule = this.#rules.get(i);
    if (rule) return rule;
    const start = this.#header.rules[i];
    if (start === undefined) throw new Error(`guard index: rule ${i} is missing`);
    const from = this.#body + start;
    const end = this.#bytes.indexOf(NL, from);
    if (end < 0) throw new Error(`guard index: rule ${i} is cut short`);
    rule = JSON.parse(decoder.decode(this.#bytes.subarray(from, end))) as GuardRule;
    this.#rules.set(i, rule);
    return rule;
  }

  context(name: string): GuardContext | undefined {
    return this.#project(name)?.context;
  }

  globs(project: string): string[] | undefined {
    return this.#project(project)?.globs;
  }

  head(first: string): string[] | undefined {
    return this.#find('heads', first) as string[] | undefined;
  }

  #project(name: string): ProjectLine | undefined {
    return this.#find('projects', name) as ProjectLine | undefined;
  }

  /** The value on the line of `key` in a section (binary search over its sorted lines), decoded once. */
  #find(section: Section, key: string): unknown {
    const memo = `${section}\0${key}`;
    if (this.#decoded.has(memo)) return this.#decoded.get(memo);
    const bytes = this.#bytes;
    const sought = encoder.encode(JSON.stringify(key));
    const [from, to] = this.#header.sections[section];
    let lo = this.#body + from;
    let hi = this.#body + to;
    let found: unknown;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // The line holding mid: lo and hi are always starts of lines.
      const start = mid === 0 ? 0 : Math.max(lo, bytes.lastIndexOf(NL, mid - 1) + 1);
      const tab = bytes.indexOf(TAB, start);
      const end = bytes.indexOf(NL, start);
      if (tab < 0 || end < 0 || tab > end) throw new Error('guard index: a line is not key and value');
      const order = compareBytes(sought, bytes, start, tab);
      if (order === 0) {
        found = JSON.parse(decoder.decode(bytes.subarray(tab + 1, end)));
        break;
      }
      if (order < 0) hi = start;
      else lo = end + 1;
    }
    this.#decoded.set(memo, found);
    return found;
  }
}
