import { readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AgentsError, UsageError } from '../core/errors.ts';
import { readUtf8 } from '../core/utf8.ts';
import { beginMarker, END_MARKER, hashedText, scanBlock } from '../core/export.ts';
import { singleFolder } from '../core/globs.ts';
import { removeLines } from '../core/import-replace.ts';
import { planImport, refuseOverlaps, type ImportFile, type ImportPlan, type PlannedCandidate } from '../core/import-plan.ts';
import { splitInstructions } from '../core/import-rules.ts';
import { appliesTo, importTarget, instructionKind, lenientFrontMatter, type ImportKind } from '../core/import-sources.ts';
import type { ExportTargetName, ScopedInvariant, Scope } from '../core/model.ts';
import { fileReferences, REFERENCING_KINDS, resolveReference } from '../core/import-references.ts';
import { mergeConflictMessage, mergeConflicts } from '../core/merge-conflict.ts';
import { nameProblem } from '../core/names.ts';
import { textKey } from '../core/normalise.ts';
import { MAX_FILE_BYTES, parseYaml } from '../core/parse-core.ts';
import { parseYamlDocument } from '../store/yaml-document.ts';
import { lsRepoFiles } from '../git/repo.ts';
import { repositoryTop, readProjects } from '../store/projects.ts';
import { readFolders, readStore } from '../store/read.ts';
import { loadConfig } from '../store/config.ts';
import { readRegularFile } from '../store/read-file.ts';
import { loadIdGenerator } from './deps.ts';
import { requireValid, type InvariantService } from './invariant-service.ts';
import type { ScopeService } from './scope-service.ts';

export interface ImportOptions {
  /** Files or folders (relative to `cwd`, or absolute) to import; none: every known instruction file of the repository. */
  paths?: readonly string[];
  /** Only these kinds of file. */
  from?: readonly ImportKind[];
  /** The project every file's rules go to, instead of the one derived from where the file applies. */
  project?: string;
  /** Every file's rules go to the global scope. */
  global?: boolean;
  cwd: string;
}

/** What an import wrote. */
export interface ImportWritten {
  invariants: { id: string; path: string; n: number }[];
  projects: string[];
  /** Candidates the invariant schema refused, with why: left out, the others written. */
  refused: { n: number; why: string }[];
}

/** Files staged between two turns of the event loop, at which a stop signal is taken. */
const STAGED_BETWEEN_SIGNALS = 200;

/** Folders never searched for instruction files when the store is not in a git repository. */
const NEVER_WALKED = new Set(['.git', 'node_modules', '.agents']);

/**
 * `agents import`: finds the repository's instruction files, splits them into
 * candidate invariants (core/import-rules.ts), places each where its file
 * applies (core/import-sources.ts), drops what is said twice or already held
 * (core/import-plan.ts), and writes what the user keeps.
 */
export class ImportService {
  constructor(
    readonly invariants: InvariantService,
    readonly scopes: ScopeService,
  ) {}

  get top(): string {
    return repositoryTop(this.invariants.root);
  }

  /** The plan of an import: nothing is written. */
  async plan(options: ImportOptions): Promise<ImportPlan> {
    if (options.project !== undefined) {
      const problem = nameProblem(options.project, 'project name');
      if (problem) throw new UsageError(problem, 'Give --project a name such as web or billing-api.');
    }
    const top = this.top;
    const all = await this.repositoryFiles(top);
    const found = await this.find(options, all);
    // The top and its real path once, not for each of a thousand files.
    if (options.global && options.project !== undefined)
      throw new UsageError('--global and --project cannot be combined', 'Choose where the rules go: every one global, or every one in P.');
    const place = {
      top,
      realTop: realpathSync.native(top),
      repository: new Set(all),
    };
    const where = { project: options.project, global: options.global ?? false };
    let files = await Promise.all(found.map((f) => this.readFile(f.rel, f.kind, where, place)));
    // What the agents are told to read too, and this import does not: named, so that no rule is left behind unsaid.
    const reading = new Set(found.map((f) => f.rel));
    files = files.map((f) => (f.references ? { ...f, references: f.references.filter((r) => !reading.has(r.path)) } : f));
    const source = this.invariants.source;
    const [snap, projects, inherited, config] = await Promise.all([
      readStore(source),
      readProjects(source),
      this.invariants.inherited(),
      loadConfig(source),
    ]);
    requireValid(snap, 'import');
    if (!config.projects.allow_overlap) files = refuseOverlaps(files, projects.meta, projects.names, all);
    const store = [...snap.invariants.filter((i) => i.scope.kind === 'global' || i.scope.kind === 'project'), ...inherited];
    return planImport(files, store, projects.meta, projects.names);
  }

