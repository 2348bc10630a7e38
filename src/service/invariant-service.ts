import { closestNames, didYouMean, isCloseName } from '../core/closest.ts';
import { CheckFailedError, InvalidStoreError, UsageError } from '../core/errors.ts';
import type { Diagnostic } from '../core/diagnostics.ts';
import { classifyPath } from '../core/layout.ts';
import {
  SEVERITIES,
  describeScope,
  invariantPath,
  scopeFolder,
  type Guard,
  type Plan,
  type Scope,
  type ScopedInvariant,
  type Severity,
  type Target,
} from '../core/model.ts';
import { IdAbbreviations, normalisePrefix, pickId } from '../core/id-prefix.ts';
import { codePointLength, isName, isUlid, nameProblem, parseActionRef, truncate, ulidProblem } from '../core/names.ts';
import { cleanText, textKey } from '../core/normalise.ts';
import { MAX_TEXT_LENGTH } from '../core/parse-core.ts';
import { resolveEffective, type EffectiveEntry } from '../core/resolve.ts';
import { canMeet, looseKey, nearDuplicatesOf, type NearKind } from '../core/near-duplicates.ts';
import { invariantFieldChanges } from '../core/diff.ts';
import { checkNewInvariant, shadowInfo, shadowMap, type AddCheck, type ShadowInfo } from '../core/shadow.ts';
import { discoverStore } from '../store/discover.ts';
import { emptySnapshot, readAllPlans, readEntries, readFolders, readStore, type StoreSnapshot } from '../store/read.ts';
import { WorkingTreeSource, type TreeSource } from '../store/tree-source.ts';
import { commitWanted, withCommit } from './commit.ts';
import { defaultDeps, loadIdGenerator, type ServiceDeps } from './deps.ts';
import { compileFilter, filterByRegex } from './regex.ts';
import { waiverFolder, type ScopedWaiver, type WaiverScope } from '../core/waivers.ts';

/** How a caller names a scope: exactly one of these. */
export type ScopeInput = { global: true } | { project: string } | { plan: string } | { action: string };

export interface AddInput {
  scope: ScopeInput | Scope;
  text: string;
  severity?: Severity;
  tags?: string[];
  rationale?: string;
  /** What an agent may not do while it applies (docs/guard.md). */
  guard?: Guard;
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
  /** Texts nearly the same that can meet it in an effective set (a warning, not a refusal). */
  near: NearMatch[];
  /** The commit made with `commit`. */
  commit?: string;
  /** The project this add created (its folder did not exist before). */
  createdProject?: string;
}

/** A change to one invariant (`invariant edit`): only the fields given change. */
export interface EditInput {
  /** The invariant: an id or a unique prefix. */
  id: string;
  text?: string;
  severity?: Severity;
  /** Replaces every tag (the form); `addTags`/`removeTags` change some. */
  tags?: string[];
  addTags?: string[];
  removeTags?: string[];
  /** The new rationale; "" removes it. */
  rationale?: string;
  active?: boolean;
  /** The id (or unique prefix) of the copy this one replaces on purpose; "" removes the field. */
  overrides?: string;
  /** The lists given replace the guard's (docs/guard.md); null removes the guard. */
  guard?: Guard | null;
  commit?: boolean;
}

/** A near-duplicate of an invariant (core/near-duplicates.ts). */
export interface NearMatch {
  invariant: ScopedInvariant;
  kind: NearKind;
}

export interface EditResult {
  before: ScopedInvariant;
  invariant: ScopedInvariant;
  /** Absolute path of the file. */
  file: string;
  /** The fields that changed; empty when the edit changed nothing (and nothing was written). */
  changed: string[];
  shadows: ScopedInvariant[];
  shadowedBy: ScopedInvariant[];
  near: NearMatch[];
  commit?: string;
}

export interface MoveResult {
  before: ScopedInvariant;
  invariant: ScopedInvariant;
  /** Absolute path of the new file. */
  file: string;
  shadows: ScopedInvariant[];
  shadowedBy: ScopedInvariant[];
  near: NearMatch[];
  commit?: string;
}

