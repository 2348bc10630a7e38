/**
 * Where the agents block's marker lines are in a file: the lines that start
 * with a marker, leaving out those inside the file owner's closed code fences
 * (an AGENTS.md that shows the block as an example is not a second block). Pure.
 */

import { closesFence, FENCE } from './markdown-blocks.ts';

/** The offsets of the lines starting with `begin` and with `end` (in order), outside the owner's code fences. */
export function markerLines(text: string, begin: string, end: string): { begins: number[]; ends: number[] } {
  const begins: number[] = [];
  const ends: number[] = [];
  // Markers met inside a fence of the owner's; they count after all when that fence is never closed
  // (a stray fence must not hide the real block, or a second one would be appended).
  let fence: string | undefined;
  let fenced: { begins: number[]; ends: number[] } = { begins: [], ends: [] };
  // Between a begin marker and its end the text is the export's: its lines open no fence.
  let inBlock = false;
  // A byte order mark (an editor's, on a file that was the block alone) is not part of the first line: it stays in front.
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at <= text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(at, lineEnd);
    if (fence !== undefined) {
      if (closesFence(line, fence)) {
        fence = undefined;
        fenced = { begins: [], ends: [] };
      } else if (line.startsWith(begin)) fenced.begins.push(at);
      else if (line.startsWith(end)) fenced.ends.push(at);
    } else if (line.startsWith(begin)) {
      begins.push(at);
      inBlock = true;
    } else if (line.startsWith(end)) {
      ends.push(at);
      inBlock = false;
    } else if (!inBlock) {
      const open = FENCE.exec(line);
      // A backtick fence's info string holds no backtick (CommonMark): "```x```" is inline code, no fence.
      if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) fence = open[1];
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  begins.push(...fenced.begins);
  ends.push(...fenced.ends);
  return { begins, ends };
}
