import { unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { crlf } from '../core/file-style.ts';
import { throwIfCancelled, UsageError } from '../core/errors.ts';
import { chooseTargets, droppedTargets } from '../core/export-choice.ts';
import { renderStandalone, standaloneSection } from '../core/export-standalone.ts';
import { optionalSignal, requiredString } from '../core/input-shape.ts';
import { intoStore } from '../core/globs.ts';
import { storeFolderOf } from '../store/git-dir.ts';
import { checkedExportOptions, checkPlanShape, type ExportOptions } from './export-options.ts';
import { TARGETS, planExport, unexpressedGlobs, type ExportFile, type ExportProject } from '../core/export.ts';
import type { ScopedInvariant, StoreConfig } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { quoteText } from '../core/plain-text.ts';
import { waiverExpiry, waiverFolder, waiversInSet } from '../core/waivers.ts';
import { resolveEffective } from '../core/resolve.ts';
import { loadConfig } from '../store/config.ts';
import { readProjects, repositoryTop, type ProjectsRead } from '../store/projects.ts';
import { type ExportCache, inputDigest } from '../store/export-cache.ts';
import { readFolders } from '../store/read.ts';
import { failedPartWay, writeFailure, writeFileAtomic } from '../store/atomic-write.ts';
import { requireInvariantService, requireValid, toScope, type InvariantService } from './invariant-service.ts';
import {
  checkWritable,
  crlfTargets,
  ignoredTargets,
  type FileChange,
  placedAt,
  placedPathError,
  checkUnchanged,
  type Refusal,
} from './export-targets.ts';
import { planFiles, sha256 } from './export-changes.ts';
import { agentsMdBudgetWarnings } from './export-limits.ts';
import { obsoleteFiles } from './export-obsolete.ts';
import { nestedFolderInputs } from './export-sharing.ts';
import { removeStaleTemps } from '../store/stale-temps.ts';
import { optionWords } from './option-words.ts';
import { planFromCache, rememberPlan, strayNestedBlock } from './export-remembered.ts';
import type { ExportPlan, WatchedFile } from './export-plan.ts';

/** Where an export may keep what it knew (see store/export-cache.ts), and the build it belongs to. @internal */
export interface ExportCacheOptions {
  cache: ExportCache;
  build: string;
}

export type { FileChange, Refusal };
export type { ExportPlan };
export type { ExportOptions };

/** Global invariants' effective set: every global invariant applies to any project, so a name no project has will do. */
function globalSet(invariants: readonly ScopedInvariant[], keyOf: (inv: ScopedInvariant) => string) {
  return resolveEffective(
    { kind: 'project', project: '' },
    invariants.filter((i) => i.scope.kind === 'global' || i.scope.kind === 'inherited'),
    keyOf,
  );
}

/**
 * `agents export` (docs/export.md): renders effective sets into each
 * target's instruction files, inside a managed block, keeping everything
 * around the block byte for byte.
 */
export class ExportService {
  private readonly service: InvariantService;

  /** The command line's: where its export keeps what it knew. @internal */
  constructor(service: InvariantService, caching: ExportCacheOptions | undefined);
  constructor(service: InvariantService);
  constructor(
    service: InvariantService,
    private readonly caching?: ExportCacheOptions,
  ) {
    this.service = requireInvariantService(service, 'ExportService');
  }

  /** The repository top the exported paths are relative to. */
  get top(): string {
    return repositoryTop(this.service.root);
  }

  private storeRel(): string {
    return relative(this.top, this.service.root).split('\\').join('/') || '.';
  }

  private async settings(): Promise<StoreConfig> {
    return loadConfig(this.service.source);
  }

  private async projects(names?: readonly string[]): Promise<ProjectsRead> {
    const read = await readProjects(this.service.source, names);
    const bad = read.diagnostics.find((d) => d.code === 'project-path-invalid');
    if (bad) {
      // A path glob that leaves the repository is bad input to export: one line, exit 2.
      throw new UsageError(
        `${bad.file}:${bad.line}:${bad.col}: ${bad.message}`,
        'Paths are globs relative to the top of the repository (e.g. services/billing/**); nothing was written.',
      );
    }
    requireValid({ diagnostics: read.diagnostics } as never, "read the projects' project.yaml");
    // A store elsewhere than .agents/ (--store config/agents), which the glob rules cannot know: a glob whose folder is
    // in it would have the export write AGENTS.md into the store, refused as one into .agents/ is. Its folder as the
    // repository holds it (storeFolderOf), also when --store named it through a link.
    const store = storeFolderOf(this.service.root) ?? '';
    for (const [name, meta] of read.meta)
      for (const [i, glob] of (meta.paths ?? []).entries()) {
        const problem = intoStore(glob, store);
        if (problem === undefined) continue;
        throw await placedAt(
          this.service.source,
          name,
          i,
          new UsageError(
            `paths.${i} ${JSON.stringify(glob)} ${problem}`,
            'Paths are globs relative to the top of the repository (e.g. services/billing/**); nothing was written.',
          ),
        );
      }
    return read;
  }

  /** What an export would write, changing nothing. */
  plan(given: ExportOptions = {}): Promise<ExportPlan> {
    return this.service.inRun(() => this.#plan(given));
  }

  /** plan's work, run in the environment open() was given (inRun). */
  async #plan(given: ExportOptions = {}): Promise<ExportPlan> {
    const options = checkedExportOptions(given);
    const config = await this.settings();
    const words = optionWords(this.service.optionWords);
    const targets = chooseTargets(options.targets, config, words.targets);
    const otherwise = `or ${words.withoutTarget}`;
    const listed = [...(config.export.targets ?? [])];
    const top = this.top;
    const storeRel = this.storeRel();
    let projects: ProjectsRead;
    if (options.project !== undefined) {
      const scope = toScope({ project: options.project });
      const name = scope.kind === 'project' ? scope.project : options.project;
      projects = await this.projects([name]);
      if (!projects.meta.has(name)) {
        // A project that does not exist is named with the closest ones (code unknown-project), as every reader says it.
        await this.service.requireProject(name, { writing: true });
        throw new UsageError(
          `project ${name} has no project.yaml, so it has no paths to export to`,
          `Create projects/${name}/project.yaml with paths (e.g. paths: [services/${name}/**]); nothing was written.`,
        );
      }
      if (!projects.meta.get(name)!.paths) {
        throw new UsageError(
          `project ${name} has no paths in projects/${name}/project.yaml`,
          `Add paths (e.g. paths: [services/${name}/**]); nothing was written.`,
        );
      }
    } else {
      projects = await this.projects();
    }
    const withPaths = projects.names.filter((n) => (projects.meta.get(n)?.paths?.length ?? 0) > 0);
    const nested = config.export.nested && targets.some((t) => TARGETS[t].nestedName);
    // One project's export writes its nested files whole: the other projects' sections in them are read too.
    const only = withPaths.length === 1 && options.project !== undefined ? withPaths[0] : undefined;
    const { sharing, named } = await nestedFolderInputs(this.service.source, { top, storeRel, nested }, projects.meta, withPaths, only);
    for (const [n, m] of sharing) projects.meta.set(n, m);
    // In name order, as a whole export has them: a shared file's sections must come in the same order from either.
    withPaths.push(...sharing.keys());
    withPaths.sort();
    let digest: string | undefined;
    let cacheKey: string | undefined;
    if (this.caching) {
      // The folders a wildcard path names are an input too: a new package is a nested file to write.
      const extra = JSON.stringify({
        build: this.caching.build,
        targets,
        project: options.project ?? null,
        store: storeRel,
        ...(named.size > 0 ? { folders: [...named] } : {}),
      });
      digest = await inputDigest(
        this.service.source,
        // The waivers a project's section says are read too (waiversOf, below): a new, edited or removed one changes the files.
        ['global', ...withPaths.flatMap((n) => [`projects/${n}`, waiverFolder({ kind: 'project', project: n })])],
        // The lock pins the policy sources' commits: their invariants change only with it (docs/extends.md).
        ['config.yaml', 'extends.lock.yaml', ...projects.names.map((n) => `projects/${n}/project.yaml`)],
        extra,
      );
      cacheKey = JSON.stringify({ targets, project: options.project ?? null });
      const now = this.service.deps.clock().getTime();
      const whole = options.project === undefined;
      const hit =
        digest !== undefined ? planFromCache(this.caching.cache, { key: cacheKey, digest, now, top, targets, listed, whole }) : undefined;
      if (hit && !(whole && (await strayNestedBlock(hit, storeRel)))) return hit;
    }
    // Only the scopes the files need: global, and the projects that have paths.
    const snap = await readFolders(this.service.source, ['global', ...withPaths.map((n) => `projects/${n}`)]);
    requireValid(snap, 'export the effective sets');
    const byProject = new Map<string, ScopedInvariant[]>();
    const globals: ScopedInvariant[] = [];
    for (const inv of snap.invariants) {
      if (inv.scope.kind === 'global') globals.push(inv);
      else if (inv.scope.kind === 'project') {
        const list = byProject.get(inv.scope.project);
        if (list) list.push(inv);
        else byProject.set(inv.scope.project, [inv]);
      }
    }
    // Inherited invariants (docs/extends.md) take part in every project's resolution, below the global ones.
    globals.push(...(await this.service.inherited()));
    // Each text key computed once: the global invariants take part in every project's resolution.
    const keys = new Map<ScopedInvariant, string>();
    const keyOf = (inv: ScopedInvariant) => {
      let k = keys.get(inv);
      if (k === undefined) keys.set(inv, (k = textKey(inv.text)));
      return k;
    };
    const exportProjects: ExportProject[] = [];
    let until = Number.POSITIVE_INFINITY;
    for (const name of withPaths) {
      // Waivers that hold now are said in the project's section (docs/export.md); none read for a project without a waivers/ folder.
      const entries = resolveEffective({ kind: 'project', project: name }, [...(byProject.get(name) ?? []), ...globals], keyOf);
      let waivers = waiversInSet(
        (await this.service.waiversOf({ kind: 'project', project: name }, snap.entries)).filter((w) => w.holds),
        entries,
        undefined,
      );
      if (waivers.length > 0 && globals.some((i) => i.locked)) {
        // A waiver of a locked text never counts (docs/extends.md, "Floors"): the files do not say it holds, as no listing does.
        const { countingWaivers } = await import('./floors.ts');
        waivers = await countingWaivers(
          this.service.root,
          this.service.source,
          waivers,
          entries.map((e) => e.invariant),
        );
      }
      for (const w of waivers) until = Math.min(until, waiverExpiry(w.expires));
      exportProjects.push({ name, meta: projects.meta.get(name)!, entries, ...(waivers.length > 0 ? { waivers } : {}) });
    }
    let files: ExportFile[];
    try {
      files = planExport({
        targets,
        global: options.project === undefined ? globalSet(globals, keyOf) : undefined,
        ...(options.project !== undefined ? { sharedGlobal: globalSet(globals, keyOf) } : {}),
        projects: exportProjects,
        severities: config.export.severities,
        nested: config.export.nested,
        storeRel,
        folders: named,
      });
    } catch (error) {
      throw await placedPathError(this.service.source, error);
    }
    // The files of the projects read for their sections in a shared file are not this export's to write.
    if (only !== undefined) files = files.filter((f) => f.sections.some((sec) => sec.scope === `project ${only}`));
    const out: ExportPlan = {
      top,
      targets,
      listed,
      changes: [],
      refused: [],
      warnings: [],
      linked: [],
      ...(digest !== undefined && cacheKey !== undefined ? { digest, cacheKey } : {}),
      ...(Number.isFinite(until) ? { until } : {}),
    };
    if (nested) {
      for (const { project, glob, folder } of unexpressedGlobs(exportProjects, named)) {
        out.warnings.push(
          folder
            ? `project ${project}: path ${glob} names no folder of the repository, so no AGENTS.md, CLAUDE.md or GEMINI.md scopes it yet; targets with globs (copilot, cursor, windsurf, cline) do`
            : `project ${project}: path ${glob} is not a folder (DIR/**), so AGENTS.md, CLAUDE.md and GEMINI.md cannot scope it; targets with globs (copilot, cursor, windsurf, cline) do`,
        );
      }
    }
    const { planned, folders } = await planFiles(out, files, {
      top,
      storeRel,
      force: options.force ?? false,
      otherwise,
      onProgress: options.onProgress,
    });
    const created = out.changes.filter((c) => c.action === 'create');
    const made = created.map((c) => c.path);
    const [ignored, crlfFiles] = await Promise.all([ignoredTargets(top, made), crlfTargets(top, made)]);
    // A new file gets the line ends git checks it out with, as a file there already keeps its own (mergeBlock).
    for (const c of created) if (crlfFiles.has(c.path)) c.after = crlf(c.after!);
    // Said of the files this run creates (once made, they are no longer created), so never said again from the cache.
    const once = new Set<string>();
    for (const i of ignored) {
      const w = `${i.path} is ignored by git (${i.rule}): it is never committed, so \`agents export --check\` in a fresh clone (CI) calls it missing; remove that rule, or leave ${created.find((c) => c.path === i.path)?.target} out of the targets`;
      out.warnings.push(w);
      once.add(w);
    }
    const watchedFiles: WatchedFile[] = [];
    const budget = TARGETS['agents-md'].maxBytes;
    if (budget !== undefined && targets.includes('agents-md')) {
      const b = agentsMdBudgetWarnings(top, out.changes, budget.bytes, budget.reader);
      out.warnings.push(...b.warnings);
      watchedFiles.push(...b.watched);
    }
    // A whole export also clears what it wrote for projects that no longer name those files (only files holding an agents block).
    if (options.project === undefined) {
      // Targets config.yaml stopped listing, whose blocks go too (with no list, each run's --target is all there is:
      // nothing is dropped).
      const dropped = droppedTargets(targets, listed);
      const obsolete = await obsoleteFiles(top, storeRel, targets, planned, folders, sha256, options.force ?? false, dropped, otherwise);
      out.changes.push(...obsolete.changes);
      out.refused.push(...obsolete.refused);
    }
    if (digest !== undefined) out.replay = { warnings: out.warnings.filter((w) => !once.has(w)), watched: watchedFiles };
    out.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    out.refused.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out;
  }

  /** Keeps what a plan found (every file up to date, or just written) for the next run; nothing when something was refused. */
  remember(plan: ExportPlan): void {
    if (this.caching) rememberPlan(this.caching.cache, plan);
  }

  /**
   * Writes a plan: checks every file can be written (exit 2, nothing
   * written), then writes each atomically. Refused files (a block edited by
   * hand) are left alone and the others written: the caller reports the
   * refused ones (exit 1).
   */
  apply(plan: ExportPlan, onProgress?: ExportOptions['onProgress']): FileChange[] {
    return this.service.inRun(() => this.#apply(plan, onProgress));
  }

  /** apply's work, run in the environment open() was given (inRun). */
  #apply(plan: ExportPlan, onProgress?: ExportOptions['onProgress']): FileChange[] {
    for (const _ of this.writes(plan, onProgress)) {
      // Each step wrote one file whole.
    }
    return plan.changes.filter((c) => c.action !== 'unchanged');
  }

  /**
   * As {@link apply}, letting the process's events in after each file, so
   * that a stop signal turned into an abort of `signal` (the CLI's Ctrl-C)
   * stops the export between two files: every file is then as it was or
   * written whole, and no temporary is left half-written beside one. Rejects
   * with a CancelledError when aborted, as every method that takes a signal does.
   */
  applyUntil(plan: ExportPlan, signal: AbortSignal, onProgress?: ExportOptions['onProgress']): Promise<FileChange[]> {
    return this.service.inRun(() => this.#applyUntil(plan, signal, onProgress));
  }

  /** applyUntil's work, run in the environment open() was given (inRun). */
  async #applyUntil(plan: ExportPlan, signal: AbortSignal, onProgress?: ExportOptions['onProgress']): Promise<FileChange[]> {
    // From JavaScript: another value would fail as a TypeError at the first file; none given is a run never stopped.
    signal = optionalSignal(signal, 'signal') ?? new AbortController().signal;
    throwIfCancelled(signal, 'nothing was written.');
    let written = 0;
    for (const _ of this.writes(plan, onProgress)) {
      await new Promise((resolve) => setImmediate(resolve));
      written++;
      throwIfCancelled(signal, `${written} of the plan's files written whole, the others as they were; plan again to write the rest.`);
    }
    return plan.changes.filter((c) => c.action !== 'unchanged');
  }

  /** Writes the plan's files one at a time, each atomically, yielding after each. */
  private *writes(plan: ExportPlan, onProgress?: ExportOptions['onProgress']): Generator<FileChange> {
    checkPlanShape(plan, onProgress, this.service.root);
    // Temporaries a killed export left beside its files (which git would show forever) go first.
    removeStaleTemps(
      plan.top,
      plan.changes.map((c) => c.path),
    );
    const words = optionWords(this.service.optionWords);
    const otherwise = `or ${words.withoutTarget}`;
    // Checked at once, before any is written: the folders found to be folders (and the index's gitlinks) are shared.
    const folders = new Set<string>();
    const todo: typeof plan.changes = [];
    for (const c of plan.changes.filter((c) => c.action !== 'unchanged')) {
      checkWritable(plan.top, c.path, c.before !== undefined, otherwise);
      // A file another export already wrote as this plan would is not written again: it is as the plan leaves it.
      if (!checkUnchanged(plan.top, c.path, c, otherwise, folders)) todo.push(c);
    }
    const written: string[] = [];
    for (const [n, c] of todo.entries()) {
      onProgress?.('write', n + 1, todo.length);
      try {
        if (c.after === undefined) {
          try {
            unlinkSync(join(plan.top, c.path));
          } catch (error) {
            throw writeFailure(error, c.path);
          }
        } else writeFileAtomic(plan.top, c.path, c.after, 'replace');
      } catch (error) {
        // A full disk part-way leaves the files written before it whole: said, never "nothing was changed".
        failedPartWay(error, written, words.calls.exportFiles(), todo.length);
      }
      written.push(c.path);
      yield c;
    }
  }

  /** A plan's (or a project's) whole effective set in one target's format, for standard output. */
  standalone(target: { plan: string } | { project: string }, targetName: string): Promise<string> {
    return this.service.inRun(() => this.#standalone(target, targetName));
  }

  /** standalone's work, run in the environment open() was given (inRun). */
  async #standalone(target: { plan: string } | { project: string }, targetName: string): Promise<string> {
    const config = await this.settings();
    const names = chooseTargets([requiredString(targetName, 'target')], config, optionWords(this.service.optionWords).targets);
    // One format is printed: a comma list would otherwise print the first of its targets in name order, without a word.
    if (names.length > 1)
      throw new UsageError(
        `standalone: target ${quoteText(targetName)} names ${names.length} targets (${names.join(', ')}); it returns one format`,
        'Give one target, and call standalone once for each.',
        { field: 'target', targets: names },
      );
    const name = names[0]!;
    const result = await this.service.effective(target);
    const entries = result.entries.filter((e) => config.export.severities.includes(e.invariant.severity));
    // effective() gives only the waivers its set holds (waiversInSet): those that hold now are the files'.
    const section = standaloneSection(
      result.target,
      entries,
      result.waivers.filter((w) => w.holds),
      result.warnings.some((w) => w.code === 'unknown-project'),
    );
    return renderStandalone(TARGETS[name], [section], this.storeRel());
  }
}
