/**
 * Merging `agents export`'s managed block into a file's existing text, and taking it out (docs/export.md, "The
 * managed block"): the owner's text around the block is kept byte for byte, and a block edited by hand, damaged
 * or in a merge conflict is refused. No IO.
 */
import { BEGIN_PREFIX, type BlockScan, beginMarker, END_MARKER, hashedText, leadingFrontMatter, scanBlock } from './export.ts';
import { lineOf, withoutConflictExamples } from './export-markers.ts';
import { bomOf, eolOf, eolOfFile, lf } from './file-style.ts';
import { conflictSides, mergeConflictMessage, mergeConflicts } from './merge-conflict.ts';

/** What to do with one file. */
export type Merge =
  | { kind: 'write'; text: string; action: 'create' | 'update' | 'unchanged' }
  /** `line`: where to look (from 1): a damaged block's first marker to repair, the first line a hand edit changed, a conflict's first marker. */
  | { kind: 'refuse'; reason: RefusalReason; why: string; line?: number };

/**
 * Why a file is left alone; `conflicted`: it holds an unresolved merge conflict, which the file's owner resolves first;
 * `out-of-checkout`: an obsolete file a sparse checkout leaves out, whose removal only git can stage.
 */
export type RefusalReason = 'hand-edited' | 'damaged' | 'foreign' | 'conflicted' | 'text-above-front-matter' | 'out-of-checkout';

/**
 * A file mid-merge: refused (writing into it would bury the conflict's markers under a fresh block), unless its
 * conflicts lie in the agents block alone, as an export on each side of a merge or rebase leaves them: either side
 * then gives the same text around a whole block, which the export writes anew. `sides`: the file with each side
 * taken; `refusal`: what to answer when a side is refused all the same (a block edited by hand on one branch, whose
 * edit a new block would lose). Undefined when the file holds no conflict.
 */
function unconflicted(current: string): Merge | { kind: 'resolved'; sides: [string, string]; refusal: Merge } | undefined {
  // A conflict shown in a code fence of the owner's text (an AGENTS.md on resolving them) is not one.
  const marks = withoutConflictExamples(current, BEGIN_PREFIX, END_MARKER);
  const conflict = mergeConflicts(marks);
  if (conflict === null) return undefined;
  const refusal: Merge = {
    kind: 'refuse',
    reason: 'conflicted',
    why: `it holds an ${mergeConflictMessage(conflict)}`,
    line: conflict.startLine,
  };
  const sides = conflictSides(current, marks);
  if (sides === undefined) return refusal;
  const [a, b] = sides.map(scanBlock);
  const [ours, theirs] = sides;
  const sameAround =
    a?.kind === 'block' &&
    b?.kind === 'block' &&
    ours.slice(0, a.start) === theirs.slice(0, b.start) &&
    ours.slice(a.end) === theirs.slice(b.end) &&
    mergeConflicts(withoutConflictExamples(ours, BEGIN_PREFIX, END_MARKER)) === null;
  return sameAround ? { kind: 'resolved', sides, refusal } : refusal;
}

/**
 * What to do with a file whose conflicts lie in its block alone (unconflicted), `merge` being the merge of one side's
 * text: each side must be as the export wrote it (never `--force`, which would lose a hand edit of either), and the
 * first side's new text is written, always a change of the file that holds the markers.
 */
function resolvedMerge<M extends Merge | { kind: 'delete' }>(
  resolved: { sides: [string, string]; refusal: Merge },
  merge: (text: string) => M,
): M | Merge {
  const ours = merge(resolved.sides[0]);
  if (ours.kind === 'refuse' || merge(resolved.sides[1]).kind === 'refuse') return resolved.refusal;
  return ours.kind === 'write' ? { ...ours, action: 'update' } : ours;
}

/**
 * The new text of a file from its current text (undefined: it does not
 * exist) and what the block must hold. Text outside the block is kept byte
 * for byte; front matter, where the target has one, is the tool's (it is
 * covered by the hash). A block whose text no longer matches its hash was
 * edited by hand and is refused unless `force`; a damaged block always is.
 */
