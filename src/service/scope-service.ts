import { AgentsError, UsageError, valueTooLong } from '../core/errors.ts';
import { globProblem, intoStore } from '../core/globs.ts';
import {
  inputObject,
  optionalBoolean,
  optionalFunction,
  optionalString,
  optionalStrings,
  refuseArgs,
  requiredString,
} from '../core/input-shape.ts';
import { PROJECTS_LOCK } from '../core/layout.ts';
import { codePointLength, truncate } from '../core/names.ts';
import type { Plan } from '../core/model.ts';
import { readAllPlans, readFolders } from '../store/read.ts';
import { storeFolderOf } from '../store/git-dir.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { lockedWrite } from './commit.ts';
import { type OptionWords, optionWords } from './option-words.ts';
import { pinnedTrees } from './invariants/pinned-sources.ts';
import { namedFolders, refuseActionNotAFolder, templateRefs } from './invariants/projects.ts';
import { sourceRemedy, unlessSourceNotReady } from './invariants/related.ts';
import { type InvariantService, requireInvariantService, requireValid, toScope } from './invariant-service.ts';
import { requireOwnScope } from './invariants/rules.ts';
import { docsRef } from '../core/docs-link.ts';

/** One action template, as `agents action list` shows it. */
export interface ActionSummary {
  /** ns/name, or source:ns/name for a policy source's template (docs/extends.md). */
  action: string;
  /** The policy source it comes from, or null for the store's own. */
  source: string | null;
  description: string | null;
  /** Store-relative folder. */
  folder: string;
  /** Invariant files in the template, and how many of them are active. */
  invariants: number;
  active: number;
  /** Plans created from it (`action:` in plan.yaml). */
  plans: number;
}

/**
 * What `listActions` returns: the templates and, on the array itself, `inheritedMissing` when the policy sources'
 * were left out (a source not pinned or not fetched yet), with the command that reads them, as `list` says it.
 */
export type ActionList = ActionSummary[] & { inheritedMissing?: string };

/** One project, as `agents project list` shows it. */
export interface ProjectSummary {
  project: string;
  folder: string;
  invariants: number;
  active: number;
  /** Plans that target it (`project:` in plan.yaml). */
  plans: number;
}

/** The action templates of one tree (the store's, or a policy source's at its pin, named `source`). */
async function actionsIn(tree: TreeSource, source: string | undefined, plans: readonly Plan[]): Promise<ActionSummary[]> {
  const out: ActionSummary[] = [];
  for (const ref of await templateRefs(tree, source)) {
    const action = source === undefined ? ref : `${source}:${ref}`;
    const folder = `actions/${ref}`;
    const snap = await readFolders(tree, [folder]);
    requireValid(snap, `read action ${action}`);
    out.push({
      action,
      source: source ?? null,
      description: snap.actionMeta.get(ref)?.description ?? null,
      folder: source === undefined ? folder : `extends/${source}/${folder}`,
      invariants: snap.invariants.length,
      active: snap.invariants.filter((i) => i.active).length,
      plans: plans.filter((p) => p.action === action).length,
    });
  }
  return out;
}

/** The longest description an action.yaml holds (schemas/action.schema.json). */
const MAX_DESCRIPTION = 10_000;

/** A description over the schema's limit: `value-too-long`, as the schema gate says it (docs/json-output.md). */
function refuseLongDescription(description: string | undefined, file: string, schema: string, words: OptionWords): void {
  const length = description === undefined ? 0 : codePointLength(description);
  if (length > MAX_DESCRIPTION)
    throw valueTooLong({
      file,
      field: 'description',
      length,
      limit: MAX_DESCRIPTION,
      schema,
      fix: `Shorten ${words.description} to at most ${MAX_DESCRIPTION} characters.`,
    });
}
/** schemas/project.schema.json: `paths` holds 1 to 100 globs of at most 500 characters. */
const MAX_PROJECT_PATHS = 100;

/**
 * Action templates and projects as things of their own (docs/commands.md,
 * `agents action`, `agents project`): list them with counts, create them
 * explicitly. Invariants inside them go through InvariantService.
 */
export class ScopeService {
  readonly invariants: InvariantService;

  constructor(invariants: InvariantService) {
    this.invariants = requireInvariantService(invariants, 'ScopeService');
  }

  private get root(): string {
    return this.invariants.root;
  }

  private get source() {
    return this.invariants.source;
  }

  private dirs(dir: string): Promise<string[]> {
    return namedFolders(this.source, dir);
  }

