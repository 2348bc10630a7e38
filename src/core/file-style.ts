// The style of a file a writer replaces: its byte order mark and its line ends (pure).

/**
 * `text`, as writers make it (LF line ends, no BOM), in the style of the file it replaces: its BOM kept first and
 * CRLF line ends when it has them, as `validate --fix` keeps them. A file a team keeps with CRLF (no git line-end
 * normalisation) then changes by the edit only, not on every line.
 */
export function inStyleOf(previous: string | undefined, text: string): string {
  if (previous === undefined) return text;
  const bom = previous.startsWith('\uFEFF') ? '\uFEFF' : '';
  return `${bom}${previous.includes('\r\n') ? text.replace(/\n/g, '\r\n') : text}`;
}
