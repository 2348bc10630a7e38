import { closestNames, didYouMean, isCloseName } from '../core/closest.ts';
import { CheckFailedError, InvalidStoreError, UsageError } from '../core/errors.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { classifyPath } from '../core/layout.ts';
import {
  SEVERITIES,
  describeScope,
  invariantPath,
  scopeFolder,
  type Plan,
  type Scope,
  type ScopedInvariant,
  type Severity,
  type Target,
} from '../core/model.ts';
import { MIN_PREFIX, codePointLength, isName, isUlid, nameProblem, parseActionRef, truncate, ulidProblem } from '../core/names.ts';
import { cleanText, textKey } from '../core/normalise.ts';
import { MAX_TEXT_LENGTH } from '../core/parse-core.ts';
import { resolveEffective, type EffectiveEntry } from '../core/resolve.ts';
import { checkNewInvariant, shadowInfo, shadowMap, type AddCheck, type ShadowInfo } from '../core/shadow.ts';
import { discoverStore } from '../store/discover.ts';
import { emptySnapshot, readAllPlans, readFolders, readStore, type StoreSnapshot } from '../store/read.ts';
import { WorkingTreeSource, type TreeSource } from '../store/tree-source.ts';
import { commitWanted, withCommit } from './commit.ts';
import { defaultDeps, loadIdGenerator, type ServiceDeps } from './deps.ts';
import { compileFilter, filterByRegex } from './regex.ts';

/** How a caller names a scope: exactly one of these. */
export type ScopeInput =
  | { global: true }
  | { project: string }
  | { plan: string }
  | { action: string };

export interface AddInput {
  scope: ScopeInput | Scope;
  text: string;
  severity?: Severity;
  tags?: string[];
  rationale?: string;
  /** Commit the new file with git (`--commit`); default: `commit:` in config.yaml. */
  commit?: boolean;
  /**
   * Create the project even when its name is close to an existing one's
   * (`--new-project`). Without it such a name is taken for a typo and refused.
   */
  newProject?: boolean;
}

export interface AddResult {
  invariant: ScopedInvariant;
  /** Absolute path of the new file. */
  file: string;
  /** Copies at lower precedence that the new invariant hides. */
  shadows: ScopedInvariant[];
  /** Copies at higher precedence that hide the new invariant. */
  shadowedBy: ScopedInvariant[];
  /** The commit made with `commit`. */
  commit?: string;
  /** The project this add created (its folder did not exist before). */
  createdProject?: string;
}

export interface ListOptions {
  scope?: ScopeInput;
  /** Include inactive invariants. */
  all?: boolean;
  /** A regex on the text, smart case. */
  pattern?: string;
}

export interface ListedInvariant {
  invariant: ScopedInvariant;
  /** Present when the listing holds what is needed to know it. */
  shadow?: ShadowInfo;
}

export interface EffectiveResult {
  target: Target;
  plan?: Plan;
  entries: EffectiveEntry[];
}

export interface ShowResult {
  invariant: ScopedInvariant;
  /** Human summary of where the invariant applies. */
  appliesTo: string;
  plansTargeting?: string[];
  shadow: ShadowInfo;
}

/** What the add form checks a text against while it is typed (see `addContext`). */
export interface AddContext {
  scope: Scope;
  /** The scope's own invariants and those it can shadow or be shadowed by. */
  invariants: ScopedInvariant[];
  plans: Map<string, Plan>;
}

/** The scopes that exist in a store, for pickers. */
export interface ScopeCatalog {
  projects: string[];
  /** `NS/NAME` of each action template folder. */
  actions: string[];
  plans: Plan[];
}

export interface OpenOptions {
  /** The store folder; found by discovery (SPEC 2) when absent. */
  store?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  deps?: Partial<ServiceDeps>;
}

