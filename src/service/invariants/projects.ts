// The scopes that exist: projects (refusing typos of their names), action templates, plans.
import { closestNames, didYouMean, hintWithGuess, isCloseName, someNames } from '../../core/closest.ts';
import { UsageError } from '../../core/errors.ts';
import { inputObject, optionalBoolean, optionalString, requiredString } from '../../core/input-shape.ts';
import { type Scope, actionName } from '../../core/model.ts';
import { isName, isProjectName } from '../../core/names.ts';
import { emptySnapshot, readAllPlans, readEntries, readFolders, standingAt } from '../../store/read.ts';
import { listProjectFolders } from '../../store/projects.ts';
import { isRequiredFolder } from '../../store/read-plan.ts';
import type { TreeEntry, TreeSource } from '../../store/tree-source.ts';
import type { InvariantContext } from './context.ts';
import { idsStartingWith, invariantFiles, planIds } from '../../store/listing.ts';
import { pinnedTree, pinnedTrees } from './pinned-sources.ts';
import { unlessSourceNotReady } from './related.ts';
import { requireValid, storeErrors, toScope } from './rules.ts';
import { type OptionWords, optionWords } from '../option-words.ts';
import type { ScopeCatalog } from './types.ts';

type ActionScope = Extract<Scope, { kind: 'action' }>;

/** The folders of `dir` in a tree whose names are names (projects: not a reserved one), sorted: the scopes that exist. */
export async function namedFolders(tree: TreeSource, dir: string): Promise<string[]> {
  return (await tree.list(dir, { recursive: false }))
    .filter((e) => e.type === 'dir')
    .map((e) => e.path.slice(e.path.lastIndexOf('/') + 1))
    .filter(dir === 'projects' ? isProjectName : isName)
    .sort();
}

/** The action templates of a tree (the store's, or a policy source's at its pin), as NS/NAME. */
export async function actionRefs(tree: TreeSource): Promise<string[]> {
  return (await templateFolders(tree)).refs;
}

/**
 * The action templates of a tree as NS/NAME (namespaces sorted, then names), and the links standing where a
 * namespace or a template folder goes: one listing of each folder serves both.
 */
async function templateFolders(tree: TreeSource): Promise<{ refs: string[]; links: TreeEntry[] }> {
  const refs: string[] = [];
  const links: TreeEntry[] = [];
  const nameOf = (e: TreeEntry) => e.path.slice(e.path.lastIndexOf('/') + 1);
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // A file where a namespace's or a template's folder goes is refused with the links: read as none, it would drop out.
  const standing = (e: TreeEntry) => e.type === 'symlink' || (e.type !== 'dir' && isRequiredFolder(e.path, e.type));
  const top = await tree.list('actions', { recursive: false });
  links.push(...top.filter(standing));
  for (const ns of top.filter((e) => e.type === 'dir').sort((a, b) => byName(nameOf(a), nameOf(b)))) {
    const inner = await tree.list(ns.path, { recursive: false });
    links.push(...inner.filter(standing));
    if (!isName(nameOf(ns))) continue;
    const names = inner
      .filter((f) => f.type === 'dir')
      .map(nameOf)
      .filter(isName)
      .sort();
    for (const name of names) refs.push(`${nameOf(ns)}/${name}`);
  }
  return { refs, links };
}

/**
 * The action templates of `tree` as NS/NAME (actionRefs), once no template folder, or folder of templates, is a link:
 * one is refused (exit 3, the link named; a source's named as the source's), as every link of a store is refused,
 * rather than left out of the templates without a word.
 */
export async function templateRefs(tree: TreeSource, source?: string): Promise<string[]> {
  const { refs, links } = await templateFolders(tree);
  if (links.length === 0) return refs;
  const snap = await readEntries(tree, links);
  if (source === undefined) requireValid(snap, 'read the action templates');
  else {
    const { SOURCE_FILE_HINT, sourceDiagnostic } = await import('../../store/extends.ts');
    requireValid(
      { ...snap, diagnostics: snap.diagnostics.map((d) => sourceDiagnostic(d, source)) },
      `read the action templates of ${source}`,
      SOURCE_FILE_HINT,
    );
  }
  return refs;
}

