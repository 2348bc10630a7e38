/**
 * A fast reader for the plain shape of YAML the tool itself writes (and most
 * people write by hand): a top-level map of `key: scalar` lines, with block
 * sequences (of scalars, or of one-level maps) or one level of nested map
 * under a `key:` line, whose values may be block sequences of scalars (a
 * guard's lists); full-line comments at any indentation and blank lines.
 * Scalars are plain, 'single-quoted' or "double-quoted" on one line, a flow
 * sequence of plain words (`[node, actor.mjs]`), or a `>-` folded block
 * scalar of plain lines (the form the writer gives long values,
 * docs/store-format.md); `true`, `false`, `null` and small integers are read
 * as yaml reads them.
 *
 * It answers only when it is sure to give exactly what `yaml` (YAML 1.2 core
 * schema) gives; on anything else — tabs, CR, flow collections, other block
 * scalars, anchors, tags, other numbers and spellings, multi-line scalars, odd indentation,
 * duplicate keys, unusual characters — it returns `undefined` and the caller
 * uses `yaml`, which also produces every diagnostic with its position.
 * A differential test over generated and fuzzed documents holds it to that.
 */

/**
 * Plain scalars the core schema reads as numbers (yaml's octal, hex, float,
 * exp, inf and nan forms; the float form takes in the decimal int one,
 * `[-+]?[0-9]+`).
 */
const NUMBER =
  /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NULL_OR_BOOL = /^(?:~|null|Null|NULL|True|TRUE|False|FALSE)$/;
/** `[word, word]`: words of letters, digits and `_./@+=-`, starting with a letter, digit, `_`, `.` or `/`. */
const FLOW_WORDS = /^\[[A-Za-z0-9_./][A-Za-z0-9_./@+=-]*(?:, [A-Za-z0-9_./][A-Za-z0-9_./@+=-]*)*\]$/;
/** Characters that may not start a plain scalar here (indicators, quotes, space). */
const PLAIN_FIRST = '-?:,[]{}#&*!|>\'"%@` ';
const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/**
 * A character that sends a file to the full parser: controls (tab and CR
 * included), C1 controls, the line and paragraph separators, a byte-order
 * mark, non-characters. (One regular expression scan is faster than a loop.)
 */
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

type Scalar = string | boolean | number | null;
/** Integers written the one way yaml writes them, small enough to be exact. */
const PLAIN_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
const NOT = Symbol('not canonical');
/** A line holding only a comment. */
const COMMENT_LINE = /^ *#/;

/**
 * A `>-` folded block scalar whose lines start at `lines[i + 1]`, indented by
 * exactly `indent` spaces: its text and the index of its last line. Only the
 * simple shape: every line non-empty, starting with no further space and
 * ending with none, so folding joins the lines with single spaces.
 */
function folded(lines: readonly string[], i: number, indent: number): { value: string; last: number } | undefined {
  let value = '';
  let j = i + 1;
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    if (!isSpaces(line, indent)) break;
    const c = line.charCodeAt(indent);
    if (Number.isNaN(c) || c === 0x20 || line.charCodeAt(line.length - 1) === 0x20) return undefined;
    value += (j === i + 1 ? '' : ' ') + line.slice(indent);
  }
  if (j === i + 1) return undefined;
  // A blank line could still belong to the block: leave that to yaml.
  // (Past the last line, lines[j] is undefined.)
  if (lines[j] === '') return undefined;
  return { value, last: j - 1 };
}

