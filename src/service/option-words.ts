import { shellWord } from '../core/shell-word.ts';

/**
 * How a commit's refusals name the option that asked for it, and say to go without it: the library's `commit: true`
 * (its methods' field), unless the caller names its own, as the command line names its flag (COMMIT_FLAG).
 */
export interface CommitOption {
  name: string;
  without: string;
  /** How one call turns off the commit config.yaml asks for. */
  off: string;
  /**
   * The exported files a refused commit leaves stale, when the export-check hook refused it (commit-exports.ts): the
   * command line asks, so that its hint says the whole way on; a commit module that asked itself would import the export.
   */
  staleExports?: (root: string) => Promise<readonly string[]>;
}

/** The library's `commit: true`: its writing methods' field. */
export const LIBRARY_OPTION: CommitOption = { name: 'commit: true', without: 'leave out commit: true', off: 'give commit: false' };

/** The command line's `--commit`: what its services name in a refusal of the commit. */
const COMMIT_FLAG: CommitOption = { name: '--commit', without: 'run without --commit', off: 'run with --no-commit' };

/**
 * How a refusal names an option its caller gave: the library by its methods' fields (`reason`, `addTags`,
 * `commit: true`), unless the caller names its own, as the command line names its flags (CLI_FLAGS).
 */
export interface OptionWords {
  /** The option that asks a write to be committed, with the ways around it a commit's refusal names. */
  commit: CommitOption;
  reason: string;
  owner: string;
  expires: string;
  plan: string;
  project: string;
  tags: string;
  addTags: string;
  removeTags: string;
  rationale: string;
  note: string;
  goal: string;
  details: string;
  description: string;
  /** The ways to name a scope. */
  scopes: string;
  staged: string;
  allProjects: string;
  /** The option that names an export's targets. */
  targets: string;
  /** How an export's refusal of one target's file says to go on without that target. */
  withoutTarget: string;
  action: string;
  /** The option that names the store's folder. */
  store: string;
  /** The option that creates a project whose name is close to an existing one's. */
  newProject: string;
  /** What a hint tells its caller to run: the command line's commands, the library's methods (Class.method(…)). */
  calls: Calls;
  /**
   * The start of a command line's command: `agents`, with the run's --store for the command line's own
   * (CliContext.agentsCommand); a hint to a library caller names the command line's bare, where it has no method.
   */
  agents: string;
}

/** The commands (or methods) a hint names for what it tells its caller to do. */
export interface Calls {
  /** Adds a first invariant to project `project`, which creates it; `confirmed` with the option a close name needs. */
  addToProject(project: string, confirmed: boolean): string;
  /** Creates action template `ref`. */
  addAction(ref: string): string;
  listProjects: string;
  listActions: string;
  /** Lists every invariant, inactive ones too: their ids. */
  listAll: string;
  listPlans: string;
  /** Makes a plan from action template `action` (any template when left out). */
  newPlan(action?: string): string;
  listViolations: string;
  /** Shows the effective set of a plan or a project. */
  effectiveSet(target: { plan: string } | { project: string }): string;
  /** Compares the index with `rev` (HEAD when left out), the revision a diff against the working tree was given. */
  diffStaged(rev?: string): string;
  /** Lists the invariants of one project or action template. */
  listScope(scope: { project: string } | { action: string }): string;
  /** Sets (or, with "", removes) invariant `id`'s overrides. */
  editOverrides(id: string, overrides: string): string;
  /** Creates a project, by adding its first invariant. */
  createProject: string;
  /** Shows invariant `id`: where it comes from and what it shadows. */
  show(id: string): string;
  /** Removes invariant `id` (any invariant when left out). */
  remove(id?: string): string;
  /** Shows plan `id`'s sync again. */
  syncPlan(id: string): string;
  /** Removes project `name`'s folder. */
  removeProject(name: string): string;
  /** Exports the store's instruction files: those of `targets`, or every target config.yaml lists. */
  exportFiles(targets?: readonly string[]): string;
  /** Takes the imported rules' lines out of their files, after an import. */
  importReplace: string;
  /** Makes the fixes validation knows (temporaries, stale locks, file names, ids). */
  fix: string;
  /** Pins the policy sources config.yaml names (extends.lock.yaml). */
  extendsUpdate: string;
  /** Fetches the pinned commits of the policy sources into the cache. */
  extendsFetch: string;
  /** Adds an invariant to action template `ref`. */
  addToAction(ref: string): string;
  /** Creates project `name` (NAME when left out). */
  addProject(name?: string): string;
  /** Reconciles plan `id` with its actor. */
  strategize(id: string): string;
  /** Makes plan `id` the one this clone's guard hook checks calls against; with no id, clears it. */
  activatePlan(id?: string): string;
  /** Compares plan ID's effective set between two revisions (`invariant diff --plan`). */
  diffPlan: string;
  /** Shows the history of invariant `id`. */
  log(id: string): string;
}

