// A YAML store file with its positions: read by the canonical fast path
// (./canonical-yaml.ts), which places lines and nodes from the text itself,
// or by the full parser passed in (`YamlSyntax`), whose tree and line counter
// give them. The diagnostics' positions and line texts are made here.
// Imports neither `yaml` nor the schema validators.
import type { Document, Node } from 'yaml';
import { type Diagnostic, type DiagnosticCode, lineExcerpt, type Parsed } from './diagnostics.ts';
import type { RegexProblem } from './guard-entries.ts';
import { canonicalPositions, parseCanonicalYaml } from './canonical-yaml.ts';
import { MAX_FILE_BYTES, MAX_YAML_TOKENS } from './limits.ts';
import { bytePlace, lineStartOf, readUtf8, utf16Mark } from './utf8.ts';

/** Where each line of a text starts, and the line and column (1-based) of an offset: what `yaml`'s `LineCounter` gives. */
export interface LinePositions {
  readonly lineStarts: readonly number[];
  linePos(offset: number): { line: number; col: number };
}

/** A located YAML document, before schema validation. */
export interface YamlFile {
  file: string;
  source: string;
  doc: Document.Parsed;
  lines: LinePositions;
  data: unknown;
  /** The full parser this file was read with (its syntax tree needs it); absent on the fast path without one. */
  syntax?: YamlSyntax | undefined;
}

export function diag(file: string, code: DiagnosticCode, message: string, hint?: string, line = 0, col = 0, lineText?: string): Diagnostic {
  const d: Diagnostic = { code, severity: 'error', file, line, col, message };
  if (hint !== undefined) d.hint = hint;
  if (lineText !== undefined) Object.assign(d, lineExcerpt(lineText, col));
  return d;
}

/** Line `line` (from `linePos`: the parser records a start for line 1 before anything else, so every line it gives has one). */
function lineTextAt(source: string, lines: LinePositions, line: number): string {
  const start = lines.lineStarts[line - 1]!;
  const end = lines.lineStarts[line] ?? source.length;
  // The last line of a text ends with no LF, and may end with a CR.
  return source.slice(start, end).replace(/\r?\n$|\r$/, '');
}

/** A diagnostic at character offset `offset` of a text the parser has not seen. */
export function diagAtOffset(
  file: string,
  source: string,
  offset: number,
  code: DiagnosticCode,
  message: string,
  hint: string,
): Diagnostic {
  return diagAt({ file, source, lines: lineStartsOf(source) }, offset, code, message, hint);
}

/** A diagnostic at byte offset `offset` of a parsed file. */
export function diagAt(
  y: Pick<YamlFile, 'file' | 'source' | 'lines'>,
  offset: number,
  code: DiagnosticCode,
  message: string,
  hint?: string,
): Diagnostic {
  const { line, col } = y.lines.linePos(offset);
  return diag(y.file, code, message, hint, line, col, lineTextAt(y.source, y.lines, line));
}

/** A store file of `size` bytes, over the limit: refused without being read (or parsed). */
export function tooLarge(file: string, size: number): Diagnostic {
  return diag(
    file,
    'file-too-large',
    `file is ${size} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB)`,
    'An invariant file holds one short document; split or shorten it.',
  );
}

/**
 * Bytes → one YAML document (YAML 1.2 core schema). Never throws: every
 * problem — size, encoding, syntax, duplicate keys, several documents, alias
 * bombs, nesting — becomes a diagnostic with its position.
 */