  /**
   * Every action template (a folder actions/<ns>/<name>/), with its description and counts: the store's own, then
   * those of each policy source it extends, at their pins (`plan use SOURCE:NS/NAME` takes them).
   */
  async listActions(): Promise<ActionList> {
    return this.invariants.inRun(async () => {
      const plans = await readAllPlans(this.source);
      requireValid(plans, 'list action templates');
      const out: ActionList = await actionsIn(this.source, undefined, [...plans.plans.values()]);
      // A source not pinned or fetched yet: the store's own templates are listed, and the notice and the result say what to run.
      const sources = await this.readableSourceTrees((error) => {
        out.inheritedMissing = sourceRemedy(error, this.invariants.optionWords);
        this.invariants.deps.notice(`the action templates of policy sources are not listed: ${out.inheritedMissing}`);
      });
      for (const { name, tree } of sources) out.push(...(await actionsIn(tree, name, [...plans.plans.values()])));
      return out;
    });
  }

  /** The sources' trees a listing can show: one not pinned or fetched yet is left out, and `missing` hears why. */
  async readableSourceTrees(missing?: (error: AgentsError) => void): Promise<{ name: string; tree: TreeSource }[]> {
    // Called only when a source is not ready: another value would fail then, as a TypeError, not here.
    const hear = optionalFunction(missing, 'missing');
    return this.invariants.inRun(() => unlessSourceNotReady(() => pinnedTrees(this.invariants), hear));
  }

  /** Every project (a folder projects/<name>/), with counts. */
  async listProjects(): Promise<ProjectSummary[]> {
    return this.invariants.inRun(async () => {
      const plans = await readAllPlans(this.source);
      requireValid(plans, 'list projects');
      // Listed by the one reader of project folders, which refuses a folder no project may be named (its files are never read).
      const { readProjects } = await import('../store/projects.ts');
      const projects = await readProjects(this.source);
      requireValid({ diagnostics: projects.diagnostics } as never, 'list projects');
      const out: ProjectSummary[] = [];
      for (const name of projects.names) {
        const folder = `projects/${name}`;
        const snap = await readFolders(this.source, [folder]);
        requireValid(snap, `read project ${name}`);
        out.push({
          project: name,
          folder,
          invariants: snap.invariants.length,
          active: snap.invariants.filter((i) => i.active).length,
          plans: [...plans.plans.values()].filter((p) => p.project === name).length,
        });
      }
      return out;
    });
  }

  /**
   * `action add NS/NAME`: creates the template's folder with its action.yaml
   * (the description, when given). Refuses (exit 2) a template that already
   * has an action.yaml; a folder that holds only invariants gets one.
   */
  async addAction(input: {
    action: string;
    description?: string;
    commit?: boolean;
  }): Promise<{ action: string; path: string; description: string | null; commit?: string }> {
    return this.invariants.inRun(async () => {
      input = inputObject(input, 'addAction', { action: true, description: true, commit: true }, 'input') as typeof input;
      const scope = toScope({ action: requiredString(input.action, 'action') });
      if (scope.kind !== 'action') throw new Error('unreachable');
      requireOwnScope(scope, this.invariants.optionWords);
      const ref = `${scope.ns}/${scope.name}`;
      const description = optionalString(input.description, 'description')?.trim() || undefined;
      const folder = `actions/${ref}`;
      const path = `${folder}/action.yaml`;
      refuseLongDescription(description, path, 'action.schema.json', optionWords(this.invariants.optionWords));
      await refuseActionNotAFolder(this.source, ref);
      await this.refuseLinks([folder]);
      const [{ formatActionFile }, { writeFileAtomic }] = await Promise.all([
        import('../core/serialize.ts'),
        import('../store/atomic-write.ts'),
      ]);
      return lockedWrite(
        this.invariants,
        { folders: [folder], commit: input.commit },
        async () => {
          const here = await this.source.list(folder, { recursive: false });
          if (here.some((e) => e.path === path)) {
            throw new UsageError(
              `action ${ref} already exists: ${path}`,
              `Nothing was written. Its invariants: \`${optionWords(this.invariants.optionWords).calls.listScope({ action: ref })}\`.`,
            );
          }
          writeFileAtomic(this.root, path, formatActionFile(path, description === undefined ? {} : { description }));
        },
        () => ({
          value: { action: ref, path, description: description ?? null },
          paths: [path],
          message: `action: add ${ref}\n${description ? `\n${description}\n` : ''}`,
        }),
      );
    });
  }

