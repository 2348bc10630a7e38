/**
 * Text that cannot hide from a reviewer (docs/store-format.md, "Plain text
 * only"). Control characters (ESC starts the CSI and OSC sequences that move
 * the cursor, erase lines or write the clipboard; CR returns to the start of
 * the line), the C1 controls, and the bidirectional formatting characters
 * (Trojan Source: U+202A–U+202E, U+2066–U+2069, and the invisible marks
 * U+200E, U+200F, U+061C) make a terminal, a log or a web page show
 * something other than what an agent reads. Invisible characters do the
 * same with nothing to see at all: zero-width ones (U+200B–U+200D, U+2060–
 * U+2064, U+FEFF) and the tag characters U+E0000–U+E007F, which spell
 * ASCII a model reads and a reviewer never sees. Pure: the store refuses them in
 * what it writes, `validate` reports them (`control-character`), and every
 * output escapes them with `escapeUnsafe`.
 */

/** Every character that is escaped on output and refused in stored text, except the newline (per field) and tab (always allowed). */
const UNSAFE_RE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;
const UNSAFE_ALL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
const UNSAFE_OR_NEWLINE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

const NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL',
  0x08: 'BS',
  0x0a: 'LF, a newline',
  0x0b: 'VT',
  0x0c: 'FF',
  0x0d: 'CR, a carriage return',
  0x1b: 'ESC, which starts terminal control sequences',
  0x7f: 'DEL',
  0x85: 'NEL',
  0x9b: 'CSI',
  0x9d: 'OSC',
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

/** "U+001B (ESC, …)": how messages name a character that `findUnsafe` reports. */
export function describeCharacter(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  // Every unsafe character without a name of its own is a C0 or C1 control, a tag character or an invisible operator.
  const name =
    NAMES[codePoint] ??
    (codePoint <= 0x9f
      ? 'a control character'
      : codePoint >= 0xe0000
        ? `a tag character, invisible${codePoint > 0xe0020 && codePoint < 0xe007f ? `, spelling "${String.fromCodePoint(codePoint - 0xe0000)}"` : ''}`
        : 'an invisible character');
  return `${hex} (${name})`;
}

/** The first character of `value` a field may not hold, with its position in code points (0-based); a newline only counts where `multiline` is false and it is not at either end. */
export function findUnsafe(value: string, multiline: boolean): { codePoint: number; index: number } | undefined {
  const re = multiline ? UNSAFE_ALL : UNSAFE_OR_NEWLINE;
  re.lastIndex = 0;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const at = m.index;
    // A newline at either end of a one-line field is only layout (a YAML block scalar ends with one); it is trimmed.
    if (!multiline && value.charCodeAt(at) === 0x0a && (value.slice(0, at).trim() === '' || value.slice(at).trim() === '')) continue;
    return { codePoint: value.codePointAt(at)!, index: [...value.slice(0, at)].length };
  }
  return undefined;
}

/** Whether `text` holds anything `escapeUnsafe` would change (newlines aside). */
export function hasUnsafe(text: string): boolean {
  return UNSAFE_RE.test(text);
}

