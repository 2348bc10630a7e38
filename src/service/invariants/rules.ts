// The rules every use case applies to what callers give: scope names, texts, severities, tags.
import { type Diagnostic, invalidFilesMessage, uniqueDiagnostics } from '../../core/diagnostics.ts';
import { CheckFailedError, type CommandHint, InvalidStoreError, storeChanged, UsageError, valueTooLong } from '../../core/errors.ts';
import { duplicateMessage } from '../../core/shadow.ts';
import { inputObject, optionalString, optionalStrings, requiredString, typeName } from '../../core/input-shape.ts';
import {
  GUARD_KINDS,
  type Guard,
  type Plan,
  SEVERITIES,
  actionName,
  type Scope,
  type ScopedInvariant,
  type Severity,
  scopeFolder,
} from '../../core/model.ts';
import { closestNames, hintWithGuess } from '../../core/closest.ts';
import { splitSourceRef } from '../../core/extends.ts';
import { codePointLength, nameProblem, parseActionRef, truncate, ulidProblem } from '../../core/names.ts';
import { canMeet, looseKey, nearDuplicatesOf } from '../../core/near-duplicates.ts';
import { cleanTag, cleanText } from '../../core/normalise.ts';
import { MAX_TEXT_LENGTH } from '../../core/parse-core.ts';
import { actorApart } from '../../store/config.ts';
import type { StoreSnapshot } from '../../store/read.ts';
import type { TreeSource } from '../../store/tree-source.ts';
import { reusedInvariantIds } from '../../validate/checks/ids.ts';
import type { NearMatch, ScopeInput } from './types.ts';
import { type OptionWords, optionWords } from '../option-words.ts';
import { docsRef } from '../../core/docs-link.ts';
import { escapeUnsafe, quoteText } from '../../core/plain-text.ts';

/** Turns a caller's scope flags into a scope, refusing bad names before any path is built. */
export function toScope(input: ScopeInput | Scope): Scope {
  if (typeof input === 'object' && input !== null && 'kind' in input) {
    const loose = scopeToInput(input) as ScopeInput | undefined;
    // A Scope of a kind there is none of: said by requireOneScope, kind named.
    if (loose === undefined) requireOneScope(input);
    return toScope(loose!);
  }
  requireOneScope(input);
  if ('global' in input) return { kind: 'global' };
  if ('project' in input) {
    const problem = nameProblem(input.project, 'project');
    if (problem) {
      // Names are lower case: `MyApp` is a slip for `myapp`, said as such.
      const lower = input.project.toLowerCase();
      const guess = lower !== input.project && nameProblem(lower, 'project') === null ? [lower] : [];
      throw new UsageError(
        problem,
        hintWithGuess(
          guess,
          'Project names match ^[a-z0-9][a-z0-9._-]{0,63}$ and are not a scope word (global, project, plan, action, inherited, extends and their plurals).',
        ),
        guess.length > 0 ? { project: input.project, suggestions: guess } : undefined,
      );
    }
    return { kind: 'project', project: input.project };
  }
  if ('plan' in input) {
    const problem = ulidProblem(input.plan, 'plan id');
    if (problem) throw new UsageError(problem, (agents) => `Give the plan's full ULID; \`${agents} plan list\` shows them.`);
    return { kind: 'plan', plan: input.plan };
  }
  // SOURCE:NS/NAME names a policy source's template (docs/extends.md), as `plan use` and `action list` write it.
  const { source, local } = splitSourceRef(input.action);
  if (source !== undefined) {
    const problem = nameProblem(source, 'policy source');
    if (problem) throw new UsageError(problem, `Write a source's action as <source>:<ns>/<name> (${docsRef('extends.md')}).`);
  }
  const ref = parseActionRef(local, source);
  if (typeof ref === 'string') {
    // As for a project: `Local/Cover` is a slip for `local/cover` (and `policy:Local/Cover` for `policy:local/cover`).
    const lower = local.toLowerCase();
    const guess = lower !== local && typeof parseActionRef(lower) !== 'string' ? [source === undefined ? lower : `${source}:${lower}`] : [];
    throw new UsageError(
      ref,
      hintWithGuess(guess, 'Action names match ^[a-z0-9][a-z0-9._-]{0,63}$ on each side of the "/".'),
      guess.length > 0 ? { action: input.action, suggestions: guess } : undefined,
    );
  }
  return source === undefined ? { kind: 'action', ns: ref.ns, name: ref.name } : { kind: 'action', ns: ref.ns, name: ref.name, source };
}