  /**
   * `project add NAME`: creates projects/<name>/ holding its `project.yaml`
   * (docs/store-format.md) when a description or paths are given, else an
   * empty `.gitkeep`, so the new project is kept by git and exists for
   * every command (a project exists when its folder does; docs/adr/0048-input-at-the-gate.md).
   * Refuses (exit 2, nothing written) a project that exists, a description
   * too long and a path that is not a valid glob.
   */
  async addProject(input: { project: string; description?: string; paths?: readonly string[]; commit?: boolean }): Promise<{
    project: string;
    folder: string;
    /** The file written: project.yaml or .gitkeep. */
    path: string;
    /** The project existed without project.yaml (made by adding an invariant to it, or a bare `project add`) and got one. */
    adopted: boolean;
    commit?: string;
  }> {
    return this.invariants.inRun(async () => {
      input = inputObject(input, 'addProject', { project: true, description: true, paths: true, commit: true }, 'input') as typeof input;
      const [made] = await this.newProjects([input], { adopt: true });
      const { project, folder, file, adopted } = made!;
      // Null reads as left out (newProjects has checked the list).
      const paths = [...new Set(input.paths ?? [])];
      // Compared with the other projects' paths under the lock of projects/, which every project add with paths takes
      // from its read of them to its write: two at once each found the other's paths absent, and both were written.
      const pathsLock = paths.length > 0 ? [PROJECTS_LOCK] : [];
      const refuseOverlap = () => (paths.length > 0 ? this.refuseOverlap(project, paths) : undefined);
      const { removeFile, writeFileAtomic, writeFolderAtomic } = await import('../store/atomic-write.ts');
      const written = `${folder}/${file.name}`;
      const value = { project, folder, path: written, adopted: adopted === true };
      const message = `project: add ${project}\n`;
      if (adopted) {
        // A project made by adding an invariant to it has a folder and no project.yaml: it gets one, under its lock, as
        // `action add` gives a template's folder its action.yaml.
        return lockedWrite(
          this.invariants,
          { folders: [...pathsLock, folder], commit: input.commit },
          async () => {
            await refuseOverlap();
            const here = await this.source.list(folder, { recursive: false });
            if (here.some((e) => e.path === written)) throw projectExists(project, folder, optionWords(this.invariants.optionWords));
            writeFileAtomic(this.root, written, file.content);
            // The .gitkeep kept the folder while it held nothing else: project.yaml keeps it now.
            const keep = `${folder}/.gitkeep`;
            if (!here.some((e) => e.path === keep && e.type === 'file')) return [];
            removeFile(this.root, keep);
            return [keep];
          },
          (removed) => ({ value, paths: [written, ...removed], message }),
        );
      }
      return lockedWrite(
        this.invariants,
        { folders: pathsLock, commit: input.commit },
        async () => {
          await refuseOverlap();
          // All or nothing, and a concurrent `project add` of the same name fails on the rename: refused then as the
          // project that exists now, as a run that started after the other's write is, not as a write that failed.
          try {
            writeFolderAtomic(this.root, folder, [file]);
          } catch (error) {
            if (error instanceof AgentsError && error.code === 'write-failed' && (await this.dirs('projects')).includes(project))
              throw projectExists(project, folder, optionWords(this.invariants.optionWords), true);
            throw error;
          }
        },
        () => ({ value, paths: [written], message }),
      );
    });
  }

