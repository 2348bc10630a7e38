/**
 * How the guard hook reads a tool's arguments beyond the keys each client's tools are known by (docs/guard.md): the
 * texts the content guards match, and the files named under keys that name one. Pure, and without recursion: the
 * model writes the arguments, nested as deep as it likes.
 */

/**
 * A tool's arguments as one text, for the content guards: JSON.stringify's text, built without recursion. The model
 * writes the arguments, nested as deep as it likes (JSON.parse takes them): a recursive stringify ran out of stack
 * there, and a call made undecidable so was let through wherever `guard.on_error` is allow, a tool guard on its name too.
 */
function argumentsText(value: unknown): string {
  const out: string[] = [];
  // Pieces of text to write, and values still to write (in a box, so that a string value is told from a piece).
  const todo: Array<string | { v: unknown }> = [{ v: value }];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const v = next.v;
    if (typeof v !== 'object' || v === null) {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const entries: Array<[string | undefined, unknown]> = Array.isArray(v)
      ? v.map((e) => [undefined, e])
      : Object.entries(v).filter(([, e]) => e !== undefined);
    out.push(Array.isArray(v) ? '[' : '{');
    todo.push(Array.isArray(v) ? ']' : '}');
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, e] = entries[i]!;
      todo.push({ v: e });
      if (key !== undefined) todo.push(`${JSON.stringify(key)}:`);
      if (i > 0) todo.push(',');
    }
  }
  return out.join('');
}

/**
 * The texts the content guards read in a tool's other arguments: their JSON (a pattern written against a key sees it),
 * and their string values as written, one a line, since any of them may be what the tool writes. In the JSON a quote,
 * a backslash or a line break is escaped, so `password="…"` or `(?m)^DEBUG=true$` met no text a tool wrote under a key
 * not known here (`data`, a list of files each with its `content`). Collected without recursion, as the JSON is.
 */
export function argumentTexts(value: unknown): string[] {
  const strings: string[] = [];
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (typeof v === 'string') strings.push(v);
    else if (typeof v === 'object' && v !== null) {
      const values = Array.isArray(v) ? v : Object.values(v);
      for (let i = values.length - 1; i >= 0; i--) todo.push(values[i]);
    }
  }
  return strings.length > 0 ? [argumentsText(value), strings.join('\n')] : [argumentsText(value)];
}

/**
 * A key that names a file or folder by the end of its name, in any case and spelling (`paths`, `old_path`,
 * `targetFile`, `file_name`, `dest`, `outputDir`, `uri`), as a tool's author names one. A value under it that names no
 * guarded file passes as before, so a key taken for one by its name alone (`profile`) costs a look, never a deny.
 * Not Serena's `name_path`, a symbol's path in the file its `relative_path` names.
 */
const PATH_KEY =
  /(?<!name)(?:paths?|files?|filenames?|dirs?|directory|directories|folders?|targets?|destinations?|dest|dst|sources?|srcs?|uris?|urls?|outputs?)$/i;

/** A URL of another scheme than `file:` (`https://…`), which names no path of this machine. */
const OTHER_URL = /^(?!file:)[a-z][a-z0-9+.-]+:\/\//i;

/**
 * The strings a tool's input gives under a {@link PATH_KEY} at any depth (in lists below one too), but for the strings
 * of the top-level `known` keys, read already, and URLs of another scheme. Collected without recursion, as the model writes
 * arguments nested as deep as it likes.
 */
export function namedPaths(ti: Record<string, unknown>, known: readonly string[]): string[] {
  const out: string[] = [];
  const todo: Array<{ v: unknown; named: boolean }> = Object.entries(ti)
    // A known key's string is read already; a list or an object under it (`path: ["a", "b"]`) is read here.
    .filter(([key, v]) => !(known.includes(key) && typeof v === 'string'))
    .map(([key, v]) => ({ v, named: PATH_KEY.test(key.replace(/[-_]/g, '')) }));
  // Read in order, the list growing as it is read: each value is taken once, in the order the input gives them.
  for (let i = 0; i < todo.length; i++) {
    const { v, named } = todo[i]!;
    if (typeof v === 'string') {
      if (named && v !== '' && !OTHER_URL.test(v)) out.push(v);
    } else if (Array.isArray(v)) for (const e of v) todo.push({ v: e, named });
    else if (typeof v === 'object' && v !== null)
      for (const [key, e] of Object.entries(v)) todo.push({ v: e, named: PATH_KEY.test(key.replace(/[-_]/g, '')) });
  }
  return out;
}