/**
 * The refusal (`duplicate`) of a write that would put the text of `dup`, an invariant of `scope`, there twice; `nothing`
 * says what the command did not do.
 * @internal
 */
export function duplicateRefusal(
  scope: Scope,
  dup: Pick<ScopedInvariant, 'id' | 'active' | 'path'>,
  words: OptionWords | undefined,
  nothing: 'written' | 'moved',
): CheckFailedError {
  return new CheckFailedError(
    duplicateMessage(scope, dup),
    `See it with \`${optionWords(words).calls.show(dup.id)}\`; nothing was ${nothing}.`,
    { existing_id: dup.id, path: dup.path },
    'duplicate',
  );
}

/**
 * Refuses (exit 2) to write into a policy source's action template: it is changed in the source's
 * repository, as an inherited invariant is (docs/extends.md).
 * @internal
 */
export function requireOwnScope(scope: Scope, words: OptionWords | undefined): void {
  if (scope.kind !== 'action' || scope.source === undefined) return;
  throw new UsageError(
    `action ${actionName(scope)} is a template of the policy source ${scope.source}; this store cannot change it`,
    `Nothing was written. Change it in the repository of ${scope.source} (config.yaml's extends), or use a template of this store (\`${optionWords(words).calls.listActions}\`).`,
    { source: scope.source, action: actionName(scope) },
  );
}

const SCOPE_KEYS = ['global', 'project', 'plan', 'action'] as const;
const SCOPE_FORMS = '{global: true}, {project: NAME}, {plan: ID} or {action: "NS/NAME"}';

/** One scope, of the right type: a library caller in JavaScript may hand none, two, or a number. */
export function requireOneScope(input: unknown): void {
  // A scope given as a word ('global') or a list is no scope object: said so, not "no scope given" (or a scope field `0`).
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input)))
    throw new UsageError(`a scope is an object, not ${typeName(input)}`, `Give one of ${SCOPE_FORMS}.`, { field: 'scope' });
  const loose = (input ?? {}) as Record<string, unknown>;
  const given = SCOPE_KEYS.filter((k) => loose[k] !== undefined);
  const one = given[0];
  if (given.length === 1 && (one === 'global' ? loose.global === true : typeof loose[one!] === 'string')) return;
  // One scope of the wrong type ({project: 1}) is named, not called no scope at all.
  if (given.length === 1 && one !== 'global') requiredString(loose[one!], one!);
  if (given.length === 1)
    throw new UsageError(
      `global must be true, not ${typeof loose.global === 'boolean' ? 'false' : typeName(loose.global)}`,
      'Give {global: true} for the global scope.',
      { field: 'global' },
    );
  // No scope, but fields that are none (`{projekt: 'x'}`, a Scope of an unknown kind): named, with the closest.
  const others =
    given.length === 0
      ? Object.keys(loose).filter((k) => k !== 'kind' && loose[k] !== undefined && !(SCOPE_KEYS as readonly string[]).includes(k))
      : [];
  const kind = given.length === 0 && typeof loose.kind === 'string' ? loose.kind : undefined;
  const suggestions = [...others, ...(kind === undefined ? [] : [kind])].flatMap((k) => closestNames(k, SCOPE_KEYS, 1));
  const why =
    kind !== undefined
      ? `no scope given: kind "${truncate(kind)}" is none of ${SCOPE_KEYS.join(', ')}`
      : others.length > 0
        ? `no scope given: ${others.map((k) => truncate(k)).join(', ')} ${others.length === 1 ? 'is not a scope field' : 'are not scope fields'}`
        : 'no scope given';
  throw new UsageError(
    given.length > 1 ? `a scope is one of ${SCOPE_KEYS.join(', ')}, not ${given.join(' and ')}` : why,
    hintWithGuess(suggestions, `Give one of ${SCOPE_FORMS}.`),
    // `field`, as every other wrong input of the library names it (docs/library.md): the scope is what is wrong.
    { field: 'scope', scopes: given, ...(given.length === 0 ? { suggestions } : {}) },
  );
}

