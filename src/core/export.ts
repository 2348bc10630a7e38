/**
 * `agents export` as pure functions (docs/export.md): which files each target
 * gets, their front matter and their managed block (merging it into a file's
 * existing text: ./export-merge.ts). No IO: the service reads the store and the files,
 * and writes what these functions return.
 */
import { fenceOverBlock, lineOf, markerDamage, markerLines } from './export-markers.ts';
import { codeSpan, inlineText } from './export-text.ts';
import { describeShadows } from './export-entry-end.ts';
import { commaSeparatedGlobs, picomatchGlob, yamlScalar } from './export-front-matter.ts';
import { folderHolder, folderPattern, nestedFolder } from './globs.ts';
import { markdownText } from './plain-text.ts';
import type { EffectiveEntry } from './resolve.ts';
import { describeScope, frozenDeep, SEVERITIES, type ExportTargetName, type ProjectMeta, type Severity } from './model.ts';

// Written into the front matter of the targets below; kept here for the callers that format front matter too.
export { yamlScalar };
export { exportedEntryId, exportedEntryIds } from './export-entry-end.ts';

/** One part of a file: the invariants of the global scope, a project or a plan, with what they come with. */
export interface ExportSection {
  /** "Global", "Project billing", "Plan 01J…". */
  title: string;
  /** The scope the section is about, as describeScope says it: its own invariants are not labelled. */
  scope: string;
  /** Sentences said under the title (where the section applies, what else applies). */
  notes: string[];
  entries: readonly EffectiveEntry[];
  /** It says a waiver of an invariant the files export (a global one): said even without entries of its own. */
  waives?: true;
}

/**
 * Whether a section has anything to say: entries, or a waiver of an invariant the root file binds its files to, which
 * a project without invariants of its own must still say, or its agent would take the waived rule for one that holds.
 */
export function sectionSays(section: ExportSection): boolean {
  return section.entries.length > 0 || section.waives === true;
}

/** One file a target gets: its repository-relative path, front matter (YAML lines, no fences) and sections. */
export interface ExportFile {
  path: string;
  target: ExportTargetName;
  frontMatter: string[] | undefined;
  sections: ExportSection[];
}

/** A project to export: its name, metadata and effective set (project scope first, then global). */
export interface ExportProject {
  name: string;
  meta: ProjectMeta;
  entries: readonly EffectiveEntry[];
  /** Waivers that hold now for the project (its `waivers/`): said in its section, so no agent takes a waived rule for a lifted one or the other way round. */
  waivers?: readonly { invariant_id: string; expires: string; owner: string; reason: string }[];
}

/** The sentence a section says a waiver that holds for it with (`whose`: this project, this plan, project P). */
export function waiverNote(w: NonNullable<ExportProject['waivers']>[number], whose: string): string {
  return `\`${w.invariant_id}\` is waived for ${whose} until ${w.expires} (owner: ${markdownText(w.owner)}; ${markdownText(w.reason)}).`;
}

export interface ExportInput {
  targets: readonly ExportTargetName[];
  /** The global scope's effective set; undefined when only some projects are exported (--project). */
  global: readonly EffectiveEntry[] | undefined;
  /**
   * With `global` undefined (--project), the global set all the same: a project whose paths hold every file (`**`)
   * shares the root AGENTS.md with it, which must keep its global section.
   */
  sharedGlobal?: readonly EffectiveEntry[];
  projects: readonly ExportProject[];
  severities: readonly Severity[];
  /** Nested AGENTS.md / CLAUDE.md / GEMINI.md in projects' folders. */
  nested: boolean;
  /** The store folder relative to the repository top, for the notes (".agents"). */
  storeRel: string;
  /**
   * The repository's folders each path glob with wildcards in its folder
   * (`packages/*\/src/**`, see folderPattern) names: the nested files go in
   * each. A glob missing here names none.
   */
  folders?: ReadonlyMap<string, readonly string[]>;
}

