/**
 * `agents import --replace`: the imported rules' lines taken out of their
 * files, the managed block put where the first of them stood in a file that
 * is an export target's own, and `agents export` run for the targets of the
 * files it changed (docs/import.md).
 */

import { join } from 'node:path';
import { CheckFailedError, UsageError } from '../core/errors.ts';
import { beginMarker, END_MARKER, exportedEntryIds, hashedText, leadingFrontMatter, scanBlock } from '../core/export.ts';
import { singleFolder } from '../core/globs.ts';
import type { ImportFile, ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import { onlyHeadings, onlyRefersTo, removeLines } from '../core/import-replace.ts';
import { REFERENCING_KINDS } from '../core/import-references.ts';
import { splitInstructions } from '../core/import-rules.ts';
import { type ImportKind, RULE_FOLDERS } from '../core/import-sources.ts';
import type { ExportTargetName } from '../core/model.ts';
import { MAX_FILE_BYTES } from '../core/parse-core.ts';
import { readUtf8 } from '../core/utf8.ts';
import { readRegularFile } from '../store/read-file.ts';
import type { ExportPlan } from './export-service.ts';
import { refusedEntry, refusedError } from './export-refusals.ts';
import { linkedTarget } from './export-links.ts';
import type { InvariantService } from './invariant-service.ts';
import { optionWords } from './option-words.ts';

/**
 * `--replace`: removes from each source file the lines of the rules now in
 * the store (imported, or held already), puts an empty managed block where
 * the first of them stood when the file is an export target's own, then
 * runs `agents export` for the targets of the files it changed, which fills
 * the blocks. A rule that is one sentence of a longer paragraph stays (its
 * line says more than the rule).
 */
export async function replaceImported(
  invariants: InvariantService,
  top: string,
  plan: ImportPlan,
  written: ReadonlyMap<number, string>,
): Promise<ReplaceResult> {
  const moving = movingRules(plan, written);
  const result: ReplaceResult = {
    files: [],
    changed: [],
    unexported: [],
    refused: [],
    exported: [],
    targets: [],
    unlisted_targets: [],
    emptied: [],
    emptied_links: [],
    warnings: [],
  };
  // The exporter (its targets, cache and writers) loads only for --replace: a dry run or a plain import never uses it.
  const [{ failedPartWay, writeFileAtomic, removeFile }, { ExportService }, { sha256 }] = await Promise.all([
    import('../store/atomic-write.ts'),
    import('./export-service.ts'),
    import('./export-changes.ts'),
  ]);
  const exporter = new ExportService(invariants);
  const { calls } = optionWords(invariants.optionWords);
  // Nothing to move (the lines went already, by a run a full disk stopped before its export): no export to plan.
  if (moving.length === 0) return result;
  // Only a rule the export then writes somewhere leaves its file: one of a project without paths, or whose paths the
  // target cannot express (a glob for AGENTS.md), would reach no agent at all.
  const before = await exporter.plan({ targets: [...new Set(moving.map((m) => m.target))] });
  const carried = exportedIds(before);
  // A file the export leaves alone (one of its name without its block, a block edited by hand) carries none of them:
  // named, as the reason their lines stay.
  result.refused = before.refused.map(refusedEntry);
  // Each file's lines to remove, and the scope of its rules, found once rather than by a scan of the plan per file.
  const gone = new Map<string, PlannedCandidate[]>();
  for (const { c, id, target } of moving) {
    if (carried.has(target, c.file, id)) gone.get(c.file)?.push(c) ?? gone.set(c.file, [c]);
    else result.unexported.push({ file: c.file, line: c.line, target });
  }
  const scopeOf = fileScopes(plan);
  const made = projectsAfter(plan, written);
  const targets = new Set<ExportTargetName>();
  for (const f of plan.files) {
    const ranges = gone.get(f.file);
    if (ranges === undefined) continue;
    const read = readAsPlanned(top, f.file);
    // A symbolic link (CLAUDE.md → AGENTS.md) is never written through: the file it leads to is replaced as itself.
    if (read === undefined) continue;
    // The lines to remove are the plan's: a file edited since (during the review, say) keeps every line.
    if (
      read.text === undefined ||
      !sameRules(read.text, ranges, { frontMatter: f.noFrontMatter !== true, references: REFERENCING_KINDS.includes(f.kind) })
    ) {
      result.changed.push(f.file);
      continue;
    }
    const { after, block } = replacedText(f, plan, scopeOf, made, read.text, ranges, beginMarker(sha256(hashedText(undefined, ''))));
    try {
      writeFileAtomic(top, f.file, read.bom + after, 'replace');
    } catch (error) {
      failedPartWay(
        error,
        result.files.map((done) => done.file),
        calls.importReplace,
      );
    }
    targets.add(TARGET_OF[f.kind]);
    result.files.push({ file: f.file, removed: ranges.map((c) => c.line), block });
  }
  if (targets.size > 0) {
    const planned = await exporter.plan({ targets: [...targets] });
    try {
      result.exported = exporter.apply(planned).map((c) => c.path);
    } catch (error) {
      // The lines are out of their files already: the export is what is left to make, not another import.
      failedPartWay(
        error,
        result.files.map((done) => done.file),
        calls.exportFiles([...targets].sort()),
      );
    }
    result.targets = [...targets].sort();
    // What `agents export` warns of, the same run: a CLAUDE.md whose `@AGENTS.md` now gives its agent the block twice.
    result.warnings = planned.warnings;
    // The moved rules now reach agents only through the export: a target config.yaml does not list is one
    // that `agents export` and `export --check` (the pre-commit hook) would leave out.
    result.unlisted_targets = result.targets.filter((t) => !planned.listed.includes(t));
  }
  const emptied = dropEmptied(top, result.files, plan.files, removeFile);
  result.emptied = emptied.map((e) => e.file);
  result.emptied_links = emptied.flatMap((e) => (e.to === undefined ? [] : [{ file: e.file, to: e.to, link: e.link! }]));
  return result;
}

/**
 * A folder's AGENTS.md (CLAUDE.md, GEMINI.md) that `--replace` and the export left with nothing but its headings
 * is removed: it would stay the file nearest to the folder's files, which an agent that reads only the nearest
 * one reads instead of the files above it, where the rules now are (the root file, or the project's folder above).
 * So is a rule file of a rules folder (`.cursor/rules/style.mdc`) left with nothing but its front matter and
 * headings: its rules reach its agent through the export's own file there, and it would apply an empty rule.
 */
function dropEmptied(
  top: string,
  files: ReplaceResult['files'],
  sources: readonly ImportFile[],
  remove: (root: string, rel: string) => void,
): { file: string; to?: string; link?: EmptiedLink['link'] }[] {
  const out: { file: string; to?: string; link?: EmptiedLink['link'] }[] = [];
  const source = new Map(sources.map((f) => [f.file, f]));
  // The folders found to be folders, shared by the links' checks: the index's gitlinks are read once for them all.
  const checked = new Set<string>();
  for (const { file } of files) {
    const cut = file.lastIndexOf('/');
    const f = source.get(file);
    if (f === undefined) continue;
    const text = readAsPlanned(top, file)?.text;
    if (text === undefined || !emptiedText(f, text)) continue;
    if (!PER_FOLDER.has(file.slice(cut + 1)) || RULE_FOLDERS[f.kind] !== undefined) {
      remove(top, file);
      out.push({ file });
      continue;
    }
    // A CLAUDE.md kept as a link to it (docs/export.md), or one that says nothing but `@AGENTS.md`, would lead
    // nowhere: it goes too.
    const links = [...PER_FOLDER]
      .map((name) => `${file.slice(0, cut)}/${name}`)
      .flatMap((other): { file: string; to: string; link: EmptiedLink['link'] }[] =>
        other === file
          ? []
          : linkedTarget(top, other, new Set([file]), checked) === file
            ? [{ file: other, to: file, link: 'symbolic' }]
            : refersOnlyTo(top, other, file)
              ? [{ file: other, to: file, link: 'reference' }]
              : [],
      );
    for (const gone of [{ file }, ...links]) {
      remove(top, gone.file);
      out.push(gone);
    }
  }
  return out;
}

/** Whether the regular file `rel` (no managed block) says nothing but headings and `@` references to `to`. */
function refersOnlyTo(top: string, rel: string, to: string): boolean {
  const text = readAsPlanned(top, rel)?.text;
  return text !== undefined && scanBlock(text).kind === 'none' && onlyRefersTo(text, rel, to, top);
}

/**
 * The text of the regular file `rel` as the plan read it, a byte order mark apart (`bom`, put back in front when it is
 * written, so that every other byte is kept); `text` undefined when it is no UTF-8. Undefined when it is not a regular
 * file: a link is never read or written through.
 */
function readAsPlanned(top: string, rel: string): { text?: string; bom: string } | undefined {
  const r = readRegularFile(join(top, rel), MAX_FILE_BYTES);
  if (!r.ok) return undefined;
  const read = readUtf8(r.bytes, { dropBom: true });
  const bom = r.bytes[0] === 0xef && r.bytes[1] === 0xbb && r.bytes[2] === 0xbf ? '\uFEFF' : '';
  return read.ok ? { text: read.text, bom } : { bom };
}

/** The export targets' files that a folder holds for the files below it (docs/export.md). */
const PER_FOLDER = new Set(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);

/**
 * Before anything is written: `--replace` moves rules into the export's files, so a file of the export's targets
 * that the export would leave alone (a block edited by hand, a conflict, damaged markers) stops the import whole.
 * Else the rules' lines would be gone from their files and never written into the block. Exit 1, nothing written.
 */
export async function refuseBlockedReplace(invariants: InvariantService, plan: ImportPlan): Promise<void> {
  const moving = new Set(plan.candidates.filter((c) => c.whole).map((c) => c.file));
  const targets = new Set(plan.files.filter((f) => moving.has(f.file)).map((f) => TARGET_OF[f.kind]));
  if (targets.size === 0) return;
  const [{ ExportService }, { checkWritable }] = await Promise.all([import('./export-service.ts'), import('./export-targets.ts')]);
  const exporter = new ExportService(invariants);
  // A file whose lines go, and one the export writes, that cannot be written (read-only, no permission) is found
  // now, as the export finds its own: found after the rules went into the store, it left them there and the lines too.
  const otherwise = 'or import without --replace';
  for (const file of moving) checkWritable(exporter.top, file, true, otherwise);
  const planned = await exporter.plan({ targets: [...targets] }).catch((error: unknown) => {
    // The export's refusal of a place it cannot write (`.clinerules` a file, a link…) offers its --target, which
    // import has not: the way round here is the import's own.
    if (!(error instanceof UsageError) || error.code !== 'export-target-refused') throw error;
    throw new UsageError(
      error.message,
      `--replace moves these rules into the export's files: make that place one the export can write, ${otherwise}; nothing was written.`,
      error.detail,
      error.code,
    );
  });
  for (const c of planned.changes) if (c.action !== 'unchanged') checkWritable(exporter.top, c.path, c.before !== undefined, otherwise);
  if (planned.refused.length === 0) return;
  const refused = refusedError(planned);
  const files = planned.refused.map((r) => `${r.path}: ${r.why}`).join('; ');
  throw new CheckFailedError(
    `nothing was imported: --replace moves the rules into the export's files, and the export would leave ${planned.refused.length === 1 ? 'one' : planned.refused.length} alone (${files})`,
    (agents) => refused.hintFor(agents) ?? '',
    refused.detail,
  );
}

/**
 * The rules whose lines `--replace` takes out, with the id of the invariant in the store that says each: the ones
 * `written` (the import's own, by candidate number), and those the store held already.
 */
function movingRules(
  plan: ImportPlan,
  written: ReadonlyMap<number, string>,
): { c: PlannedCandidate; id: string; target: ExportTargetName }[] {
  // A copy's line goes only when the copy it repeats is in the store now: one dropped in the review, or one the
  // schema refused, leaves its copies where they are, else the rule would be gone from both the files and the store.
  const at = new Map(plan.candidates.map((c) => [`${c.file}\n${c.line}`, c]));
  // One the store keeps inactive stays too: the export leaves it out, so its line is all that still says it.
  const appliedId = (c: PlannedCandidate): string | undefined =>
    written.get(c.n) ??
    (c.status === 'exists' && c.same_as !== undefined && 'id' in c.same_as && c.same_as.inactive !== true ? c.same_as.id : undefined);
  const idOf = (c: PlannedCandidate): string | undefined => {
    const own = appliedId(c);
    if (own !== undefined || c.status !== 'duplicate' || c.same_as === undefined || !('file' in c.same_as)) return own;
    const first = at.get(`${c.same_as.file}\n${c.same_as.line}`);
    return first === undefined ? undefined : appliedId(first);
  };
  const kindOf = new Map(plan.files.map((f) => [f.file, f.kind]));
  const pathsOf = new Map(plan.projects.map((p) => [p.name, p.paths]));
  // A rule that names a file with `@` moves only into the block of its own file's folder, where the `@` reads the same
  // file: a new rule of its folder's scope. Elsewhere (another scope, or said already by a rule of the store or of
  // another file) `@` would read another file, or none, so its line stays.
  const home = (c: PlannedCandidate): boolean => {
    if (c.status !== 'new') return false;
    const dir = c.file.includes('/') ? c.file.slice(0, c.file.lastIndexOf('/')) : '';
    if (c.scope.kind === 'global') return dir === '';
    const paths = pathsOf.get(c.scope.project ?? '');
    return paths?.length === 1 && paths[0] === `${dir}/**`;
  };
  const moving: { c: PlannedCandidate; id: string; target: ExportTargetName }[] = [];
  for (const c of plan.candidates) {
    const id = c.whole && (c.reads !== true || home(c)) ? idOf(c) : undefined;
    if (id !== undefined) moving.push({ c, id, target: TARGET_OF[kindOf.get(c.file)!] });
  }
  return moving;
}

/** What `--dry-run --replace` shows of one source file: the lines that would go, and the file's text after. */
export interface ReplacePreview {
  file: string;
  removed: number[];
  block: boolean;
  /** The file's text before and after (`after` null when the file would be removed, left with only headings). */
  before: string;
  after: string | null;
}

/**
 * `--dry-run --replace`: what `--replace` would do to each source file, writing nothing, were every new rule
 * written. The export is not run, so a rule of a project without paths keeps its line, as the run would leave it; a
 * rule the export then writes in no file for another reason (a glob `AGENTS.md` cannot express) is shown going.
 */
export function previewReplace(top: string, plan: ImportPlan): ReplacePreview[] {
  const fresh = new Map(plan.candidates.filter((c) => c.status === 'new').map((c) => [c.n, `new-${c.n}`]));
  const pathless = new Set(plan.projects.filter((p) => p.paths.length === 0).map((p) => p.name));
  const gone = new Map<string, PlannedCandidate[]>();
  for (const { c } of movingRules(plan, fresh))
    if (c.scope.project === undefined || !pathless.has(c.scope.project)) gone.get(c.file)?.push(c) ?? gone.set(c.file, [c]);
  const scopeOf = fileScopes(plan);
  const made = projectsAfter(plan, fresh);
  const out: ReplacePreview[] = [];
  for (const f of plan.files) {
    const ranges = gone.get(f.file);
    if (ranges === undefined) continue;
    const text = readAsPlanned(top, f.file)?.text;
    if (text === undefined) continue;
    // The empty block the run puts in, which the export then fills.
    const { after, block } = replacedText(f, plan, scopeOf, made, text, ranges, beginMarker('0'.repeat(64)));
    out.push({
      file: f.file,
      removed: ranges.map((c) => c.line),
      block,
      before: text,
      after: !block && emptiedText(f, after) ? null : after,
    });
  }
  return out;
}

/**
 * The projects there are once the import wrote `written` (by candidate number): the store's, and each new one a rule
 * written went into. A folder's project the import leaves unmade (its every rule said already above) gets no block.
 */
function projectsAfter(plan: ImportPlan, written: ReadonlyMap<number, string>): Set<string> {
  const out = new Set(plan.projects.filter((p) => p.exists).map((p) => p.name));
  for (const c of plan.candidates) if (c.scope.project !== undefined && written.has(c.n)) out.add(c.scope.project);
  return out;
}

/** The scope's project of each source file's rules, as its first candidate has it. */
function fileScopes(plan: ImportPlan): Map<string, string | undefined> {
  const scopeOf = new Map<string, string | undefined>();
  for (const c of plan.candidates) if (!scopeOf.has(c.file)) scopeOf.set(c.file, c.scope.project);
  return scopeOf;
}

/**
 * What `--replace` leaves of the source file `f` (`text` as read): the lines of `ranges` taken out, a label over nested
 * rules ("- Testing:") with the last of them, and, where the export writes the file in place and it holds no block
 * yet, an empty block that `marker` begins, which the export fills.
 */
function replacedText(
  f: ImportFile,
  plan: ImportPlan,
  scopeOf: ReadonlyMap<string, string | undefined>,
  made: ReadonlySet<string>,
  text: string,
  ranges: readonly PlannedCandidate[],
  marker: string,
): { after: string; block: boolean } {
  const block =
    inPlaceTarget(f, plan, scopeOf.get(f.file), made) !== undefined && scanBlock(text).kind === 'none'
      ? `${marker}\n${END_MARKER}\n`
      : undefined;
  const labels = f.leftOut.filter((l) => l.reason === 'heading');
  return { after: removeLines(text, ranges, block, labels), block: block !== undefined };
}

/**
 * Whether `text`, what `--replace` left of the file `f`, says nothing of its own: a folder's AGENTS.md (CLAUDE.md,
 * GEMINI.md, not Ruler's .ruler/AGENTS.md) with only headings, or a rule file of a rules folder with only its front
 * matter, of the keys the import reads, and headings.
 */
function emptiedText(f: ImportFile, text: string): boolean {
  // Ruler's sources (.ruler/AGENTS.md among them) are no agent's file: Ruler joins every one of them into the files it
  // writes, so one left with headings governs no folder and is kept, as any other .ruler/*.md is.
  if (f.kind === 'ruler') return false;
  const cut = f.file.lastIndexOf('/');
  const folder = RULE_FOLDERS[f.kind];
  const ruleFile = folder !== undefined && `/${f.file}`.includes(`/${folder}/`);
  if (!ruleFile && (cut < 0 || !PER_FOLDER.has(f.file.slice(cut + 1)))) return false;
  if (scanBlock(text).kind !== 'none') return false;
  // A key of its front matter the import does not read (Copilot's `excludeAgent`) tells its agent what no invariant
  // carries: removed, it would be lost, and the export's file would apply its rules where the file kept them out.
  if (ruleFile && f.leftOut.some((l) => l.reason === 'front-matter-key')) return false;
  return onlyHeadings(ruleFile && f.noFrontMatter !== true ? text.slice(leadingFrontMatter(text)?.length ?? 0) : text);
}

/** What `--replace` changed: the lines taken out of each file, and the files the export then wrote. */
export interface ReplaceResult {
  files: { file: string; removed: number[]; block: boolean }[];
  /** Files left as they were: they changed since the plan read them, so its line numbers may name other lines. */
  changed: string[];
  /** Rules imported whose lines stay: the export of their file's target writes them nowhere (a project without paths…). */
  unexported: { file: string; line: number; target: ExportTargetName }[];
  /** The export's files it leaves alone (as `export` names them), whose rules' lines stay. */
  refused: { path: string; status: string; line: number | null }[];
  exported: string[];
  /** The export targets run for the changed files. */
  targets: ExportTargetName[];
  /** Those of them that export.targets in config.yaml does not list. */
  unlisted_targets: ExportTargetName[];
  /** Folders' AGENTS.md, CLAUDE.md or GEMINI.md left with nothing but headings, and removed (with the links beside them to them). */
  emptied: string[];
  /** Those of `emptied` that were links to one of them (a symbolic link, or a file saying only `@AGENTS.md`), which would lead nowhere. */
  emptied_links: EmptiedLink[];
  /** The export's warnings for the targets it ran, as `agents export` gives them. */
  warnings: string[];
}

/** A CLAUDE.md or GEMINI.md removed with the emptied file it led to, by a symbolic link or by `@` references alone. */
export interface EmptiedLink {
  file: string;
  to: string;
  link: 'symbolic' | 'reference';
}

/** The ids of the invariants each target's files hold (each entry ends with its id: "(`ID`)"). */
function exportedIds(plan: ExportPlan): { has(target: ExportTargetName, file: string, id: string): boolean } {
  const byTarget = new Map<ExportTargetName, Set<string>>();
  const byPath = new Map<string, Set<string>>();
  for (const change of plan.changes) {
    const ids = byTarget.get(change.target) ?? byTarget.set(change.target, new Set()).get(change.target)!;
    const own = new Set<string>();
    for (const id of exportedEntryIds(change.after ?? '')) {
      ids.add(id);
      own.add(id);
    }
    byPath.set(change.path, own);
  }
  // A target file kept as a link to another the export writes (CLAUDE.md → AGENTS.md) is not written itself: its agent
  // reads what the file it leads to holds.
  const linked = new Map(plan.linked.map((l) => [l.path, l.to]));
  return {
    has: (target, file, id) => {
      const to = linked.get(file);
      return to !== undefined ? (byPath.get(to)?.has(id) ?? false) : (byTarget.get(target)?.has(id) ?? false);
    },
  };
}

/** Whether `text` still holds each of the plan's rules on the lines the plan found it on. */
function sameRules(text: string, ranges: readonly PlannedCandidate[], how: { frontMatter: boolean; references: boolean }): boolean {
  const now = new Map(splitInstructions(text, how).candidates.map((c) => [c.line, c]));
  return ranges.every((c) => {
    const there = now.get(c.line);
    return there !== undefined && there.end_line === c.end_line && there.text === c.text;
  });
}

/** The export target whose block belongs in the file itself (AGENTS.md at the top or in a project's folder…), if any. */
function inPlaceTarget(
  f: ImportFile,
  plan: ImportPlan,
  project: string | undefined,
  made: ReadonlySet<string>,
): ExportTargetName | undefined {
  const roots: Record<string, ExportTargetName> = {
    'AGENTS.md': 'agents-md',
    'CLAUDE.md': 'claude-md',
    'GEMINI.md': 'gemini-md',
    '.github/copilot-instructions.md': 'copilot',
  };
  if (f.target.kind === 'global') return roots[f.file];
  if (f.target.kind !== 'project' || project === undefined || !made.has(project)) return undefined;
  const dir = f.file.slice(0, f.file.lastIndexOf('/'));
  const base = f.file.slice(f.file.lastIndexOf('/') + 1);
  const paths = plan.projects.find((p) => p.name === project)?.paths;
  const nested = roots[base];
  return nested !== undefined && nested !== 'copilot' && singleFolder(paths) === dir ? nested : undefined;
}

/** The export target that carries each kind's rules once they are out of their file. */
const TARGET_OF: Record<ImportKind, ExportTargetName> = {
  'agents-md': 'agents-md',
  ruler: 'agents-md',
  'claude-md': 'claude-md',
  'gemini-md': 'gemini-md',
  copilot: 'copilot',
  'copilot-instructions': 'copilot',
  cursor: 'cursor',
  cursorrules: 'cursor',
  windsurf: 'windsurf',
  windsurfrules: 'windsurf',
  clinerules: 'cline',
};
