/**
 * Where the agents block's marker lines are in a file: the lines that start
 * with a marker, leaving out those inside the file owner's closed code fences
 * (an AGENTS.md that shows the block as an example is not a second block);
 * and the file without the merge conflicts such fences show. Pure.
 */

import { closesFence, FENCE } from './markdown-blocks.ts';
import { mergeConflicts } from './merge-conflict.ts';

/**
 * The offsets of the lines starting with `begin` and with `end` (in order), outside the owner's code fences; a marker
 * may stand after up to three spaces (`startsWithMarker`).
 */
export function markerLines(text: string, begin: string, end: string): { begins: number[]; ends: number[] } {
  const { begins, ends } = walk(text, begin, end);
  return { begins, ends };
}

/**
 * The text with each closed code fence of the owner's that holds a whole
 * merge conflict (git's marker lines shown as an example) blanked, line ends
 * kept: what is left holds only conflicts git left, at their own lines. A
 * conflict that crosses a fence's edge is git's, and stays.
 */
export function withoutConflictExamples(text: string, begin: string, end: string): string {
  let out = '';
  let from = 0;
  for (const f of walk(text, begin, end).fences) {
    const fenced = text.slice(f.from, f.to);
    if (mergeConflicts(fenced) === null) continue;
    out += text.slice(from, f.from) + fenced.replace(/[^\n]+/g, '');
    from = f.to;
  }
  return out + text.slice(from);
}

/**
 * The line (from 1) of a code fence of the owner's that opens before the agents block and is never closed: every
 * Markdown reader then takes the block, down to the end of the file, for code. Undefined when none does.
 */
export function fenceOverBlock(text: string, begin: string, end: string): number | undefined {
  const { begins, open } = walk(text, begin, end);
  if (open === undefined || !begins.some((at) => at > open)) return undefined;
  return text.slice(0, open).split('\n').length;
}

/**
 * Why the marker lines found (`markerLines`) make no one block, with the line (from 1) of the first marker to repair,
 * and the lines of the others in the message: a file of a thousand lines is repaired at a place, not searched.
 * Undefined when there is one begin marker and one end marker after it.
 */
export function markerDamage(text: string, begins: readonly number[], ends: readonly number[]): { why: string; line: number } | undefined {
  const at = (offset: number) => lineOf(text, offset);
  const lines = (offsets: readonly number[]) => {
    // The first three say where to look; a file of a hundred copied blocks is not listed whole.
    const n = offsets.slice(0, 4).map(at);
    return offsets.length > 3 ? `lines ${n.slice(0, 3).join(', ')}, …` : `lines ${n.slice(0, -1).join(', ')} and ${n.at(-1)}`;
  };
  if (begins.length > 1) return { why: `it holds ${begins.length} "agents:begin" markers (${lines(begins)})`, line: at(begins[0]!) };
  if (ends.length > 1) return { why: `it holds ${ends.length} "agents:end" markers (${lines(ends)})`, line: at(ends[0]!) };
  if (begins.length === 0)
    return { why: `it holds an "agents:end" marker (line ${at(ends[0]!)}) without its "agents:begin"`, line: at(ends[0]!) };
  if (ends.length === 0)
    return { why: `it holds an "agents:begin" marker (line ${at(begins[0]!)}) without its "agents:end"`, line: at(begins[0]!) };
  if (ends[0]! < begins[0]!)
    return {
      why: `its "agents:end" marker (line ${at(ends[0]!)}) comes before "agents:begin" (line ${at(begins[0]!)})`,
      line: at(ends[0]!),
    };
  return undefined;
}

/**
 * Whether `line` starts with `marker`, after up to three spaces: Markdown reads such a line as the same HTML comment
 * as one at the margin (four spaces make it code), so an indented block is the block, not a reason to append another.
 */
export function startsWithMarker(line: string, marker: string): boolean {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 32) at++;
  return line.startsWith(marker, at);
}

/** The line (from 1) holding the character at `offset`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function walk(
  text: string,
  begin: string,
  end: string,
): { begins: number[]; ends: number[]; fences: { from: number; to: number }[]; open: number | undefined } {
  const begins: number[] = [];
  const ends: number[] = [];
  const fences: { from: number; to: number }[] = [];
  let fenceAt = 0;
  // Markers met inside a fence of the owner's; they count after all when that fence is never closed and no marker
  // stands outside fences (a stray fence must not hide the real block, or a second one would be appended; below the
  // block, its example is code to every reader, not a second block).
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
        fences.push({ from: fenceAt, to: lineEnd });
        fenced = { begins: [], ends: [] };
      } else if (startsWithMarker(line, begin)) fenced.begins.push(at);
      else if (startsWithMarker(line, end)) fenced.ends.push(at);
    } else if (startsWithMarker(line, begin)) {
      begins.push(at);
      inBlock = true;
    } else if (startsWithMarker(line, end)) {
      ends.push(at);
      inBlock = false;
    } else if (!inBlock) {
      const open = FENCE.exec(line);
      // A backtick fence's info string holds no backtick (CommonMark): "```x```" is inline code, no fence.
      if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
        fence = open[1];
        fenceAt = at;
      }
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  if (begins.length === 0 && ends.length === 0) {
    begins.push(...fenced.begins);
    ends.push(...fenced.ends);
  }
  return { begins, ends, fences, open: fence === undefined ? undefined : fenceAt };
}
