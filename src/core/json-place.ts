import { lineStartsOf } from './yaml-file.ts';

/**
 * Where `JSON.parse(text)` failed, as a line and column (1-based), and its
 * message without the offset: V8 names a character offset ("… in JSON at
 * position 41", and on newer versions "(line 1 column 42)"), or none when
 * the text ended too early (then the place is the end of the text).
 */
export function jsonErrorPlace(text: string, message: string): { line: number; col: number; reason: string } {
  const at = /\s*(?:in JSON )?at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
  const offset = at ? Math.min(Number(at[1]), text.length) : text.length;
  const reason = (at ? message.slice(0, at.index) + message.slice(at.index + at[0].length) : message).trim();
  return { ...lineStartsOf(text).linePos(offset), reason };
}