/**
 * What a word on the command line names in the store: `action` a template of the store's own (one written to),
 * `template` any a command reads, a policy source's as SOURCE:NS/NAME too (actionNames); `invariant` an id of the
 * store's own (one changed), `any-invariant` any a command reads, waives or overrides, the sources' too
 * (query.ts's invariantIds); `source` a policy source config.yaml extends (sourceNames).
 */
export type StoreWordKind = 'project' | 'action' | 'template' | 'plan' | 'invariant' | 'any-invariant' | 'source' | 'violation';

/**
 * The store's own names of one kind, sorted, for a shell completing a word
 * (docs/commands.md, "Shell completion"): read from folder and file names
 * only, nothing parsed, so that a tab press stays quick on a large store.
 */
export async function storeWords(
  tree: TreeSource,
  kind: Exclude<StoreWordKind, 'template' | 'any-invariant' | 'source'>,
): Promise<string[]> {
  if (kind === 'project') return namedFolders(tree, 'projects');
  if (kind === 'action') return actionRefs(tree);
  if (kind === 'plan') return planIds(tree);
  if (kind === 'violation') return (await idsStartingWith(tree, '')).filter((f) => f.kind === 'violation').map((f) => f.id);
  return [...new Set((await invariantFiles(tree)).map((f) => f.id))].sort();
}

/** The projects that exist: folders under `projects/` with valid names (docs/store-format.md). */
export async function projectNames(svc: InvariantContext): Promise<string[]> {
  return namedFolders(svc.source, 'projects');
}

/**
 * Refuses (exit 2) to read a project that does not exist, naming the
 * closest existing ones: a typo must never read as an empty project and
 * hand out a silently shortened set.
 */
export async function requireProject(svc: InvariantContext, project: string, given: { writing?: boolean } = {}): Promise<void> {
  // Public on the service: from JavaScript a name of another type would fail deep inside the name checks.
  requiredString(project, 'project');
  const options = { writing: optionalBoolean(inputObject(given, 'requireProject', { writing: true }).writing, 'writing') };
  const known = await svc.projectNames();
  if (known.includes(project)) return;
  await refuseProjectNotAFolder(svc, project);
  // The names `invariant add` would take for a typo of this one (checkNewProject): suggested here too, and the
  // command to create the project says --new-project then, so the hint never names a command that is refused.
  const close = known.filter((k) => isCloseName(project, k));
  const ranked = closestNames(project, known);
  const suggestions = ranked.length > 0 ? ranked : close;
  const guess = didYouMean(suggestions);
  const { calls } = optionWords(svc.optionWords);
  const create = calls.addToProject(project, close.length > 0);
  throw new UsageError(
    `unknown project ${project}: projects/${project}/ does not exist${guess ? `; ${guess}` : ''}`,
    `${options.writing ? 'Nothing was written. ' : ''}Known projects: ${someNames(known, { more: `\`${calls.listProjects}\` lists them all` })}. A project is created by adding its first invariant: \`${create}\`.`,
    { project, suggestions, known },
    'unknown-project',
  );
}

/**
 * Refuses (exit 3, as every reader of it does) a project that is not listed as a folder because something else stands
 * at its place: a link or a file at `projects/<project>`, or `projects` itself a file after a bad merge. Said as what
 * it is, never as a project to create: a write there could only fail.
 */
async function refuseProjectNotAFolder(svc: InvariantContext, project: string): Promise<void> {
  requireValid(await readFolders(svc.source, [`projects/${project}`]), `use project ${project}`);
  const { diagnostics } = await listProjectFolders(svc.source);
  requireValid({ ...emptySnapshot(), diagnostics: diagnostics.filter((d) => d.file === 'projects') }, `use project ${project}`);
}

/**
 * For an add to `project`: undefined when it exists; its name when the add
 * will create it. A new name close to an existing project's (within two
 * edits, or equal ignoring case and separators) is refused as a likely
 * typo unless `confirmed` (`--new-project`). `doing` is what the hint says to do with the close name instead
 * (`add to`, `move it to`).
 */
