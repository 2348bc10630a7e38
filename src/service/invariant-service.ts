import type { Diagnostic } from '../core/diagnostics.ts';
import { UsageError } from '../core/errors.ts';
import { ENV, inputObject, optionalString, refuseArgs, requiredString, typeName } from '../core/input-shape.ts';
import type { IdAbbreviations } from '../core/id-prefix.ts';
import type { Plan, Scope, ScopedInvariant, Target } from '../core/model.ts';
import type { AddCheck } from '../core/shadow.ts';
import { discoverStore } from '../store/discover.ts';
import { currentFolder } from '../store/current-folder.ts';
import { WorkingTreeSource, type TreeSource } from '../store/tree-source.ts';
import { withRunEnvironment, type RunEnvironment } from '../git/run-environment.ts';
import type { OptionWords } from './option-words.ts';
import { defaultDeps, type ServiceDeps, type ServiceDepsInput } from './deps.ts';
import type { InvariantContext } from './invariants/context.ts';
import * as lookup from './invariants/lookup.ts';
import * as projects from './invariants/projects.ts';
import * as query from './invariants/query.ts';

// The use cases that write load when called: they bring the YAML writer, which no reading command needs.
const adding = () => import('./invariants/add.ts');
const editing = () => import('./invariants/edit.ts');
const moving = () => import('./invariants/move.ts');
import type {
  AddContext,
  AddInput,
  AddResult,
  EditInput,
  EditResult,
  EffectiveResult,
  ListOptions,
  ListResult,
  MoveResult,
  OpenOptions,
  RemoveResult,
  ScopeCatalog,
  ScopeInput,
  ShowResult,
  WaiverState,
} from './invariants/types.ts';

export { requireValid, toScope } from './invariants/rules.ts';
/** The command line's check of a scope an add names, in its option words. @internal */
export { requireOwnScope } from './invariants/rules.ts';
/**
 * What the command line asks of the store's scopes past the methods: that an action template exists (`plan list
 * --action`), the names a shell completes. This module is the face of invariants/ for the layers above. @internal
 */
export { actionNames, requireAction, storeWords, type StoreWordKind } from './invariants/projects.ts';
/** A listing as the command line and the MCP server show it; the policy sources' invariants a screen lists; the ids a shell completes. @internal */
export { invariantIds, listShown } from './invariants/query.ts';
/** The policy sources' names a shell completes. @internal */
export { sourceNames } from './invariants/pinned-sources.ts';
/** @internal */
export { inheritedIfReadable, inheritedNotListed } from './invariants/related.ts';
export type * from './invariants/types.ts';

/**
 * The use cases on invariants (README.md, docs/resolution.md): one method each. The CLI, the TUI and
 * agent runtimes that embed the library all go through it. Each method hands over to the module of its
 * use case under invariants/ (lookups, projects, add, edit, move and remove, queries).
 */
export class InvariantService implements InvariantContext {
  readonly source: TreeSource;
  readonly deps: ServiceDeps;
  /**
   * What a refusal calls the options it names, the commit's among them: the command line's flags (CLI_FLAGS,
   * `--commit`); the library's fields (`commit: true`) when left out.
   * @internal
   */
  readonly optionWords?: OptionWords;

  /** The command line's: its option words (above). @internal */
  constructor(root: string, deps: ServiceDepsInput | undefined, source: TreeSource | undefined, optionWords: OptionWords);
  constructor(root: string, deps?: ServiceDepsInput, source?: TreeSource);
  constructor(
    readonly root: string,
    deps: ServiceDepsInput = {},
    source?: TreeSource,
    optionWords?: OptionWords,
  ) {
    requiredString(root, 'root');
    this.deps = defaultDeps(deps);
    this.source = source ?? new WorkingTreeSource(root);
    if (optionWords !== undefined) this.optionWords = optionWords;
  }

  /** The variables and folder `open` was given, which every call runs in; undefined: the process's (or the CLI's run's). */
  #run: RunEnvironment | undefined;