/** A value as JavaScript writes it in a call: the library's hints show the call to make. */
const js = (value: string) => JSON.stringify(value);

/** The library's own names: its methods' fields. */
const LIBRARY_WORDS: OptionWords = {
  commit: LIBRARY_OPTION,
  reason: 'reason',
  owner: 'owner',
  expires: 'expires',
  plan: 'plan',
  project: 'project',
  tags: 'tags',
  addTags: 'addTags',
  removeTags: 'removeTags',
  rationale: 'rationale',
  note: 'note',
  goal: 'goal',
  details: 'details',
  description: 'description',
  scopes: '{ global: true }, { project }, { action } or { plan }',
  staged: 'staged',
  allProjects: 'allProjects',
  targets: 'targets',
  withoutTarget: 'leave this target out of targets',
  action: 'action',
  store: 'new ReviewService(root)',
  newProject: 'newProject: true',
  agents: 'agents',
  calls: {
    addToProject: (project, confirmed) =>
      `InvariantService.add({ scope: { project: ${js(project)} }, text${confirmed ? ', newProject: true' : ''} })`,
    addAction: (ref) => `ScopeService.addAction({ action: ${js(ref)} })`,
    listProjects: 'ScopeService.listProjects()',
    listActions: 'ScopeService.listActions()',
    listAll: 'InvariantService.list({ all: true })',
    listPlans: 'PlanService.list()',
    newPlan: (action) => `PlanService.use({ action${action === undefined ? '' : `: ${js(action)}`} })`,
    listViolations: 'PlanService.listViolations({ plan })',
    effectiveSet: (target) =>
      'plan' in target
        ? `InvariantService.effective({ plan: ${js(target.plan)} })`
        : `InvariantService.effective({ project: ${js(target.project)} })`,
    diffStaged: (rev) => `ReviewService.diff({ ${rev === undefined ? '' : `range: ${js(rev)}, `}staged: true })`,
    listScope: (scope) =>
      `InvariantService.list({ scope: ${'project' in scope ? `{ project: ${js(scope.project)} }` : `{ action: ${js(scope.action)} }`} })`,
    editOverrides: (id, overrides) => `InvariantService.edit({ id: ${js(id)}, overrides: ${js(overrides)} })`,
    createProject: 'InvariantService.add({ scope: { project }, text })',
    show: (id) => `InvariantService.show(${js(id)})`,
    remove: (id) => `InvariantService.remove(${id === undefined ? 'id' : js(id)})`,
    syncPlan: (id) => `PlanService.sync(${js(id)})`,
    // The library has no method to remove a project, fix the store, or pin or fetch policy sources
    // (docs/library.md): the command does it.
    removeProject: (name) => `agents project remove ${name}`,
    exportFiles: (targets) =>
      `ExportService.apply(await ExportService.plan(${targets === undefined ? '' : `{ targets: ${JSON.stringify(targets)} }`}))`,
    importReplace: 'ImportService.replace(plan, written)',
    fix: 'agents validate --fix',
    extendsUpdate: 'agents extends update',
    extendsFetch: 'agents extends fetch',
    addToAction: (ref) => `InvariantService.add({ scope: { action: ${js(ref)} }, text })`,
    addProject: (name) => `ScopeService.addProject({ project${name === undefined ? '' : `: ${js(name)}`} })`,
    strategize: (id) => `PlanService.strategize(${js(id)}, { actor })`,
    // The active plan is the command line's: the guard hook of a clone reads it.
    activatePlan: (id) => `agents plan activate ${id ?? '--clear'}`,
    diffPlan: 'ReviewService.diff({ plan })',
    log: (id) => `ReviewService.log(${js(id)})`,
  },
};

