/**
 * Words of a command the user is told to run, written so that a POSIX shell reads each one as it is: a path with
 * spaces, `$`, `&`, `;` or quotes would otherwise be split, expanded or ended there.
 */

/** `s` single-quoted, its own single quotes closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `s` as it is when a shell reads it so (letters, digits and `_@%+=:,./-` only), else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
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