/** Turns a caller's scope flags into a scope, refusing bad names before any path is built. */
export function toScope(input: ScopeInput | Scope): Scope {
  if ('kind' in input) return toScope(scopeToInput(input));
  if ('global' in input) return { kind: 'global' };
  if ('project' in input) {
    const problem = nameProblem(input.project, 'project');
    if (problem) throw new UsageError(problem, 'Project names match ^[a-z0-9][a-z0-9._-]{0,63}$.');
    return { kind: 'project', project: input.project };
  }
  if ('plan' in input) {
    const problem = ulidProblem(input.plan, 'plan id');
    if (problem) throw new UsageError(problem, 'Give the plan\'s full ULID; `agents plan list` shows them.');
    return { kind: 'plan', plan: input.plan };
  }
  const ref = parseActionRef(input.action);
  if (typeof ref === 'string') throw new UsageError(ref, 'Action names match ^[a-z0-9][a-z0-9._-]{0,63}$ on each side of the "/".');
  return { kind: 'action', ns: ref.ns, name: ref.name };
}

function scopeToInput(scope: Scope): ScopeInput {
  switch (scope.kind) {
    case 'global':
      return { global: true };
    case 'project':
      return { project: scope.project };
    case 'plan':
      return { plan: scope.plan };
    case 'action':
      return { action: `${scope.ns}/${scope.name}` };
  }
}

/** Refuses to go on when files the command needs are invalid (exit 3): never a silently shortened set. */
export function requireValid(snapshot: StoreSnapshot, what: string): void {
  const errors = snapshot.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return;
  const first = errors[0]!;
  const where = first.line > 0 ? `${first.file}:${first.line}:${first.col}` : first.file;
  throw new InvalidStoreError(
    errors.length === 1 ? `cannot ${what}: ${where} is invalid` : `cannot ${what}: ${errors.length} store files are invalid, first ${where}`,
    errors,
  );
}

function checkTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag === '' || tag.length > 64 || tag.includes(',')) {
      throw new UsageError(`tag "${truncate(raw)}" is invalid: tags are 1 to 64 characters without commas`, 'Repeat --tag for several tags: --tag data --tag safety.');
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * The use cases on invariants (SPEC 1–5): one method each. The CLI, the TUI and
 * agent runtimes that embed the library all go through it.
 */
export class InvariantService {
  readonly source: TreeSource;
  readonly deps: ServiceDeps;

  constructor(readonly root: string, deps: Partial<ServiceDeps> = {}, source?: TreeSource) {
    this.deps = defaultDeps(deps);
    this.source = source ?? new WorkingTreeSource(root);
  }

  /** Opens the store named by `store`, or found from `cwd` (SPEC 2). */
  static open(options: OpenOptions = {}): InvariantService {
    const root = discoverStore({ store: options.store, env: options.env ?? process.env, cwd: options.cwd ?? process.cwd() });
    return new InvariantService(root, options.deps);
  }

  /** Reads one plan's plan.yaml; unknown plans are a usage error. */
  async readPlan(planId: string): Promise<Plan> {
    toScope({ plan: planId });
    const snap = await readFolders(this.source, [`plans/${planId}`]);
    const plan = snap.plans.get(planId);
    const planFile = `plans/${planId}/plan.yaml`;
    // The plan file itself, or a folder on its path (a link refused by the reader).
    const planErrors = snap.diagnostics.filter((d) => d.file === planFile || planFile.startsWith(`${d.file}/`));
    if (planErrors.length > 0) requireValid({ ...snap, diagnostics: planErrors }, `read plan ${planId}`);
    if (!plan) {
      throw new UsageError(`unknown plan ${planId}: plans/${planId}/plan.yaml does not exist`, 'Create plans with `agents plan use NS/NAME`; `agents plan list` shows them.');
    }
    return plan;
  }

  /** Finds the invariant an id or a unique prefix (≥ 4 characters) names. */
  async resolveId(prefix: string): Promise<{ id: string; path: string; scope: Scope }> {
    const wanted = prefix.toUpperCase();
    if (wanted.length < MIN_PREFIX || !/^[0-9A-HJKMNP-TV-Z]+$/.test(wanted) || wanted.length > 26) {
      throw new UsageError(
        `"${truncate(prefix)}" is not an invariant id or a prefix of one`,
        `Give the full id or at least ${MIN_PREFIX} of its first characters; \`agents invariant list\` shows ids.`,
      );
    }
    const matches: { id: string; path: string; scope: Scope }[] = [];
    for (const entry of await this.source.list('', { recursive: true })) {
      if (entry.type !== 'file' || !entry.path.endsWith('.yaml')) continue;
      const base = entry.path.slice(entry.path.lastIndexOf('/') + 1);
      if (!base.startsWith(wanted)) continue;
      const kind = classifyPath(entry.path);
      if (kind.kind === 'invariant') matches.push({ id: kind.id, path: entry.path, scope: kind.scope });
    }
    const exact = matches.filter((m) => m.id === wanted);
    const found = exact.length > 0 ? exact : matches;
    if (found.length === 0) {
      throw new UsageError(`no invariant with id ${isUlid(wanted) ? wanted : `prefix ${wanted}`}`, 'Run `agents invariant list --all` to see the ids.');
    }
    if (found.length > 1) {
      const list = found.map((m) => `  ${m.id}  ${m.path}`).join('\n');
      throw new UsageError(`id prefix ${wanted} is ambiguous; it matches:\n${list}`, 'Give more characters of the id.', { matches: found.map((m) => m.id) });
    }
    return found[0]!;
  }

  /** The folders whose invariants can shadow, or be shadowed by, one in `scope`. */
  private async relatedSnapshot(scope: Scope): Promise<StoreSnapshot> {
    switch (scope.kind) {
      case 'action':
        return emptySnapshot();
      case 'plan': {
        const plan = await this.readPlan(scope.plan);
        return readFolders(this.source, ['global', ...(plan.project ? [`projects/${plan.project}`] : [])]);
      }
      case 'project': {
        const snap = await readAllPlans(this.source);
        const targeting = [...snap.plans.values()].filter((p) => p.project === scope.project).map((p) => `plans/${p.id}`);
        return readFolders(this.source, ['global', ...targeting], snap);
      }
      case 'global':
        return readStore(this.source);
    }
  }

  /**
   * Adds an invariant. Refuses (exit 1) a text whose key equals one already in
   * the same scope; the check and the write happen under the scope's lock.
   */
  async add(input: AddInput): Promise<AddResult> {
    const scope = toScope(input.scope);
    const text = cleanText(input.text);
    if (text === '') throw new UsageError('the invariant text is empty', 'Give the constraint as the last argument, e.g. "Never delete production data".');
    const length = codePointLength(text);
    if (length > MAX_TEXT_LENGTH) throw new UsageError(`the invariant text is ${length} characters long; the limit is ${MAX_TEXT_LENGTH}`, 'Shorten it; put the reasons in --rationale.');
    const severity = input.severity ?? 'error';
    if (!SEVERITIES.includes(severity)) throw new UsageError(`severity "${String(severity)}" is not one of ${SEVERITIES.join(', ')}`);
    const tags = checkTags(input.tags ?? []);
    const rationale = input.rationale?.trim() || undefined;
    if (scope.kind === 'plan') await this.readPlan(scope.plan);
    const creates = scope.kind === 'project' ? await this.checkNewProject(scope.project, input.newProject ?? false) : undefined;
    const author = await this.deps.author(this.root);
    const folder = scopeFolder(scope);
    const key = textKey(text);

    // What only writing needs (yaml's writer, node:crypto for ids and temporary names) loads here, not at start-up.
    const [{ formatInvariantFile }, { withFolderLock, writeFileAtomic }] = await Promise.all([import('../core/serialize.ts'), import('../store/write.ts'), loadIdGenerator()]);
    const draft = (id: string): ScopedInvariant => {
      const inv: ScopedInvariant = {
        id,
        text,
        severity,
        active: true,
        tags,
        created_at: this.deps.clock().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        scope,
        path: invariantPath(scope, id),
      };
      if (rationale !== undefined) inv.rationale = rationale;
      if (author !== undefined) inv.created_by = author;
      if (scope.kind === 'plan') inv.source = { kind: 'plan' };
      return inv;
    };
    // The schema check, before the lock makes the scope's folder: a refused value leaves nothing behind.
    formatInvariantFile(draft(PROBE_ID).path, draft(PROBE_ID));
    const enabled = await commitWanted(this.source, input.commit);
    const { invariant, commit } = await withCommit(this.root, enabled, async () => {
      const written = await withFolderLock(
      this.root,
      folder,
      async () => {
        const here = await readFolders(this.source, [folder]);
        requireValid(here, `add to ${describeScope(scope)}`);
        const dup = here.invariants.find((i) => textKey(i.text) === key);
        if (dup) {
          throw new CheckFailedError(
            `duplicate: ${describeScope(scope)} already holds this text as ${dup.id}${dup.active ? '' : ' (inactive)'}`,
            `See it with \`agents invariant show ${dup.id}\`; nothing was written.`,
            { existing_id: dup.id, path: dup.path },
            'duplicate',
          );
        }
        const inv = draft(this.deps.newId());
        writeFileAtomic(this.root, inv.path, formatInvariantFile(inv.path, inv));
        return inv;
      },
      { onStale: this.deps.notice },
      );
      return { value: { invariant: written }, paths: [written.path], message: `invariant: add ${written.id} to ${describeScope(scope)}\n\n${written.text}\n` };
    });

    // Notes of what the new copy shadows or is shadowed by: best effort over readable files.
    const related = await this.relatedSnapshot(scope);
    const plans = related.plans;
    if (scope.kind === 'plan' && !plans.has(scope.plan)) plans.set(scope.plan, await this.readPlan(scope.plan));
    const info = shadowInfo(invariant, related.invariants, plans);
    return {
      invariant,
      file: `${this.root}/${invariant.path}`,
      shadows: info.shadows,
      shadowedBy: info.shadowedBy,
      ...(commit ? { commit } : {}),
      ...(creates !== undefined ? { createdProject: creates } : {}),
    };
  }

  /** The projects that exist: folders under `projects/` with valid names (docs/store-format.md). */
  async projectNames(): Promise<string[]> {
    return (await this.source.list('projects', { recursive: false }))
      .filter((e) => e.type === 'dir')
      .map((e) => e.path.slice(e.path.lastIndexOf('/') + 1))
      .filter(isName)
      .sort();
  }

  /**
   * Refuses (exit 2) to read a project that does not exist, naming the
   * closest existing ones: a typo must never read as an empty project and
   * hand out a silently shortened set.
   */
  async requireProject(project: string, options: { writing?: boolean } = {}): Promise<void> {
    const known = await this.projectNames();
    if (known.includes(project)) return;
    const suggestions = closestNames(project, known);
    const guess = didYouMean(suggestions);
    throw new UsageError(
      `unknown project ${project}: projects/${project}/ does not exist${guess ? `; ${guess}` : ''}`,
      `${options.writing ? 'Nothing was written. ' : ''}Known projects: ${known.length ? known.join(', ') : '(none)'}. A project is created by adding its first invariant: \`agents invariant add --project ${project} "…"\`.`,
      { project, suggestions, known },
      'unknown-project',
    );
  }

  /**
   * For an add to `project`: undefined when it exists; its name when the add
   * will create it. A new name close to an existing project's (within two
   * edits, or equal ignoring case and separators) is refused as a likely
   * typo unless `confirmed` (`--new-project`).
   */
  async checkNewProject(project: string, confirmed: boolean): Promise<string | undefined> {
    const known = await this.projectNames();
    if (known.includes(project)) return undefined;
    const close = known.filter((k) => isCloseName(project, k));
    if (close.length > 0 && !confirmed) {
      const ranked = closestNames(project, close);
      const suggestions = ranked.length > 0 ? ranked : close;
      throw new UsageError(
        `project ${project} does not exist, and its name is close to ${suggestions.length === 1 ? 'the existing project' : 'the existing projects'} ${suggestions.join(', ')}; ${didYouMean(suggestions)}`,
        `Nothing was written. To add to ${suggestions[0]}, use --project ${suggestions[0]}; to create project ${project} anyway, add --new-project.`,
        { project, suggestions, known },
        'close-project-name',
      );
    }
    return project;
  }

  /**
   * Reads what a text added to `scope` could duplicate, shadow or be shadowed
   * by. Never writes; invalid files are skipped (the add itself re-checks its
   * scope under the lock).
   */
  async addContext(input: ScopeInput | Scope): Promise<AddContext> {
    const scope = toScope(input);
    const snap = await this.relatedSnapshot(scope);
    if (scope.kind !== 'global') await readFolders(this.source, [scopeFolder(scope)], snap);
    return { scope, invariants: snap.invariants, plans: snap.plans };
  }

  /** A dry run of `add`: would the text be a duplicate (refused), and what would it shadow or be shadowed by? */
  async checkAdd(input: { scope: ScopeInput | Scope; text: string }): Promise<AddCheck> {
    const context = await this.addContext(input.scope);
    return checkNewInvariant(context.scope, cleanText(input.text), context.invariants, context.plans);
  }

  /** The projects, action templates and plans that exist (folders with valid names). */
  async scopes(): Promise<ScopeCatalog> {
    const dirs = async (dir: string): Promise<string[]> =>
      (await this.source.list(dir, { recursive: false }))
        .filter((e) => e.type === 'dir')
        .map((e) => e.path.slice(e.path.lastIndexOf('/') + 1))
        .filter(isName)
        .sort();
    const actions: string[] = [];
    for (const ns of await dirs('actions')) for (const name of await dirs(`actions/${ns}`)) actions.push(`${ns}/${name}`);
    const plans = [...(await readAllPlans(this.source)).plans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { projects: await this.projectNames(), actions, plans };
  }

  /** Invariants of one scope, or of the whole store; active ones unless `all`. */
  async list(options: ListOptions = {}): Promise<ListedInvariant[]> {
    const re = options.pattern !== undefined ? compileFilter(options.pattern) : undefined;
    const scope = options.scope ? toScope(options.scope) : undefined;
    if (scope?.kind === 'plan') await this.readPlan(scope.plan);
    const snap = scope ? await readFolders(this.source, [scopeFolder(scope)]) : await readStore(this.source);
    requireValid(snap, 'list invariants');
    if (scope?.kind === 'project' && !holdsProject(snap.invariants, scope.project)) await this.requireProject(scope.project);
    let items = snap.invariants.filter((i) => options.all || i.active);
    if (re) items = filterByRegex(items, re);
    items.sort(byScopeThenId);
    const shadows = scope ? undefined : shadowMap(snap.invariants, snap.plans);
    return items.map((invariant) => {
      const listed: ListedInvariant = { invariant };
      const s = shadows?.get(invariant.id);
      if (s) listed.shadow = s;
      return listed;
    });
  }

  /** The effective set of a project or a plan (SPEC 5), reading only the folders it needs. */
  async effective(target: { project: string } | { plan: string }, options: { pattern?: string } = {}): Promise<EffectiveResult> {
    const re = options.pattern !== undefined ? compileFilter(options.pattern) : undefined;
    let resolvedTarget: Target;
    let plan: Plan | undefined;
    let folders: string[];
    if ('plan' in target) {
      plan = await this.readPlan(target.plan);
      resolvedTarget = { kind: 'plan', plan: plan.id, ...(plan.project ? { project: plan.project } : {}) };
      folders = [`plans/${plan.id}`, ...(plan.project ? [`projects/${plan.project}`] : []), 'global'];
    } else {
      const scope = toScope({ project: target.project });
      if (scope.kind !== 'project') throw new Error('unreachable');
      resolvedTarget = { kind: 'project', project: scope.project };
      folders = [`projects/${scope.project}`, 'global'];
    }
    const snap = await readFolders(this.source, folders);
    requireValid(snap, 'resolve the effective set');
    if (resolvedTarget.kind === 'project' && !holdsProject(snap.invariants, resolvedTarget.project)) await this.requireProject(resolvedTarget.project);
    let entries = resolveEffective(resolvedTarget, snap.invariants);
    if (re) {
      const keep = new Set(filterByRegex(entries.map((e) => e.invariant), re));
      entries = entries.filter((e) => keep.has(e.invariant));
    }
    const result: EffectiveResult = { target: resolvedTarget, entries };
    if (plan) result.plan = plan;
    return result;
  }

  /** Everything about one invariant, with where it applies and what it shadows. */
  async show(idOrPrefix: string): Promise<ShowResult> {
    const found = await this.resolveId(idOrPrefix);
    const snap = await readStore(this.source);
    const inv = snap.invariants.find((i) => i.id === found.id && i.path === found.path);
    if (!inv) {
      requireValid({ ...snap, diagnostics: snap.diagnostics.filter((d) => d.file === found.path) }, `show ${found.id}`);
      throw new Error(`invariant ${found.id} was listed but not read`);
    }
    const info = shadowInfo(inv, snap.invariants, snap.plans);
    const result: ShowResult = { invariant: inv, appliesTo: '', shadow: info };
    switch (inv.scope.kind) {
      case 'global':
        result.appliesTo = 'every project and every plan';
        break;
      case 'project': {
        const project = inv.scope.project;
        result.plansTargeting = [...snap.plans.values()].filter((p) => p.project === project).map((p) => p.id).sort();
        result.appliesTo = `project ${project} and the ${result.plansTargeting.length} plan(s) targeting it`;
        break;
      }
      case 'plan':
        result.appliesTo = `plan ${inv.scope.plan} only`;
        break;
      case 'action':
        result.appliesTo = `no target directly; promoted into each plan created with \`agents plan use ${inv.scope.ns}/${inv.scope.name}\``;
        break;
    }
    if (!inv.active) result.appliesTo = `nothing while inactive (would apply to ${result.appliesTo})`;
    return result;
  }

  /** Deletes an invariant's file. Callers confirm first (see `show` for what it shadows). */
  async remove(idOrPrefix: string, options: { commit?: boolean } = {}): Promise<{ id: string; path: string; scope: Scope; commit?: string }> {
    const found = await this.resolveId(idOrPrefix);
    const { removeFile, withFolderLock } = await import('../store/write.ts');
    const enabled = await commitWanted(this.source, options.commit);
    return withCommit(this.root, enabled, async () => {
      await withFolderLock(this.root, scopeFolder(found.scope), () => removeFile(this.root, found.path), { onStale: this.deps.notice });
      return { value: found, paths: [found.path], message: `invariant: remove ${found.id} from ${describeScope(found.scope)}\n` };
    });
  }
}

/**
 * Whether the invariants read include one of `project`'s: then its folder
 * exists, and the listing of projects/ that proves it for an empty or
 * missing folder is not needed (a read reads only what it needs).
 */
function holdsProject(invariants: readonly ScopedInvariant[], project: string): boolean {
  return invariants.some((i) => i.scope.kind === 'project' && i.scope.project === project);
}

/** A well-formed id for checking a draft document before its real id is drawn. */
const PROBE_ID = '00000000000000000000000000';

function byScopeThenId(a: ScopedInvariant, b: ScopedInvariant): number {
  const order = ['global', 'project', 'action', 'plan'];
  const d = order.indexOf(a.scope.kind) - order.indexOf(b.scope.kind);
  if (d !== 0) return d;
  const fa = scopeFolder(a.scope);
  const fb = scopeFolder(b.scope);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export type { AddCheck, Diagnostic };
