/**
 * The change each file of an export needs (docs/export.md): a link to another target kept as it is, a block that
 * became empty removed, or the block merged into what the file holds, with what the reader of the file should know.
 */
import { createHash } from 'node:crypto';
import {
  blockFencedAt,
  type ExportFile,
  frontMatterText,
  holdsBlock,
  newRenderedEntries,
  renderSections,
  sectionSays,
  TARGETS,
} from '../core/export.ts';
import { mergeBlock, removeBlock } from '../core/export-merge.ts';
import { codePointLength } from '../core/names.ts';
import { linkedTarget, readsOtherTargets, refuseLinkChain, refuseUnfaithfulLink, sameRules } from './export-links.ts';
import { sparseTargets } from './export-listed.ts';
import type { ExportOptions } from './export-options.ts';
import type { ExportPlan } from './export-plan.ts';
import { readExisting, refusalOf, targetText } from './export-targets.ts';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What planning the files is given: where they are, and the run's options. */
export interface FilesContext {
  top: string;
  /** The store's folder relative to `top`, which the blocks name. */
  storeRel: string;
  /** Replaces a block edited by hand instead of refusing it. */
  force: boolean;
  /** The other way out a refusal names (leaving the target out). */
  otherwise: string;
  onProgress?: ExportOptions['onProgress'];
}

/**
 * Adds to `out` the change, refusal, link or warning of each file of `files`. Returns the files planned and the
 * folders found to be folders on the way, which the search for obsolete files takes up.
 */
export async function planFiles(
  out: ExportPlan,
  files: readonly ExportFile[],
  { top, storeRel, force, otherwise, onProgress }: FilesContext,
): Promise<{ planned: Set<string>; folders: Set<string> }> {
  const planned = new Set<string>();
  const folders = new Set<string>();
  const rendered = newRenderedEntries();
  const paths = new Set(files.map((f) => f.path));
  // A file a sparse checkout leaves out is judged by the text git holds for it, and written only when that is stale.
  const sparse = await sparseTargets(top, [...paths]);
  for (const [n, f] of files.entries()) {
    onProgress?.('compute', n + 1, files.length);
    planned.add(f.path);
    // A file kept as a link to another target (CLAUDE.md → AGENTS.md, for agents that read only one name) reads what that one holds.
    const to = linkedTarget(top, f.path, paths, folders);
    if (to !== undefined) {
      const led = files.find((g) => g.path === to)!;
      if (!sameRules(f, led)) refuseUnfaithfulLink(f.path, to);
      out.linked.push({ path: f.path, to, ...(!led.sections.some(sectionSays) ? { empty: true as const } : {}) });
      continue;
    }
    refuseLinkChain(top, f.path, paths);
    const raw = readExisting(top, f.path, folders, otherwise);
    if (raw !== undefined && (f.target === 'claude-md' || f.target === 'gemini-md'))
      for (const r of readsOtherTargets(top, f.path, raw, paths))
        out.warnings.push(
          `${f.path}:${r.line} has its agent read ${r.to} (@${r.ref}), which this export also writes: the rules reach that agent twice; leave ${f.target} out of the targets (out of export.targets in config.yaml, the next export takes back the blocks it wrote for it), or remove the @ line`,
        );
    // An empty set writes nothing: no file is made, a block that became empty is removed (docs/export.md), and a file
    // two sets share (a folder two projects name, the root file of a `**` project) holds only the one that is not.
    const sections = f.sections.filter(sectionSays);
    if (sections.length === 0) {
      if (raw === undefined || !holdsBlock(raw)) continue;
      const r = removeBlock(raw, sha256, f.frontMatter !== undefined, force);
      if (r.kind === 'refuse')
        out.refused.push(refusalOf(f.path, r, raw, () => removeBlock(raw, sha256, f.frontMatter !== undefined, true)));
      else if (r.kind === 'delete') out.changes.push({ path: f.path, target: f.target, action: 'delete', before: raw, after: undefined });
      else if (r.kind === 'write') out.changes.push({ path: f.path, target: f.target, action: 'update', before: raw, after: r.text });
      continue;
    }
    const inner = renderSections(sections, storeRel, rendered);
    const held = sparse.get(f.path);
    const before = raw ?? (held === undefined ? undefined : targetText(f.path, held, otherwise));
    const merge = mergeBlock(before, frontMatterText(f.frontMatter), inner, sha256, force);
    if (merge.kind === 'refuse') {
      out.refused.push(refusalOf(f.path, merge, before, () => mergeBlock(before, frontMatterText(f.frontMatter), inner, sha256, true)));
      continue;
    }
    if (merge.kind !== 'write') continue;
    const fenced = blockFencedAt(merge.text);
    if (fenced !== undefined)
      out.warnings.push(
        `${f.path}:${fenced}: a code fence opened there is never closed, so Markdown readers take the agents block after it for code; close the fence above the block`,
      );
    const max = TARGETS[f.target].maxChars;
    // Characters as the client counts them: an emoji is one, and a CRLF line end one, like the LF it stands for.
    const length = max === undefined ? 0 : codePointLength(merge.text.replaceAll('\r\n', '\n'));
    if (max !== undefined && length > max)
      out.warnings.push(`${f.path} is ${length} characters; ${f.target} reads at most ${max} of a rule file`);
    // Not on disk (left out by a sparse checkout): made when stale, with the text around the block that git holds.
    const action = raw === undefined && merge.action !== 'unchanged' ? 'create' : merge.action;
    out.changes.push({ path: f.path, target: f.target, action, before: raw, after: merge.text });
  }
  return { planned, folders };
}
