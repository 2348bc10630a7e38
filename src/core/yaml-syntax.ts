// The part of parsing that needs the `yaml` package: `YAML_PARSER`, which
// `./parse.ts` (used by every caller that may meet any file) passes to the
// functions of `./parse-core.ts`.
import {
  type Alias,
  type Document,
  type DocumentOptions,
  isAlias,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type ParseOptions,
  parse,
  parseAllDocuments,
  type SchemaOptions,
  visit,
  type YAMLError,
} from 'yaml';
import type { Diagnostic, DiagnosticCode } from './diagnostics.ts';
import { diag, diagAt, diagAtOffset, MAX_ALIAS_COUNT, type Parsed, type YamlFile, type YamlParser, type YamlSyntax } from './parse-core.ts';
import { MERGE_CONFLICT_HINT, mergeConflictMessage, mergeConflicts } from './merge-conflict.ts';
import { hiddenLineBreak, strayByteOrderMark, yamlShapeProblem } from './yaml-guard.ts';
import { describeCharacter, quoteText } from './plain-text.ts';
import { classifyPath } from './layout.ts';

/**
 * Where the parser's error about a quote or a flow collection left open to the end of the file belongs: at the quote
 * or bracket that opens it, not at the end, often lines below the slip, on a line that holds none of it. Undefined for
 * any other error, one with more of the file after it (its own line says what is wrong there), and when no such value
 * ends there.
 */
function openedAt(doc: Document.Parsed, err: YAMLError, source: string): number | undefined {
  if (source.slice(err.pos[0]).trim() !== '') return undefined;
  const opens: ((node: Node) => boolean) | undefined =
    err.code === 'MISSING_CHAR' && err.message.startsWith('Missing closing')
      ? (node) => isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')
      : err.message.startsWith('Flow sequence')
        ? (node) => isSeq(node) && node.flow === true
        : err.message.startsWith('Flow map')
          ? (node) => isMap(node) && node.flow === true
          : undefined;
  if (opens === undefined) return undefined;
  let at: number | undefined;
  // Visited outer first: the last one found is the innermost, the one the error is about.
  visit(doc, {
    Node(_, node) {
      if (node.range?.[1] === err.pos[0] && opens(node)) at = node.range[0];
    },
  });
  return at;
}

/** The yaml package's `parseAllDocuments`, as parseFullYaml calls it. */
type ParseAll = (source: string, options: ParseOptions & DocumentOptions & SchemaOptions) => Document.Parsed[];

/** What to do with a second YAML document, in the words of the file's kind: a file holds one of what it is for. */
function oneDocumentHint(file: string): string {
  const kind = classifyPath(file);
  switch (kind.kind) {
    case 'invariant':
      return 'Keep one document per file: one invariant, one file (another invariant goes in a file of its own).';
    // A file named wrong still says what it holds: its folder tells.
    case 'bad-id':
      return `Keep one document per file: one ${kind.of}, one file${kind.of === 'invariant' ? ' (another invariant goes in a file of its own)' : ''}.`;
    case 'waiver':
      return 'Keep one document per file: one waiver, one file.';
    case 'record':
      return `Keep one document per file: one ${kind.record === 'decisions' ? 'decision' : kind.record === 'enforcement' ? 'run' : 'violation'}, one file.`;
    case 'plan':
    case 'project-meta':
    case 'action-meta':
    case 'config':
    case 'extends-lock': {
      const name = file.slice(file.lastIndexOf('/') + 1);
      return `Keep one document: ${name} is one mapping, so merge the keys of the documents into one and remove the \`---\` line between them.`;
    }
    default:
      return 'Keep one document per file.';
  }
}

/**
 * A store file through the full parser. `parse` is the yaml package's; the tests
 * pass one that fails as the parser does on a pathological file, which the shape
 * guard keeps any real file from being.
 */
