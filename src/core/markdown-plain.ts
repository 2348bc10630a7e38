/**
 * Markdown read as plain text, for the rules import takes out of instruction
 * files (import-rules.ts): inline markup dropped, white space folded, a
 * blockquote's markers taken off its lines. Pure.
 */

export const QUOTED = /^ {0,3}>/;

/**
 * A blockquote line without its markers (`> `, nested `> > `); a GitHub
 * alert's marker line (`> [!NOTE]`, `> [!IMPORTANT]`…) is markup alone and
 * becomes blank.
 */
export function unquote(line: string): string {
  const inner = line.replace(/^(?: {0,3}> ?)+/, '');
  return /^\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$/i.test(inner) ? '' : inner;
}

/** Markdown to plain text: links to their words, emphasis and HTML dropped, inline code kept as its text. */
export function plain(markdown: string): string {
  // Most rules hold no Markdown at all: only their white space to fold.
  if (!/[`*_[\]<>!~\\]/.test(markdown)) return fold(markdown);
  // Each step runs only when the text holds the characters it needs to match: a replace that cannot match still scans.
  let t = markdown;
  if (t.includes('](') || t.includes('][')) {
    t = t
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');
  }
  if (t.includes('<')) t = t.replace(/<\/?[a-zA-Z][^>]*>/g, '');
  if (t.includes('`')) t = t.replace(/`+([^`]+?)`+/g, '$1');
  if (t.includes('**') || t.includes('__')) t = t.replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2');
  if (t.includes('*') || t.includes('_')) t = t.replace(/(^|[\s(])([*_])(?=\S)(.+?)(?<=\S)\2(?=[\s).,;:!?]|$)/g, '$1$3');
  if (t.includes('~~')) t = t.replace(/~~(.+?)~~/g, '$1');
  if (t.includes('\\')) t = t.replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
  return fold(t);
}

/** Runs of white space as one space, trimmed. */
export function fold(text: string): string {
  // A replace rewrites every single space too: only run it when some white space is not already one space.
  return (FOLDABLE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

/** White space that folding changes: two in a row, or any but the space. */
const FOLDABLE = /\s\s|[^\S ]/;