  /** The files to read: those named, or every known kind in the repository. */
  private async find(options: ImportOptions, all: readonly string[]): Promise<{ rel: string; kind: ImportKind }[]> {
    const top = this.top;
    const wanted = (kind: ImportKind | undefined) => kind !== undefined && (options.from === undefined || options.from.includes(kind));
    if (options.paths === undefined || options.paths.length === 0) {
      return all.flatMap((rel) => {
        const kind = instructionKind(rel);
        return wanted(kind) ? [{ rel, kind: kind! }] : [];
      });
    }
    const out: { rel: string; kind: ImportKind }[] = [];
    for (const given of options.paths) {
      const abs = isAbsolute(given) ? given : resolve(options.cwd, given);
      const rel = relative(top, abs).split(sep).join('/');
      if (rel.startsWith('..') || isAbsolute(rel)) {
        throw new UsageError(`${given} is outside the repository (${top})`, 'Name files or folders inside the repository.');
      }
      const below = all.filter((f) => rel === '' || f.startsWith(`${rel}/`));
      if (below.length > 0 && !all.includes(rel)) {
        for (const f of below) {
          const kind = instructionKind(f);
          if (wanted(kind)) out.push({ rel: f, kind: kind! });
        }
        continue;
      }
      if (!all.includes(rel)) {
        // Not among the repository's files: say what it is rather than call it a file of no known kind.
        let stat: Stats | undefined;
        try {
          stat = statSync(abs);
        } catch {
          stat = undefined;
        }
        if (stat === undefined) throw new UsageError(`${given} does not exist`, 'Name files or folders inside the repository.');
        if (stat.isDirectory())
          throw new UsageError(
            `${given} holds no instruction file: it is empty, or git ignores what it holds`,
            `Name the file to import itself: agents import ${given.replace(/[/\\]+$/, '')}/AGENTS.md (add --from KIND for a name of no known kind).`,
          );
      }
      const kind = instructionKind(rel) ?? (options.from?.length === 1 ? options.from[0] : undefined);
      if (kind === undefined) {
        throw new UsageError(
          `${given} is not an instruction file agents knows (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot, Cursor, Windsurf, Cline or ruler rules)`,
          'Say which kind it is with --from (for example --from agents-md), or name a folder to search.',
        );
      }
      out.push({ rel, kind });
    }
    return out;
  }

  /** Every file of the repository (git's list when there is one, so ignored files stay out), repository-relative. */
  private async repositoryFiles(top: string): Promise<string[]> {
    try {
      return (await lsRepoFiles(top, true)).sort();
    } catch {
      const out: string[] = [];
      const walk = (dir: string) => {
        for (const e of readdirSync(join(top, dir), { withFileTypes: true })) {
          const rel = dir === '' ? e.name : `${dir}/${e.name}`;
          if (e.isDirectory() && !NEVER_WALKED.has(e.name)) walk(rel);
          else if (!e.isDirectory()) out.push(rel);
        }
      };
      walk('');
      return out.sort();
    }
  }