export function mergeBlock(
  current: string | undefined,
  frontMatter: string | undefined,
  inner: string,
  hash: (s: string) => string,
  force: boolean,
): Merge {
  const front = frontMatter ?? '';
  const block = `${beginMarker(hash(hashedText(frontMatter, inner)))}\n${inner}${END_MARKER}\n`;
  if (current === undefined) return { kind: 'write', text: `${front}${block}`, action: 'create' };
  const resolved = unconflicted(current);
  if (resolved?.kind === 'resolved') return resolvedMerge(resolved, (side) => mergeBlock(side, frontMatter, inner, hash, false));
  if (resolved) return resolved;
  const scan = scanBlock(current);
  if (scan.kind === 'damaged') return { kind: 'refuse', reason: 'damaged', why: scan.why, line: scan.line };
  if (scan.kind === 'none') {
    if (frontMatter !== undefined) {
      // The export's own file whose block went while its set was empty (removeBlock keeps the front matter when
      // the owner's text is there too): its front matter is the one the export writes, so the block goes back after it.
      const own = leadingFrontMatter(current);
      if (own !== undefined && lf(own).replace(/\n\n$/, '\n') === frontMatter.replace(/\n\n$/, '\n')) {
        const bom = bomOf(current);
        const eol = eolOf(own);
        return { kind: 'write', text: `${bom}${eol(front)}${eol(block)}${current.slice(bom.length + own.length)}`, action: 'update' };
      }
      // A file of the tool's own name and shape that the tool did not write; an empty one holds nothing to keep.
      if (!force && current.trim() !== '')
        return { kind: 'refuse', reason: 'foreign', why: 'it has no agents block: it was not written by `agents export`' };
      return { kind: 'write', text: `${front}${block}`, action: 'update' };
    }
    // The block is written with the line ends the file has most of, so a CRLF file stays all CRLF.
    const eol = eolOfFile(current);
    const sep = current === '' ? '' : /\n\r?\n$/.test(current) ? '' : current.endsWith('\n') ? '\n' : '\n\n';
    return { kind: 'write', text: `${current}${eol(sep)}${eol(block)}`, action: 'update' };
  }
  const currentFront = frontMatter !== undefined ? scan.frontMatter : undefined;
  // A block with CRLF line ends (a checkout with `eol=crlf`) is compared as LF and written back with CRLF: line ends are no edit.
  const eol = eolOf(current.slice(scan.start, scan.end));
  // The owner's text after the end marker on its line stays on that line: no line break is put before it.
  const placed = scan.end < current.length && current[scan.end - 1] !== '\n' ? eol(block).replace(/\r?\n$/, '') : eol(block);
  // A block equal, byte for byte, to the one it would be is up to date (its hash is right by construction);
  // the front matter too, when the target has one (scan.frontMatter is where the file starts).
  if (current.slice(scan.start, scan.end) === placed && lf(currentFront) === frontMatter) {
    return { kind: 'write', text: current, action: 'unchanged' };
  }
  // So is the same block re-wrapped by a formatter (prettier's proseWrap `always` or `never` folds the lines of its
  // paragraphs and of its front matter): its marker names the store's text, and it holds those words.
  const expected = hashedText(frontMatter, inner);
  if (scan.hash === hash(expected) && words(hashedText(lf(currentFront), lf(scan.inner))) === words(expected)) {
    return { kind: 'write', text: current, action: 'unchanged' };
  }
  // The owner's text written above the export's front matter: the client reads front matter only at the file's start.
  const moved =
    frontMatter !== undefined && currentFront === undefined ? frontMatterBelowText(current, scan, hash, frontMatter) : undefined;
  if (moved !== undefined && !force)
    return {
      kind: 'refuse',
      reason: 'text-above-front-matter',
      why: `text stands above its front matter (line ${lineOf(current, moved.start)}), where the client reads front matter only at the file's start`,
      line: 1,
    };
  if (moved === undefined && hash(hashedText(lf(currentFront), lf(scan.inner))) !== scan.hash && !force) {
    // What the export wrote is known when its marker names the text it would write now: the edit starts where they part.
    const line = scan.hash === hash(expected) ? firstEditedLine(current, scan, frontMatter, inner) : undefined;
    return {
      kind: 'refuse',
      reason: 'hand-edited',
      why: 'its agents block was edited by hand (the text no longer matches the sha256 in its begin marker)',
      ...(line === undefined ? {} : { line }),
    };
  }
  let before = current.slice(0, scan.start);
  // --force puts the front matter back first and keeps the owner's text below it, once.
  if (moved !== undefined) before = before.slice(0, moved.start) + before.slice(moved.start + moved.text.length);
  if (frontMatter !== undefined)
    before = `${bomOf(current)}${eol(frontMatter)}${before.slice(bomOf(current).length + (scan.frontMatter?.length ?? 0))}`;
  // Never the current text: that is the up-to-date case above (the front matter, ending with a line break,
  // and the block would stand where they are now).
  return { kind: 'write', text: `${before}${placed}${current.slice(scan.end)}`, action: 'update' };
}

/**
 * How much text the search for the export's front matter below the owner's text hashes beyond one file's length: each
 * try hashes the block whole, so a crafted file of many distinct front-matter-like texts is searched only that far.
 */
const FRONT_MATTER_HASH_BUDGET = 1 << 16;

/**
 * The export's own front matter found below the owner's text, above the block (`start`: its offset), or undefined: the
 * block's hash names it with the block's text, so it is the one the export wrote, not a thematic break of the owner's.
 * Each `---` line opens a candidate that the next `---` line not right below it closes (leadingFrontMatter's reading),
 * found in one pass. `known`, the front matter the export would write now, is looked for by its text when the hash
 * names it; else each distinct text is hashed once, the nearest the block first, within FRONT_MATTER_HASH_BUDGET
 * beyond a few times the file's length (past it, none is found, and the block is called edited by hand). The first
 * place of the text found is the answer.
 */