export function parseFullYaml(file: string, source: string, parse: ParseAll = parseAllDocuments): Parsed<YamlFile> {
  const lines = new LineCounter();
  // A merge left both sides in the file: said as such, not as the syntax slips the markers make.
  const conflict = mergeConflicts(source);
  if (conflict !== null)
    return {
      diagnostics: [diagAtOffset(file, source, conflict.offset, 'merge-conflict', mergeConflictMessage(conflict), MERGE_CONFLICT_HINT)],
    };
  // Refused before the parser starts: it recurses per level (V8 can abort on the exhausted stack) and is slow per token.
  const shape = yamlShapeProblem(source);
  if (shape !== null)
    return {
      diagnostics: [
        diagAtOffset(
          file,
          source,
          shape.offset,
          shape.kind === 'too-deep' ? 'yaml-too-deep' : 'yaml-too-large',
          shape.message,
          shape.kind === 'too-deep'
            ? 'Store files need only a few levels; write the value flat.'
            : 'A store file holds one short document; split or shorten it.',
        ),
      ],
    };
  // Lines ended by CR alone (classic Mac OS): yaml reads the file as one line, where PyYAML reads lines; said as such,
  // not as the syntax slip the first line's end makes.
  const cr = source.indexOf('\r');
  if (cr >= 0 && !source.includes('\n'))
    return {
      diagnostics: [
        diagAtOffset(
          file,
          source,
          cr,
          'yaml-syntax',
          'the lines of this file end with CR alone, which this tool does not read as a line break (PyYAML does)',
          'Save the file with LF (or CRLF) line ends.',
        ),
      ],
    };
  // A comment that other readers end early would hide from this one what they read as YAML.
  const hidden = hiddenLineBreak(source);
  if (hidden !== null)
    return {
      diagnostics: [
        diagAtOffset(
          file,
          source,
          hidden,
          'control-character',
          `comment holds ${describeCharacter(source.codePointAt(hidden)!)}, which PyYAML and yamllint read as a line break: they read what follows it as YAML, this tool as part of the comment`,
          'Remove the character, or end the line there with LF (or CRLF) if what follows is meant as YAML.',
        ),
      ],
    };
  const mark = strayByteOrderMark(source);
  if (mark !== null)
    return {
      diagnostics: [
        diagAtOffset(
          file,
          source,
          mark,
          'control-character',
          'a line starts with U+FEFF (ZERO WIDTH NO-BREAK SPACE), which this tool skips as a byte order mark and PyYAML and yamllint read as part of what follows',
          'Remove the character: a byte order mark may only start the file.',
        ),
      ],
    };
  let docs: Document.Parsed[];
  try {
    docs = parse(source, {
      lineCounter: lines,
      prettyErrors: false,
      uniqueKeys: true,
      schema: 'core',
      // The YAML 1.1 tags yaml reads in the core schema all the same (`!!omap`, `!!set`, `!!binary`, `!!pairs`,
      // `!!timestamp`) become a Map, Set, bytes or Date, which the schemas see as an empty object: left unresolved, they
      // are refused as unknown tags, as any tag beyond the core schema is.
      resolveKnownTags: false,
      version: '1.2',
      logLevel: 'error',
    });
  } catch (error) {
    // The parser recurses on nesting; a pathological file can exhaust the stack.
    return {
      diagnostics: [
        diag(
          file,
          'yaml-too-deep',
          `file could not be parsed: ${error instanceof Error ? error.message : String(error)}`,
          'Nesting this deep is never needed in a store file.',
        ),
      ],
    };
  }
  const y = { file, source, lines };
  const first = docs[0];
  if (!first) {
    return { diagnostics: [diag(file, 'file-empty', 'file holds no YAML document', 'Write the document, or delete the file.')] };
  }
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<number>();
  for (const doc of docs) {
    for (const err of doc.errors) {
      // One error per position: the parser often explains one slip twice.
      if (seen.has(err.pos[0])) continue;
      seen.add(err.pos[0]);
      const code: DiagnosticCode =
        err.code === 'DUPLICATE_KEY' ? 'yaml-duplicate-key' : err.code === 'RESOURCE_EXHAUSTION' ? 'yaml-too-deep' : 'yaml-syntax';
      // With prettyErrors off, the message holds no position text of its own.
      const message = err.message;
      diagnostics.push(
        code === 'yaml-syntax'
          ? diagAt(
              y,
              openedAt(doc, err, source) ?? err.pos[0],
              code,
              `${message} (${err.code})`,
              'Fix the YAML here: close quotes and brackets, indent with spaces, quote text that holds ": " or starts with a special character.',
            )
          : code === 'yaml-duplicate-key'
            ? diagAt(y, err.pos[0], code, duplicateKeyMessage(source, err.pos[0]) ?? message, 'Keep one of the two keys.')
            : diagAt(y, err.pos[0], code, message),
      );
    }
  }
  for (const doc of docs) {
    for (const w of doc.warnings) {
      // The parser only warns and reads the value as if the tag were not there: a
      // `!!js/function` or `!secret` in a store file would silently mean something else.
      if (w.code !== 'TAG_RESOLVE_FAILED' || seen.has(w.pos[0])) continue;
      seen.add(w.pos[0]);
      // yaml's message for this code is `Unresolved tag: <tag>`.
      const tag = w.message.slice('Unresolved tag: '.length);
      const shown = tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
      diagnostics.push(
        diagAt(
          y,
          w.pos[0],
          'yaml-unknown-tag',
          `unknown YAML tag ${shown}: store files use plain YAML 1.2 values`,
          'Remove the tag (or quote the value if the "!" belongs to the text).',
        ),
      );
    }
  }
  if (diagnostics.length > 0) return { diagnostics };
  // The file says which YAML it is: read as 1.2 all the same, a `%YAML 1.1` file's `yes` and dates would be
  // strings here and booleans and dates to the readers that honour the directive.
  const declared = first.directives?.yaml.explicit ? /^%YAML[ \t]+(\S+)/m.exec(source) : null;
  if (declared && declared[1] !== '1.2') {
    return {
      diagnostics: [
        diagAt(
          y,
          declared.index,
          'yaml-syntax',
          `file declares %YAML ${declared[1]}; store files are YAML 1.2, where yes, no, on, off and dates are strings`,
          'Remove the directive (or write %YAML 1.2), and write each value as YAML 1.2 reads it.',
        ),
      ],
    };
  }
  if (docs.length > 1) {
    const second = docs[1]!;
    return {
      diagnostics: [
        diagAt(
          y,
          second.range[0],
          'yaml-multi-document',
          `file holds ${docs.length} YAML documents; a store file holds exactly one`,
          oneDocumentHint(file),
        ),
      ],
    };
  }
  if (isEmptyDocument(first)) {
    return {
      diagnostics: [
        diag(file, 'file-empty', 'file holds no YAML document (only comments or white space)', 'Write the document, or delete the file.'),
      ],
    };
  }
  let data: unknown;
  try {
    data = first.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unresolved = /Unresolved alias[^:]*: (\S+)/.exec(message);
    if (unresolved) {
      const at = source.indexOf(`*${unresolved[1]}`);
      return {
        diagnostics: [
          diagAt(
            y,
            Math.max(0, at),
            'yaml-syntax',
            `alias *${unresolved[1]} names no anchor defined before it`,
            'Store files need no YAML aliases; write the value out.',
          ),
        ],
      };
    }
    const hint = 'Store files need no YAML aliases; write values out.';
    const over = aliasOverLimit(first);
    return {
      diagnostics: [
        over?.range
          ? diagAt(y, over.range[0], 'yaml-alias-limit', `file refused: ${message}`, hint)
          : diag(file, 'yaml-alias-limit', `file refused: ${message}`, hint, 1, 1),
      ],
    };
  }
  return { value: { file, source, doc: first, lines, data, syntax: YAML_SYNTAX }, diagnostics: [] };
}