  /** One file, read and split, or skipped with the reason (never a throw: one bad file does not stop the rest). */
  private async readFile(
    rel: string,
    kind: ImportKind,
    where: { project: string | undefined; global: boolean },
    { top, realTop, repository }: { top: string; realTop: string; repository: ReadonlySet<string> },
  ): Promise<ImportFile> {
    const file: ImportFile = { file: rel, kind, target: { kind: 'global' }, candidates: [], leftOut: [] };
    const abs = join(top, rel);
    let real: string;
    try {
      // The C library's realpath: the JS one costs a lstat and a string per folder of the path, for each file.
      real = realpathSync.native(abs);
    } catch {
      return { ...file, skipped: 'it does not exist' };
    }
    if (real !== realTop && !real.startsWith(`${realTop}${sep}`)) {
      return { ...file, skipped: `it is a symbolic link to ${real}, outside the repository` };
    }
    const r = readRegularFile(real, MAX_FILE_BYTES, { followLinks: true });
    if (!r.ok) return { ...file, skipped: r.code === 'too-large' ? `it is larger than ${MAX_FILE_BYTES} bytes` : `it ${r.message}` };
    const bytes = r.bytes;
    if (bytes.includes(0)) return { ...file, skipped: 'it is a binary file' };
    const read = readUtf8(bytes, { dropBom: true });
    if (!read.ok) return { ...file, skipped: `it is not UTF-8 text (line ${read.line}, column ${read.col})` };
    const text = read.text;
    // Both sides of a conflicted merge, and git's marker lines, would become rules.
    const conflict = mergeConflicts(text);
    if (conflict !== null) return { ...file, skipped: `it holds an ${mergeConflictMessage(conflict)}: resolve it first` };
    const split = splitInstructions(text);
    let front: Record<string, unknown> | undefined;
    if (split.frontMatter !== undefined) {
      const parsed = await parseFrontMatter(rel, split.frontMatter);
      if (typeof parsed === 'string') return { ...file, skipped: parsed };
      front = parsed;
    }
    const out: ImportFile = {
      ...file,
      target: importTarget(rel, kind, appliesTo(kind, front), where.project, where.global),
      candidates: split.candidates,
      leftOut: split.leftOut,
    };
    if (REFERENCING_KINDS.includes(kind)) {
      const references: { line: number; path: string }[] = [];
      for (const { line, ref } of fileReferences(text)) {
        const path = resolveReference(ref, rel, top);
        if (path !== undefined && path !== rel && repository.has(path) && !references.some((r) => r.path === path))
          references.push({ line, path });
      }
      if (references.length > 0) out.references = references;
    }
    return out;
  }

  /**
   * Writes the chosen candidates as one change: each new project's folder
   * (project.yaml with the paths its files apply to) with its invariants,
   * and the invariants of the scopes that exist, under the locks of those
   * scopes, put in place together by one batch (one flush of the file system,
   * not one per file), or not at all when a write fails. A text a scope came
   * to hold meanwhile is left out, as `add` refuses it. When `signal` is
   * aborted while the files are being staged, the batch's temporaries are
   * removed and its reason thrown: nothing was written.
   */
  async apply(plan: ImportPlan, chosen: readonly PlannedCandidate[], options: { signal?: AbortSignal } = {}): Promise<ImportWritten> {
    const { signal } = options;
    const written: ImportWritten = { invariants: [], projects: [], refused: [] };
    const needed = new Set(chosen.filter((c) => c.scope.kind === 'project').map((c) => c.scope.project!));
    const creating = plan.projects.filter((p) => !p.exists && needed.has(p.name));
    const made = await this.scopes.newProjects(
      creating.map((p) => ({ project: p.name, ...(p.paths.length > 0 ? { paths: p.paths } : {}) })),
    );
    const [{ checkInvariantDraft, formatInvariantFile }, { CreateBatch }, { withFolderLocks }] = await Promise.all([
      import('../core/serialize.ts'),
      import('../store/create-batch.ts'),
      import('../store/lock.ts'),
      loadIdGenerator(),
    ]);
    const { deps, root, source } = this.invariants;
    /** Why a refused rule is refused, said of its scope: the file named in the first refusal is never written. */
    const draftRefusal = (folder: string, inv: ScopedInvariant): string | undefined => {
      try {
        checkInvariantDraft(folder, inv);
      } catch (error) {
        if (error instanceof AgentsError) return error.message;
        throw error;
      }
      return undefined;
    };
    const author = await deps.author(root);
    const now = deps
      .clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const groups = new Map<string, { scope: Scope; items: PlannedCandidate[] }>();
    for (const c of chosen) {
      const scope: Scope = c.scope.kind === 'global' ? { kind: 'global' } : { kind: 'project', project: c.scope.project! };
      const folder = scope.kind === 'global' ? 'global' : `projects/${scope.project}`;
      const g = groups.get(folder) ?? { scope, items: [] };
      g.items.push(c);
      groups.set(folder, g);
    }
    const newFolder = new Map(made.map((m) => [m.folder, m]));
    // The scopes that exist are locked (all of them, for the whole import); a new project's folder appears whole, by one rename.
    const existing = [...groups.keys()].filter((f) => !newFolder.has(f));
    await withFolderLocks(
      root,
      existing,
      async () => {
        const here = await readFolders(source, existing);
        for (const folder of existing) {
          const invalid = here.diagnostics.filter((d) => d.file === folder || d.file.startsWith(`${folder}/`));
          requireValid({ ...here, diagnostics: invalid }, `import into ${folder}`);
        }
        requireValid(here, 'import');
        const held = new Map<string, Set<string>>();
        for (const inv of here.invariants) {
          const folder = inv.path.slice(0, inv.path.lastIndexOf('/'));
          const keys = held.get(folder) ?? new Set<string>();
          keys.add(textKey(inv.text));
          held.set(folder, keys);
        }
        // Each scope's files are staged as soon as they are made, so their texts are not all held at once.
        const batch = new CreateBatch(root);
        // Staging thousands of files takes seconds: now and then the signals are let in, and an abort stops the import.
        let staged = 0;
        const letSignalsIn = async (files: number) => {
          staged += files;
          if (signal === undefined || staged < STAGED_BETWEEN_SIGNALS) return;
          staged = 0;
          await new Promise((resolve) => setImmediate(resolve));
          signal.throwIfAborted();
        };
        try {
          for (const [folder, { scope, items }] of groups) {
            const keys = held.get(folder) ?? new Set<string>();
            const mine: { name: string; content: string }[] = [];
            for (const c of items) {
              const key = textKey(c.text);
              if (keys.has(key)) continue;
              keys.add(key);
              const id = deps.newId();
              const inv: ScopedInvariant = {
                id,
                text: c.text,
                severity: c.severity,
                active: true,
                tags: c.tags,
                created_at: now,
                scope,
                path: `${folder}/${id}.yaml`,
                imported_from: { file: c.file, line: c.line },
              };
              if (author !== undefined) inv.created_by = author;
              let content: string;
              try {
                content = formatInvariantFile(inv.path, inv);
              } catch (error) {
                // A rule the schema refuses (hidden characters, say) is reported, and the others are written.
                if (!(error instanceof AgentsError)) throw error;
                written.refused.push({ n: c.n, why: draftRefusal(folder, inv) ?? error.message });
                continue;
              }
              mine.push({ name: `${id}.yaml`, content });
              written.invariants.push({ id, path: inv.path, n: c.n });
            }
            const project = newFolder.get(folder);
            if (project) {
              batch.folder(folder, [project.file, ...mine]);
              await letSignalsIn(mine.length + 1);
            } else
              for (const f of mine) {
                batch.file(`${folder}/${f.name}`, f.content);
                await letSignalsIn(1);
              }
          }
          signal?.throwIfAborted();
        } catch (error) {
          batch.discard();
          throw error;
        }
        batch.commit();
      },
      { onStale: deps.notice },
    );
    written.projects = made.map((m) => m.project);
    return written;
  }