  /**
   * Opens the store named by `store`, or found from `cwd` (docs/store-format.md). Every call then runs in `env` and
   * `cwd` when given, as the command line's `main` runs in its `io`'s: each setting read from the environment (the
   * lock's wait, git's variables, the store-ownership allowances) is read from them, by the one route below them all.
   */
  static open(given: OpenOptions = {}): InvariantService {
    const options = inputObject(given, 'open', { store: true, cwd: true, env: true, deps: true });
    const store = optionalString(options.store, 'store');
    const cwd = optionalString(options.cwd, 'cwd');
    refuseArgs('open', ['env: object?'], [options.env], { env: ENV });
    const run = { env: options.env ?? process.env, cwd: cwd ?? currentFolder() };
    const root = discoverStore({ store, env: run.env, cwd: run.cwd, storeOption: 'open({store})' });
    const service = new InvariantService(root, options.deps);
    if (options.env !== undefined || cwd !== undefined) service.#run = run;
    return service;
  }

  /**
   * Runs `fn` in the environment `open` was given, if any: what the services built over this one call through too.
   * @internal
   */
  inRun<T>(fn: () => T): T {
    return this.#run === undefined ? fn() : withRunEnvironment(this.#run, fn);
  }

  /** Reads one plan's plan.yaml; unknown plans are a usage error. */
  readPlan(idOrPrefix: string): Promise<Plan> {
    return this.inRun(() => lookup.readPlan(this, idOrPrefix));
  }

  /** Finds the invariant an id or a unique prefix (≥ 4 characters) names (the rule of core/id-prefix.ts). */
  resolveId(prefix: string, options: { inherited?: boolean } = {}): Promise<{ id: string; path: string; scope: Scope }> {
    return this.inRun(() => lookup.resolveId(this, prefix, options));
  }

  /** The full id of the plan an id or a unique prefix (≥ 4 characters) names. */
  resolvePlanId(prefix: string): Promise<string> {
    return this.inRun(() => lookup.resolvePlanId(this, prefix));
  }

  /** A scope whose plan may be given as a unique prefix of its id (as every command takes ids), checked and made full. */
  resolveScope(input: ScopeInput | Scope): Promise<Scope> {
    return this.inRun(() => lookup.resolveScope(this, input));
  }

  /** Every invariant id and plan id in the store, for abbreviating ids in output (core/id-prefix.ts). */
  abbreviations(): Promise<IdAbbreviations> {
    return this.inRun(() => lookup.abbreviations(this));
  }

  /**
   * Adds an invariant. Refuses (exit 1) a text whose key equals one already in
   * the same scope; the check and the write happen under the scope's lock.
   */
  async add(input: AddInput, options: { signal?: AbortSignal } = {}): Promise<AddResult> {
    return this.inRun(async () => (await adding()).add(this, input, options));
  }

  /** The projects that exist: folders under `projects/` with valid names (docs/store-format.md). */
  projectNames(): Promise<string[]> {
    return this.inRun(() => projects.projectNames(this));
  }

  /**
   * Refuses (exit 2) to read a project that does not exist, naming the
   * closest existing ones: a typo must never read as an empty project and
   * hand out a silently shortened set.
   */
  requireProject(project: string, options: { writing?: boolean } = {}): Promise<void> {
    return this.inRun(() => projects.requireProject(this, project, options));
  }

  /**
   * For an add to `project`: undefined when it exists; its name when the add
   * will create it. A new name close to an existing project's (within two
   * edits, or equal ignoring case and separators) is refused as a likely
   * typo unless `confirmed` (`--new-project`).
   */
  checkNewProject(project: string, confirmed: boolean, doing = 'add to'): Promise<string | undefined> {
    return this.inRun(() => projects.checkNewProject(this, project, confirmed, doing));
  }

  /**
   * Changes fields of one invariant (`invariant edit`): the same checks as
   * `add` (text, severity, tags, a same-scope duplicate refused with exit 1),
   * under the scope's lock, written atomically in place; the id, the file and
   * the provenance stay. An edit that changes nothing writes nothing.
   */
  async edit(input: EditInput, options: { signal?: AbortSignal } = {}): Promise<EditResult> {
    return this.inRun(async () => (await editing()).edit(this, input, options));
  }