export interface ListOptions {
  /** A plan may be named by a unique prefix of its id. */
  scope?: ScopeInput | Scope;
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
  /**
   * The waivers that cover the target (a plan's own and its project's; a
   * project's own), oldest first, each with whether it holds at the
   * service clock's time (docs/plans.md, "Waivers").
   */
  waivers: WaiverState[];
}

/** A waiver and whether it holds now. */
export type WaiverState = ScopedWaiver & { holds: boolean };

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
  /** The store folder; found by discovery (docs/store-format.md) when absent. */
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
    if (problem) throw new UsageError(problem, "Give the plan's full ULID; `agents plan list` shows them.");
    return { kind: 'plan', plan: input.plan };
  }
  const ref = parseActionRef(input.action);
  if (typeof ref === 'string') throw new UsageError(ref, 'Action names match ^[a-z0-9][a-z0-9._-]{0,63}$ on each side of the "/".');
  return { kind: 'action', ns: ref.ns, name: ref.name };
}

function scopeToInput(scope: Scope): ScopeInput {
  switch (scope.kind) {
    case 'global':
    case 'inherited':
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
    errors.length === 1
      ? `cannot ${what}: ${where} is invalid`
      : `cannot ${what}: ${errors.length} store files are invalid, first ${where}`,
    errors,
  );
}

/** The text as written, or a usage error (empty, too long): the same rule for add and edit. */
function checkText(raw: string): string {
  const text = cleanText(raw);
  if (text === '')
    throw new UsageError('the invariant text is empty', 'Give the constraint in natural language, e.g. "Never delete production data".');
  const length = codePointLength(text);
  if (length > MAX_TEXT_LENGTH)
    throw new UsageError(
      `the invariant text is ${length} characters long; the limit is ${MAX_TEXT_LENGTH}`,
      'Shorten it; put the reasons in --rationale.',
    );
  return text;
}

function checkSeverity(severity: Severity): Severity {
  if (!SEVERITIES.includes(severity)) throw new UsageError(`severity "${String(severity)}" is not one of ${SEVERITIES.join(', ')}`);
  return severity;
}

const MAX_RATIONALE = 10_000;

function checkRationale(raw: string | undefined): string | undefined {
  const rationale = raw?.trim() || undefined;
  if (rationale !== undefined && codePointLength(rationale) > MAX_RATIONALE)
    throw new UsageError(`the rationale is ${codePointLength(rationale)} characters long; the limit is ${MAX_RATIONALE}`);
  return rationale;
}

/** Near-duplicates of `subject` among `others` that can meet it in an effective set (active ones only). */
function nearAmong(subject: ScopedInvariant, others: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): NearMatch[] {
  if (!subject.active) return [];
  const candidates = others
    .filter((o) => o.id !== subject.id && o.active && canMeet(subject, o, plans))
    .map((o) => ({ invariant: o, loose: looseKey(o.text) }));
  return nearDuplicatesOf(subject.text, candidates);
}

function checkTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag === '' || tag.length > 64 || tag.includes(',')) {
      throw new UsageError(
        `tag "${truncate(raw)}" is invalid: tags are 1 to 64 characters without commas`,
        'Repeat --tag for several tags: --tag data --tag safety.',
      );
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * The use cases on invariants (README.md, docs/resolution.md): one method each. The CLI, the TUI and
 * agent runtimes that embed the library all go through it.
 */
/** A guard as given (`--guard-*`, the form): every pattern usable, else a usage error naming it (docs/guard.md). */
async function checkGuard(guard: Guard): Promise<Guard> {
  const { guardProblems } = await import('../core/guard-patterns.ts');
  const first = guardProblems(guard)[0];
  if (first) throw new UsageError(first.problem, 'Nothing was written. docs/guard.md gives the syntax of each list.');
  return guard;
}

export class InvariantService {
  readonly source: TreeSource;
  readonly deps: ServiceDeps;

  constructor(
    readonly root: string,
    deps: Partial<ServiceDeps> = {},
    source?: TreeSource,
  ) {
    this.deps = defaultDeps(deps);
    this.source = source ?? new WorkingTreeSource(root);
  }

  /** Opens the store named by `store`, or found from `cwd` (docs/store-format.md). */
  static open(options: OpenOptions = {}): InvariantService {
    const root = discoverStore({ store: options.store, env: options.env ?? process.env, cwd: options.cwd ?? process.cwd() });
    return new InvariantService(root, options.deps);
  }

  /** Reads one plan's plan.yaml; unknown plans are a usage error. */
  async readPlan(idOrPrefix: string): Promise<Plan> {
    const planId = isUlid(idOrPrefix) ? idOrPrefix : await this.resolvePlanId(idOrPrefix);
    const snap = await readFolders(this.source, [`plans/${planId}`]);
    const plan = snap.plans.get(planId);
    const planFile = `plans/${planId}/plan.yaml`;
    // The plan file itself, or a folder on its path (a link refused by the reader).
    const planErrors = snap.diagnostics.filter((d) => d.file === planFile || planFile.startsWith(`${d.file}/`));
    if (planErrors.length > 0) requireValid({ ...snap, diagnostics: planErrors }, `read plan ${planId}`);
    if (!plan) {
      throw new UsageError(
        `unknown plan ${planId}: plans/${planId}/plan.yaml does not exist`,
        'Create plans with `agents plan use NS/NAME`; `agents plan list` shows them.',
      );
    }
    return plan;
  }

  /** Finds the invariant an id or a unique prefix (≥ 4 characters) names (the rule of core/id-prefix.ts). */
  async resolveId(prefix: string): Promise<{ id: string; path: string; scope: Scope }> {
    const found: { id: string; path: string; scope: Scope }[] = [];
    for (const entry of await this.source.list('', { recursive: true })) {
      if (entry.type !== 'file' || !entry.path.endsWith('.yaml')) continue;
      const kind = classifyPath(entry.path);
      if (kind.kind === 'invariant') found.push({ id: kind.id, path: entry.path, scope: kind.scope });
    }
    const paths = new Map(found.map((f) => [f.id, f.path]));
    const id = pickId(
      prefix,
      paths.keys(),
      'invariant',
      'Run `agents invariant list --all` to see the ids.',
      (m) => `${m}  ${paths.get(m)}`,
    );
    const same = found.filter((f) => f.id === id);
    if (same.length > 1) {
      // One id in two files (an id-reused error): say which, rather than pick one.
      throw new UsageError(
        `id ${id} names ${same.length} files:\n${same.map((m) => `  ${m.id}  ${m.path}`).join('\n')}`,
        'Run `agents validate`: an id names one thing in the whole store.',
        { matches: same.map((m) => m.path) },
      );
    }
    return same[0]!;
  }

  /** The full id of the plan an id or a unique prefix (≥ 4 characters) names. */
  async resolvePlanId(prefix: string): Promise<string> {
    const wanted = normalisePrefix(prefix);
    const entries = await this.source.list('plans', { recursive: false });
    // A linked plans/ or plan folder is an invalid store (exit 3), not an unknown plan.
    if (wanted !== undefined) {
      const links = entries.filter((e) => e.type === 'symlink' && (e.path === 'plans' || e.path.slice('plans/'.length).startsWith(wanted)));
      if (links.length > 0) requireValid(await readEntries(this.source, links), `read plan ${wanted}`);
    }
    const ids = entries
      .filter((e) => e.type === 'dir')
      .map((e) => e.path.slice('plans/'.length))
      .filter(isUlid);
    return pickId(prefix, ids, 'plan', 'Run `agents plan list` to see the plans.');
  }

  /** A scope whose plan may be given as a unique prefix of its id (as every command takes ids), checked and made full. */
  async resolveScope(input: ScopeInput | Scope): Promise<Scope> {
    if ('plan' in input && !isUlid(input.plan)) return toScope({ plan: await this.resolvePlanId(input.plan) });
    return toScope(input);
  }

  /** Every invariant id and plan id in the store, for abbreviating ids in output (core/id-prefix.ts). */
  async abbreviations(): Promise<IdAbbreviations> {
    const ids: string[] = [];
    for (const entry of await this.source.list('', { recursive: true })) {
      const kind = classifyPath(entry.path);
      if (kind.kind === 'invariant') ids.push(kind.id);
      else if (kind.kind === 'plan') ids.push(kind.plan);
    }
    return new IdAbbreviations(ids);
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
      case 'inherited':
        return readStore(this.source);
    }
  }

  /**
   * Adds an invariant. Refuses (exit 1) a text whose key equals one already in
   * the same scope; the check and the write happen under the scope's lock.
   */
  async add(input: AddInput): Promise<AddResult> {
    const scope = await this.resolveScope(input.scope);
    const text = checkText(input.text);
    const severity = checkSeverity(input.severity ?? 'error');
    const tags = checkTags(input.tags ?? []);
    const rationale = checkRationale(input.rationale);
    const guard = input.guard !== undefined ? await checkGuard(input.guard) : undefined;
    if (scope.kind === 'plan') await this.readPlan(scope.plan);
    const creates = scope.kind === 'project' ? await this.checkNewProject(scope.project, input.newProject ?? false) : undefined;
    const author = await this.deps.author(this.root);
    const folder = scopeFolder(scope);
    const key = textKey(text);

    // What only writing needs (yaml's writer, node:crypto for ids and temporary names) loads here, not at start-up.
    const [{ formatInvariantFile }, { withFolderLock, writeFileAtomic }] = await Promise.all([
      import('../core/serialize.ts'),
      import('../store/write.ts'),
      loadIdGenerator(),
    ]);
    const draft = (id: string): ScopedInvariant => {
      const inv: ScopedInvariant = {
        id,
        text,
        severity,
        active: true,
        tags,
        created_at: this.deps
          .clock()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        scope,
        path: invariantPath(scope, id),
      };
      if (rationale !== undefined) inv.rationale = rationale;
      if (guard !== undefined) inv.guard = guard;
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
      return {
        value: { invariant: written },
        paths: [written.path],
        message: `invariant: add ${written.id} to ${describeScope(scope)}\n\n${written.text}\n`,
      };
    });

    // Notes of what the new copy shadows or is shadowed by: best effort over readable files.
    const related = await this.relatedSnapshot(scope);
    const plans = related.plans;
    if (scope.kind === 'plan' && !plans.has(scope.plan)) plans.set(scope.plan, await this.readPlan(scope.plan));
    const info = shadowInfo(invariant, related.invariants, plans);
    const near = nearAmong(invariant, related.invariants, plans);
    return {
      invariant,
      file: `${this.root}/${invariant.path}`,
      shadows: info.shadows,
      shadowedBy: info.shadowedBy,
      near,
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

  /** What an invariant in `scope` shadows, is shadowed by and nearly repeats: best effort over readable files. */
  private async relations(inv: ScopedInvariant): Promise<{ shadows: ScopedInvariant[]; shadowedBy: ScopedInvariant[]; near: NearMatch[] }> {
    const related = await this.relatedSnapshot(inv.scope);
    if (inv.scope.kind !== 'global') await readFolders(this.source, [scopeFolder(inv.scope)], related);
    const plans = related.plans;
    if (inv.scope.kind === 'plan' && !plans.has(inv.scope.plan)) plans.set(inv.scope.plan, await this.readPlan(inv.scope.plan));
    const others = related.invariants.filter((o) => o.id !== inv.id);
    const info = shadowInfo(inv, others, plans);
    return { shadows: info.shadows, shadowedBy: info.shadowedBy, near: nearAmong(inv, others, plans) };
  }

  /** The invariant file of `found`, read and valid (exit 3 naming the file otherwise). */
  private async readOne(found: { id: string; path: string; scope: Scope }, what: string): Promise<ScopedInvariant> {
    const snap = await readFolders(this.source, [scopeFolder(found.scope)]);
    const inv = snap.invariants.find((i) => i.id === found.id && i.path === found.path);
    if (!inv) {
      requireValid({ ...snap, diagnostics: snap.diagnostics.filter((d) => d.file === found.path) }, `${what} ${found.id}`);
      throw new UsageError(
        `no invariant with id ${found.id}: ${found.path} is gone`,
        'Another command may have moved or removed it; run `agents invariant list --all`.',
      );
    }
    return inv;
  }

  /**
   * Changes fields of one invariant (`invariant edit`): the same checks as
   * `add` (text, severity, tags, a same-scope duplicate refused with exit 1),
   * under the scope's lock, written atomically in place; the id, the file and
   * the provenance stay. An edit that changes nothing writes nothing.
   */
  async edit(input: EditInput): Promise<EditResult> {
    const found = await this.resolveId(input.id);
    const text = input.text !== undefined ? checkText(input.text) : undefined;
    const severity = input.severity !== undefined ? checkSeverity(input.severity) : undefined;
    const replaceTags = input.tags !== undefined ? checkTags(input.tags) : undefined;
    const addTags = checkTags(input.addTags ?? []);
    const removeTags = (input.removeTags ?? []).map((t) => t.trim());
    const both = addTags.find((t) => removeTags.includes(t));
    if (both !== undefined)
      throw new UsageError(`tag "${truncate(both)}" is both added and removed`, 'Give it to --tag or to --untag, not both.');
    const rationale = input.rationale !== undefined ? (checkRationale(input.rationale) ?? '') : undefined;
    const guard = input.guard ? await checkGuard(input.guard) : input.guard;
    let overrides: string | undefined;
    if (input.overrides !== undefined && input.overrides.trim() !== '') {
      overrides = (await this.resolveId(input.overrides)).id;
      if (overrides === found.id)
        throw new UsageError(
          `an invariant cannot override itself (${found.id})`,
          'Name the lower-precedence copy of the same text it replaces.',
        );
    }
    const folder = scopeFolder(found.scope);
    const { formatInvariantFile } = await import('../core/serialize.ts');
    const { withFolderLock, writeFileAtomic } = await import('../store/write.ts');
    const enabled = await commitWanted(this.source, input.commit);

    let before: ScopedInvariant | undefined;
    let changed: string[] = [];
    const done = await withCommit(this.root, enabled, async () => {
      const written = await withFolderLock(
        this.root,
        folder,
        async () => {
          const here = await readFolders(this.source, [folder]);
          requireValid(here, `edit ${found.id} in ${describeScope(found.scope)}`);
          const old = here.invariants.find((i) => i.id === found.id);
          if (!old)
            throw new UsageError(
              `no invariant with id ${found.id}: ${found.path} is gone`,
              'Another command may have moved or removed it; run `agents invariant list --all`.',
            );
          before = old;
          const next: ScopedInvariant = { ...old, tags: [...old.tags] };
          if (text !== undefined) next.text = text;
          if (severity !== undefined) next.severity = severity;
          if (replaceTags !== undefined) next.tags = replaceTags;
          for (const t of removeTags) {
            if (!next.tags.includes(t))
              throw new UsageError(
                `${found.id} has no tag "${truncate(t)}"`,
                old.tags.length ? `Its tags: ${old.tags.join(', ')}.` : 'It has no tags.',
              );
            next.tags = next.tags.filter((x) => x !== t);
          }
          for (const t of addTags) if (!next.tags.includes(t)) next.tags.push(t);
          if (rationale !== undefined) {
            if (rationale === '') delete next.rationale;
            else next.rationale = rationale;
          }
          if (input.active !== undefined) next.active = input.active;
          if (guard === null) delete next.guard;
          else if (guard !== undefined) next.guard = { ...old.guard, ...guard };
          if (input.overrides !== undefined) {
            if (overrides === undefined) delete next.overrides;
            else next.overrides = overrides;
          }
          changed = invariantFieldChanges(old, next).map((c) => c.field);
          if (changed.length === 0) return undefined;
          if (textKey(next.text) !== textKey(old.text)) {
            const dup = here.invariants.find((i) => i.id !== old.id && textKey(i.text) === textKey(next.text));
            if (dup) {
              throw new CheckFailedError(
                `duplicate: ${describeScope(found.scope)} already holds this text as ${dup.id}${dup.active ? '' : ' (inactive)'}`,
                `See it with \`agents invariant show ${dup.id}\`; nothing was written.`,
                { existing_id: dup.id, path: dup.path },
                'duplicate',
              );
            }
          }
          if (next.overrides !== undefined && (changed.includes('overrides') || changed.includes('text'))) await this.checkOverride(next);
          writeFileAtomic(this.root, next.path, formatInvariantFile(next.path, next), 'replace');
          return next;
        },
        { onStale: this.deps.notice },
      );
      return {
        value: { invariant: written },
        paths: written ? [written.path] : [],
        message: `invariant: edit ${found.id} in ${describeScope(found.scope)} (${changed.join(', ')})\n\n${(written ?? before)?.text ?? ''}\n`,
      };
    });
    const invariant = done.invariant ?? before!;
    const rel = await this.relations(invariant);
    return {
      before: before!,
      invariant,
      file: `${this.root}/${invariant.path}`,
      changed,
      ...rel,
      ...(done.commit ? { commit: done.commit } : {}),
    };
  }

  /** An `overrides` must name an invariant of the same text (docs/store-format.md); a usage error otherwise, before anything is written. */
  private async checkOverride(inv: ScopedInvariant): Promise<void> {
    const target = await this.readOne(await this.resolveId(inv.overrides!), 'read');
    if (textKey(target.text) !== textKey(inv.text)) {
      throw new UsageError(
        `${inv.id} cannot override ${target.id}: their texts differ ("${truncate(target.text)}")`,
        'An override is a copy of the same text (with another severity, tags or rationale); give the id of such a copy.',
      );
    }
  }

  /**
   * Moves an invariant to another scope (`invariant move`), keeping its id
   * (so `invariant log` follows it) and its fields. A duplicate in the
   * destination is refused (exit 1). Both scopes are locked; the new file is
   * written before the old one is removed, so a crash never loses it.
   */
  async move(idOrPrefix: string, to: ScopeInput | Scope, options: { commit?: boolean } = {}): Promise<MoveResult> {
    const found = await this.resolveId(idOrPrefix);
    const dest = await this.resolveScope(to);
    if (scopeFolder(dest) === scopeFolder(found.scope)) {
      throw new UsageError(
        `${found.id} is already in ${describeScope(dest)}`,
        'Name another scope: --global, --project P, --action NS/NAME or --plan ID.',
      );
    }
    if (dest.kind === 'plan') await this.readPlan(dest.plan);
    await this.readOne(found, 'move');
    const from = scopeFolder(found.scope);
    const toFolder = scopeFolder(dest);
    const { formatInvariantFile } = await import('../core/serialize.ts');
    const { withFolderLock, writeFileAtomic, removeFile } = await import('../store/write.ts');
    const enabled = await commitWanted(this.source, options.commit);
    // Two locks, always taken in the same order, so two moves in opposite directions cannot wait on each other.
    const [first, second] = [from, toFolder].sort() as [string, string];
    let before: ScopedInvariant | undefined;
    const done = await withCommit(this.root, enabled, async () => {
      const moved = await withFolderLock(
        this.root,
        first,
        () =>
          withFolderLock(
            this.root,
            second,
            async () => {
              const here = await readFolders(this.source, [from, toFolder]);
              requireValid(here, `move ${found.id} to ${describeScope(dest)}`);
              const old = here.invariants.find((i) => i.id === found.id && i.path === found.path);
              if (!old)
                throw new UsageError(
                  `no invariant with id ${found.id}: ${found.path} is gone`,
                  'Another command may have moved or removed it; run `agents invariant list --all`.',
                );
              before = old;
              const dup = here.invariants.find((i) => scopeFolder(i.scope) === toFolder && textKey(i.text) === textKey(old.text));
              if (dup) {
                throw new CheckFailedError(
                  `duplicate: ${describeScope(dest)} already holds this text as ${dup.id}${dup.active ? '' : ' (inactive)'}`,
                  `See it with \`agents invariant show ${dup.id}\`; nothing was moved.`,
                  { existing_id: dup.id, path: dup.path },
                  'duplicate',
                );
              }
              const next: ScopedInvariant = { ...old, tags: [...old.tags], scope: dest, path: invariantPath(dest, old.id) };
              // Provenance belongs to plan scope only: kept between plans, added on the way in, dropped on the way out.
              if (dest.kind === 'plan') next.source = old.source ?? { kind: 'plan' };
              else delete next.source;
              writeFileAtomic(this.root, next.path, formatInvariantFile(next.path, next));
              removeFile(this.root, old.path);
              return next;
            },
            { onStale: this.deps.notice },
          ),
        { onStale: this.deps.notice },
      );
      return {
        value: { invariant: moved },
        paths: [found.path, moved.path],
        message: `invariant: move ${found.id} from ${describeScope(found.scope)} to ${describeScope(dest)}\n\n${moved.text}\n`,
      };
    });
    const rel = await this.relations(done.invariant);
    return {
      before: before!,
      invariant: done.invariant,
      file: `${this.root}/${done.invariant.path}`,
      ...rel,
      ...(done.commit ? { commit: done.commit } : {}),
    };
  }

  /**
   * Reads what a text added to `scope` could duplicate, shadow or be shadowed
   * by. Never writes; invalid files are skipped (the add itself re-checks its
   * scope under the lock).
   */
  async addContext(input: ScopeInput | Scope): Promise<AddContext> {
    const scope = await this.resolveScope(input);
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
    const scope = options.scope ? await this.resolveScope(options.scope) : undefined;
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

  /** The effective set of a project or a plan (docs/resolution.md), reading only the folders it needs. */
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
    if (resolvedTarget.kind === 'project' && !holdsProject(snap.invariants, resolvedTarget.project))
      await this.requireProject(resolvedTarget.project);
    const inherited = await this.inherited();
    let entries = resolveEffective(resolvedTarget, inherited.length > 0 ? [...snap.invariants, ...inherited] : snap.invariants);
    if (re) {
      const keep = new Set(
        filterByRegex(
          entries.map((e) => e.invariant),
          re,
        ),
      );
      entries = entries.filter((e) => keep.has(e.invariant));
    }
    const result: EffectiveResult = { target: resolvedTarget, entries, waivers: await this.waiversOf(resolvedTarget, snap.entries) };
    if (plan) result.plan = plan;
    return result;
  }

  /**
   * The invariants this store inherits from its policy sources (docs/extends.md),
   * read from the cache at the pinned commits: never from the network. None
   * when config.yaml has no `extends`. A pin missing from the cache is exit 2
   * naming `agents extends fetch`; an invalid file in a source is exit 3.
   */
  async inherited(): Promise<ScopedInvariant[]> {
    // A look at config.yaml's text first: a store without `extends` loads and parses nothing more.
    const config = (await this.source.read(['config.yaml'])).get('config.yaml');
    if (!config?.ok || !/^extends\s*:/m.test(new TextDecoder().decode(config.bytes))) return [];
    const { readExtendsState, pinsFor, readInherited } = await import('../store/extends.ts');
    const state = await readExtendsState(this.source);
    if (state.sources.length === 0) return [];
    requireValid({ ...emptySnapshot(), diagnostics: state.diagnostics }, 'read the policy sources');
    const read = await readInherited(this.root, pinsFor(state));
    requireValid({ ...emptySnapshot(), diagnostics: read.diagnostics }, 'read the policy sources');
    return read.invariants;
  }

  /**
   * The waivers covering a target, with whether each holds now. `listed`: the
   * target's folders as already listed; the waiver reader loads only when one
   * of them holds a waivers/ folder.
   */
  async waiversOf(target: Target, listed?: readonly { path: string; type: string }[]): Promise<WaiverState[]> {
    const scopes: WaiverScope[] = target.kind === 'plan' ? [{ kind: 'plan', plan: target.plan }] : [];
    if (target.project !== undefined) scopes.push({ kind: 'project', project: target.project });
    const present = listed ? scopes.filter((s) => listed.some((e) => e.type === 'dir' && e.path === waiverFolder(s))) : scopes;
    if (present.length === 0) return [];
    const [{ readWaivers }, { waiverHolds }] = await Promise.all([import('../store/read-waivers.ts'), import('../core/waivers.ts')]);
    const read = await readWaivers(this.source, present);
    requireValid({ ...emptySnapshot(), diagnostics: read.diagnostics }, 'read the waivers');
    const now = this.deps.clock();
    return read.waivers.map((w) => ({ ...w, holds: waiverHolds(w, now) }));
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
        result.plansTargeting = [...snap.plans.values()]
          .filter((p) => p.project === project)
          .map((p) => p.id)
          .sort();
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
  async remove(
    idOrPrefix: string,
    options: { commit?: boolean } = {},
  ): Promise<{ id: string; path: string; scope: Scope; commit?: string }> {
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
