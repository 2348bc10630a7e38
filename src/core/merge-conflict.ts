// git's conflict markers in a store file. A merge that conflicts on an
// invariant leaves both sides in the file between marker lines; the YAML
// parser then reports each marker as a syntax slip, which says nothing of
// the cause or its remedy.

/** The unresolved conflicts of a text: where the first starts, and how the two sides are named. */
export interface MergeConflict {
  /** Character offset of the first `<<<<<<<` line. */
  offset: number;
  /** 1-based lines of the first conflict's `<<<<<<<` and `>>>>>>>` lines. */
  startLine: number;
  endLine: number;
  /** The labels git writes after the markers (`HEAD`, a branch, a commit), when there are any. */
  ours: string;
  theirs: string;
  /** How many complete conflicts the text holds. */
  count: number;
}

const OPEN = '<<<<<<<';

/**
 * A marker line: a run of `size` of `char` at the start of the line, then the end of the line or a space and a label.
 * git writes seven unless a `.gitattributes` sets `conflict-marker-size`, and the three markers of one conflict
 * always the same number.
 */
function markerLabel(line: string, char: string, size: number): string | undefined {
  if (runOf(line, char) !== size) return undefined;
  const rest = line.slice(size).replace(/\r$/, '');
  if (rest === '') return '';
  return rest.startsWith(' ') ? rest.slice(1).trim() : undefined;
}

/** How many of `char` the line starts with. */
function runOf(line: string, char: string): number {
  let n = 0;
  while (line[n] === char) n++;
  return n;
}

/**
 * The complete conflicts in `source` (an opening marker, a separator and a
 * closing marker, in that order, each at the start of its line), or null when
 * there is none: a lone marker-like line is left to the parser, since a
 * multi-line text may hold one.
 */
export function mergeConflicts(source: string): MergeConflict | null {
  // Most files hold no marker at all: one search decides.
  if (!source.startsWith(OPEN) && !source.includes(`\n${OPEN}`)) return null;
  let first: MergeConflict | null = null;
  let count = 0;
  let open: { offset: number; line: number; label: string; size: number } | undefined;
  let split = false;
  let offset = 0;
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const size = runOf(line, '<');
    const opening = size >= OPEN.length ? markerLabel(line, '<', size) : undefined;
    if (opening !== undefined) {
      open = { offset, line: i + 1, label: opening, size };
      split = false;
    } else if (open && markerLabel(line, '=', open.size) === '') {
      split = true;
    } else if (open && split) {
      const closing = markerLabel(line, '>', open.size);
      if (closing !== undefined) {
        count++;
        first ??= { offset: open.offset, startLine: open.line, endLine: i + 1, ours: open.label, theirs: closing, count: 0 };
        open = undefined;
        split = false;
      }
    }
    offset += line.length + 1;
  }
  return first && { ...first, count };
}

/**
 * The text with each complete conflict taken as its first side, and as its second (the base section of git's diff3
 * style, after a `|||||||` line, dropped from both), or undefined when it holds none. `marks`: the same text with
 * only git's own conflicts left (the owner's examples blanked, line for line), where the marker lines are looked for.
 */
export function conflictSides(source: string, marks = source): [string, string] | undefined {
  const lines = source.split('\n');
  const seen = marks.split('\n');
  const sides: [string[], string[]] = [[], []];
  let open: { size: number; part: 0 | 1 | 'base'; raw: string[]; kept: [string[], string[]] } | undefined;
  let found = false;
  // Pushed one by one: a conflict of a few hundred thousand lines would overflow the stack as spread arguments.
  const append = (to: string[], text: readonly string[]) => {
    for (const line of text) to.push(line);
  };
  const plain = (text: readonly string[]) => {
    append(sides[0], text);
    append(sides[1], text);
  };
  for (const [i, line] of lines.entries()) {
    const mark = seen[i] ?? '';
    const size = runOf(mark, '<');
    if (size >= OPEN.length && markerLabel(mark, '<', size) !== undefined) {
      // A conflict never closed is text, as mergeConflicts reads it.
      if (open) plain(open.raw);
      open = { size, part: 0, raw: [line], kept: [[], []] };
      continue;
    }
    if (!open) {
      sides[0].push(line);
      sides[1].push(line);
      continue;
    }
    open.raw.push(line);
    if (open.part !== 1 && markerLabel(mark, '=', open.size) === '') open.part = 1;
    else if (open.part === 0 && markerLabel(mark, '|', open.size) !== undefined) open.part = 'base';
    else if (open.part === 1 && markerLabel(mark, '>', open.size) !== undefined) {
      append(sides[0], open.kept[0]);
      append(sides[1], open.kept[1]);
      open = undefined;
      found = true;
    } else if (open.part !== 'base') open.kept[open.part].push(line);
  }
  if (open) plain(open.raw);
  return found ? [sides[0].join('\n'), sides[1].join('\n')] : undefined;
}

/** What the diagnostic of a conflicted file says: the lines, the sides, and how many more. */
export function mergeConflictMessage(c: MergeConflict): string {
  const sides = c.ours !== '' && c.theirs !== '' ? ` (${c.ours} against ${c.theirs})` : '';
  const more = c.count > 1 ? `; ${c.count - 1} more below` : '';
  return `unresolved merge conflict at lines ${c.startLine}-${c.endLine}${sides}${more}`;
}

export const MERGE_CONFLICT_HINT =
  'Keep the lines of one side (or write them together), delete the marker lines <<<<<<<, ======= and >>>>>>>, then `git add` the file.';