function scalar(text: string): Scalar | Scalar[] | typeof NOT {
  if (text === '') return NOT;
  const first = text[0]!;
  if (first === '[') return flowSequence(text);
  if (first === '"') return doubleQuoted(text);
  if (first === "'") return singleQuoted(text);
  if (PLAIN_FIRST.includes(first)) return NOT;
  if (text.includes(' #') || text.includes(': ') || text.endsWith(':') || text.endsWith(' ')) return NOT;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  // Other spellings of booleans, null and numbers: leave them to yaml.
  const c = text.charCodeAt(0);
  // A leading '-' was refused above (PLAIN_FIRST).
  if (((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e) && NUMBER.test(text)) return PLAIN_INT.test(text) ? Number(text) : NOT;
  if ('~nNtTfF'.includes(first) && NULL_OR_BOOL.test(text)) return NOT;
  return text;
}

/** A flow sequence of plain words written `[a, b]` (or `[]`), as `command: [node, actor.mjs]` is; NOT for any other. */
function flowSequence(text: string): Scalar[] | typeof NOT {
  if (text === '[]') return [];
  if (!FLOW_WORDS.test(text)) return NOT;
  const items: Scalar[] = [];
  for (const word of text.slice(1, -1).split(', ')) {
    const v = scalar(word);
    if (v === NOT || Array.isArray(v)) return NOT;
    items.push(v);
  }
  return items;
}

/**
 * Where each node of a canonical document starts, as `yaml` gives it
 * (`range[0]` of the node): the parse records it on the way when asked for
 * positions (a diagnostic's); without it, no path is even spelled.
 */
interface Positions {
  /** The offset in the source of each line of the parse's `lines` (comment lines dropped with their offsets). */
  starts: number[];
  /** Node offsets by path (keys and sequence indexes, joined by NUL). */
  at: Map<string, number>;
}

const PATH_JOIN = '\u0000';

/** Records the offsets of a value that starts at column `col` of line `i`, and of its items when it is a flow sequence. */
function recordValue(pos: Positions | undefined, path: string, i: number, col: number, value: unknown, text: string): void {
  if (pos === undefined) return;
  const start = pos.starts[i]! + col;
  pos.at.set(path, start);
  // `[a, b]` (not `[]`): each word after the bracket and the ", " before it.
  if (Array.isArray(value) && value.length > 0 && text.startsWith('[')) {
    let at = start + 1;
    text
      .slice(1, -1)
      .split(', ')
      .forEach((word, n) => {
        pos.at.set(`${path}${PATH_JOIN}${n}`, at);
        at += word.length + 2;
      });
  }
}

function singleQuoted(text: string): string | typeof NOT {
  if (text.length < 2 || !text.endsWith("'")) return NOT;
  const inner = text.slice(1, -1);
  // Every quote inside must be doubled; a lone one ends the scalar early.
  if (!/^(?:[^']|'')*$/.test(inner)) return NOT;
  return inner.replace(/''/g, "'");
}

function doubleQuoted(text: string): string | typeof NOT {
  if (text.length < 2 || !text.endsWith('"')) return NOT;
  const inner = text.slice(1, -1);
  if (!inner.includes('\\')) return inner.includes('"') ? NOT : inner;
  let out = '';
  const end = text.length - 1;
  for (let i = 1; i < end; i++) {
    const c = text[i]!;
    if (c === '"') return NOT;
    if (c !== '\\') {
      out += c;
      continue;
    }
    // A backslash just before the closing quote escapes it: the scalar does not end there.
    if (++i >= end) return NOT;
    const e = text[i]!;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (e === 'u' || e === 'x') {
      const n = e === 'u' ? 4 : 2;
      // Fewer than n digits before the closing quote leave the quote (or nothing) in the
      // slice, which the test refuses: the digits always end before the scalar does.
      const hex = text.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex)) return NOT;
      const code = parseInt(hex, 16);
      // Surrogates and controls: yaml's handling is subtle; let it decide.
      if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code < 0xe000)) return NOT;
      out += String.fromCharCode(code);
      i += n;
      continue;
    }
    return NOT;
  }
  return out;
}

/**
 * The end of a plain key starting at `start` of `line`: the index of its ":",
 * which ends the line or is followed by a space; 0 when there is no such key
 * (a key has a character, so its colon is never at 0).
 */
function keyEnd(line: string, start: number): number {
  const colon = line.indexOf(':', start);
  if (colon <= start || colon - start > 64) return 0;
  for (let i = start; i < colon; i++) {
    const c = line.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || c === 0x5f || (i > start && c >= 0x30 && c <= 0x39))) return 0;
  }
  if (colon + 1 < line.length && line.charCodeAt(colon + 1) !== 0x20) return 0;
  return colon;
}

/** A key that yaml would not read as a plain string key, or that JavaScript objects treat specially. */
function reservedKey(key: string): boolean {
  return key === 'null' || key === 'true' || key === 'false' || key === '__proto__';
}

