/**
 * Markdown read as plain text, for the rules import takes out of instruction
 * files (import-rules.ts): inline markup dropped, white space folded, a
 * blockquote's markers taken off its lines; and the shapes of Markdown that
 * state no rule (a command listing, a link). Pure.
 */

export const QUOTED = /^ {0,3}>/;

/**
 * A blockquote line without its markers (`> `, nested `> > `); a GitHub
 * alert's marker line (`> [!NOTE]`, `> [!IMPORTANT]`…) is markup alone and
 * becomes blank.
 */
export function unquote(line: string): string {
  const inner = line.replace(/^(?: {0,3}> ?)+/, '');
  return ALERT.test(inner) ? '' : inner;
}

/** A GitHub alert's marker, as a quoted line holds it after its `>`. */
const ALERT = /^\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$/i;

/** Whether a line is a GitHub alert's marker line (`> [!IMPORTANT]`), which says nothing once the quote below it is gone. */
export function isAlertMarker(line: string): boolean {
  return QUOTED.test(line) && ALERT.test(line.replace(/^(?: {0,3}> ?)+/, ''));
}

/**
 * The tags of HTML that instruction files use for layout, and comments within a line (notes to the file's
 * editors): dropped. Any other `<…>` is text, as an agent reading the file takes it: a placeholder (`<project_name>`, `<Title>`) or an operator (`a <b` aside, `x < y`).
 */
const HTML_TAG =
  /<!--(?:(?!<!--).)*?-->|<\/?(?:a|abbr|b|blockquote|br|center|code|dd|del|details|div|dl|dt|em|figcaption|figure|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|picture|pre|q|s|samp|small|source|span|strike|strong|sub|summary|sup|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var|video)(?:\s[^<>]*)?\/?>/g;

/** An element of struck-out text, with what it holds (`<del>jQuery</del>`, `<s>…</s>`, `<strike>…</strike>`). */
const STRUCK_ELEMENT = /<(del|s|strike)(?:\s[^<>]*)?>[^<]*<\/\1>/i;
/** Each such element, for `replace`: a global expression keeps its place between calls of `test`, so `test` has its own. */
const STRUCK_ELEMENTS = new RegExp(STRUCK_ELEMENT.source, 'gi');

/*
 * The inline expressions below stop at the next delimiter of their kind (a bracket, a parenthesis, the emphasis
 * mark): one that may run over it tries every later character from every opening, so a line of unclosed openings
 * ("[x](" repeated) costs the square of its length. Strong emphasis may hold one of its marks ("**a*b**"), not two.
 */
/** `**strong**` and `__strong__`. */
const STRONG = /\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*|__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__/g;
/** `*emphasis*` and `_emphasis_` after a space or a parenthesis, before one or punctuation. */
const EMPHASIS = /(^|[\s(])(?:\*(?=\S)([^*]+?)(?<=\S)\*|_(?=\S)([^_]+?)(?<=\S)_)(?=[\s).,;:!?]|$)/g;

/** A text whose code spans may hold what the markup steps change (it holds such a character somewhere), or are written with more than one backtick. */
const RISKY_SPAN = /``|[<*_[\]~\\!]/;

/** A code span's place while the markup around it is taken off (a character of the Private Use Area, and its number). */
const HELD = /\uE000(\d+)\uE001/g;

/** A footnote's mark in the text ("[^1]"), not its definition ("[^1]: …"). */
const FOOTNOTE_MARK = /\[\^[^\]\s]+\](?!:)/g;

/** A footnote's definition ("[^1]: Unless you own the package."): a note on the line that cites it, no rule of its own. */
export const FOOTNOTE = /^ {0,3}\[\^[^\]\s]+\]:/;

