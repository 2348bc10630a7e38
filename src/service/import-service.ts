import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AgentsError, UsageError } from '../core/errors.ts';
import { readUtf8, utf16Mark } from '../core/utf8.ts';
import { nearAfterReview, planImport, type ImportFile, type ImportPlan, type PlannedCandidate } from '../core/import-plan.ts';
import { refuseOverlaps } from '../core/import-overlaps.ts';
import { splitInstructions } from '../core/import-rules.ts';
import { excerpt } from '../core/markdown-blocks.ts';
import { exportedEntryIds } from '../core/export.ts';
import { alwaysApplyProblem, folderGlobProblem, unreadFrontMatter } from '../core/import-front-matter.ts';
import { type SortedFiles, sortFiles } from '../core/globs.ts';
import { appliesTo, globKey, importTarget, instructionKind, type ImportKind } from '../core/import-sources.ts';
import type { StaleImport } from '../core/import-stale.ts';
import type { ScopedInvariant } from '../core/model.ts';
import { fileReferences, namesAFile, REFERENCING_KINDS, resolveReference } from '../core/import-references.ts';
import { mergeConflictMessage, mergeConflicts } from '../core/merge-conflict.ts';
import { nameProblem } from '../core/names.ts';
import { MAX_FILE_BYTES } from '../core/parse-core.ts';
import { shellPath } from '../core/shell-word.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { lsRepoFiles } from '../git/file-listing.ts';
import { repositoryTop, readProjects } from '../store/projects.ts';
import { readStore } from '../store/read.ts';
import { loadConfig } from '../store/config.ts';
import { pathBytes, readRegularFile } from '../store/read-file.ts';
import { pathFromCwd } from '../store/current-folder.ts';
import { NEVER_WALKED } from './export-folders.ts';
import { requireValid, type InvariantService } from './invariant-service.ts';
import type { ImportWritten } from './import-apply.ts';
import type { ReplaceResult } from './import-replace.ts';
import type { ScopeService } from './scope-service.ts';
import type { RemoveResult } from './invariants/types.ts';
import { optionWords } from './option-words.ts';
import { planWithHistory } from './import-history.ts';
import {
  blockIdsElsewhere,
  deletedFromTree,
  ignoredSources,
  type ImportPlace,
  linkTarget,
  namedRel,
  namedPathRefusal,
  outsideCode,
  parseFrontMatter,
  refuseFolderLink,
  readOnce,
  type Source,
  sourcesOf,
  type Unlisted,
  unlistedError,
} from './import-files.ts';

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

export type { ImportWritten };

/** The kinds whose front matter says where their rules apply: one that cannot be read skips the file. */
const FRONT_MATTER_KINDS: ReadonlySet<ImportKind> = new Set(['cursor', 'copilot-instructions', 'windsurf', 'clinerules']);

/**
 * `agents import`: finds the repository's instruction files, splits them into
 * candidate invariants (core/import-rules.ts), places each where its file
 * applies (core/import-sources.ts), drops what is said twice or already held
 * (core/import-plan.ts), and writes what the user keeps.
 */