  /**
   * New projects' folders and the file each starts with, checked as
   * `addProject` checks one (name, description, paths; no linked folder on
   * the way; no such project yet), for a writer that puts them in place
   * itself (`addProject`, or `import` with their invariants in one batch).
   * Nothing is written.
   */
  newProjects(
    inputs: readonly { project: string; description?: string; paths?: readonly string[] }[],
    given: { adopt?: boolean } = {},
  ): Promise<{ project: string; folder: string; file: { name: string; content: string }; adopted?: true }[]> {
    return this.invariants.inRun(() => this.#newProjects(inputs, given));
  }

  /** newProjects' work, run in the environment open() was given (inRun). */
  async #newProjects(
    inputs: readonly { project: string; description?: string; paths?: readonly string[] }[],
    given: { adopt?: boolean },
  ): Promise<{ project: string; folder: string; file: { name: string; content: string }; adopted?: true }[]> {
    // Public: from JavaScript a list of another type would fail inside as a TypeError.
    refuseArgs('newProjects', ['inputs: array'], [inputs]);
    const adopt = optionalBoolean(inputObject(given, 'newProjects', { adopt: true }).adopt, 'adopt') ?? false;
    const checked = inputs.map((given) => {
      const input = inputObject(given, 'addProject', undefined, 'inputs[]');
      const scope = toScope({ project: requiredString(input.project, 'project') });
      if (scope.kind !== 'project') throw new Error('unreachable');
      const description = optionalString(input.description, 'description')?.trim() || undefined;
      refuseLongDescription(
        description,
        `projects/${input.project}/project.yaml`,
        'project.schema.json',
        optionWords(this.invariants.optionWords),
      );
      const paths = [...new Set(optionalStrings(input.paths, 'paths') ?? [])];
      if (paths.length > MAX_PROJECT_PATHS) {
        throw new UsageError(
          `${paths.length} paths given; a project has at most ${MAX_PROJECT_PATHS}`,
          'Nothing was written. Use broader globs.',
        );
      }
      let folder: string | undefined;
      for (const glob of paths) {
        const problem =
          glob === ''
            ? 'is empty'
            : (globProblem(glob) ??
              (glob.length > 500 ? 'is longer than 500 characters' : undefined) ??
              intoStore(glob, (folder ??= storeFolderOf(this.root) ?? '')));
        if (problem) {
          throw new UsageError(
            `path ${truncate(JSON.stringify(glob))} ${problem}`,
            `Nothing was written. Paths are globs relative to the top of the repository, e.g. services/billing/** (${docsRef('export.md')}).`,
          );
        }
      }
      const meta: { description?: string; paths?: string[] } = {};
      if (description !== undefined) meta.description = description;
      if (paths.length > 0) meta.paths = paths;
      return { project: scope.project, folder: `projects/${scope.project}`, meta };
    });
    if (checked.length === 0) return [];
    await this.refuseLinks(checked.map((c) => c.folder));
    const existing = new Set(await this.dirs('projects'));
    // With `adopt`, a project that exists without project.yaml (made by adding an invariant to it) takes the one
    // given: `project add NAME --path GLOB` is then how it gets its paths.
    const adopted = new Set<string>();
    for (const { project, folder, meta } of checked) {
      if (!existing.has(project)) continue;
      const bare = adopt && (meta.description !== undefined || meta.paths !== undefined);
      if (!bare || (await this.source.list(folder, { recursive: false })).some((e) => e.path === `${folder}/project.yaml`))
        throw projectExists(project, folder, optionWords(this.invariants.optionWords));
      adopted.add(project);
    }
    const { formatProjectFile } = await import('../core/serialize.ts');
    return checked.map(({ project, folder, meta }) => ({
      project,
      folder,
      // Nothing to say yet: an empty `.gitkeep` keeps the folder (an empty `{}` document would leave the YAML fast path).
      file:
        meta.description === undefined && meta.paths === undefined
          ? { name: '.gitkeep', content: '' }
          : { name: 'project.yaml', content: formatProjectFile(`${folder}/project.yaml`, meta) },
      ...(adopted.has(project) ? { adopted: true as const } : {}),
    }));
  }

  /** The refusal of {@link pathOverlaps} for one new project, thrown: exit 2, nothing written. */
  private async refuseOverlap(project: string, paths: readonly string[]): Promise<void> {
    // The repository's files, listed by git once for both checks, and only when one needs them.
    let listed: Promise<string[] | undefined> | undefined;
    const files = () => (listed ??= this.repoFiles());
    await this.refuseFolderPaths(project, paths, files);
    const refused = (await this.overlapsOf([{ project, paths }], files)).get(project);
    if (refused !== undefined) throw refused;
  }

  /** The repository's files, untracked ones too; none known outside git, as validate finds none. */
  private async repoFiles(): Promise<string[] | undefined> {
    const [{ lsRepoFiles }, { GitError }] = await Promise.all([import('../git/file-listing.ts'), import('../git/repo.ts')]);
    try {
      return await lsRepoFiles(this.root, true);
    } catch (error) {
      if (error instanceof GitError) return undefined;
      throw error;
    }
  }

  /**
   * A path that names a folder of the repository's files (`apps/web` for `apps/web/**`) matches none of them: the
   * project would hold no file, so `which`, inference and export would pass it by. Refused as a guard's write glob is.
   */
  private async refuseFolderPaths(
    project: string,
    paths: readonly string[],
    repoFiles: () => Promise<string[] | undefined>,
  ): Promise<void> {
    const { folderPath, mayNameFolder, sortFiles } = await import('../core/globs.ts');
    if (!paths.some(mayNameFolder)) return;
    const files = await repoFiles();
    if (files === undefined) return;
    const folder = folderPath(paths, sortFiles(files));
    if (folder === undefined) return;
    throw new UsageError(
      `path ${folder} of project ${project} names a folder of the repository's files and matches none of them (a path is a glob of files)`,
      `Nothing was written. Write ${folder}/** for every file below it.`,
      { project, path: folder, suggestion: `${folder}/**` },
      'project-path-folder',
    );
  }

