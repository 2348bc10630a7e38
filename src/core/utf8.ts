/**
 * Bytes read as UTF-8 text, or where they stop being UTF-8: every reader of a
 * user's file (store files, export targets, instruction files, agents'
 * settings, a context file) says the same thing of one that is not, with its
 * line and column.
 */

/**
 * The text, or the first byte that is not UTF-8: its offset, and its line and column (1-based; the column in UTF-16
 * code units, as the YAML parser's columns of every other diagnostic, editors and SARIF count it).
 */
export type Utf8Read = { ok: true; text: string } | { ok: false; offset: number; line: number; col: number };

/**
 * The UTF-16 byte order mark `bytes` start with (what Windows PowerShell 5's `>` and Out-File write), or undefined:
 * such a file is text in another encoding, to be said so, not binary content as its NUL bytes would make it.
 */
export function utf16Mark(bytes: Uint8Array): 'FF FE' | 'FE FF' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'FF FE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'FE FF';
  return undefined;
}

/**
 * Half of a UTF-16 surrogate pair standing alone (a whole pair is one code point to a `u` pattern): what a JSON
 * `\ud800` escape gives. It has no UTF-8 form: written, it would become U+FFFD, a text nobody sent.
 */
export const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * `text` with each lone surrogate replaced by U+FFFD, as writing it as UTF-8 does anyway: for text cut
 * where a pair may have been split (the end of a program's standard error), so that what is written is
 * what is then read back, and no UTF-8 tool refuses it.
 */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(/\p{Surrogate}/gu, '\ufffd') : text;
}

/** A byte order mark at the start stays in the text (as U+FEFF), so that writing the text back keeps every byte; `dropBom` leaves it out. */
export function readUtf8(bytes: Uint8Array, options: { dropBom?: boolean } = {}): Utf8Read {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: options.dropBom !== true }).decode(bytes) };
  } catch {
    // The shortest prefix that fails to decode ends with the bad byte. A streaming decoder keeps a sequence cut at the
    // prefix's end for later instead of refusing it, so a prefix fails only on a byte that is wrong where it stands.
    let offset: number;
    if (decodes(bytes)) offset = leadBefore(bytes, bytes.byteLength) ?? bytes.byteLength - 1;
    else {
      let good = 0;
      let bad = bytes.byteLength;
      while (bad - good > 1) {
        const mid = (good + bad) >>> 1;
        if (decodes(bytes.subarray(0, mid))) good = mid;
        else bad = mid;
      }
      offset = leadBefore(bytes, bad - 1) ?? bad - 1;
    }
    return { ok: false, offset, ...bytePlace(bytes, offset) };
  }
}

/**
 * Where the line holding byte `offset` starts. At offset 0 there is no byte before it to search back from: a negative
 * start would have lastIndexOf search from the end instead, and place the first byte on the file's last line.
 */
export function lineStartOf(bytes: Uint8Array, offset: number): number {
  return offset === 0 ? 0 : bytes.lastIndexOf(10, offset - 1) + 1;
}

/**
 * The line and column (1-based) of byte `offset`: the column in UTF-16 code units of the line's bytes before it
 * (decoded, any that are not UTF-8 as U+FFFD; a byte order mark at the start not counted), as the YAML parser counts.
 */
export function bytePlace(bytes: Uint8Array, offset: number): { line: number; col: number } {
  const lineStart = lineStartOf(bytes, offset);
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (bytes[i] === 10) line++;
  const before = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  return { line, col: before.length + 1 };
}

function decodes(prefix: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(prefix, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The start of a multi-byte sequence that the byte at `at` (or the end) cuts short, if one does. */
function leadBefore(bytes: Uint8Array, at: number): number | undefined {
  for (let j = at - 1; j >= 0 && j >= at - 3; j--) {
    const b = bytes[j]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > 1 && j + length > at ? j : undefined;
  }
  return undefined;
}