export class ImportService {
  /** The invariants each plan was made against: the review's edits are compared with them again (reviewed). */
  readonly #stores = new WeakMap<ImportPlan, readonly ScopedInvariant[]>();

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
      // As a project's name, not any name: a reserved one (global, plans…) is refused here, before the review.
      const problem = nameProblem(options.project, 'project');
      if (problem) throw new UsageError(problem, 'Give --project a name such as web or billing-api.');
    }
    const top = this.top;
    const { files: all, unlisted } = await this.repositoryFiles(top);
    const source = this.invariants.source;
    const snap = await readStore(source);
    const found = await this.find(options, all, unlisted, snap.invariants);
    // The top and its real path once, not for each of a thousand files.
    if (options.global && options.project !== undefined)
      throw new UsageError('--global and --project cannot be combined', 'Choose where the rules go: every one global, or every one in P.');
    const storeRel = relative(top, this.invariants.root).split(sep).join('/');
    const place: ImportPlace = {
      top,
      realTop: realpathSync.native(top),
      files: all,
      repository: new Set(all),
      store: storeRel === '' || storeRel.startsWith('..') || isAbsolute(storeRel) ? undefined : storeRel,
      here: (rel: string) => pathFromCwd(options.cwd, top, rel),
    };
    // Rules put into a project that exists take its paths, not their file's globs: those are then not checked.
    const into = options.project !== undefined && (await readProjects(source)).names.includes(options.project);
    const where = { project: options.project, global: options.global ?? false, into };
    let files = await Promise.all(found.map((f) => this.readFile(f.rel, f.kind, where, place)));
    // What the agents are told to read too, and this import does not: named, so that no rule is left behind unsaid.
    const reading = new Set(found.map((f) => f.rel));
    files = files.map((f) => (f.references ? { ...f, references: f.references.filter((r) => !reading.has(r.path)) } : f));
    const [projects, inherited, config] = await Promise.all([readProjects(source), this.invariants.inherited(), loadConfig(source)]);
    requireValid(snap, 'import');
    // A file the store holds rules of that git now ignores: the search reads it no more, and says so rather than
    // leave its rules in the store unsaid.
    if (options.paths === undefined || options.paths.length === 0)
      files = [...files, ...(await ignoredSources(place, optionWords(this.invariants.optionWords), snap.invariants, found, options.from))];
    // The way out it names is a command to paste: the run's `agents`, with its --store.
    const { agents } = optionWords(this.invariants.optionWords);
    // The files each project's rules came from: one whose globs changed since is told to change that project's paths.
    const importedInto = new Map<string, Set<string>>();
    for (const { scope, imported_from: from } of snap.invariants)
      if (scope.kind === 'project' && from)
        (importedInto.get(scope.project) ?? importedInto.set(scope.project, new Set()).get(scope.project)!).add(from.file);
    files = refuseOverlaps(files, projects.meta, projects.names, all, config.projects.allow_overlap, agents, place.here, importedInto);
    const elsewhere = blockIdsElsewhere(top, all, found);
    const { planned, store } = await planWithHistory(
      this.invariants.root,
      [...snap.invariants.filter((i) => i.scope.kind === 'global' || i.scope.kind === 'project'), ...inherited],
      (held) => planImport(files, held, projects.meta, projects.names, elsewhere),
    );
    const plan: ImportPlan = { ...planned, folders: { top, cwd: options.cwd } };
    this.#stores.set(plan, store);
    return plan;
  }

  /** The candidates a review of `plan` kept, their near-duplicates those of the text and scope it left them with. */
  reviewed(plan: ImportPlan, chosen: readonly PlannedCandidate[]): PlannedCandidate[] {
    return nearAfterReview(plan, chosen, this.#stores.get(plan) ?? []);
  }

  /** The files to read: those named, or every known kind in the repository. */
  private async find(
    options: ImportOptions,
    all: readonly string[],
    unlisted: readonly Unlisted[],
    invariants: readonly ScopedInvariant[],
  ): Promise<Source[]> {
    const top = this.top;
    const wanted = (kind: ImportKind | undefined) => kind !== undefined && (options.from === undefined || options.from.includes(kind));
    if (options.paths === undefined || options.paths.length === 0) {
      // A folder that could not be listed may hold instruction files: its rules are never left out in silence.
      if (unlisted.length > 0) throw unlistedError(unlisted[0]!, true);
      // A file whose rules the store holds, removed since (as `--replace` removes a file left with nothing of its
      // own) and not yet committed so: moved into the store, not a deleted file to restore.
      const listed = new Set(all);
      const from = new Set(invariants.map((i) => i.imported_from?.file).filter((f): f is string => f !== undefined && listed.has(f)));
      const moved = new Set([...from].filter((f) => lstatSync(join(top, f), { throwIfNoEntry: false }) === undefined));
      return readOnce(all.flatMap((rel) => sourcesOf(rel, top, all)).filter((f) => wanted(f.kind) && !moved.has(f.rel)));
    }
    const out: Source[] = [];
    let listed: Set<string> | undefined;
    for (const given of options.paths) {
      // An empty path (an unset shell variable) names nothing; read as the current folder, it would import every file there.
      if (given.trim() === '')
        throw new UsageError('an empty path was given', 'Name a file or folder to import, or none to import every instruction file.');
      // Named on one line: a line break in the path would start a line of the report of its own (a forged hint).
      const shown = escapeUnsafe(given);
      const abs = isAbsolute(given) ? given : resolve(options.cwd, given);
      const rel = namedRel(top, abs, all);
      if (rel.startsWith('..') || isAbsolute(rel)) {
        throw new UsageError(`${shown} is outside the repository (${top})`, 'Name files or folders inside the repository.');
      }
      const refused = namedPathRefusal(shown, rel, top, unlisted, (listed ??= new Set(all)));
      if (refused !== undefined) throw refused;
      const below = all.filter((f) => rel === '' || f.startsWith(`${rel}/`));
      // A file or folder git lists that was deleted from the working tree does not exist, as a path git never knew:
      // refused, not read as a file skipped and an import of nothing that exits 0.
      if (rel !== '' && (below.length > 0 || all.includes(rel)) && lstatSync(join(top, rel), { throwIfNoEntry: false }) === undefined) {
        const deleted = deletedFromTree(pathFromCwd(options.cwd, top, rel));
        throw new UsageError(
          `${shown} does not exist: ${deleted.said}`,
          `Nothing was read. Restore it (${deleted.restore}) and import it again, or leave it out.`,
        );
      }
      if (below.length > 0 && !all.includes(rel)) {
        const before = out.length;
        for (const f of below) out.push(...sourcesOf(f, top, all).filter((s) => wanted(s.kind)));
        // A folder named outright whose files are none the import reads is said, never passed over for the others
        // (nor answered as if no path had been given).
        if (out.length === before)
          throw options.from === undefined
            ? new UsageError(
                `${shown} holds no instruction file: none of its files has a name import knows (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot, Cursor, Windsurf, Cline or ruler rules)`,
                'Nothing was read. Name a file in it with --from KIND to read it as that kind, or leave the folder out.',
              )
            : new UsageError(
                `${shown} holds no instruction file of kind ${options.from.join(', ')}`,
                'Nothing was read. Drop --from (or add the kinds it holds), or leave the folder out.',
              );
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
        if (stat === undefined) {
          // A path from the top of the repository, as the report writes them, given in a folder below it: the path from here.
          const fromTop = isAbsolute(given) ? undefined : pathFromCwd(options.cwd, top, given);
          if (fromTop !== undefined && fromTop !== given && lstatSync(join(top, given), { throwIfNoEntry: false }) !== undefined)
            throw new UsageError(
              `${shown} does not exist in the current folder`,
              (agents) =>
                `Paths are read from the current folder; ${shown} is a path from the top of the repository, which is ${shellPath(fromTop)} from here: ${agents} import ${shellPath(fromTop)}`,
            );
          throw new UsageError(`${shown} does not exist`, 'Name files or folders inside the repository.');
        }
        if (stat.isDirectory())
          throw new UsageError(
            `${shown} holds no instruction file: it is empty, or git ignores what it holds`,
            (agents) =>
              `Name the file to import itself: ${agents} import ${shellPath(`${given.replace(/[/\\]+$/, '')}/AGENTS.md`)} (add --from KIND for a name of no known kind).`,
          );
      }
      // A rules folder linked to a folder of the repository is read as the search reads it, not refused as a link.
      const linked = all.includes(rel) ? sourcesOf(rel, top, all) : [];
      if (linked.some((s) => s.via !== undefined)) {
        out.push(...linked.filter((s) => wanted(s.kind)));
        continue;
      }
      const known = instructionKind(rel);
      // A file named outright is never left out in silence: one whose kind --from excludes is refused, saying so.
      if (known !== undefined && !wanted(known))
        throw new UsageError(
          `${shown} is of kind ${known}, which --from ${options.from!.join(',')} leaves out`,
          `Nothing was read. Drop --from, or add --from ${known}.`,
        );
      const kind = known ?? (options.from?.length === 1 ? options.from[0] : undefined);
      // A link to a folder is a file to git: said as the link it is, not as a file of no known kind.
      if (known === undefined) refuseFolderLink(shown, abs, realpathSync.native(top), options.cwd);
      if (kind === undefined) {
        throw new UsageError(
          `${shown} is not an instruction file agents knows (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot, Cursor, Windsurf, Cline or ruler rules)`,
          'Say which kind it is with --from (for example --from agents-md), or name a folder to search.',
        );
      }
      out.push({ rel, kind });
    }
    // A file named twice (itself, and by a folder above it) is read once, not its rules listed as copies of themselves.
    return readOnce(out);
  }

  /** Every file of the repository (git's list when there is one, so ignored files stay out), repository-relative. */
  private async repositoryFiles(top: string): Promise<{ files: SortedFiles; unlisted: Unlisted[] }> {
    try {
      // A folder git could not open (no permission) hides its files from git's list as from the walk below.
      const unlisted: Unlisted[] = [];
      const files = await lsRepoFiles(top, true, undefined, (folder, code) => unlisted.push({ folder, code }));
      return { files: sortFiles(files), unlisted };
    } catch {
      const out: string[] = [];
      const unlisted: Unlisted[] = [];
      const walk = (dir: string) => {
        let entries: Dirent[];
        try {
          entries = readdirSync(join(top, dir), { withFileTypes: true });
        } catch (error) {
          // A folder of no permission (another user's, a container's volume): named, never a crash.
          unlisted.push({ folder: dir, code: (error as NodeJS.ErrnoException).code ?? String(error) });
          return;
        }
        for (const e of entries) {
          const rel = dir === '' ? e.name : `${dir}/${e.name}`;
          if (e.isDirectory() && !NEVER_WALKED.has(e.name)) walk(rel);
          else if (!e.isDirectory()) out.push(rel);
        }
      };
      walk('');
      return { files: sortFiles(out), unlisted };
    }
  }

  /** One file, read and split, or skipped with the reason (never a throw: one bad file does not stop the rest). */
  private async readFile(
    rel: string,
    kind: ImportKind,
    where: { project: string | undefined; global: boolean; into: boolean },
    { top, realTop, files, repository, store, here }: ImportPlace,
  ): Promise<ImportFile> {
    const file: ImportFile = { file: rel, kind, target: { kind: 'global' }, candidates: [], leftOut: [] };
    // The store's folder holds invariants, and no agent reads an instruction file there: its lines are notes of the
    // store's own, never rules of the repository's files.
    if (store !== undefined && rel.startsWith(`${store}/`))
      return {
        ...file,
        skipped: `it is inside the store (${store}/), which holds invariants, not instruction files an agent reads: to import its rules, move it out of ${store}/ (beside the files it governs) and import it again`,
      };
    const abs = join(top, rel);
    let real: string;
    try {
      // The C library's realpath: the JS one costs a lstat and a string per folder of the path, for each file.
      real = realpathSync.native(abs);
    } catch {
      // A link that leads nowhere (CLAUDE.md to an AGENTS.md since removed, or a loop) is there: said as the link it is.
      const to = linkTarget(abs);
      if (to !== undefined) return { ...file, skipped: `it is a symbolic link to ${to}, which leads nowhere` };
      // git lists a name that is not UTF-8 with U+FFFD for its bytes, a name no file has: there, not deleted.
      if (rel.includes('\uFFFD') && pathBytes(top, rel) !== undefined)
        return {
          ...file,
          skipped: `its name (or its folder's) is not UTF-8 (shown with \uFFFD for its bytes), so it cannot be read by that name: rename it to a UTF-8 name and import it again`,
        };
      // The search found it in git's list: deleted since, as a named path is said, with the command that restores it.
      if (!repository.has(rel)) return { ...file, skipped: 'it does not exist' };
      const deleted = deletedFromTree(here(rel));
      return { ...file, skipped: `it does not exist: ${deleted.said}; restore it (${deleted.restore}) and import it again` };
    }
    if (real !== realTop && !real.startsWith(`${realTop}${sep}`)) {
      return { ...file, skipped: `it is a symbolic link to ${real}, outside the repository` };
    }
    const r = readRegularFile(real, MAX_FILE_BYTES, { followLinks: true });
    if (!r.ok)
      return {
        ...file,
        skipped:
          r.code === 'too-large'
            ? `it is larger than ${MAX_FILE_BYTES} bytes (1 MiB), the most import reads of one file: split it into smaller files, and import them`
            : `it ${r.message}`,
      };
    const bytes = r.bytes;
    const utf16 = utf16Mark(bytes);
    if (utf16 !== undefined)
      return {
        ...file,
        skipped: `it is UTF-16 text (it starts with the byte order mark ${utf16}), not UTF-8: save it as UTF-8 and import it again`,
      };
    if (bytes.includes(0)) return { ...file, skipped: 'it is a binary file' };
    const read = readUtf8(bytes, { dropBom: true });
    if (!read.ok)
      return { ...file, skipped: `it is not UTF-8 text (${rel}:${read.line}:${read.col}): save it as UTF-8 and import it again` };
    const text = read.text;
    // Claude Code and Gemini CLI read `@path` as that file's text: a sentence that only points at one is no rule there.
    const references = REFERENCING_KINDS.includes(kind);
    let split = splitInstructions(text, { references });
    // Both sides of a conflicted merge, and git's marker lines, would become rules; not so in a code block, where
    // they are an example the file shows ("Never commit these:" over a fence).
    const conflict = mergeConflicts(text) && mergeConflicts(outsideCode(text, split.leftOut));
    if (conflict !== null) return { ...file, skipped: `it holds an ${mergeConflictMessage(conflict)}: resolve it first` };
    // Else the front matter's globs would be read as Markdown, and its rules go everywhere (or nowhere) instead.
    if (split.unclosedFrontMatter && FRONT_MATTER_KINDS.has(kind))
      return { ...file, skipped: `its front matter is not closed (${rel}:1:1): end it with a line "---" and import it again` };
    let front: Record<string, unknown> | undefined;
    let markdown = false;
    if (split.frontMatter !== undefined) {
      const parsed = await parseFrontMatter(
        rel,
        split.frontMatter,
        kind === 'cursor' || kind === 'windsurf',
        FRONT_MATTER_KINDS.has(kind) ? globKey(kind) : undefined,
      );
      if (typeof parsed !== 'string') front = parsed;
      else if (FRONT_MATTER_KINDS.has(kind)) return { ...file, skipped: parsed };
      else {
        // An AGENTS.md (CLAUDE.md…) that opens with a rule (`---`) and text that is no map of keys: Markdown, read whole.
        split = splitInstructions(text, { frontMatter: false, references });
        markdown = true;
      }
    }
    const lines = text.split('\n');
    // Read as not set, an alwaysApply of `yes` would skip the rule as one applied on request, against its own word.
    // A Windsurf rule's trigger decides in its place (appliesTo).
    const readsAlways = FRONT_MATTER_KINDS.has(kind) && !(kind === 'windsurf' && front?.trigger != null);
    const always = front !== undefined && readsAlways ? alwaysApplyProblem(rel, front, lines, split.bodyLine) : undefined;
    if (always !== undefined) return { ...file, skipped: always };
    const applies = appliesTo(kind, front);
    const target = importTarget(rel, kind, applies, where.project, where.global);
    // As `project add` refuses it: a glob that names a folder (`apps/web`) holds none of its files.
    const folder =
      target.kind === 'project' && !(target.given && where.into)
        ? folderGlobProblem(rel, kind, target.paths, applies.globs ?? [], files, lines, split.bodyLine)
        : undefined;
    if (folder !== undefined) return { ...file, skipped: folder };
    const out: ImportFile = {
      ...file,
      ...(markdown ? { noFrontMatter: true as const } : {}),
      ...(split.notEnglish ? { notEnglish: true as const } : {}),
      target,
      candidates: split.candidates,
      leftOut: split.leftOut,
    };
    // The entries of its managed block: rules --replace moved into the store, not rules gone from the file.
    const blocks = split.leftOut.filter((l) => l.reason === 'export-block');
    if (blocks.length > 0)
      out.blockIds = blocks.flatMap((l) =>
        exportedEntryIds(
          lines
            .slice(l.line - 1, l.end_line)
            .map((x) => x.replace(/\r$/, ''))
            .join('\n'),
        ),
      );
    // No agent reads front matter in an AGENTS.md (CLAUDE.md…): it hands its lines to the model as text, so a map of
    // keys there (`Important: Never push to main.`) is said as left out, never dropped unseen.
    if (front !== undefined && !FRONT_MATTER_KINDS.has(kind) && Object.keys(front).length > 0) {
      const end = split.bodyLine - 1;
      out.leftOut = [{ line: 1, end_line: end, reason: 'front-matter', excerpt: excerpt(lines, 1, end - 2) }, ...out.leftOut];
    }
    // A key the import does not read (`priority: high`, Copilot's `excludeAgent`) is said with its lines, not dropped.
    if (front !== undefined && FRONT_MATTER_KINDS.has(kind))
      out.leftOut = [...unreadFrontMatter(kind, front, lines, split.bodyLine), ...out.leftOut];
    if (references) {
      const refs: NonNullable<ImportFile['references']> = [];
      for (const { line, ref } of fileReferences(text)) {
        const path = resolveReference(ref, rel, top);
        if (path === undefined || path === rel || refs.some((r) => r.path === path)) continue;
        if (repository.has(path)) refs.push({ line, path });
        // A link whose file moved or went leads the agent nowhere: said at its line, never passed over.
        else if (namesAFile(path) && lstatSync(join(top, path), { throwIfNoEntry: false }) === undefined)
          refs.push({ line, path, missing: true });
      }
      if (refs.length > 0) out.references = refs;
    }
    return out;
  }

  /**
   * Writes the chosen candidates as one change: each new project's folder
   * (project.yaml with the paths its files apply to) with its invariants,
   * and the invariants of the scopes that exist, under the locks of those
   * scopes, put in place together by one batch (one flush of the file system,
   * not one per file), or not at all when a write fails. A text a scope came
   * to hold meanwhile is left out, as `add` refuses it, and so are the rules of
   * a new project whose paths a project made meanwhile came to overlap. When `signal` is
   * aborted while the files are being staged, the batch's temporaries are
   * removed and its reason thrown: nothing was written.
   */
  async apply(plan: ImportPlan, chosen: readonly PlannedCandidate[], options: { signal?: AbortSignal } = {}): Promise<ImportWritten> {
    // The writer loads only to write: a dry run, or a review left with nothing kept, never needs it.
    return (await import('./import-apply.ts')).applyImport(this.invariants, this.scopes, plan, chosen, options);
  }

  /**
   * `--prune`: removes the invariants found gone from their files (plan.stale, or those of it the review left to
   * remove), each as `invariant remove` removes one, under its scope's lock, never committed (as the import's own
   * writes are not). One another writer removed meanwhile is passed over.
   */
  async prune(gone: readonly StaleImport[]): Promise<RemoveResult[]> {
    const out: RemoveResult[] = [];
    for (const inv of gone) {
      try {
        out.push(await this.invariants.remove(inv.id, { commit: false }));
      } catch (error) {
        if (!(error instanceof AgentsError && error.code === 'unknown-id')) throw error;
      }
    }
    return out;
  }

  /** `--replace` before anything is written: refuses (exit 1) when the export would leave one of its files alone. */
  async checkReplace(plan: ImportPlan): Promise<void> {
    const { refuseBlockedReplace } = await import('./import-replace.ts');
    await refuseBlockedReplace(this.invariants, plan);
  }

  /**
   * `--replace`: removes from each source file the lines of the rules now in
   * the store (imported, or held already) and lets `agents export` fill the
   * managed blocks (import-replace.ts).
   */
  async replace(plan: ImportPlan, written: ImportWritten): Promise<ReplaceResult> {
    // Loaded only for --replace, as the exporter it runs: a dry run or a plain import never uses it.
    const [{ replaceImported }, { failedPartWay }] = await Promise.all([import('./import-replace.ts'), import('../store/atomic-write.ts')]);
    try {
      return await replaceImported(this.invariants, this.top, plan, new Map(written.invariants.map((w) => [w.n, w.id])));
    } catch (error) {
      // The rules are in the store already, their lines still in their files: said, never "nothing was changed".
      const store = relative(this.top, this.invariants.root).split(sep).join('/');
      return failedPartWay(
        error,
        // A new project's folder (its project.yaml with it), then each invariant written.
        [...written.projects.map((p) => `${store}/projects/${p}/`), ...written.invariants.map((w) => `${store}/${w.path}`)],
        // What finishes an import whose --replace a full disk stopped part-way: the rules it holds are not imported twice.
        optionWords(this.invariants.optionWords).calls.importReplace,
      );
    }
  }
}