export function frontMatterBelowText(
  current: string,
  scan: Extract<BlockScan, { kind: 'block' }>,
  hash: (s: string) => string,
  known?: string,
): { start: number; text: string } | undefined {
  const dashes = [...current.slice(0, scan.start).matchAll(/(?<=\n)---\r?\n/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
  const first = new Map<string, { start: number; text: string }>();
  for (const [i, open] of dashes.entries()) {
    const close = dashes[i + 1] !== undefined && dashes[i + 1]!.start > open.end ? dashes[i + 1] : dashes[i + 2];
    if (close === undefined) continue;
    // The blank line after it is part of it, as leadingFrontMatter takes it.
    const end = close.end + (current.startsWith('\r\n', close.end) ? 2 : current[close.end] === '\n' ? 1 : 0);
    if (end > scan.start) continue;
    const text = current.slice(open.start, end);
    const key = lf(text);
    if (!first.has(key)) first.set(key, { start: open.start, text });
  }
  const inner = lf(scan.inner);
  if (known !== undefined && hash(hashedText(known, inner)) === scan.hash) return first.get(known);
  let budget = 4 * current.length + FRONT_MATTER_HASH_BUDGET;
  for (const [key, found] of [...first].reverse()) {
    budget -= key.length + inner.length + 1;
    if (budget < 0) return undefined;
    if (hash(hashedText(key, inner)) === scan.hash) return found;
  }
  return undefined;
}

/**
 * The line of `current` (from 1) where it first differs from the front matter and block the export wrote (`frontMatter`,
 * `inner`), or undefined when no line does (line ends aside).
 */
function firstEditedLine(
  current: string,
  scan: Extract<BlockScan, { kind: 'block' }>,
  frontMatter: string | undefined,
  inner: string,
): number | undefined {
  const parted = (now: string, wrote: string) => {
    const [a, b] = [lf(now).split('\n'), wrote.split('\n')];
    const i = a.findIndex((l, k) => l !== b[k]);
    return i >= 0 ? i : a.length < b.length ? a.length : undefined;
  };
  if (frontMatter !== undefined) {
    const front = parted(scan.frontMatter ?? '', frontMatter);
    if (front !== undefined) return front + 1;
  }
  const at = parted(scan.inner, inner);
  return at === undefined ? undefined : lineOf(current, scan.start) + 1 + at;
}

/** `text` with its runs of white space read as one space: what is left when a formatter re-wraps its lines. */
function words(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The whole text of a file whose managed block goes away (a project removed): the text around it, or nothing. A
 * block edited by hand is refused unless `force`, as mergeBlock refuses it; a damaged one always is.
 */
export function removeBlock(
  current: string,
  hash: (s: string) => string,
  hasFrontMatter: boolean,
  force = false,
): Merge | { kind: 'delete' } {
  const resolved = unconflicted(current);
  if (resolved?.kind === 'resolved') return resolvedMerge(resolved, (side) => removeBlock(side, hash, hasFrontMatter, false));
  if (resolved) return resolved;
  const scan = scanBlock(current);
  if (scan.kind === 'damaged') return { kind: 'refuse', reason: 'damaged', why: scan.why, line: scan.line };
  if (scan.kind === 'none') return { kind: 'refuse', reason: 'foreign', why: 'it has no agents block' };
  const front = hasFrontMatter ? scan.frontMatter : undefined;
  // The export's front matter below the owner's text stands for nothing there: it goes with the block, the text stays.
  const moved = hasFrontMatter && front === undefined ? frontMatterBelowText(current, scan, hash) : undefined;
  if (moved !== undefined) {
    const rest = current.slice(0, moved.start) + current.slice(moved.start + moved.text.length, scan.start) + current.slice(scan.end);
    return rest.trim() === '' ? { kind: 'delete' } : { kind: 'write', text: rest, action: 'update' };
  }
  if (!force && hash(hashedText(lf(front), lf(scan.inner))) !== scan.hash)
    return { kind: 'refuse', reason: 'hand-edited', why: 'its agents block was edited by hand' };
  const rest = current.slice(bomOf(current).length + (front?.length ?? 0), scan.start) + current.slice(scan.end);
  if (rest.trim() === '') return { kind: 'delete' };
  // A block that ends the file was appended after a blank line of the export's own (mergeBlock's separator): it goes
  // with the block, so that the owner's file ends as it did before the export, not with a blank line more.
  const head = current.slice(0, scan.start);
  const left = scan.end === current.length ? head.replace(/(\r?\n)\r?\n$/, '$1') : head;
  return { kind: 'write', text: left + current.slice(scan.end), action: 'update' };
}