/** What each target is, where its files go and what it reads (docs/export.md lists the documentation behind each). */
export interface TargetSpec {
  name: ExportTargetName;
  /** The file holding the global set. */
  root: string;
  /** Markdown files nested in folders (AGENTS.md, …): a project folder gets `<dir>/<nestedName>`. */
  nestedName?: string;
  /**
   * Some of its agents read only the nested file nearest to what they work on (docs/export.md): a folder's file holds
   * a section of every project whose paths hold the folder (`services/**` over `services/billing/`), not only of those
   * that name it, as such an agent is bound by each.
   */
  nearestOnly?: boolean;
  /** A file of its own per project with paths, with the globs in its front matter. */
  projectFile?: (project: string) => string;
  /** The folder holding those files, and how their names look (for finding files a removed project left). */
  projectDir?: string;
  projectFilePattern?: RegExp;
  rootFrontMatter?: string[];
  projectFrontMatter?: (project: string, meta: ProjectMeta) => string[];
  /** A file size the agent documents as its limit (characters). */
  maxChars?: number;
  /** The bytes an agent reads at most of this target's files together, and which agent and setting say so. */
  maxBytes?: { bytes: number; reader: string };
}

const agentFile = (project: string) => `agents-${project}`;

export const TARGETS: Readonly<Record<ExportTargetName, TargetSpec>> = frozenDeep({
  // Codex CLI reads the AGENTS.md files from the repository's top down to its folder, at most 32 KiB in all, and drops the rest unsaid
  // (the export's warning: service/export-limits.ts).
  'agents-md': {
    name: 'agents-md',
    root: 'AGENTS.md',
    nestedName: 'AGENTS.md',
    nearestOnly: true,
    maxBytes: { bytes: 32_768, reader: 'Codex CLI (project_doc_max_bytes)' },
  },
  'claude-md': { name: 'claude-md', root: 'CLAUDE.md', nestedName: 'CLAUDE.md' },
  'gemini-md': { name: 'gemini-md', root: 'GEMINI.md', nestedName: 'GEMINI.md' },
  copilot: {
    name: 'copilot',
    root: '.github/copilot-instructions.md',
    projectDir: '.github/instructions',
    projectFile: (p) => `.github/instructions/${agentFile(p)}.instructions.md`,
    projectFilePattern: /^agents-[a-z0-9][a-z0-9._-]*\.instructions\.md$/,
    projectFrontMatter: (p, meta) => [`applyTo: ${JSON.stringify(commaSeparatedGlobs('copilot', p, meta.paths ?? []))}`],
  },
  cursor: {
    name: 'cursor',
    root: '.cursor/rules/agents-global.mdc',
    rootFrontMatter: ['description: Invariants that apply everywhere in this repository (exported by agents)', 'alwaysApply: true'],
    projectDir: '.cursor/rules',
    projectFile: (p) => `.cursor/rules/${agentFile(p)}.mdc`,
    projectFilePattern: /^agents-[a-z0-9][a-z0-9._-]*\.mdc$/,
    projectFrontMatter: (p, meta) => [
      // Bare, as the root file's: a project's name is a plain scalar's words, and Cursor keeps quotes as written.
      `description: Invariants of project ${p} (exported by agents)`,
      `globs: ${commaSeparatedGlobs('cursor', p, meta.paths ?? [])}`,
      'alwaysApply: false',
    ],
  },
  windsurf: {
    name: 'windsurf',
    root: '.windsurf/rules/agents-global.md',
    rootFrontMatter: ['trigger: always_on'],
    projectDir: '.windsurf/rules',
    projectFile: (p) => `.windsurf/rules/${agentFile(p)}.md`,
    projectFilePattern: /^agents-[a-z0-9][a-z0-9._-]*\.md$/,
    projectFrontMatter: (p, meta) => ['trigger: glob', `globs: ${commaSeparatedGlobs('windsurf', p, meta.paths ?? [])}`],
    maxChars: 12_000,
  },
  cline: {
    name: 'cline',
    root: '.clinerules/agents-global.md',
    projectDir: '.clinerules',
    projectFile: (p) => `.clinerules/${agentFile(p)}.md`,
    projectFilePattern: /^agents-[a-z0-9][a-z0-9._-]*\.md$/,
    projectFrontMatter: (_p, meta) => ['paths:', ...(meta.paths ?? []).map((g) => `  - ${JSON.stringify(picomatchGlob(g))}`)],
  },
});