/** A Scope a caller gives (an invariant's, as the readers return it) as the fields toScope and effective() take. */
export function scopeToInput(scope: Scope): ScopeInput {
  switch (scope.kind) {
    case 'global':
      return { global: true };
    case 'inherited': {
      // Its policy source's, read at the source's pin: taken as {global: true}, an inherited invariant's scope had add
      // and move write to this store's global scope, and list list that scope, in silence.
      const source = typeof scope.source === 'string' ? scope.source : undefined;
      throw new UsageError(
        `the inherited scope${source === undefined ? '' : ` of the policy source ${truncate(source)}`} is no scope of this store: its invariants are read from the source`,
        `Nothing was done. Change an inherited invariant in its source's repository (config.yaml's extends); effective() includes the inherited invariants, and {global: true} is this store's own global scope (${docsRef('extends.md')}).`,
        { field: 'scope', ...(source === undefined ? {} : { source }) },
      );
    }
    case 'project':
      return { project: scope.project };
    case 'plan':
      return { plan: scope.plan };
    case 'action':
      return { action: actionName(scope) };
  }
}

/**
 * Refuses (exit 2) to write into a plan whose plan.yaml went after the plan was read: the lock a writer takes makes
 * the folder again, and a file written there alone is a plan folder without plan.yaml, which fails every listing
 * of plans. Called under the plan folder's lock; `what` says what the command was doing meanwhile.
 * @internal
 */
export async function requirePlanHeld(source: TreeSource, plan: string, what: string, words: OptionWords | undefined): Promise<void> {
  const here = await source.list(`plans/${plan}`, { recursive: false });
  if (!here.some((e) => e.path === `plans/${plan}/plan.yaml`))
    throw storeChanged(
      `plan ${plan} is gone: it was removed while ${what}`,
      `Nothing was written. Run \`${optionWords(words).calls.listPlans}\` to see the plans.`,
      { changed: [`plans/${plan}/`] },
    );
}

/**
 * The problems of the files read that leave something out of what was read, by place: what requireValid refuses,
 * and what a command that goes on anyway (`invariant show`) says may be missing.
 */
export function storeErrors(snapshot: StoreSnapshot): Diagnostic[] {
  // By place, so that "first" is the first in the files as read, whichever check found it.
  // One id in two of the files read (validate's id-reused): each would shadow the other, a set silently shortened.
  // Once each: the readers of a command may meet one file twice (a project's folder and its project.yaml).
  // config.yaml's actor lacking a key it needs stops only that actor's run (ADR 0702), which loadConfig gates.
  return uniqueDiagnostics([
    ...actorApart(snapshot.diagnostics).diagnostics.filter((d) => d.severity === 'error'),
    ...reusedInvariantIds(snapshot.invariants ?? []),
  ]).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}

/**
 * Refuses to go on when files the command needs are invalid (exit 3): never a silently shortened set. `at`: where the
 * files were read when not from the working tree (`the index`, `revision main`), whose file on disk may be valid.
 */
export function requireValid(snapshot: StoreSnapshot, what: string, hint?: string | CommandHint, at?: string): void {
  const errors = storeErrors(snapshot);
  if (errors.length === 0) return;
  throw new InvalidStoreError(invalidFilesMessage(what, errors, at), errors, hint);
}

/**
 * The text as written, or a usage error (empty, too long: `value-too-long`, as the
 * schema gate says it): the same rule for add and edit. `file`: the file (or, for
 * a new invariant, the scope's folder) the text would be written to.
 * @internal
 */
export function checkText(raw: unknown, file: string, words?: OptionWords): string {
  const text = cleanText(requiredString(raw, 'text'));
  if (text === '')
    throw new UsageError('the invariant text is empty', 'Give the constraint in natural language, e.g. "Never delete production data".');
  const length = codePointLength(text);
  if (length > MAX_TEXT_LENGTH)
    throw valueTooLong({
      file,
      field: 'text',
      length,
      limit: MAX_TEXT_LENGTH,
      schema: 'invariant.schema.json',
      fix: `Shorten it; put the reasons in ${optionWords(words).rationale}.`,
    });
  return text;
}