export async function checkNewProject(
  svc: InvariantContext,
  project: string,
  confirmed: boolean,
  doing = 'add to',
): Promise<string | undefined> {
  requiredString(project, 'project');
  optionalBoolean(confirmed, 'confirmed');
  doing = optionalString(doing, 'doing') ?? 'add to';
  const known = await svc.projectNames();
  if (known.includes(project)) return undefined;
  await refuseProjectNotAFolder(svc, project);
  const suggestions = closeTo(project, known);
  if (suggestions.length > 0 && !confirmed) {
    const words = optionWords(svc.optionWords);
    const { message, hint, detail } = closeName('project', project, suggestions, known, doing, `add ${words.newProject}`, words);
    throw new UsageError(message, hint, detail, 'close-project-name');
  }
  return project;
}

/**
 * Under the lock of `projects/<project>`, for a writer that puts a file there: the project it creates (its notice),
 * decided from whether the lock had to make the folder (`made`), never from what was read before the lock. A project
 * that existed when the command began (`creates` undefined) and had to be made again was removed meanwhile (`project
 * remove`): refused (exit 2, `project-removed`), nothing written, rather than brought back without a word.
 */
export function projectMadeUnderLock(project: string, creates: string | undefined, made: boolean): string | undefined {
  if (!made) return undefined;
  if (creates === undefined)
    throw new UsageError(
      `project ${project} is gone: it was removed while this command waited for it`,
      (agents) => `Nothing was written. Run \`${agents} project list\` to see what there is; name the project again to create it anew.`,
      { project },
      'project-removed',
    );
  return creates;
}

/**
 * Refuses (exit 2) to read an action template that does not exist, naming
 * the closest existing ones (the store's and its policy sources', as `plan
 * use` takes them), as for a project: a typo never reads as an empty
 * template. `tree`: where the template is read, when the caller has it.
 */
export async function requireAction(
  svc: InvariantContext,
  scope: { ns: string; name: string; source?: string },
  options: { tree?: TreeSource; writing?: boolean } = {},
): Promise<void> {
  const ref = actionName(scope);
  const local = `${scope.ns}/${scope.name}`;
  const tree = options.tree ?? (scope.source === undefined ? svc.source : await pinnedTree(svc, scope.source, ref));
  // A link or a file standing where a template's folder goes is refused as such (exit 3), not called unknown.
  if ((await templateRefs(tree, scope.source)).includes(local)) return;
  const known = (await actionNames(svc)).filter((a) => a !== ref);
  // NS/NAME that only a policy source holds is suggested as that source's SOURCE:NS/NAME.
  const suggestions =
    scope.source === undefined && known.some((k) => k.endsWith(`:${ref}`))
      ? known.filter((k) => k.endsWith(`:${ref}`))
      : closestNames(ref, known);
  const guess = didYouMean(suggestions);
  const where = scope.source === undefined ? `actions/${ref}/ does not exist` : `policy source ${scope.source} has no actions/${local}/`;
  const { calls } = optionWords(svc.optionWords);
  throw new UsageError(
    `unknown action ${ref}: ${where}${guess ? `; ${guess}` : ''}`,
    `${options.writing ? 'Nothing was written. ' : ''}Known actions: ${someNames(known, { more: `\`${calls.listActions}\` lists them all` })}.${scope.source === undefined ? ` Create one with \`${calls.addAction(ref)}\`.` : ''}`,
    { action: ref, suggestions, known },
    'unknown-action',
  );
}

/**
 * The scope of action template `action` (`NS/NAME`, or `SOURCE:NS/NAME`), checked as toScope checks it. A name of
 * another shape whose closest known template is near (`org/release/ship` for the policy source org's
 * `org:release/ship`) is refused with that template suggested: the shape alone cannot tell which was meant.
 */
export async function actionScope(svc: InvariantContext, action: string): Promise<ActionScope> {
  try {
    return toScope({ action }) as ActionScope;
  } catch (error) {
    const given = error instanceof UsageError ? (error.detail as { suggestions?: unknown } | undefined) : undefined;
    if (!(error instanceof UsageError) || given?.suggestions !== undefined) throw error;
    const suggestions = closestNames(action, await actionNames(svc).catch(() => []));
    if (suggestions.length === 0) throw error;
    throw new UsageError(error.message, hintWithGuess(suggestions, error.hint ?? ''), { action, suggestions });
  }
}

/**
 * The names `plan use` takes: the store's templates, then each policy source's as SOURCE:NS/NAME (a source not
 * pinned or fetched yet adds none). Names only: no template file is read.
 */
export async function actionNames(svc: InvariantContext): Promise<string[]> {
  const names = await actionRefs(svc.source);
  for (const { name, tree } of await unlessSourceNotReady(() => pinnedTrees(svc)))
    names.push(...(await actionRefs(tree)).map((r) => `${name}:${r}`));
  return names;
}

/**
 * For an add to action template `ref`: a new template whose name is close
 * to an existing one's is refused as a likely typo (exit 2), as a project's
 * is; `agents action add` creates it on purpose. `doing` is what the hint says to do with the close name
 * instead (`add to`, `move it to`).
 */
export async function checkNewAction(svc: InvariantContext, ref: string, doing = 'add to'): Promise<void> {
  const known = await actionRefs(svc.source);
  if (known.includes(ref)) return;
  await refuseActionNotAFolder(svc.source, ref);
  const suggestions = closeTo(ref, known);
  if (suggestions.length === 0) return;
  const words = optionWords(svc.optionWords);
  const { message, hint, detail } = closeName(
    'action',
    ref,
    suggestions,
    known,
    doing,
    `run \`${words.calls.addAction(ref)}\` first`,
    words,
  );
  throw new UsageError(message, hint, detail, 'close-action-name');
}