/**
 * The alias whose resolution crossed the alias limit, for the diagnostic's place: the document is read again with
 * each alias noting itself while it resolves, and the innermost one still resolving when the limit throws is it.
 * `doc` is of a refused file, read no more after this.
 */
function aliasOverLimit(doc: Document.Parsed): Alias | undefined {
  const open: Alias[] = [];
  visit(doc, (_key, node) => {
    if (!isAlias(node)) return;
    const own = node.toJSON.bind(node);
    node.toJSON = (...args) => {
      open.push(node);
      const value = own(...args);
      open.pop();
      return value;
    };
  });
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return open.at(-1);
  }
  return undefined;
}

/**
 * A document with no value: `---` and comments only. The parser gives it an
 * empty scalar (zero width, read as null), never `null` contents; a null
 * written out (`~`, `null`, a tag or an anchor with no value) is a value.
 */
function isEmptyDocument(doc: Document.Parsed): boolean {
  const c = doc.contents;
  return isScalar(c) && c.range[0] === c.range[1] && !c.tag && !c.anchor;
}

/**
 * Whether a mapping's key is the one the data's object names `name`: a scalar by its value (a null key, `: x` or
 * `~: x`, is the empty string there); an explicit collection key (`? [a, b]`) by the value of the flow text the
 * data names it by (`[ a, b ]`).
 */
function isKeyNamed(key: unknown, name: string): boolean {
  if (isScalar(key)) return (key.value === null ? '' : String(key.value)) === name;
  if (!isCollection(key)) return false;
  try {
    return JSON.stringify(parse(name)) === JSON.stringify(key.toJSON());
  } catch {
    return false;
  }
}

export function nodeAt(doc: Document.Parsed, path: readonly string[]): Node | undefined {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isKeyNamed(p.key, key));
      node = pair?.value ?? undefined;
    } else if (isSeq(node)) {
      node = node.items[Number(key)];
    } else {
      return undefined;
    }
  }
  return (node ?? undefined) as Node | undefined;
}