/** A severity, the one check of every writer and filter: the field named, and the value shown only as a string. */
export function checkSeverity(severity: Severity): Severity {
  if (!SEVERITIES.includes(severity))
    throw new UsageError(
      `severity ${typeof severity === 'string' ? `"${truncate(severity)}"` : typeName(severity)} is not one of ${SEVERITIES.join(', ')}`,
      undefined,
      { field: 'severity' },
    );
  return severity;
}

const MAX_RATIONALE = 10_000;

/** The rationale, trimmed (undefined when blank), or `value-too-long`; `file` and `words` as for `checkText`. @internal */
export function checkRationale(raw: unknown, file: string, words?: OptionWords): string | undefined {
  const rationale = optionalString(raw, 'rationale')?.trim() || undefined;
  const length = rationale === undefined ? 0 : codePointLength(rationale);
  if (length > MAX_RATIONALE)
    throw valueTooLong({
      file,
      field: 'rationale',
      length,
      limit: MAX_RATIONALE,
      schema: 'invariant.schema.json',
      fix: `Shorten ${optionWords(words).rationale} to at most ${MAX_RATIONALE} characters.`,
    });
  return rationale;
}

/** Near-duplicates of `subject` among `others` that can meet it in an effective set (active ones only). */
export function nearAmong(subject: ScopedInvariant, others: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): NearMatch[] {
  if (!subject.active) return [];
  const candidates = others
    .filter((o) => o.id !== subject.id && o.active && canMeet(subject, o, plans))
    .map((o) => ({ invariant: o, loose: looseKey(o.text) }));
  return nearDuplicatesOf(subject.text, candidates);
}

