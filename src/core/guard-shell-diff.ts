/**
 * The files a unified diff given to `patch` or `git apply` on its input (a here-document, a here-string, what `echo`
 * or `printf` pipes to it) changes, as its headers name them (docs/guard.md, "Shell commands"). Pure.
 */

/** `name` with its first `strip` folders taken off, as `-pN` does; undefined when it has fewer. */
function stripped(name: string, strip: number): string | undefined {
  let at = 0;
  for (let n = 0; n < strip; n++) {
    const slash = name.indexOf('/', at);
    if (slash < 0) return undefined;
    at = slash + 1;
  }
  return name.slice(at);
}

/**
 * The files the diffs in `texts` create, change, rename or delete, each name with `strip` leading folders taken off
 * (`undefined`: as `patch` with no `-p` may read it, whole or with its first folder off, `a/` and `b/` in a git diff).
 */
export function diffFiles(texts: readonly string[], strip: number | undefined): string[] {
  const out: string[] = [];
  for (const text of texts)
    for (const line of text.split('\n')) {
      // `--- a/x` and `+++ b/x`, a date after a tab; a git diff's rename or copy names its target whole.
      const header = /^(?:---|\+\+\+) (.+?)(?:\t.*)?\r?$/.exec(line);
      const target = header ? undefined : /^(?:rename|copy) to (.+?)\r?$/.exec(line);
      if (target) out.push(target[1]!);
      if (!header || header[1] === '/dev/null') continue;
      const name = header[1]!.replace(/^"(.*)"$/, '$1');
      for (const n of strip === undefined ? [0, 1] : [strip]) {
        const file = stripped(name, n);
        if (file !== undefined && file !== '') out.push(file);
      }
    }
  return out;
}

/** The `-pN` (`-p N`, `--strip=N`, `--strip N`) among `args`, if any. */
export function stripLevel(args: readonly string[]): number | undefined {
  let level: number | undefined;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    const joined = /^(?:-p|--strip=)(\d+)$/.exec(a);
    if (joined) level = Number(joined[1]);
    else if ((a === '-p' || a === '--strip') && /^\d+$/.test(args[i + 1] ?? '')) level = Number(args[++i]);
  }
  return level;
}