/**
 * The block sequence of scalars under the `key:` line `lines[i]` whose key
 * starts at `indent`: its items, indented by two more spaces or (compact) as
 * many, and the index of its last line; undefined for any other shape.
 */
function scalarSequence(
  lines: readonly string[],
  i: number,
  indent: number,
  pos?: Positions,
  path = '',
): { items: unknown[]; last: number } | undefined {
  const next = lines[i + 1];
  if (next === undefined) return undefined;
  const deeper = `${' '.repeat(indent + 2)}- `;
  const prefix = next.startsWith(deeper) ? deeper : next.startsWith(`${' '.repeat(indent)}- `) ? deeper.slice(2) : undefined;
  if (prefix === undefined) return undefined;
  // The sequence starts at its first dash.
  if (pos) pos.at.set(path, pos.starts[i + 1]! + prefix.length - 2);
  const items: unknown[] = [];
  let j = i + 1;
  for (; j < lines.length && lines[j]!.startsWith(prefix); j++) {
    const text = lines[j]!.slice(prefix.length);
    const v = scalar(text);
    if (v === NOT) return undefined;
    if (pos) recordValue(pos, `${path}${PATH_JOIN}${items.length}`, j, prefix.length, v, text);
    items.push(v);
  }
  return { items, last: j - 1 };
}

/**
 * Reads `key: scalar` lines starting at `lines[i]` with `indent` leading
 * characters into `map`; returns the index of the last line read, or
 * undefined when a line is not of that shape.
 */
function readMapLines(
  lines: readonly string[],
  i: number,
  indent: number,
  map: Record<string, unknown>,
  continues: (line: string) => boolean,
  pos?: Positions,
  path = '',
): number | undefined {
  // A block map starts at its first key.
  if (pos) pos.at.set(path, pos.starts[i]! + indent);
  for (;;) {
    const line = lines[i]!;
    const colon = keyEnd(line, indent);
    if (colon === 0) return undefined;
    const key = line.slice(indent, colon);
    if (reservedKey(key) || Object.hasOwn(map, key)) return undefined;
    const rest = line.slice(colon + 2);
    const here = pos ? `${path}${PATH_JOIN}${key}` : '';
    if (colon === line.length - 1) {
      // `key:` alone: a block sequence of scalars follows (a guard's lists).
      const seq = scalarSequence(lines, i, indent, pos, here);
      if (seq === undefined) return undefined;
      map[key] = seq.items;
      i = seq.last;
    } else if (rest === '>-') {
      const block = folded(lines, i, indent + 2);
      if (block === undefined) return undefined;
      recordValue(pos, here, i, colon + 2, block.value, rest);
      map[key] = block.value;
      i = block.last;
    } else {
      const v = scalar(rest);
      if (v === NOT) return undefined;
      recordValue(pos, here, i, colon + 2, v, rest);
      map[key] = v;
    }
    const following = lines[i + 1];
    if (following === undefined || !continues(following)) return i;
    i++;
  }
}

/**
 * The data of a document in the canonical shape, exactly as `yaml` would
 * give it; `undefined` when the document is anything else.
 */
export function parseCanonicalYaml(source: string): Record<string, unknown> | undefined {
  return readCanonical(source, undefined);
}

/**
 * Where the nodes of a canonical document start: for a path (keys and
 * sequence indexes), the offset in `source` of that node, or of its nearest
 * existing ancestor (the document: its first key), exactly as `yaml`'s
 * `range[0]` gives it. `undefined` when the document is not in the canonical
 * shape. What a diagnostic's position needs, without a syntax tree.
 */
export function canonicalPositions(source: string): ((path: readonly string[]) => number) | undefined {
  const pos: Positions = { starts: [], at: new Map() };
  if (readCanonical(source, pos) === undefined) return undefined;
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      let key = '';
      for (let k = 0; k < n; k++) key += PATH_JOIN + path[k];
      const at = pos.at.get(key);
      if (at !== undefined) return at;
    }
    return 0;
  };
}