  /**
   * `--replace`: removes from each source file the lines of the rules now in
   * the store (imported, or held already), puts an empty managed block where
   * the first of them stood when the file is an export target's own, then
   * runs `agents export` for the targets of the files it changed, which fills
   * the blocks. A rule that is one sentence of a longer paragraph stays (its
   * line says more than the rule).
   */
  async replace(plan: ImportPlan, written: ImportWritten): Promise<ReplaceResult> {
    const done = new Set(written.invariants.map((w) => w.n));
    // A copy's line goes only when the copy it repeats is in the store now: one dropped in the review, or one the
    // schema refused, leaves its copies where they are, else the rule would be gone from both the files and the store.
    const at = new Map(plan.candidates.map((c) => [`${c.file}\n${c.line}`, c]));
    const stored = (c: PlannedCandidate): boolean => {
      if (c.status === 'exists' || done.has(c.n)) return true;
      if (c.status !== 'duplicate' || c.same_as === undefined || !('file' in c.same_as)) return false;
      const first = at.get(`${c.same_as.file}\n${c.same_as.line}`);
      return first !== undefined && (first.status === 'exists' || done.has(first.n));
    };
    const gone = plan.candidates.filter((c) => c.whole && stored(c));
    const top = this.top;
    const result: ReplaceResult = { files: [], changed: [], exported: [], targets: [], unlisted_targets: [] };
    const targets = new Set<ExportTargetName>();
    // The exporter (its targets, cache and writers) loads only for --replace: a dry run or a plain import never uses it.
    const [{ writeFileAtomic }, { ExportService, sha256 }] = await Promise.all([
      import('../store/atomic-write.ts'),
      import('./export-service.ts'),
    ]);
    for (const f of plan.files) {
      const ranges = gone.filter((c) => c.file === f.file);
      if (ranges.length === 0) continue;
      const r = readRegularFile(join(top, f.file), MAX_FILE_BYTES);
      // Read as the plan read it (a byte order mark apart, which is put back in front): every other byte is kept.
      const read = r.ok ? readUtf8(r.bytes, { dropBom: true }) : undefined;
      // The lines to remove are the plan's: a file edited since (during the review, say) keeps every line.
      if (!r.ok || !read?.ok || !sameRules(read.text, ranges)) {
        result.changed.push(f.file);
        continue;
      }
      const text = read.text;
      const bom = r.bytes[0] === 0xef && r.bytes[1] === 0xbb && r.bytes[2] === 0xbf ? '\uFEFF' : '';
      const project = plan.candidates.find((c) => c.file === f.file)?.scope.project;
      const target = inPlaceTarget(f, plan, project);
      const block =
        target !== undefined && scanBlock(text).kind === 'none'
          ? `${beginMarker(sha256(hashedText(undefined, '')))}\n${END_MARKER}\n`
          : undefined;
      // A label over nested rules ("- Testing:") goes with the last of them.
      const labels = f.leftOut.filter((l) => l.reason === 'heading').map((l) => l.line);
      writeFileAtomic(top, f.file, bom + removeLines(text, ranges, block, labels), 'replace');
      targets.add(TARGET_OF[f.kind]);
      result.files.push({ file: f.file, removed: ranges.map((c) => c.line), block: block !== undefined });
    }
    if (targets.size > 0) {
      const exporter = new ExportService(this.invariants);
      const planned = await exporter.plan({ targets: [...targets] });
      result.exported = exporter.apply(planned).map((c) => c.path);
      result.targets = [...targets].sort();
      // The moved rules now reach agents only through the export: a target config.yaml does not list is one
      // that `agents export` and `export --check` (the pre-commit hook) would leave out.
      result.unlisted_targets = result.targets.filter((t) => !planned.listed.includes(t));
    }
    return result;
  }
}

