/**
 * Words of a command the user is told to run, written so that a POSIX shell reads each one as it is: a path with
 * spaces, `$`, `&`, `;` or quotes would otherwise be split, expanded or ended there.
 */

/** `s` single-quoted, its own single quotes closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `s` as it is when a shell reads it so (letters, digits and `_@%+=:,./-` only), else single-quoted; one holding a
 * control character (a line break) as `$'…'` with it escaped, which bash and zsh read as the same text: a hint's
 * command stays on its line, and is pasted whole. Scripts the tool writes use `shellQuote`, which every `sh` reads.
 */
export function shellWord(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  return /\p{Cc}/u.test(s) ? ansiQuote(s) : shellQuote(s);
}

/** `s` in `$'…'`, its backslashes, quotes and control characters escaped. */
function ansiQuote(s: string): string {
  const escaped = s.replace(/[\\']|\p{Cc}/gu, (c) => {
    if (c === '\\' || c === "'") return `\\${c}`;
    const code = c.codePointAt(0)!;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return `$'${escaped}'`;
}

/**
 * A path as a word of a command: one starting with `-` is written `./-…`, which names the same file, since the
 * command would otherwise read it as an option; then as `shellWord` writes it.
 */
export function shellPath(path: string): string {
  return shellWord(notAnOption(path));
}

/** A relative path that a command would read as an option (`-weird`) as `./-weird`, which names the same file. */
export function notAnOption(path: string): string {
  return path.startsWith('-') ? `./${path}` : path;
}