function readCanonical(source: string, pos: Positions | undefined): Record<string, unknown> | undefined {
  if (UNUSUAL.test(source)) return undefined;
  let lines = source.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (pos) {
    let offset = 0;
    for (const line of lines) {
      pos.starts.push(offset);
      offset += line.length + 1;
    }
  }
  // Full-line comments may stand at any indentation; inside a folded block
  // scalar such a line is text, so with one present only column-0 comments
  // (which end a block) are skipped, below.
  if (!source.includes('>-')) {
    if (pos) pos.starts = pos.starts.filter((_, n) => !COMMENT_LINE.test(lines[n]!));
    lines = lines.filter((line) => !COMMENT_LINE.test(line));
  }
  const out: Record<string, unknown> = {};
  let keys = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' || line.charCodeAt(0) === 0x23) continue;
    const colon = keyEnd(line, 0);
    if (colon === 0) return undefined;
    const key = line.slice(0, colon);
    if (reservedKey(key) || Object.hasOwn(out, key)) return undefined;
    // The document's map starts at its first key.
    if (pos && keys === 0) pos.at.set('', pos.starts[i]!);
    keys++;
    const here = pos ? PATH_JOIN + key : '';
    if (colon < line.length - 1) {
      const rest = line.slice(colon + 2);
      if (rest === '>-') {
        const block = folded(lines, i, 2);
        if (block === undefined) return undefined;
        recordValue(pos, here, i, colon + 2, block.value, rest);
        out[key] = block.value;
        i = block.last;
        continue;
      }
      const v = scalar(rest);
      if (v === NOT) return undefined;
      recordValue(pos, here, i, colon + 2, v, rest);
      out[key] = v;
      continue;
    }
    // `key:` alone: a block sequence or a nested map follows (nothing else).
    const next = lines[i + 1];
    if (next === undefined) return undefined;
    if (next.startsWith('- ') || next.startsWith('  - ')) {
      const dash = next.charCodeAt(0) === 0x2d ? 0 : 2;
      const itemStart = dash + 2;
      const items: unknown[] = [];
      // The sequence starts at its first dash.
      if (pos) pos.at.set(here, pos.starts[i + 1]! + dash);
      while (i + 1 < lines.length && lines[i + 1]!.startsWith(next.slice(0, itemStart))) {
        const item = lines[++i]!;
        const itemColon = keyEnd(item, itemStart);
        const itemPath = pos ? `${here}${PATH_JOIN}${items.length}` : '';
        if (itemColon === 0) {
          const text = item.slice(itemStart);
          if (text === '>-') {
            const block = folded(lines, i, itemStart);
            if (block === undefined) return undefined;
            recordValue(pos, itemPath, i, itemStart, block.value, text);
            items.push(block.value);
            i = block.last;
            continue;
          }
          const v = scalar(text);
          if (v === NOT) return undefined;
          recordValue(pos, itemPath, i, itemStart, v, text);
          items.push(v);
          continue;
        }
        // `- key: value` and more `key: value` lines under it: a map item.
        const map: Record<string, unknown> = {};
        // The first line's key starts after "- "; the others after as many spaces.
        // A line indented so but holding no key (nothing, a space or a dash at
        // the key's place) fails keyEnd there, and the document is declined, as
        // it would be at the top level.
        const last = readMapLines(lines, i, itemStart, map, (l) => isSpaces(l, itemStart), pos, itemPath);
        if (last === undefined) return undefined;
        i = last;
        items.push(map);
      }
      out[key] = items;
    } else if (next.startsWith('  ')) {
      // A third space or a dash where the first key should start fails keyEnd: the map is declined.
      const map: Record<string, unknown> = {};
      const last = readMapLines(lines, i + 1, 2, map, (l) => l.startsWith('  '), pos, here);
      if (last === undefined) return undefined;
      i = last;
      out[key] = map;
    } else {
      return undefined;
    }
    // Whatever follows the block must be a new top-level key: a line that starts with a
    // space or a dash fails keyEnd on the next turn and the document is declined.
  }
  return keys > 0 ? out : undefined;
}

/** Whether `line` starts with `n` spaces. */
function isSpaces(line: string, n: number): boolean {
  for (let i = 0; i < n; i++) if (line.charCodeAt(i) !== 0x20) return false;
  return true;
}