export function parseYaml(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<YamlFile> {
  if (bytes.byteLength > MAX_FILE_BYTES) return { diagnostics: [tooLarge(file, bytes.byteLength)] };
  const utf16 = utf16Mark(bytes);
  if (utf16 !== undefined) {
    return {
      diagnostics: [
        diag(
          file,
          'file-not-utf8',
          `file is UTF-16 (it starts with the byte order mark ${utf16}), not UTF-8`,
          'Save the file as UTF-8 (in Windows PowerShell 5, write it with Out-File -Encoding utf8 rather than >).',
          1,
          1,
        ),
      ],
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // At the first NUL, as a byte that is not UTF-8 is placed: a stray one in a text file is found at once.
    const { line, col } = bytePlace(bytes, nul);
    return {
      diagnostics: [
        diag(
          file,
          'file-binary',
          'file holds binary content (a NUL byte), not YAML text',
          'Replace it with a UTF-8 YAML file, or move it out of the store.',
          line,
          col,
          lineOfByte(bytes, nul),
        ),
      ],
    };
  }
  const text = readUtf8(bytes, { dropBom: true });
  if (!text.ok) {
    return {
      diagnostics: [
        diag(
          file,
          'file-not-utf8',
          'file is not valid UTF-8',
          'Save the file as UTF-8.',
          text.line,
          text.col,
          lineOfByte(bytes, text.offset),
        ),
      ],
    };
  }
  const source = text.text;
  // The shape the tool writes is read without building a YAML syntax tree; the
  // tree (and its positions) is built only if a diagnostic needs it.
  // A text longer than the tokens a file may hold could hold more of them: the full parser's guard counts them, so a
  // file is refused the same whether its list is written in the form the fast path reads or another.
  const fast = source.length <= MAX_YAML_TOKENS ? parseCanonicalYaml(source) : undefined;
  if (fast !== undefined) return { value: new LazyYamlFile(file, source, fast, syntax), diagnostics: [] };
  return fullParser(syntax).parseFull(file, source);
}

/** The line holding byte `offset`, as far as it can be shown: bytes that are not UTF-8 as U+FFFD. */
function lineOfByte(bytes: Uint8Array, offset: number): string {
  const start = lineStartOf(bytes, offset);
  const end = bytes.indexOf(10, offset);
  return new TextDecoder().decode(bytes.subarray(start, end < 0 ? bytes.byteLength : end)).replace(/\r$/, '');
}

/**
 * A file read by the fast path: its positions come from the canonical shape
 * itself, and `doc` (the syntax tree, which a schema error's key needs) from
 * `yaml` on first use.
 */
class LazyYamlFile implements YamlFile {
  #full: YamlFile | undefined;
  #lines: LinePositions | undefined;
  #positions: ((path: readonly string[]) => number) | undefined;

  constructor(
    readonly file: string,
    readonly source: string,
    readonly data: unknown,
    readonly syntax: YamlSyntax | undefined,
  ) {}

  get doc(): Document.Parsed {
    if (!this.#full) {
      this.#full = fullParser(this.syntax).parseFull(this.file, this.source).value;
      if (!this.#full) throw new Error(`${this.file}: the fast YAML path accepted a document that yaml refuses`);
    }
    return this.#full.doc;
  }

  get lines(): LinePositions {
    this.#lines ??= lineStartsOf(this.source);
    return this.#lines;
  }

  /** `offsetAt` of this file, from the canonical shape. */
  offsetOf(path: readonly string[]): number {
    this.#positions ??= canonicalPositions(this.source)!;
    return this.#positions(path);
  }
}

/** The line starts of a text, a line ending at each LF (a CR before it stays on its line), as `yaml`'s `LineCounter` records them. */
export function lineStartsOf(source: string): LinePositions {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return {
    lineStarts,
    linePos(offset) {
      // The last line that starts at or before `offset`.
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (lineStarts[mid]! <= offset) low = mid;
        else high = mid - 1;
      }
      return { line: low + 1, col: offset - lineStarts[low]! + 1 };
    },
  };
}

/**
 * The parts of parsing that load large libraries, passed in (never module
 * state: the core stays pure). `yaml` is the `yaml` package's full parser
 * (every file the fast path does not take, and the syntax tree a schema
 * error's key needs) and its tree walkers; `regexProblem` checks a guard's
 * command and content patterns with the regular-expression engine.
 * store/yaml-document.ts, the one entry point for parsing store files, passes
 * each part once a file has needed it, and `./parse.ts` passes both always,
 * for callers that may meet any file; this module imports neither, so a file
 * on the canonical fast path loads neither, its positions included.
 */
export interface YamlSyntax {
  readonly yaml?: YamlParser | undefined;
  readonly regexProblem?: RegexProblem | undefined;
}

/** The `yaml` package's side of parsing (`./yaml-syntax.ts`). */
export interface YamlParser {
  parseFull(file: string, source: string): Parsed<YamlFile>;
  nodeAt(doc: Document.Parsed, path: readonly string[]): Node | undefined;
  keyNodeOf(node: Node | undefined, key: string): Node | undefined;
}

/** A part of {@link YamlSyntax}. */
export type SyntaxPart = keyof YamlSyntax;

/**
 * Thrown (before anything is decided) when a file needs a part of the syntax
 * the caller did not pass. Caught in one place only, store/yaml-document.ts,
 * which loads that part and parses again.
 */
export class YamlSyntaxNotLoaded extends Error {
  constructor(readonly part: SyntaxPart) {
    super(`the ${part} part of parsing is not loaded: import src/core/parse.ts before parsing this file`);
  }
}

/** The full parser passed in, or the error that has store/yaml-document.ts load it and parse again. */
export function fullParser(syntax: YamlSyntax | undefined): YamlParser {
  if (!syntax?.yaml) throw new YamlSyntaxNotLoaded('yaml');
  return syntax.yaml;
}

/** The node at `path` in a file's tree (built on first use, with the file's own syntax). */
export function nodeAt(y: YamlFile, path: readonly string[]): Node | undefined {
  const syntax = fullParser(y.syntax);
  return syntax.nodeAt(y.doc, path);
}

/**
 * Offset (in the file's text) of the value at `path` (keys and sequence
 * indexes), or of the nearest existing ancestor; 0 when the document has
 * none. A file read by the fast path answers from its own text.
 */
export function offsetAt(y: YamlFile, path: readonly string[]): number {
  if (y instanceof LazyYamlFile) return y.offsetOf(path);
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(y, path.slice(0, n));
    if (node?.range) return node.range[0];
  }
  return 0;
}
