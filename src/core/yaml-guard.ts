/**
 * Cheap checks run on a file's text before the YAML parser sees it, so that
 * hostile input is refused in time linear in its size:
 *
 * - nesting: the `yaml` parser recurses once per level. Past a few thousand
 *   levels the stack runs out, and V8 may then abort the whole process (an
 *   out-of-memory "RegExpCompiler" failure seen with `? ? ? …`) instead of
 *   throwing, so the parser must never be started on such a file.
 * - size in nodes: the parser's time grows with the nodes, not the bytes, so a
 *   flow sequence of one-letter items within the size limit held a run far
 *   past any budget (docs/adr/0027-reliability-links-locks-hostile-input.md
 *   has the measure); store files hold at most a few thousand nodes.
 *
 * Both counts over-estimate rather than under-estimate: a file the guard lets
 * through is never deeper or larger than the limits.
 */
import { Lexer } from 'yaml';
import { MAX_YAML_TOKENS } from './limits.ts';

export { MAX_YAML_TOKENS };

/** Nesting levels allowed; store files need three. */
export const MAX_NESTING = 64;

export interface ShapeProblem {
  kind: 'too-deep' | 'too-many-nodes';
  /** Offset in the text where the limit was passed. */
  offset: number;
  message: string;
}

/**
 * Where the text first passes {@link MAX_NESTING} or {@link MAX_YAML_TOKENS},
 * or null. It runs the `yaml` lexer (a flat state machine, so it knows quotes,
 * comments and block scalars without recursing) and stops at the first limit
 * passed. Block levels come from indentation and from the indicators that
 * open a level on one line (`- - x`, `? ? x`); flow levels from brackets.
 */
export function yamlShapeProblem(source: string, maxNesting = MAX_NESTING, maxTokens = MAX_YAML_TOKENS): ShapeProblem | null {
  const indents: number[] = [];
  let flow = 0;
  let tokens = 0;
  let offset = 0;
  let lineStart = true;
  let col = 0;
  // Block indicators met on the current line: each may open a level (`- - x`, `k: ? ? x`).
  let onLine = 0;
  const depth = () => indents.length + onLine + flow;
  for (const token of new Lexer().lex(source)) {
    const at = offset;
    // Markers (document mode, "a scalar follows") take no room in the text.
    if (token.length === 1 && token < ' ' && token !== '\t' && token !== '\n') continue;
    offset += token.length;
    if (++tokens > maxTokens) return { kind: 'too-many-nodes', offset: at, message: `file holds more than ${maxTokens} YAML tokens` };
    if (token === '\n' || token === '\r\n') {
      lineStart = true;
      col = 0;
      onLine = 0;
      continue;
    }
    let first = false;
    if (lineStart) {
      if (/^[ \t]+$/.test(token)) {
        col += token.length;
        continue;
      }
      if (token[0] === '#') continue;
      lineStart = false;
      first = true;
      if (flow === 0) {
        while ((indents.at(-1) ?? -1) >= col) indents.pop();
        indents.push(col);
      }
    }
    // `key: value` opens no level beyond the map; `: value` first on a line (after `? key`) does.
    if (token === '-' || token === '?' || (token === ':' && first)) onLine++;
    else if (token === '[' || token === '{') flow++;
    else if ((token === ']' || token === '}') && flow > 0) flow--;
    else if (token.includes('\n')) {
      // A token over several lines (a line break alone was handled above): block
      // scalar content ends its last line; a quoted scalar over several lines does not.
      lineStart = token.endsWith('\n');
      col = 0;
      onLine = 0;
    }
    if (depth() > maxNesting) return { kind: 'too-deep', offset: at, message: `file nests more than ${maxNesting} levels deep` };
  }
  return null;
}

/** Line breaks of YAML 1.1 (and of a lone CR, of YAML 1.2 too) that `yaml` reads as text: CR not before LF, NEL, LS, PS. */
const OTHER_BREAK = /\r(?!\n)|[\u0085\u2028\u2029]/;

/**
 * The first line break in a comment that `yaml` does not see and other YAML
 * readers do: PyYAML (and yamllint, which uses it) ends a comment at a lone
 * CR, NEL, U+2028 or U+2029 and reads what follows as YAML, so
 * `text: x # note<CR>active: false` is inactive to them and active here.
 * Such a character in a value is the value's own `control-character` error;
 * this finds it where no value holds it. Its offset, or null.
 */
export function hiddenLineBreak(source: string): number | null {
  if (!OTHER_BREAK.test(source)) return null;
  let offset = 0;
  for (const token of new Lexer().lex(source)) {
    // The lexer's markers (document start, flow end, "a scalar follows") take no room in the text.
    if (token === '\u0002' || token === '\u0018' || token === '\u001f') continue;
    if (token[0] === '#') {
      const at = token.search(OTHER_BREAK);
      if (at >= 0) return offset + at;
    }
    offset += token.length;
  }
  return null;
}

/**
 * The first U+FEFF at the start of a line (the source has its leading byte order mark taken off already): `yaml`
 * reads it as a byte order mark and skips it, where PyYAML and yamllint, which skip only the file's first, read it
 * as part of what follows, so `<U+FEFF>id: …` is an `id` here and a key no one sees there. One inside a value is the
 * value's own `control-character` error. Its offset, or null.
 */
export function strayByteOrderMark(source: string): number | null {
  for (let at = source.indexOf('\uFEFF'); at >= 0; at = source.indexOf('\uFEFF', at + 1)) {
    if (at === 0 || source[at - 1] === '\n') return at;
  }
  return null;
}
