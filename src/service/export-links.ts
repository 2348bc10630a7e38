// The target files an export keeps as links to other targets (CLAUDE.md -> AGENTS.md) or that have their agent read
// another (`@AGENTS.md`): which file a link leads to, a chain of links or a link to other rules refused (exit 2,
// before any file is written), and the references that would give an agent the same rules twice.
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, sep } from 'node:path';
import { type ExportFile, scanBlock } from '../core/export.ts';
import { fileReferences, resolveReference } from '../core/import-references.ts';
import { shellPath } from '../core/shell-word.ts';
import { checkTargetPath, targetRefused } from './export-targets.ts';
import { physicalPath } from './link-paths.ts';

/**
 * When the target file `rel` is itself a symbolic link (no folder on the way
 * is one) to another file of `written` in the same repository, that file: a
 * repository keeps CLAUDE.md as a link to AGENTS.md for an agent that reads
 * only its own name. A chain of links is `refuseLinkChain`'s to refuse,
 * anything else (a link elsewhere) `checkTargetPath`'s. `folders`: the run's cache of folders found to be folders.
 */
export function linkedTarget(top: string, rel: string, written: ReadonlySet<string>, folders?: Set<string>): string | undefined {
  const to = linkStep(top, rel);
  if (to === undefined || !written.has(to)) return undefined;
  try {
    // The file it leads to must be one the export writes itself, through no link.
    checkTargetPath(top, to, 'file', folders);
  } catch {
    return undefined;
  }
  return to;
}

/** Where the link `rel` leads, relative to the top, when it is a link to another path inside the repository. */
function linkStep(top: string, rel: string): string | undefined {
  let link: string;
  try {
    if (!lstatSync(join(top, rel)).isSymbolicLink()) return undefined;
    link = readlinkSync(join(top, rel));
  } catch {
    return undefined;
  }
  if (isAbsolute(link)) return undefined;
  const to = posix.normalize(posix.join(posix.dirname(rel), link.split(sep).join('/')));
  if (to === rel || to.startsWith('../')) return undefined;
  // A `..` after a linked folder in the link's text goes up from where that folder leads (`sub/../AGENTS.md`, `sub` a
  // link elsewhere), which folding it skips: the link leads to `to` only when the system finds the same folder.
  // Joined as written: path.join would fold the `..` itself.
  return physicalPath([top, dirname(rel), dirname(link)].join(sep)) === physicalPath(join(top, posix.dirname(to))) ? to : undefined;
}

/**
 * Refuses (exit 2) a target file that is a link to a link in the repository (GEMINI.md → CLAUDE.md → AGENTS.md),
 * before any file is written: the export follows one link, as `--check` checks one. The
 * hint names the file at the chain's end when the export writes it, to link to directly.
 */
export function refuseLinkChain(top: string, rel: string, written: ReadonlySet<string>): void {
  const to = linkStep(top, rel);
  if (to === undefined || linkStep(top, to) === undefined) return;
  const seen = new Set([rel]);
  let end = to;
  for (let next = linkStep(top, end); next !== undefined && !seen.has(end); next = linkStep(top, end)) {
    seen.add(end);
    end = next;
  }
  // A real file, or none yet: the export writes it there.
  const st = lstatSync(join(top, end), { throwIfNoEntry: false });
  const direct = written.has(end) && (st === undefined || st.isFile());
  const link = posix.relative(posix.dirname(rel), end);
  throw targetRefused(
    `cannot export to ${rel}: it is a link to ${to}, which is a link itself (a chain of links), and an export follows one link only`,
    direct
      ? `Link ${rel} to ${end} directly (\`ln -sfn ${shellPath(link)} ${shellPath(rel)}\`), or replace it with a real file; nothing was written.`
      : `Link ${rel} to a real file this export writes, or replace it with a real file; nothing was written.`,
    rel,
    'link-chain',
  );
}

/**
 * Whether a file kept as a link to `to` gives its agent the rules it would get
 * as a file of its own: the same front matter, sections and invariants in the
 * same order (the notes name each target's own root file, so they may differ).
 * A nested CLAUDE.md linked to the root AGENTS.md would hide its project's rules.
 * `to` may hold more sections after those: a nested AGENTS.md also holds the
 * projects whose paths hold its folder (TARGETS' nearestOnly), which bind the
 * agent there too, read a second time from the file above.
 */
export function sameRules(file: ExportFile, to: ExportFile): boolean {
  const key = (f: ExportFile, n: number) =>
    JSON.stringify([f.frontMatter ?? null, f.sections.slice(0, n).map((s) => [s.title, s.entries.map((e) => e.invariant.id)])]);
  const n = file.sections.length;
  return to.sections.length >= n && key(file, n) === key(to, n);
}

/**
 * Refuses (exit 2) a file kept as a link to another file of the export that
 * holds other rules than its own, before any file is written.
 */
export function refuseUnfaithfulLink(rel: string, to: string): never {
  throw targetRefused(
    `cannot export to ${rel}: it is a symbolic link to ${to}, which this export writes with other rules than ${rel} gets (its agent would miss its own)`,
    `Replace the link with a real file, or link it to the file of the same rules in its own folder; nothing was written.`,
    rel,
    'link-to-other-rules',
  );
}

/**
 * The files of `written` (other than itself) that the target file `rel`, a
 * CLAUDE.md or GEMINI.md, has its agent read (`@AGENTS.md`, outside the
 * managed block): that agent then meets the same rules twice.
 */
export function readsOtherTargets(
  top: string,
  rel: string,
  text: string,
  written: ReadonlySet<string>,
): { line: number; ref: string; to: string }[] {
  const block = scanBlock(text);
  // The block's own lines are the store's rules, not the file's: blanked, so the lines after it keep their numbers.
  const outside =
    block.kind === 'block'
      ? text.slice(0, block.start) + text.slice(block.start, block.end).replace(/[^\n]/g, '') + text.slice(block.end)
      : text;
  const out: { line: number; ref: string; to: string }[] = [];
  for (const { line, ref } of fileReferences(outside)) {
    const to = resolveReference(ref, rel, top);
    if (to !== undefined && to !== rel && written.has(to)) out.push({ line, ref, to });
  }
  return out;
}