  /**
   * Moves an invariant to another scope (`invariant move`), keeping its id
   * (so `invariant log` follows it) and its fields. A duplicate in the
   * destination is refused (exit 1). Both scopes are locked; the new file is
   * written before the old one is removed, so a crash never loses it.
   */
  async move(idOrPrefix: string, to: ScopeInput | Scope, options: { commit?: boolean; newProject?: boolean } = {}): Promise<MoveResult> {
    return this.inRun(async () => (await moving()).move(this, idOrPrefix, to, options));
  }

  /**
   * Reads what a text added to `scope` could duplicate, shadow or be shadowed
   * by. Never writes; invalid files are skipped and their problems returned as
   * `incomplete`, a policy source not readable yet said in `inheritedMissing` (the add itself re-checks its scope
   * under the lock).
   */
  async addContext(input: ScopeInput | Scope): Promise<AddContext> {
    return this.inRun(async () => (await adding()).addContext(this, input));
  }

  /**
   * A dry run of `add`: would the text be a duplicate (refused), and what would it shadow or be shadowed by? With
   * `incomplete`, the problems of the invalid files left unread, and `inheritedMissing`, why the policy sources'
   * invariants were not read: a copy it meets may be there.
   */
  async checkAdd(input: {
    scope: ScopeInput | Scope;
    text: string;
  }): Promise<AddCheck & Pick<AddContext, 'incomplete' | 'inheritedMissing'>> {
    return this.inRun(async () => (await adding()).checkAdd(this, input));
  }

  /** The projects, action templates and plans that exist (folders with valid names). */
  scopes(): Promise<ScopeCatalog> {
    return this.inRun(() => projects.scopes(this));
  }

  /** Invariants of one scope, or of the whole store; active ones unless `all`. `inheritedMissing`: the policy sources' left out. */
  list(options: ListOptions = {}): Promise<ListResult> {
    return this.inRun(() => query.list(this, options));
  }

  /** The effective set of a project or a plan (docs/resolution.md), reading only the folders it needs. */
  effective(target: { project: string } | { plan: string }, options: { pattern?: string } = {}): Promise<EffectiveResult> {
    return this.inRun(() => query.effective(this, target, options));
  }

  /**
   * The invariants this store inherits from its policy sources (docs/extends.md),
   * read from the cache at the pinned commits: never from the network. None
   * when config.yaml has no `extends`. A pin missing from the cache is exit 2
   * naming `agents extends fetch`; an invalid file in a source is exit 3.
   */
  inherited(): Promise<ScopedInvariant[]> {
    return this.inRun(() => query.inherited(this));
  }

  /**
   * The waivers covering a target, with whether each holds now. `listed`: the
   * target's folders as already listed; the waiver reader loads only when one
   * of them holds a waivers/ folder.
   */
  waiversOf(target: Target, listed?: readonly { path: string; type: string }[]): Promise<WaiverState[]> {
    return this.inRun(() => query.waiversOf(this, target, listed));
  }

  /** Everything about one invariant, with where it applies and what it shadows. */
  show(idOrPrefix: string): Promise<ShowResult> {
    return this.inRun(() => query.show(this, idOrPrefix));
  }

  /** Deletes an invariant's file. Callers confirm first (see `show` for what it shadows). */
  async remove(idOrPrefix: string, options: { commit?: boolean; signal?: AbortSignal } = {}): Promise<RemoveResult> {
    return this.inRun(async () => (await moving()).remove(this, idOrPrefix, options));
  }
}

export type { AddCheck, Diagnostic };

/**
 * The service a PlanService, ScopeService or ExportService is built over, checked when it is built: a store path
 * in its place (what ReviewService takes) would otherwise fail as a TypeError at the first read.
 */
export function requireInvariantService(value: InvariantService, taker: string): InvariantService {
  const given: unknown = value;
  // Known by its shape, not by instanceof: the CLI's bundle and the terminal UI's build each hold a copy of the class.
  const shaped = given as Partial<InvariantService> | null;
  if (typeof given === 'object' && given !== null && typeof shaped?.root === 'string' && typeof shaped.source?.list === 'function')
    return value;
  const what = given instanceof Object && 'invariants' in given ? 'a PlanService or ScopeService' : typeName(given);
  throw new UsageError(
    `${taker} takes an InvariantService, not ${what}`,
    `Build it over one: new ${taker}(InvariantService.open({ store })); ReviewService is the one that takes the store's path.`,
    { field: 'service' },
  );
}