export function keyNodeOf(node: Node | undefined, key: string): Node | undefined {
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => isKeyNamed(p.key, key));
  return pair && (isScalar(pair.key) || isCollection(pair.key)) ? pair.key : undefined;
}

/** The full parser and tree walkers, for `./parse-core.ts` (frozen: shared, never changed). */
export const YAML_PARSER: YamlParser = Object.freeze({ parseFull: parseFullYaml, nodeAt, keyNodeOf });

/** The syntax a file read by the full parser keeps, for its tree and positions. */
export const YAML_SYNTAX: YamlSyntax = Object.freeze({ yaml: YAML_PARSER });

/**
 * What a key given twice is, from the second one at `at`: its name and, in a block mapping, the line of the
 * first; undefined when the key is not one plain or quoted scalar (the parser's own message stands then).
 */
function duplicateKeyMessage(source: string, at: number): string | undefined {
  const start = source.lastIndexOf('\n', at - 1) + 1;
  // An explicit key (`? k`, its value on a `: v` line below) ends with its line; the mapping is indented as its `?`.
  const explicit = /^([ ]*)\?[ \t]+$/.exec(source.slice(start, at));
  const end = explicit ? /[ \t]*(?:[ \t]#[^\n]*)?(?=\r?\n|$)/.source : /[ \t]*:(?=\s|$)/.source;
  const m = new RegExp(`^(?:"((?:[^"\\\\\\n]|\\\\.)*)"|'((?:[^'\\n]|'')*)'|([^\\s:#{}[\\],&*!|>'"%@\`][^:\\n]*?))?${end}`).exec(
    source.slice(at, at + 1100),
  );
  if (!m) return undefined;
  const name = m[1] !== undefined ? unescaped(m[1]) : (m[2]?.replaceAll("''", "'") ?? m[3] ?? '');
  const written = explicit ? m[0].replace(/[ \t]+#.*$/, '').trimEnd() : m[0].slice(0, m[0].lastIndexOf(':')).trimEnd();
  // A null key is one however it is written (`~`, `null`, nothing before the colon): the first may be written otherwise.
  const isNull = m[3] === undefined ? m[1] === undefined && m[2] === undefined : NULL_KEY.test(m[3]);
  // The first may be written in either form, `k:` or `? k`.
  const sameKey = (rest: string) =>
    isNull
      ? /^(?:~|null|Null|NULL)?[ \t]*:(\s|$)|^\?(?:[ \t]+(?:~|null|Null|NULL))?[ \t]*$/.test(rest)
      : (rest.startsWith(written) && /^[ \t]*:(\s|$)/.test(rest.slice(written.length))) ||
        (/^\?[ \t]/.test(rest) &&
          rest.slice(1).trimStart().startsWith(written) &&
          /^[ \t]*(?:[ \t]#.*)?$/.test(rest.slice(1).trimStart().slice(written.length)));
  const indent = explicit ? explicit[1]! : source.slice(start, at);
  let first: number | undefined;
  // A block mapping's earlier key at the same indentation, back to the line that opened the mapping.
  if (/^[ ]*$/.test(indent)) {
    const before = source.slice(0, start).split(/\r?\n/);
    before.pop();
    for (let i = before.length - 1; i >= 0; i--) {
      const line = before[i]!;
      if (!significant(line)) continue;
      const own = /^ */.exec(line)![0].length;
      if (own < indent.length) break;
      // `: value` under an explicit key (`? k`) is that key's value, not a null key.
      const value = (j: number) =>
        /^:(\s|$)/.test(line.slice(own)) && /^\?(\s|$)/.test(before.slice(0, j).findLast(significant)?.slice(own) ?? '');
      if (own === indent.length && sameKey(line.slice(own)) && !value(i)) {
        first = i + 1;
        break;
      }
    }
  }
  const what = isNull ? `the null key (${written === '' ? 'nothing before ":"' : written})` : `key ${quoteText(name)}`;
  return `${what} appears twice in one mapping${first === undefined ? '' : ` (first on line ${first})`}`;
}

/** A line that holds more than white space or a comment. */
function significant(line: string): boolean {
  return line.trim() !== '' && !line.trimStart().startsWith('#');
}

/** The plain scalars YAML 1.2 reads as null, written as a key. */
const NULL_KEY = /^(?:~|null|Null|NULL)$/;

/** A double-quoted key's text; as written when its escapes are not JSON's. */
function unescaped(inner: string): string {
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return inner;
  }
}
