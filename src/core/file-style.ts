// The style of a file a writer replaces or writes into: its byte order mark and its line ends (pure).

/**
 * `text`, as writers make it (LF line ends, no BOM), in the style of the file it replaces: its BOM kept first and
 * CRLF line ends when most of its lines end so, as `validate --fix` keeps them. A file a team keeps with CRLF (no git
 * line-end normalisation) then changes by the edit only, not on every line; nor does an LF file one pasted CRLF line
 * is in.
 */
export function inStyleOf(previous: string | undefined, text: string): string {
  if (previous === undefined) return text;
  const bom = previous.startsWith('\uFEFF') ? '\uFEFF' : '';
  return `${bom}${eolOfFile(previous)(text)}`;
}

/**
 * How to write text into the file `current` (a block, lines added after its own): with CRLF line ends when most of
 * its lines end so, the rule of every writer, so that one CRLF line pasted into an LF file turns nothing else CRLF.
 */
export function eolOfFile(current: string): (text: string) => string {
  return mostlyCrlf(current) ? crlf : (text) => text;
}

/** The byte order mark a file starts with, or ''. */
export function bomOf(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
}

/** `text` with CRLF line ends read as LF. */
export function lf<T extends string | undefined>(text: T): T {
  return (text === undefined ? text : text.replace(/\r\n/g, '\n')) as T;
}

/** How to write text where `sample` stands: with CRLF line ends when it has them, else as it is. */
export function eolOf(sample: string): (text: string) => string {
  return sample.includes('\r\n') ? crlf : (text) => text;
}

/** `text` with every line end CRLF, as git checks a file out under core.autocrlf or eol=crlf. */
export function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Whether more of `text`'s line ends are CRLF than LF alone. */
export function mostlyCrlf(text: string): boolean {
  let crlf = 0;
  let all = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    all++;
    if (text.charCodeAt(at - 1) === 13) crlf++;
  }
  return crlf * 2 > all;
}