/** The files of an export, in path order. Projects without paths get none. */
export function planExport(input: ExportInput): ExportFile[] {
  const files = new Map<string, ExportFile>();
  const add = (f: ExportFile) => {
    const had = files.get(f.path);
    if (had) had.sections.push(...f.sections);
    else files.set(f.path, f);
  };
  const keep = (entries: readonly EffectiveEntry[]) => entries.filter((e) => input.severities.includes(e.invariant.severity));
  const globalNote = (spec: TargetSpec) =>
    `The global invariants (in ${spec.root}${spec.nestedName ? ' at the top of the repository' : ''}) apply here too.`;
  // Each set is filtered once and shared by every target's file (renderSections renders it once per RenderedEntries).
  const globalEntries = input.global !== undefined ? keep(input.global) : undefined;
  const sharedGlobal = input.global === undefined && input.sharedGlobal !== undefined ? keep(input.sharedGlobal) : undefined;
  // With no global invariant to export there is no root file for a project's section to send the agent to.
  const globalsHeld = (globalEntries ?? sharedGlobal)?.length !== 0;
  // A project's own invariants (its global ones are in the root file, which every agent reads as well).
  const own = new Map(input.projects.map((p) => [p.name, keep(p.entries.filter((e) => e.invariant.scope.kind === 'project'))]));
  // Each project's paths compiled once as the folders they hold, for the targets whose agents read the nearest file only.
  let holders: { name: string; holds: (dir: string) => boolean }[] | undefined;
  // No two targets write one path (their root, project and nested file names differ), so their order does not matter.
  for (const name of new Set(input.targets)) {
    const spec = TARGETS[name];
    const rootFile = (entries: readonly EffectiveEntry[]): ExportFile => ({
      path: spec.root,
      target: name,
      frontMatter: spec.rootFrontMatter ? [...spec.rootFrontMatter] : undefined,
      sections: [{ title: 'Global', scope: 'global', notes: ['These apply to every file of this repository.'], entries }],
    });
    if (globalEntries !== undefined) add(rootFile(globalEntries));
    // This target's nested files by folder, and each project's section in them.
    const nested = new Map<string, string>();
    const sectionOf = new Map<string, ExportSection>();
    for (const p of input.projects) {
      const paths = p.meta.paths;
      if (!paths || paths.length === 0) continue;
      const where = `These apply to files matching ${paths.map(codeSpan).join(', ')}.`;
      const waived = (p.waivers ?? []).map((w) => waiverNote(w, 'this project'));
      const exported = new Set(keep(p.entries).map((e) => e.invariant.id));
      const section: ExportSection = {
        title: `Project ${p.name}`,
        scope: `project ${p.name}`,
        notes: [where, ...(globalsHeld ? [globalNote(spec)] : []), ...waived],
        entries: own.get(p.name)!,
        ...((p.waivers ?? []).some((w) => exported.has(w.invariant_id)) ? { waives: true as const } : {}),
      };
      if (spec.nestedName) {
        if (!input.nested) continue;
        // Each folder the paths name gets the file; globs that are no folder cannot be said in a nested file (docs/export.md).
        for (const glob of paths) {
          const dir = nestedFolder(glob);
          for (const d of dir !== undefined ? [dir] : (input.folders?.get(glob) ?? [])) {
            const path = d === '' ? spec.nestedName : `${d}/${spec.nestedName}`;
            if (path === spec.root && sharedGlobal !== undefined && !files.has(path)) add(rootFile(sharedGlobal));
            add({ path, target: name, frontMatter: undefined, sections: [{ ...section }] });
            nested.set(path, d);
          }
        }
        sectionOf.set(p.name, section);
      } else {
        // Every target without nested files has a file of its own per project, with its front matter (TARGETS).
        add({ path: spec.projectFile!(p.name), target: name, frontMatter: spec.projectFrontMatter!(p.name, p.meta), sections: [section] });
      }
    }
    if (!spec.nearestOnly || nested.size === 0) continue;
    holders ??= input.projects.map((p) => ({ name: p.name, holds: folderHolder(p.meta.paths ?? []) }));
    for (const [path, d] of nested) {
      const f = files.get(path)!;
      // A folder whose own sections are empty gets no file: its agent reads the nearest one above, of those projects too.
      if (!f.sections.some(sectionSays)) continue;
      for (const h of holders) {
        const section = sectionOf.get(h.name);
        if (section !== undefined && h.holds(d) && !f.sections.some((sec) => sec.scope === section.scope)) f.sections.push({ ...section });
      }
    }
  }
  // Paths are unique (the keys of `files`); V8's sort only asks whether an answer is below zero.
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * The project globs a nested-file target cannot express, to say so: not
 * `DIR/**` (`folder` false), or a DIR with wildcards that names no folder of
 * the repository (`folder` true).
 */
export function unexpressedGlobs(
  projects: readonly ExportProject[],
  folders: ReadonlyMap<string, readonly string[]> = new Map(),
): { project: string; glob: string; folder: boolean }[] {
  const out: { project: string; glob: string; folder: boolean }[] = [];
  for (const p of projects)
    for (const g of p.meta.paths ?? []) {
      if (nestedFolder(g) !== undefined || (folders.get(g)?.length ?? 0) > 0) continue;
      out.push({ project: p.name, glob: g, folder: folderPattern(g) !== undefined });
    }
  return out;
}

const SEVERITY_HEADINGS: Record<Severity, string> = {
  error: 'Must (error): never break these',
  warning: 'Should (warning): follow these, and say so when you cannot',
  info: 'Note (info): keep these in mind',
};

/**
 * The severity groups of each set of entries already rendered, by scope: one
 * export run renders a set once for every file that shows it. The caller
 * makes one per run (no cache lives in this module).
 */
export type RenderedEntries = WeakMap<readonly EffectiveEntry[], Map<string, string>>;

export function newRenderedEntries(): RenderedEntries {
  return new WeakMap();
}

function renderEntries(entries: readonly EffectiveEntry[], scope: string, renderedEntries: RenderedEntries): string {
  let byScope = renderedEntries.get(entries);
  const hit = byScope?.get(scope);
  if (hit !== undefined) return hit;
  const lines: string[] = [];
  for (const severity of SEVERITIES) {
    const group = entries.filter((e) => e.invariant.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `#### ${SEVERITY_HEADINGS[severity]}`, '');
    for (const e of group) {
      const own = describeScope(e.invariant.scope);
      const label = own === scope ? '' : `${own}, `;
      lines.push(`- ${inlineText(e.invariant.text)} (${label}\`${e.invariant.id}\`${describeShadows(e)})`);
    }
  }
  const text = lines.join('\n');
  if (!byScope) renderedEntries.set(entries, (byScope = new Map()));
  byScope.set(scope, text);
  return text;
}

/** The markdown of sections (inside the managed block): `## Invariants`, a `###` per section, a `####` per severity. */
export function renderSections(
  sections: readonly ExportSection[],
  storeRel: string,
  /** Sets rendered before in this run (pass one per run to share them between files). */
  rendered: RenderedEntries = newRenderedEntries(),
): string {
  const lines: string[] = [
    '## Invariants',
    '',
    `Constraints on what you may do in this repository, kept as files in \`${storeRel}/\` and written here by \`agents export\`.`,
    'Each one ends with its id: `agents invariant show ID` tells where it comes from. Change them in the store, not here.',
  ];
  for (const section of sections) {
    lines.push('', `### ${section.title}`);
    if (section.notes.length > 0) lines.push('', section.notes.join(' '));
    if (section.entries.length === 0) {
      // A section that only says its waivers (sectionSays) has no list to stand for.
      if (section.waives !== true) lines.push('', '(none)');
      continue;
    }
    lines.push(renderEntries(section.entries, section.scope, rendered));
  }
  // A blank line after the begin marker and before the end marker: the Markdown prettier prints, so its --write changes nothing.
  return `\n${lines.join('\n')}\n\n`;
}

// ---------------------------------------------------------------- the managed block

export const BEGIN_PREFIX = '<!-- agents:begin';
export const END_MARKER = '<!-- agents:end -->';
// Blanks after the marker (an editor's, a formatter's) are no part of it: the hash is still there.
const BEGIN_RE = /^<!-- agents:begin .*\bsha256:([0-9a-f]{64}) -->[ \t]*$/;

/** The text a block's hash covers: the front matter (when the file has one) and the block's inside. */
export function hashedText(frontMatter: string | undefined, inner: string): string {
  return `${frontMatter ?? ''}\u0000${inner}`;
}

export function beginMarker(hash: string): string {
  return `${BEGIN_PREFIX} · generated by \`agents export\` from the invariant store; edit the store, not this block · sha256:${hash} -->`;
}

/** A file's front matter text (`---` lines included, and the blank line prettier prints after them), or undefined. */
export function frontMatterText(lines: readonly string[] | undefined): string | undefined {
  return lines ? `---\n${lines.join('\n')}\n---\n\n` : undefined;
}

/** Where the managed block of a file's text is, or why it cannot be found. */
export type BlockScan =
  | { kind: 'none' }
  /** `line`: the first marker line to repair (from 1). */
  | { kind: 'damaged'; why: string; line: number }
  | {
      kind: 'block';
      /** Offsets of the begin marker line's start and of the end marker line's end (after its newline, if any). */
      start: number;
      end: number;
      hash: string;
      inner: string;
      /** The file's front matter (`---` … `---\n`) when it starts with one. */
      frontMatter: string | undefined;
    };

export function leadingFrontMatter(text: string): string | undefined {
  // The blank line after it is part of it (frontMatterText writes one, as prettier prints front matter);
  // a byte order mark before it (an editor's) is not, and stays in front.
  const m = /^\ufeff?(---\r?\n[\s\S]*?\r?\n---\r?\n(?:\r?\n)?)/.exec(text);
  return m ? m[1] : undefined;
}

/** Whether a file holds agents markers (a block, or a damaged one) outside its owner's code fences. */
export function holdsBlock(text: string): boolean {
  return scanBlock(text).kind !== 'none';
}

/** The line of a code fence of the owner's, never closed, that the block stands in (readers take it for code), or undefined. */
export function blockFencedAt(text: string): number | undefined {
  return fenceOverBlock(text, BEGIN_PREFIX, END_MARKER);
}

/** Finds the one managed block of a file. */
export function scanBlock(text: string): BlockScan {
  const { begins, ends } = markerLines(text, BEGIN_PREFIX, END_MARKER);
  if (begins.length === 0 && ends.length === 0) return { kind: 'none' };
  const damage = markerDamage(text, begins, ends);
  if (damage) return { kind: 'damaged', ...damage };
  const start = begins[0]!;
  const endAt = ends[0]!;
  // The end marker starts a line after the begin marker's, so a line break follows the begin marker.
  const beginLineEnd = text.indexOf('\n', start);
  // The offsets are of the marker lines, whose markers may stand after up to three spaces (markerLines).
  const beginLine = text.slice(start, beginLineEnd).replace(/\r$/, '').trimStart();
  const m = BEGIN_RE.exec(beginLine);
  if (!m) return { kind: 'damaged', ...(TEXT_AFTER_BEGIN.test(beginLine) ? textAfterBegin : lostHash)(lineOf(text, start)) };
  const afterEnd = text.indexOf(END_MARKER, endAt) + END_MARKER.length;
  const end = text[afterEnd] === '\n' ? afterEnd + 1 : text.startsWith('\r\n', afterEnd) ? afterEnd + 2 : afterEnd;
  return { kind: 'block', start, end, hash: m[1]!, inner: text.slice(beginLineEnd + 1, endAt), frontMatter: leadingFrontMatter(text) };
}

const lostHash = (line: number) => ({ why: `its "agents:begin" marker (line ${line}) has lost its sha256`, line });
/** A whole begin marker with words after it on its line: the block, written anew from that line, would lose them. */
const TEXT_AFTER_BEGIN = /^<!-- agents:begin .*\bsha256:[0-9a-f]{64} -->[ \t]*\S/;
const textAfterBegin = (line: number) => ({
  why: `its "agents:begin" marker (line ${line}) has text after its "-->" (move it to a line of its own above the marker)`,
  line,
});