/** `field`: the input's name for the list (`tags`, `addTags`); `words` as for `checkText`. @internal */
export function checkTags(tags: unknown, field: 'tags' | 'addTags' = 'tags', words?: OptionWords): string[] {
  const out: string[] = [];
  for (const raw of optionalStrings(tags, field) ?? []) {
    const tag = cleanTag(raw);
    if (tag === '' || codePointLength(tag) > 64 || tag.includes(',')) {
      const flag = optionWords(words)[field];
      throw new UsageError(
        `tag "${truncate(raw)}" is invalid: tags are 1 to 64 characters without commas`,
        flag.startsWith('-')
          ? `Repeat ${flag} for several tags: ${flag} data ${flag} safety.`
          : `Give each tag as an item of ${flag}: ['data', 'safety'].`,
        { field },
      );
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * Whether the invariants read include one of `project`'s: then its folder
 * exists, and the listing of projects/ that proves it for an empty or
 * missing folder is not needed (a read reads only what it needs).
 */
export function holdsProject(invariants: readonly ScopedInvariant[], project: string): boolean {
  return invariants.some((i) => i.scope.kind === 'project' && i.scope.project === project);
}

/** A well-formed id for checking a draft document before its real id is drawn. */
export const PROBE_ID = '00000000000000000000000000';

export function byScopeThenId(a: ScopedInvariant, b: ScopedInvariant): number {
  const order = ['global', 'project', 'action', 'plan', 'inherited'];
  // What the policy sources hold comes after the store's own: their `global/`, then their action templates.
  const rank = (s: Scope) => (s.kind === 'action' && s.source !== undefined ? order.length : order.indexOf(s.kind));
  const d = rank(a.scope) - rank(b.scope);
  if (d !== 0) return d;
  // Policy sources in `extends` order, as they resolve (docs/resolution.md), not by name.
  if (a.scope.kind === 'inherited' && b.scope.kind === 'inherited' && a.scope.order !== b.scope.order) return a.scope.order - b.scope.order;
  const fa = scopeFolder(a.scope);
  const fb = scopeFolder(b.scope);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A guard as given (`--guard-*`, the form): every pattern usable, else a usage error naming it (docs/guard.md). */
export async function checkGuard(given: Guard): Promise<Guard> {
  // From JavaScript: a guard that is no object, a list given as one string or holding a non-string, or a kind no
  // guard has, would fail as a TypeError inside (or be cloned as a DOMException), or be written as it is.
  const guard = inputObject(given, 'guard', { write: true, command: true, content: true, tool: true }, 'guard');
  for (const kind of GUARD_KINDS) optionalStrings(guard[kind], `guard.${kind}`);
  const { guardProblems } = await import('../../core/guard-patterns.ts');
  const first = guardProblems(guard)[0];
  if (first) throw new UsageError(first.problem, `Nothing was written. ${docsRef('guard.md')} gives the syntax of each list.`);
  return guard;
}

/**
 * A guard's write glob that names a folder of the repository's files (`secrets`), or folders (`config/*`), and matches none of them is refused
 * (exit 2, `guard-write-folder`, as validate warns of it): a glob matches files, so it would deny nothing below the
 * folder. Outside git the repository's files are unknown, and nothing is judged.
 */
export async function refuseFolderWrites(root: string, guard: Guard | null | undefined): Promise<void> {
  const { filesAsMatched, folderWords, mayNameFolder, writeGlobNamesFolder } = await import('../../core/globs.ts');
  const write = guard?.write ?? [];
  if (!write.some(mayNameFolder)) return;
  const [{ lsRepoFiles }, { GitError, ignoresCase }, { repoTop }, { isFolder }] = await Promise.all([
    import('../../git/file-listing.ts'),
    import('../../git/repo.ts'),
    import('../../git/location.ts'),
    import('../../store/atomic-write.ts'),
  ]);
  const top = repoTop(root);
  let files: string[];
  try {
    if (top === undefined) return;
    files = await lsRepoFiles(root, true);
  } catch (error) {
    if (error instanceof GitError) return;
    throw error;
  }
  // Where git ignores case the guard matches `Secrets` against `secrets/`'s files as it would against `secrets`.
  const caseless = await ignoresCase(top);
  const matched = filesAsMatched(files, caseless);
  let glob: string | undefined;
  for (const g of write)
    if (glob === undefined && (await writeGlobNamesFolder(g, matched, async (p) => isFolder(top, p), caseless))) glob = g;
  if (glob === undefined) return;
  const { folders, them } = folderWords(glob);
  throw new UsageError(
    // Worded as the other refusals of a write glob, which the add and edit form take back to its guard step.
    `write glob ${quoteText(glob)} names ${folders} of the repository and matches no file: it would guard nothing below ${them}`,
    `Nothing was written. A write glob matches files: give ${escapeUnsafe(glob)}/** for every file below ${them} (${docsRef('guard.md')}).`,
    { glob, suggestion: `${glob}/**` },
    'guard-write-folder',
  );
}

/**
 * A project's guard whose write glob no file of the project can match (`secrets/**` in a project of `web/**`) is
 * refused (exit 2, `guard-write-outside-project`, as validate warns of it): that guard judges only the files the
 * project's paths hold, and write globs are paths from the repository's top as those are, so it would never fire.
 */
export async function refuseWritesOutsideProject(
  source: TreeSource,
  root: string,
  scope: Scope,
  guard: Guard | null | undefined,
): Promise<void> {
  const write = guard?.write ?? [];
  if (scope.kind !== 'project' || write.length === 0) return;
  const [{ readProjects }, { neverFiringWrites, writeWithinPaths }] = await Promise.all([
    import('../../store/projects.ts'),
    import('../../core/path-overlap.ts'),
  ]);
  const paths = (await readProjects(source, [scope.project])).meta.get(scope.project)?.paths ?? [];
  const [glob] = await neverFiringWrites(write, paths, async () => {
    const [{ ignoresCase }, { repoTop }] = await Promise.all([import('../../git/repo.ts'), import('../../git/location.ts')]);
    const top = repoTop(root);
    return top !== undefined && (await ignoresCase(top));
  });
  if (glob === undefined) return;
  const suggestion = writeWithinPaths(glob, paths) ?? null;
  throw new UsageError(
    // Worded as the other refusals of a write glob, which the add and edit form take back to its guard step.
    `write glob ${quoteText(glob)} matches no file of project ${scope.project}, whose paths are ${paths.map(quoteText).join(', ')}: its guard judges only the project's files, so it would never fire`,
    `Nothing was written. A write glob is a path from the repository's top, as project.yaml's paths are: give one within them${suggestion === null ? '' : ` (${escapeUnsafe(suggestion)})`}, or make the invariant a global one to guard the whole repository (${docsRef('guard.md')}).`,
    { glob, project: scope.project, paths, suggestion },
    'guard-write-outside-project',
  );
}
