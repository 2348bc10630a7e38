/**
 * A fast reader for the plain shape of YAML the tool itself writes (and most
 * people write by hand): a top-level map of `key: scalar` lines, with block
 * sequences or one level of nested map under a `key:` line, full-line
 * comments and blank lines. Scalars are plain, 'single-quoted' or
 * "double-quoted" on one line.
 *
 * It answers only when it is sure to give exactly what `yaml` (YAML 1.2 core
 * schema) gives; on anything else — tabs, CR, flow collections, block
 * scalars, anchors, tags, numbers, null, multi-line scalars, odd indentation,
 * duplicate keys, unusual characters — it returns `undefined` and the caller
 * uses `yaml`, which also produces every diagnostic with its position.
 * A differential test over generated and fuzzed documents holds it to that.
 */

/** Characters that send a file to the full parser: controls (tab, CR included), C1, line/paragraph separators, BOM, non-characters. */
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const KEY = /^[a-z_][a-z0-9_]{0,63}$/;
/** Plain scalars the core schema reads as numbers (yaml's int, octal, hex, float, exp, inf and nan forms). */
const NUMBER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** Characters that may not start a plain scalar here (indicators, quotes, space). */
const PLAIN_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@` ']);
const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

type Scalar = string | boolean;
const NOT = Symbol('not canonical');

function scalar(text: string): Scalar | typeof NOT {
  if (text === '') return NOT;
  const first = text[0]!;
  if (first === '"') return doubleQuoted(text);
  if (first === "'") return singleQuoted(text);
  if (PLAIN_FIRST.has(first)) return NOT;
  if (text.includes(' #') || text.includes(': ') || text.endsWith(':') || text.endsWith(' ')) return NOT;
  if (text === 'true') return true;
  if (text === 'false') return false;
  // Other spellings of booleans, null and numbers: leave them to yaml.
  if (/^(?:~|null|Null|NULL|True|TRUE|False|FALSE)$/.test(text) || NUMBER.test(text)) return NOT;
  return text;
}

function singleQuoted(text: string): string | typeof NOT {
  if (text.length < 2 || !text.endsWith("'")) return NOT;
  const inner = text.slice(1, -1);
  // Every quote inside must be doubled; a lone one ends the scalar early.
  if (inner.replace(/''/g, '').includes("'")) return NOT;
  return inner.replace(/''/g, "'");
}

function doubleQuoted(text: string): string | typeof NOT {
  if (text.length < 2 || !text.endsWith('"')) return NOT;
  let out = '';
  const end = text.length - 1;
  for (let i = 1; i < end; i++) {
    const c = text[i]!;
    if (c === '"') return NOT;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = text[++i];
    if (e === undefined || i >= end) return NOT;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (e === 'u' || e === 'x') {
      const n = e === 'u' ? 4 : 2;
      const hex = text.slice(i + 1, i + 1 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex) || i + n >= end) return NOT;
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

/** `key: rest` on one line; undefined when the line is not one. */
function keyLine(line: string): { key: string; rest: string | undefined } | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0) return undefined;
  const key = line.slice(0, colon);
  if (!KEY.test(key) || key === 'null' || key === 'true' || key === 'false' || key === '__proto__') return undefined;
  if (colon === line.length - 1) return { key, rest: undefined };
  if (line[colon + 1] !== ' ') return undefined;
  return { key, rest: line.slice(colon + 2) };
}

/**
 * The data of a document in the canonical shape, exactly as `yaml` would
 * give it; `undefined` when the document is anything else.
 */
export function parseCanonicalYaml(source: string): Record<string, unknown> | undefined {
  if (UNUSUAL.test(source)) return undefined;
  const lines = source.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: Record<string, unknown> = {};
  let keys = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' || line[0] === '#') continue;
    const kv = keyLine(line);
    if (!kv || Object.hasOwn(out, kv.key)) return undefined;
    keys++;
    if (kv.rest !== undefined) {
      const v = scalar(kv.rest);
      if (v === NOT) return undefined;
      out[kv.key] = v;
      continue;
    }
    // `key:` alone: a block sequence or a nested map follows (nothing else).
    const next = lines[i + 1];
    if (next === undefined) return undefined;
    if (next.startsWith('- ') || next.startsWith('  - ')) {
      const prefix = next.startsWith('- ') ? '- ' : '  - ';
      const items: Scalar[] = [];
      while (i + 1 < lines.length && lines[i + 1]!.startsWith(prefix)) {
        const v = scalar(lines[++i]!.slice(prefix.length));
        if (v === NOT) return undefined;
        items.push(v);
      }
      out[kv.key] = items;
    } else if (next.startsWith('  ') && next[2] !== ' ' && next[2] !== '-') {
      const map: Record<string, unknown> = {};
      while (i + 1 < lines.length && lines[i + 1]!.startsWith('  ')) {
        const inner = keyLine(lines[++i]!.slice(2));
        if (!inner || inner.rest === undefined || Object.hasOwn(map, inner.key)) return undefined;
        const v = scalar(inner.rest);
        if (v === NOT) return undefined;
        map[inner.key] = v;
      }
      out[kv.key] = map;
    } else {
      return undefined;
    }
    // Whatever follows the block must start a new top-level line.
    const after = lines[i + 1];
    if (after !== undefined && after !== '' && (after[0] === ' ' || after[0] === '-')) return undefined;
  }
  return keys > 0 ? out : undefined;
}