/**
 * The commands the command line's refusals say to run, each starting with `agents` (CliContext.agentsCommand: with
 * the run's --store), so that, pasted in the same folder, they reach the same store.
 */
function cliCalls(agents: string): OptionWords['calls'] {
  return {
    addToProject: (project, confirmed) => `${agents} invariant add --project ${project}${confirmed ? ' --new-project' : ''} "…"`,
    addAction: (ref) => `${agents} action add ${ref}`,
    listProjects: `${agents} project list`,
    listActions: `${agents} action list`,
    listAll: `${agents} invariant list --all`,
    listPlans: `${agents} plan list`,
    newPlan: (action) => `${agents} plan use ${action ?? 'NS/NAME'}`,
    listViolations: `${agents} invariant violation list`,
    effectiveSet: (target) =>
      `${agents} invariant list --effective ${'plan' in target ? `--plan ${target.plan}` : `--project ${target.project}`}`,
    diffStaged: (rev) => `${agents} invariant diff${rev === undefined ? '' : ` ${shellWord(rev)}`} --staged`,
    listScope: (scope) => `${agents} invariant list ${'project' in scope ? `--project ${scope.project}` : `--action ${scope.action}`}`,
    editOverrides: (id, overrides) => `${agents} invariant edit ${id} --overrides ${overrides === '' ? '""' : overrides}`,
    createProject: `${agents} invariant add --project`,
    show: (id) => `${agents} invariant show ${id}`,
    remove: (id) => `${agents} invariant remove ${id ?? 'ID'}`,
    syncPlan: (id) => `${agents} plan sync ${id}`,
    removeProject: (name) => `${agents} project remove ${name}`,
    exportFiles: (targets) => `${agents} export${targets === undefined ? '' : ` --target ${targets.join(',')}`}`,
    importReplace: `${agents} import --replace`,
    fix: `${agents} validate --fix`,
    extendsUpdate: `${agents} extends update`,
    extendsFetch: `${agents} extends fetch`,
    addToAction: (ref) => `${agents} invariant add --action ${ref} "…"`,
    addProject: (name) => `${agents} project add ${name ?? 'NAME'}`,
    strategize: (id) => `${agents} plan strategize ${id}`,
    activatePlan: (id) => `${agents} plan activate ${id ?? '--clear'}`,
    diffPlan: `${agents} invariant diff --plan ID`,
    log: (id) => `${agents} invariant log ${id}`,
  };
}

/** The command line's flags: what its services name in a refusal of a value given with one. */
export const CLI_FLAGS: OptionWords = {
  commit: COMMIT_FLAG,
  reason: '--reason',
  owner: '--owner',
  expires: '--expires',
  plan: '--plan',
  project: '--project',
  tags: '--tag',
  addTags: '--tag',
  removeTags: '--untag',
  rationale: '--rationale',
  note: '--note',
  goal: '--goal',
  details: '--details',
  description: '--description',
  scopes: '--global, --project P, --action NS/NAME or --plan ID',
  staged: '--staged',
  allProjects: '--all-projects',
  targets: '--target',
  withoutTarget: 'leave this target out with --target',
  action: '--action',
  store: '--store',
  newProject: '--new-project',
  agents: 'agents',
  calls: cliCalls('agents'),
};

/** The words of `words`, or the library's when the caller named none. */
export function optionWords(words: OptionWords | undefined): OptionWords {
  return words ?? LIBRARY_WORDS;
}

/** CLI_FLAGS, its calls starting with `agents` (the run's, with its --store). */
export function cliFlags(agents: string): OptionWords {
  return agents === 'agents' ? CLI_FLAGS : { ...CLI_FLAGS, agents, calls: cliCalls(agents) };
}