function escapeOne(c: string): string {
  if (c === '\r') return '\\r';
  if (c === '\n') return '\\n';
  // A tag character is two UTF-16 units: each is escaped, as JSON writes a surrogate pair.
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * The one escaping of every output: each unsafe character becomes a visible
 * escape that names it (`\u001b`, `\u202e`, `\r`), as JSON writes them; tab
 * stays; newlines stay when `newlines` is true (multi-line text, whole
 * reports), else become `\n`.
 */
export function escapeUnsafe(text: string, options: { newlines?: boolean } = {}): string {
  const re = options.newlines ? UNSAFE_ALL : UNSAFE_OR_NEWLINE;
  re.lastIndex = 0;
  return re.test(text) ? text.replace(re, escapeOne) : text;
}

/**
 * A line whose first characters but blanks are `::` is a workflow command to GitHub Actions, which reads
 * every line a step prints (`::error::…` makes an annotation; `::stop-commands::…` silences every one after
 * it). A folder name or a line of a rationale can start one. Such a line of text output has its first colon
 * shown as `\u003a`, as the other escapes are shown.
 */
export function escapeWorkflowCommands(text: string): string {
  return text.includes('::') ? text.replace(WORKFLOW_COMMAND, '$1\\u003a') : text;
}

/** The first colon of a line that GitHub Actions would read as a workflow command. */
const WORKFLOW_COMMAND = /^([ \t]*):(?=:)/gm;

/** Whether a string, written as a block of lines, would hold a line that starts a workflow command. */
export function startsWorkflowCommand(text: string): boolean {
  return text.includes('::') && /(?:^|\n)[ \t]*::/.test(text);
}

/** A one-line quoted form: JSON's quoting, and the characters JSON leaves raw (C1, DEL, bidirectional) escaped too. */
export function quoteText(text: string): string {
  return escapeUnsafe(JSON.stringify(text));
}

/** Text for a markdown table cell or list item: one line, no markup, no HTML, nothing hidden. */
export function markdownText(text: string): string {
  // Blanks folded as prettier prints a paragraph: a tab or two spaces left in an exported block would be
  // rewritten by `prettier --write`, and the block then read as edited by hand.
  const folded = text.replace(/(?:[ \t]|\r?\n)+/g, ' ').replace(/^ | $/g, '');
  // `&` too: an entity such as `&rlm;` or `&ZeroWidthSpace;` would render as the invisible character it names.
  return escapeUnsafe(folded).replace(/[\\`*_{}[\]<>()#+!|~&-]/g, (c) => `\\${c}`);
}

/** What githubMarkdownText puts between `@` or `#` and what follows: GitHub then makes no mention or issue link of them. */
export const NO_REFERENCE = '<!-- -->';

/**
 * markdownText for what GitHub shows (a pull-request comment, a step
 * summary): GitHub finds `@name` and `#123` after the markdown is rendered,
 * so a backslash does not stop a text from notifying people or linking
 * issues; an empty HTML comment between the sign and the name does, and
 * shows nothing. Every `$` is held in a span, so none starts a math expression.
 */
export function githubMarkdownText(text: string): string {
  return markdownText(text)
    .replace(/@(?=[A-Za-z0-9])|\\#(?=[0-9])/g, (sign) => `${sign}${NO_REFERENCE}`)
    .replace(/\$/g, () => DOLLAR);
}

/**
 * A `$` as GitHub shows it as itself: two on a line (`$HOME/$PATH`, `$$`) open a math expression there,
 * whose text is rendered as TeX and its dollars hidden, and a backslash does not stop it; a span does.
 */
export const DOLLAR = '<span>$</span>';

/**
 * A markdown code span that holds `text` whatever its backticks, on one line. In a table cell `|` is
 * escaped so it stays inside the cell; elsewhere (`inTable: false`) the backslash would be shown, since
 * only a table row reads it.
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  const unsafe = escapeUnsafe(text);
  const safe = options.inTable === false ? unsafe : unsafe.replace(/\|/g, '\\|');
  let fence = '`';
  while (safe.includes(fence)) fence += '`';
  const pad = safe.startsWith('`') || safe.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${safe}${pad}${fence}`;
}

// ---------------------------------------------------------------------------
// Stored documents: which fields may hold several lines

/** The documents of a store, by schema file name. */
export type PlainTextDocument =
  | 'invariant.schema.json'
  | 'plan.schema.json'
  | 'decision.schema.json'
  | 'enforcement.schema.json'
  | 'violation.schema.json'
  | 'action.schema.json'
  | 'config.schema.json'
  | string;

/**
 * Fields where a newline is text, not an attack (docs/store-format.md):
 * explanations people write in paragraphs. Every other string (texts,
 * tags, names, ids, summaries, argv) is one line.
 */
const MULTILINE: Record<string, readonly string[]> = {
  'invariant.schema.json': ['rationale'],
  'plan.schema.json': ['goal'],
  'violation.schema.json': ['details'],
  'enforcement.schema.json': ['error', 'records.*.actor_response'],
  'decision.schema.json': ['summary'],
  'action.schema.json': ['description'],
  'project.schema.json': ['description'],
};

export interface UnsafeText {
  /** Path of the field: keys and indexes, e.g. ["tags", "1"]. */
  path: string[];
  codePoint: number;
  /** Position in the value, in code points (0-based). */
  index: number;
}

function allowsLines(document: string, path: readonly string[]): boolean {
  const pattern = path.map((p) => (/^\d+$/.test(p) ? '*' : p)).join('.');
  return (MULTILINE[document] ?? []).includes(pattern);
}

/** Every string of a document (keys too) that holds a character it may not hold. */
export function findUnsafeText(document: PlainTextDocument, data: unknown): UnsafeText[] {
  const out: UnsafeText[] = [];
  // One path, grown and shrunk as the walk goes; copied only for a finding.
  const path: string[] = [];
  const check = (value: string, multiline: () => boolean) => {
    // Almost every string holds nothing to report: one scan with the strictest
    // pattern settles that before the field's own rule is worked out.
    UNSAFE_OR_NEWLINE.lastIndex = 0;
    if (!UNSAFE_OR_NEWLINE.test(value)) return;
    const bad = findUnsafe(value, multiline());
    if (bad) out.push({ path: [...path], ...bad });
  };
  const fieldAllowsLines = () => allowsLines(document, path);
  const never = () => false;
  const walk = (value: unknown) => {
    if (typeof value === 'string') check(value, fieldAllowsLines);
    else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(String(i));
        walk(value[i]);
        path.pop();
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        path.push(k);
        check(k, never);
        walk(v);
        path.pop();
      }
    }
  };
  walk(data);
  return out;
}

/** One sentence about one finding: "tags.1 holds U+001B (ESC, …) at character 4". */
export function unsafeTextMessage(u: UnsafeText): string {
  const field = u.path.length ? u.path.join('.') : 'the document';
  return `${field} holds ${describeCharacter(u.codePoint)} at character ${u.index + 1}; control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file`;
}

/** A URL's user information: `scheme://` and what stands before the last `@` of its authority. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]*(?:@[^\s/?#@]*)*)@/gi;

/**
 * Where `text` holds a URL's credentials: a password (`user:password@`), or the user name of an http(s) URL,
 * where a token may stand (`https://token@host/…`). A user name alone stays outside http(s) (`ssh://git@host/…`
 * names an account, not a secret).
 */
function credentialSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  // Every match holds `://`: a text without it (most lines a report shows) skips the regular expression.
  if (!text.includes('://')) return spans;
  for (const m of text.matchAll(USERINFO)) {
    const start = m.index + m[1]!.length;
    const info = m[2]!;
    const colon = info.indexOf(':');
    if (colon >= 0) spans.push([start + colon + 1, start + info.length]);
    else if (/^https?:\/\/$/i.test(m[1]!)) spans.push([start, start + info.length]);
  }
  return spans;
}

/** `text` with the credentials of each URL in it shown as `***`: no message, report or CI log may show them. */
export function hideCredentials(text: string): string {
  let out = '';
  let last = 0;
  for (const [start, end] of credentialSpans(text)) {
    out += `${text.slice(last, start)}***`;
    last = end;
  }
  return out + text.slice(last);
}

/** `text` with each character of a URL's credentials replaced by `*`: its columns stay where they were. */
export function maskCredentials(text: string): string {
  let out = text;
  for (const [start, end] of credentialSpans(text)) out = out.slice(0, start) + '*'.repeat(end - start) + out.slice(end);
  return out;
}