/**
 * Refuses (exit 3, as `invariant list --action` does) a template `NS/NAME` whose folder cannot be made because a file
 * or a link stands in the place of `actions/`, the namespace's folder or the template's: said as what it is, never as
 * a folder a write failed to make.
 */
export async function refuseActionNotAFolder(tree: TreeSource, ref: string): Promise<void> {
  const standing: TreeEntry[] = [];
  const parents = new Map<string, TreeEntry[]>();
  for (const folder of ['actions', `actions/${ref.slice(0, ref.indexOf('/'))}`, `actions/${ref}`]) {
    const listed = await tree.list(folder, { recursive: false });
    // A link lists as itself; a file lists as an empty folder (standingAt).
    standing.push(...listed.filter((e) => e.path === folder), ...(await standingAt(tree, folder, listed, parents)));
  }
  if (standing.length > 0) requireValid(await readEntries(tree, standing), `use action ${ref}`);
}

/** The existing names a new `name` is close to (a likely typo), the closest first; none when it is close to none. */
function closeTo(name: string, known: readonly string[]): string[] {
  const close = known.filter((k) => isCloseName(name, k));
  if (close.length === 0) return [];
  const ranked = closestNames(name, close);
  return ranked.length > 0 ? ranked : close;
}

/**
 * The words of the refusal of a new project or action template named like existing ones; `anyway` says
 * how to create it on purpose. The callers give the code (close-project-name, close-action-name).
 */
function closeName(
  kind: 'project' | 'action',
  name: string,
  suggestions: readonly string[],
  known: readonly string[],
  doing: string,
  anyway: string,
  /** What the hint calls the option that names a scope of `kind`. */
  words: OptionWords,
): { message: string; hint: string; detail: Record<string, unknown> } {
  return {
    message: `${kind} ${name} does not exist, and its name is close to ${suggestions.length === 1 ? `the existing ${kind}` : `the existing ${kind}s`} ${suggestions.join(', ')}; ${didYouMean(suggestions)}`,
    hint: `Nothing was written. To ${doing} ${suggestions[0]}, use ${words[kind]} ${suggestions[0]}; to create ${kind} ${name} anyway, ${anyway}.`,
    detail: { [kind]: name, suggestions, known },
  };
}

/** The projects, action templates and plans that exist (folders with valid names). */
export async function scopes(svc: InvariantContext): Promise<ScopeCatalog> {
  const read = await readAllPlans(svc.source);
  const plans = [...read.plans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // A plan whose plan.yaml is invalid is not among them: said, as addContext says what it left unread, for a picker
  // that still offers the rest, never a shorter list that looks whole.
  const incomplete = storeErrors(read);
  return {
    projects: await svc.projectNames(),
    actions: await actionRefs(svc.source),
    plans,
    ...(incomplete.length > 0 ? { incomplete } : {}),
  };
}