/** Markdown to plain text: links to their words, emphasis and HTML dropped, inline code kept as its text, whatever it holds. */
export function plain(markdown: string): string {
  // Most rules hold no Markdown at all: only their white space to fold.
  if (!/[`*_[\]<>!~\\]/.test(markdown)) return fold(markdown);
  // Each step runs only when the text holds the characters it needs to match: a replace that cannot match still scans.
  let t = markdown;
  // Code spans first, held aside: `<id>`, `a*b*` and `[x](y)` inside one are what it says. Most spans (`npm test`)
  // hold nothing the steps below change and are written with one backtick: their backticks just go, at the end.
  const code: string[] = [];
  const ticks = t.includes('`');
  if (ticks && RISKY_SPAN.test(t))
    t = t.replace(/(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)/g, (_, _ticks: string, inner: string) => `\uE000${code.push(inner) - 1}\uE001`);
  // A footnote's mark ("[^1]") points at a note below: the note stays in the file, the mark says nothing here.
  if (t.includes('[^')) t = t.replace(FOOTNOTE_MARK, '');
  if (t.includes('](') || t.includes('][')) {
    t = t
      .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
      .replace(/\[([^[\]]+)\]\([^()]*\)/g, '$1')
      .replace(/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1');
  }
  // Struck-out text is what the file's authors took back ("~~Use jQuery~~"): it goes with its marks, else the rule
  // would say what the file no longer does.
  if (t.includes('<')) t = t.replace(STRUCK_ELEMENTS, '').replace(HTML_TAG, '');
  if (t.includes('**') || t.includes('__')) t = t.replace(STRONG, '$1$2');
  if (t.includes('*') || t.includes('_')) t = t.replace(EMPHASIS, '$1$2$3');
  if (t.includes('~~')) t = t.replace(/~~[^~]+?~~/g, '');
  if (t.includes('\\')) t = t.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
  if (ticks && code.length === 0) t = t.replace(/`([^`]+)`/g, '$1');
  // A span's inner spaces at both ends are markup (`` ` a ` `` is "a"), as CommonMark strips one of each.
  if (code.length > 0) t = t.replace(HELD, (_, n: string) => code[Number(n)]!.replace(/^ (.*) $/, '$1'));
  return fold(t);
}

/** A link that opens its item as a label ("[Docs](https://…): read", "**[Docs](…)**: read"): its words and its target. */
const LABEL_LINK = /^(\*\*|__)?\[([^[\]]+)\]\(\s*<?([^()\s<>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)(?::\1|\1:)\s/;

/**
 * The plain `text` of `markdown` that opens with a link as its label, with the link's target after its words: in
 * "[Docs](https://…): read before starting" the target is what to read, which "Docs: read before starting" loses.
 * Any other text as it is, and so is a label whose words are its target already ("[docs/a.md](docs/a.md): …").
 */
export function keepLabelTarget(markdown: string, text: string): string {
  const m = LABEL_LINK.exec(markdown);
  if (m === null) return text;
  const label = plain(m[2]!);
  if (label.includes(m[3]!) || !text.startsWith(`${label}:`)) return text;
  return `${label} (${m[3]}):${text.slice(label.length + 1)}`;
}

/**
 * Whether `markdown` says more than its plain `text`: it links somewhere the text does not say ("Follow [the
 * guide](docs/style.md)." is "Follow the guide."), or holds a note to the file's editors (`<!-- … -->`). Such lines
 * say more than the rule, so `--replace` leaves them in their file. A reference link ("[the guide][style]") says
 * where only through its definition, which stays in the file: its line stays with it, as a line that cites a
 * footnote ("[^1]") does.
 */
export function saysMoreThan(markdown: string, text: string): boolean {
  // A comment goes from the text (markup to an agent), but it is the file's editors' note, which the line keeps.
  if (markdown.includes('<!--')) for (const m of markdown.matchAll(/<!--[\s\S]*?-->/g)) if (!text.includes(m[0])) return true;
  if (markdown.includes(']('))
    for (const m of markdown.matchAll(/!?\[[^[\]]*\]\(\s*([^()\s]+)[^()]*\)/g)) if (!text.includes(m[1]!)) return true;
  // Written as code ("`[text][ref]`"), the reference stays in the text as it is, and loses nothing.
  if (markdown.includes('][')) for (const m of markdown.matchAll(/\[[^[\]]+\]\[[^[\]]*\]/g)) if (!text.includes(m[0])) return true;
  // So does a footnote's mark: its note, which stays, says more than the rule.
  if (markdown.includes('[^')) for (const m of markdown.matchAll(FOOTNOTE_MARK)) if (!text.includes(m[0])) return true;
  // And struck-out text, gone from the rule: what was taken back, which the file's editors keep on the line.
  if (markdown.includes('~~') || markdown.includes('<')) {
    const prose = markdown.includes('`') ? markdown.replace(/`[^`]*`/g, '') : markdown;
    if (/~~[^~]+?~~/.test(prose) || STRUCK_ELEMENT.test(prose)) return true;
  }
  return false;
}

/** A line of nothing but strong emphasis that ends in no punctuation ("**Important**", "__Note__"). */
const STRONG_LINE = /^\s*(\*\*|__)(?=\S)([^*_]*?[^\s*_.:;!?])\1\s*$/;

/**
 * The lines of one paragraph or list item as one text. A first line of only strong emphasis over more lines
 * ("**Important**" over "Never push to main.") labels them, as "**Important:** Never push to main." does: it is
 * joined with a colon, not run into the sentence after it ("Important Never push to main.").
 */
export function joinLines(lines: readonly string[]): string {
  const label = lines.length > 1 ? STRONG_LINE.exec(lines[0]!) : null;
  return label === null ? lines.join(' ') : [`${label[1]}${label[2]}:${label[1]}`, ...lines.slice(1)].join(' ');
}

/** Runs of white space as one space, trimmed. */
export function fold(text: string): string {
  // A replace rewrites every single space too: only run it when some white space is not already one space.
  return (FOLDABLE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

/** White space that folding changes: two in a row, or any but the space. */
const FOLDABLE = /\s\s|[^\S ]/;

/** Whether an item or a paragraph starts with inline code (after bold markers): a command listing, unless it states a rule. */
export function startsWithCode(markdown: string): boolean {
  return /^\s*(\*\*|__)?`/.test(markdown);
}

/** A link and little else: "[Docs](…)", "See [the guide](…)", "<https://…>". */
export function isLinkOnly(markdown: string): boolean {
  // No link of any of the three forms without one of these.
  if (!markdown.includes('](') && !markdown.includes('http')) return false;
  const rest = markdown
    .replace(/!?\[[^[\]]*\]\([^()]*\)/g, '')
    .replace(/<https?:[^<>]+>/g, '')
    .replace(/https?:\/\/\S+/g, '');
  if (rest === markdown) return false;
  const words = rest
    // An emoji before the link ("📖 [Architecture](…)", or GitHub's `:book:`) marks it, as a bullet does: no word of a rule.
    .replace(/:[a-z0-9_+-]+:/g, ' ')
    .replace(/[\p{P}\p{S}\p{M}\s]+/gu, ' ')
    .trim()
    .toLowerCase();
  return words === '' || /^(see|read|refer to|see also|check|details|docs|more|for more|for details)( (in|at|the))?$/.test(words);
}

/** A link reference definition (`[style]: docs/style.md "Style guide"`): where a link of the text leads, no rule. */
export function isLinkDefinition(line: string): boolean {
  return /^ {0,3}\[[^\]]+\]:\s*\S/.test(line);
}

/** An image, a badge (an image in a link) or the HTML of one: `![cov](…)`, `[![CI](…)](…)`, `<a …><img …></a>`. */
const IMAGE = /\[!\[[^[\]]*\]\([^()]*\)\]\([^()]*\)|!\[[^[\]]*\]\([^()]*\)|<img\b[^>]*>|<\/?a\b[^>]*>/gi;

/**
 * The last of the lines from `from` that hold nothing but images (badges), when lines of text follow them up to `to`:
 * a paragraph's badges, whose alt text would run into the rule below them ("CI Never push to main.").
 */
export function leadingImages(lines: readonly string[], from: number, to: number): number | undefined {
  const only = (l: string) => {
    // Every form IMAGE takes holds "![" or "<": most lines are ruled out without a replace.
    if (!l.includes('![') && !l.includes('<')) return false;
    const bare = l.replace(IMAGE, '');
    return bare !== l && bare.replace(/[\p{P}\p{S}\s]/gu, '') === '';
  };
  let k = from - 1;
  while (k < to && only(lines[k + 1]!)) k++;
  return k >= from && k < to ? k : undefined;
}

/** "**Install:** `npm ci`", "Checks: `npm run lint` / `npm test`": a label, then commands. */
const LABELLED_CODE = /^\s*(\*\*|__)?[^`:]{1,40}:(\*\*|__)?\s*(`[^`]+`[\s/,;|&]*(?:(?:or|and)\s*)?)+(\(.*\))?\s*$/;

/** Whether `markdown` is a label and then commands; only a text holding a colon and a backtick can be one. */
export function labelledCode(markdown: string): boolean {
  return markdown.includes(':') && markdown.includes('`') && LABELLED_CODE.test(markdown);
}

/**
 * A template's blank to fill in, outside code spans: "Tone: {{tone}}", a label over nothing but a bracket of examples
 * or of what to write ("Code Style: [e.g., PEP 8]", "[Your stack here]"), or such a bracket of what to write within a
 * sentence ("Run [your test command]"): a text still to be written, no rule; a bracket of examples in a rule is its.
 * A placeholder inside a sentence that speaks of templates ("Always escape {{user_input}} in templates") is what the
 * rule is about, unless it stands alone or after a label.
 */
export function holdsPlaceholder(markdown: string): boolean {
  if (markdown.includes('{{')) {
    const text = markdown.includes('`') ? markdown.replace(/`[^`]*`/g, '') : markdown;
    if (PLACEHOLDER.test(text)) return !TEMPLATE_WORDS.test(text) || LABELLED_PLACEHOLDER.test(text);
  }
  return markdown.includes('[') && (BRACKET_BLANK.test(markdown) || WRITE_HERE.test(markdown.replace(/`[^`]*`/g, '')));
}
/** A bracket of what to write, anywhere in the text ("Always run [your test command] before pushing"), not a link's. */
const WRITE_HERE = /\[(?:your|insert|describe|todo|tbd)\b[^\]]*\](?![([])/i;
const PLACEHOLDER = /\{\{\s*[\w.-]+\s*\}\}/;
/** A placeholder that opens the text or follows a label's colon ("{{description}}", "**Tone:** {{tone}}"). */
const LABELLED_PLACEHOLDER = /(?:^|:)[\s*_]*\{\{\s*[\w.-]+\s*\}\}/;
/** Words of a sentence about templates and their placeholders, whose own placeholder is an example of what it speaks of. */
const TEMPLATE_WORDS = /\b(templat\w*|placeholders?|interpolat\w*|escap\w*|mustache|handlebars|jinja2?|liquid)\b/i;
const BRACKET_BLANK = /^[\s*_]*(?:[^:[\]]{1,60}:[\s*_]*)?\[(?:e\.?g\.?|i\.e\.|your|insert|add|describe|todo|tbd)\b[^\]]*\](?!\()[\s.]*$/i;