  /**
   * The new projects whose paths overlap a project's of the store (by the globs alone, or by a file of the repository
   * both hold: validate's `project-paths-overlap`), each with its refusal, exit 2; none when `projects.allow_overlap`:
   * a file belongs to one project, and a writer must not leave the store invalid. Read as the store is now: a caller
   * that writes the paths holds the lock of {@link PROJECTS_LOCK} from this read to its write.
   */
  async pathOverlaps(news: readonly { project: string; paths: readonly string[] }[]): Promise<Map<string, UsageError>> {
    // The repository's files are listed by git in the environment open() was given, as every call of the service is.
    return this.invariants.inRun(() => this.overlapsOf(news, () => this.repoFiles()));
  }

  /** {@link pathOverlaps}, the repository's files (when a file both hold is looked for) from `repoFiles`. */
  private async overlapsOf(
    news: readonly { project: string; paths: readonly string[] }[],
    repoFiles: () => Promise<string[] | undefined>,
  ): Promise<Map<string, UsageError>> {
    const refused = new Map<string, UsageError>();
    if (news.length === 0) return refused;
    const [{ loadConfig }, { readProjects }, { projectOverlaps }] = await Promise.all([
      import('../store/config.ts'),
      import('../store/projects.ts'),
      import('../core/path-overlap.ts'),
    ]);
    if ((await loadConfig(this.source)).projects.allow_overlap) return refused;
    const read = await readProjects(this.source);
    // A project.yaml that cannot be read hides its paths: the new ones could overlap them unseen.
    const named = news.length === 1 ? `project ${news[0]!.project}` : 'the new projects';
    requireValid({ diagnostics: read.diagnostics } as never, `compare the paths of ${named} with the other projects'`);
    const others = read.names.flatMap((name) => {
      const taken = read.meta.get(name)?.paths;
      return taken && taken.length > 0 ? [{ name, paths: taken }] : [];
    });
    if (others.length === 0) return refused;
    // Outside git (no files) the globs alone are compared, as validate does.
    const files = await repoFiles();
    const { overlaps } = projectOverlaps([...others.map((o) => o.paths), ...news.map((n) => n.paths)], files);
    for (const o of overlaps) {
      // A pair of the store's own projects, or of two new ones, is not this check's: only a new one beside another.
      const [known, fresh] = o.a < o.b ? [o.a, o.b] : [o.b, o.a];
      if (known >= others.length || fresh < others.length) continue;
      const [ki, fi] = known === o.a ? [o.ai, o.bi] : [o.bi, o.ai];
      const { project, paths } = news[fresh - others.length]!;
      if (refused.has(project)) continue;
      const other = others[known]!;
      const otherPath = other.paths[ki]!;
      refused.set(
        project,
        new UsageError(
          `path ${paths[fi]} of the new project ${project} overlaps path ${otherPath} of project ${other.name} (${o.example ? `both hold ${o.example}` : 'the globs alone show it'})`,
          `Nothing was written. A file belongs to one project: give ${project} paths outside ${other.name}'s (projects/${other.name}/project.yaml), or set projects.allow_overlap: true in config.yaml.`,
          { project, path: paths[fi], other: other.name, other_path: otherPath, example: o.example ?? null },
          'project-paths-overlap',
        ),
      );
    }
    return refused;
  }

  /** A linked folder on the way is an invalid store (exit 3), never followed. */
  private async refuseLinks(folders: readonly string[]): Promise<void> {
    const snap = await readFolders(this.source, folders);
    const links = snap.diagnostics.filter((d) => d.code === 'symlink');
    if (links.length > 0) requireValid({ ...snap, diagnostics: links }, `write ${truncate(folders.join(', '))}`);
  }
}

/** The one refusal of a project that exists (code `project-exists`); `meanwhile`: made by another writer since this one looked. */
function projectExists(project: string, folder: string, words: OptionWords, meanwhile = false): UsageError {
  return new UsageError(
    `project ${project} already exists: ${folder}/${meanwhile ? ' (made meanwhile, by another writer)' : ''}`,
    `Nothing was written. See it with \`${words.calls.listScope({ project })}\`.`,
    { project },
    'project-exists',
  );
}