/** What `--replace` changed: the lines taken out of each file, and the files the export then wrote. */
export interface ReplaceResult {
  files: { file: string; removed: number[]; block: boolean }[];
  /** Files left as they were: they changed since the plan read them, so its line numbers may name other lines. */
  changed: string[];
  exported: string[];
  /** The export targets run for the changed files. */
  targets: ExportTargetName[];
  /** Those of them that export.targets in config.yaml does not list. */
  unlisted_targets: ExportTargetName[];
}

/** Whether `text` still holds each of the plan's rules on the lines the plan found it on. */
function sameRules(text: string, ranges: readonly PlannedCandidate[]): boolean {
  const now = new Map(splitInstructions(text).candidates.map((c) => [c.line, c]));
  return ranges.every((c) => {
    const there = now.get(c.line);
    return there !== undefined && there.end_line === c.end_line && there.text === c.text;
  });
}

/** The export target whose block belongs in the file itself (AGENTS.md at the top or in a project's folder…), if any. */
function inPlaceTarget(f: ImportFile, plan: ImportPlan, project: string | undefined): ExportTargetName | undefined {
  const roots: Record<string, ExportTargetName> = {
    'AGENTS.md': 'agents-md',
    'CLAUDE.md': 'claude-md',
    'GEMINI.md': 'gemini-md',
    '.github/copilot-instructions.md': 'copilot',
  };
  if (f.target.kind === 'global') return roots[f.file];
  if (f.target.kind !== 'project' || project === undefined) return undefined;
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

/** The front matter as a map, or why it cannot be read (file:line:col, counted in the file). */
async function parseFrontMatter(rel: string, text: string): Promise<Record<string, unknown> | string> {
  const bytes = new TextEncoder().encode(text);
  const parsed = await parseYamlDocument((syntax) => parseYaml(rel, bytes, syntax));
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  if (error || !parsed.value) {
    const lenient = lenientFrontMatter(text);
    if (lenient) return lenient;
    // The front matter starts on the file's second line.
    const at = error ? `${rel}:${error.line + 1}:${error.col}` : rel;
    return `its front matter is not valid YAML (${at}: ${error?.message ?? 'unreadable'})`;
  }
  const data = parsed.value.data;
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) return `its front matter is not a map of keys (${rel}:2:1)`;
  return data as Record<string, unknown>;
}
