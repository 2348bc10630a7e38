/**
 * What `agents import` would write: the candidates of every file, each with
 * its scope, severity and whether it is new, said twice among the files, or
 * already in the store (by the de-duplication key, docs/resolution.md).
 * Pure: the files' split text and the store's invariants in, the plan out.
 */

import { exportedEntryId } from './export.ts';
import type { LeftOut, RuleCandidate } from './import-rules.ts';
import { type ImportKind, type ImportTarget, projectName } from './import-sources.ts';
import { literalFolder } from './globs.ts';
import type { ProjectMeta, ScopedInvariant, Severity } from './model.ts';
import { RESERVED_PROJECT_NAMES } from './names.ts';
import { looseKey, nearPairs } from './near-duplicates.ts';
import { textKey } from './normalise.ts';
import { editedImports, importedTextHash, type StaleImport, staleImports } from './import-stale.ts';

/** One instruction file, read and split (or skipped with the reason). */
export interface ImportFile {
  file: string;
  kind: ImportKind;
  target: ImportTarget;
  candidates: RuleCandidate[];
  leftOut: LeftOut[];
  /** Why the whole file was skipped (binary, too large, not UTF-8, a link out of the repository, bad front matter…). */
  skipped?: string;
  /** Its first lines between `---` lines were read as Markdown, not as front matter (they are no map of keys). */
  noFrontMatter?: true;
  /** It is written in another language than English: its list items were taken as they stand, for the review to judge. */
  notEnglish?: true;
  /**
   * Files of the repository its agent is told to read too (`@path` in a CLAUDE.md or GEMINI.md) that this import does
   * not read; `missing` when no file is there (moved or removed), so the agent reads nothing and nothing is imported.
   */
  references?: { line: number; path: string; missing?: true }[];
  /** The ids its managed block lists (`agents export`'s, which `--replace` puts in place of the lines it took out). */
  blockIds?: string[];
  /** The projects its new project shares files with, as `projects.allow_overlap` lets it (refuseOverlaps). */
  overlaps?: readonly { project: string; paths: readonly string[] }[];
}

/** `dropped`: a new rule the review left out (only in the plan a review made, reviewedPlan). */
export type CandidateStatus = 'new' | 'duplicate' | 'exists' | 'dropped';

export interface PlannedScope {
  kind: 'global' | 'project';
  project?: string;
}

/** `global` or `project NAME`, as describeScope words them: the review screen and the report after it name a scope alike. */
export function plannedScopeName(scope: PlannedScope): string {
  return scope.kind === 'global' ? 'global' : `project ${scope.project}`;
}

export interface PlannedCandidate {
  /** Its place in the plan: the review screen and `--format json` name candidates by it. */
  n: number;
  file: string;
  line: number;
  end_line: number;
  /** Whether the rule is all its lines say (`--replace` removes only such lines). */
  whole: boolean;
  /** Its lines read a file in with `@path`, which its text names too (RuleCandidate's). */
  reads?: true;
  text: string;
  tags: string[];
  severity: Severity;
  scope: PlannedScope;
  status: CandidateStatus;
  /**
   * For `duplicate`: the candidate said first; for `exists`: the invariant already in the store (`inactive` when it
   * is kept there without being applied: its text is not new, but it reaches no agent).
   */
  same_as?: { file: string; line: number } | { id: string; path: string; inactive?: true };
  /** Invariants of the store one edit or punctuation apart (reported, never refused). */
  near: { id: string; path: string }[];
}

export interface PlannedProject {
  name: string;
  paths: string[];
  /** false: the import creates it (projects/<name>/project.yaml). */
  exists: boolean;
}

export interface ImportPlan {
  files: ImportFile[];
  candidates: PlannedCandidate[];
  projects: PlannedProject[];
  /** The store's invariants imported from a file read here whose text it no longer says (import-stale.ts). */
  stale?: StaleImport[];
  /**
   * The repository's top, which the plan's paths are relative to, and the run's current folder: a command the report
   * names with a path writes it from the current folder (store/current-folder.ts pathFromCwd), where it is pasted.
   */
  folders?: { top: string; cwd: string };
}

/** Soft words make a rule a warning; the rest are errors, as `invariant add` defaults. */
const SOFT =
  /\b(should|prefer|consider|try to|recommended|ideally|where possible|when possible|if possible|avoid|discouraged|(?:when|where|if) you can)\b/i;

export function severityOf(text: string): Severity {
  return SOFT.test(text) && !/\b(must|never|always|do not|don't|required)\b/i.test(text) ? 'warning' : 'error';
}

/**
 * Longer names for a project whose name is taken by other paths: those made
 * with the folders between a rule file's folder and it (`fe/style.mdc` →
 * `fe-style`), the folders above the glob's own, joined (`packages/web/**` →
 * `packages-web`), then the name itself when `bare` (no project holds it),
 * then the name numbered.
 */
function widerNames(name: string, paths: readonly string[], first: readonly string[], bare: boolean): string[] {
  const out: string[] = [...first];
  const folders = paths.length === 1 ? literalFolder(paths[0]!).split('/').filter(Boolean) : [];
  for (let n = 2; n <= folders.length; n++) {
    const wider = projectName(folders.slice(-n).join('-'));
    if (wider !== undefined && !out.includes(wider)) out.push(wider);
  }
  if (bare) out.push(name);
  for (let n = 2; n < 100; n++) out.push(`${name.slice(0, 60)}-${n}`);
  return out;
}

/**
 * A glob of every file below a folder written as `X/**`, however it is written (`X/**\/*`, `X/**\/**`): a project of
 * `apps/web/**\/*` holds the files of `apps/web/AGENTS.md`'s `apps/web/**`, and is that file's project, not a second one.
 */
function everyFileBelow(glob: string): string {
  return glob.replace(/(^|\/)\*\*(?:\/\*\*)*(?:\/\*)?$/, '$1**');
}

function compareKeys(a: ImportFile, b: ImportFile, key: (p: readonly string[]) => string): number {
  const ka = a.target.kind === 'project' ? key(a.target.paths) : '';
  const kb = b.target.kind === 'project' ? key(b.target.paths) : '';
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Chooses the project each project target lands in: an existing project with
 * the same globs (whatever its name), else the project of that name, else a
 * new one. A name made from a file's place (not `--project`'s) that other
 * paths also take — an existing project's, or another file's in the same
 * import (`apps/web/` and `packages/web/`) — is widened for each of them
 * (`apps-web`, `packages-web`), so that no file's rules land in a project
 * that does not hold its files. Returns the projects and the project of each file.
 */
export function placeProjects(
  files: readonly ImportFile[],
  existing: ReadonlyMap<string, ProjectMeta>,
  names: readonly string[],
): { projects: PlannedProject[]; projectOf: Map<ImportFile, string> } {
  const out = new Map<string, PlannedProject>();
  const projectOf = new Map<ImportFile, string>();
  // A set of globs as one key, made once for each list of them: the sort of the files below asks it at each comparison.
  const keys = new Map<readonly string[], string>();
  const sorted = (a: readonly string[]): string => {
    let key = keys.get(a);
    if (key === undefined) keys.set(a, (key = [...new Set(a.map(everyFileBelow))].sort().join('\n')));
    return key;
  };
  // The first existing project with each set of globs, found by a lookup rather than a scan per file.
  const byPaths = new Map<string, string>();
  for (const [name, m] of existing) {
    const key = sorted(m.paths ?? []);
    if (!byPaths.has(key)) byPaths.set(key, name);
  }
  // Files of one import with the same globs (`react.mdc` and `hooks.mdc` on `apps/web/**`, or one beside the folder's
  // AGENTS.md) share one project, as they would an existing one of those globs: two would overlap, and one be skipped.
  // The name is that of the first of them by path, whichever file is read first.
  const shared = new Map<string, ImportFile>();
  for (const f of files) {
    if (f.target.kind !== 'project' || f.skipped || f.target.given || f.target.paths.length === 0) continue;
    const key = sorted(f.target.paths);
    const first = shared.get(key);
    if (first === undefined || f.file < first.file) shared.set(key, f);
  }
  const targetOf = (f: ImportFile): ImportTarget =>
    f.target.kind === 'project' && !f.target.given && f.target.paths.length > 0
      ? (shared.get(sorted(f.target.paths))?.target ?? f.target)
      : f.target;
  const named = new Set(names);
  // The path sets each made name stands for: those of its existing project (when it has paths), and the files'.
  const claims = new Map<string, Set<string>>();
  const claim = (name: string, key: string) => (claims.get(name) ?? claims.set(name, new Set()).get(name)!).add(key);
  for (const f of files) {
    const t = targetOf(f);
    if (t.kind !== 'project' || f.skipped || t.given || t.paths.length === 0) continue;
    if (byPaths.has(sorted(t.paths))) continue;
    const have = existing.get(t.name)?.paths ?? [];
    if (have.length > 0) claim(t.name, sorted(have));
    claim(t.name, sorted(t.paths));
  }
  // A name no project may have (a scope word: `plans/AGENTS.md`, `packages/global/`) is widened as a taken one is.
  const taken = new Set([...named, ...claims.keys(), ...RESERVED_PROJECT_NAMES]);
  const widened = new Map<string, string>();
  const nameFor = (t: { name: string; paths: string[]; wider?: string[] }): string => {
    const key = sorted(t.paths);
    const reserved = RESERVED_PROJECT_NAMES.includes(t.name);
    if (!reserved && ((claims.get(t.name)?.size ?? 0) < 2 || key === sorted(existing.get(t.name)?.paths ?? []))) return t.name;
    const known = widened.get(key);
    if (known !== undefined) return known;
    // The name itself is one of the choices when no project holds it: the first set of paths without a longer name
    // that is free takes it.
    const bare = !reserved && !named.has(t.name) && !given.has(t.name);
    const wider = widerNames(t.name, t.paths, t.wider ?? [], bare).find((n) => n === t.name || !taken.has(n))!;
    if (wider === t.name) given.add(wider);
    taken.add(wider);
    widened.set(key, wider);
    return wider;
  };
  const given = new Set<string>();
  // Names chosen in the order of the paths, not of the files: which file is read first never decides a name.
  const byKey = files.filter((f) => f.target.kind === 'project' && !f.skipped && !f.target.given && f.target.paths.length > 0);
  for (const f of [...byKey].sort((a, b) => compareKeys(a, b, sorted))) {
    const t = targetOf(f) as { name: string; paths: string[]; wider?: string[] };
    if (!byPaths.has(sorted(t.paths))) nameFor(t);
  }
  for (const f of files) {
    const t = targetOf(f);
    if (t.kind !== 'project' || f.skipped) continue;
    const match = t.paths.length === 0 ? undefined : byPaths.get(sorted(t.paths));
    const name = match ?? (t.given ? t.name : nameFor(t));
    projectOf.set(f, name);
    if (!out.has(name)) out.set(name, { name, paths: existing.get(name)?.paths ?? t.paths, exists: named.has(name) });
  }
  return { projects: [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), projectOf };
}

/**
 * The plan: every candidate in file order, global files first (a rule said
 * at the top and again in a nested file applies everywhere already). The
 * first copy of a text is `new`; a later copy in the same scope, or in a
 * project when the global set has it, is a `duplicate`; a text the store
 * holds where it would apply is `exists`.
 */
export function planImport(
  files: ImportFile[],
  store: readonly ScopedInvariant[],
  existing: ReadonlyMap<string, ProjectMeta>,
  projectNames: readonly string[],
  /** The ids listed by the managed blocks of the instruction files not read (staleImports). */
  elsewhere: readonly string[] = [],
): ImportPlan {
  const { projects, projectOf } = placeProjects(files, existing, projectNames);
  // Each file names the project it lands in (an existing one with its globs, a widened name), as it is shown.
  files = files.map((f) => {
    const name = projectOf.get(f);
    return f.target.kind === 'project' && name !== undefined && name !== f.target.name ? { ...f, target: { ...f.target, name } } : f;
  });
  const order = [...files].sort((a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const inStore = new Map<string, ScopedInvariant[]>();
  const byId = new Map(store.map((inv) => [inv.id, inv]));
  const edited = editedImports(store);
  for (const inv of store) {
    const k = textKey(inv.text);
    const list = inStore.get(k);
    if (list) list.push(inv);
    else inStore.set(k, [inv]);
  }
  const texts = order.flatMap((f) => (f.skipped || f.target.kind === 'skip' ? [] : f.candidates.map((c) => c.text)));
  const near = nearIndex(
    store.filter((i) => i.active),
    texts,
  );
  const said = new Map<string, { file: string; line: number; scope: PlannedScope }>();
  const candidates: PlannedCandidate[] = [];
  for (const f of order) {
    if (f.skipped || f.target.kind === 'skip') continue;
    const scope: PlannedScope = f.target.kind === 'global' ? { kind: 'global' } : { kind: 'project', project: f.target.name };
    for (const c of f.candidates) {
      const key = textKey(c.text);
      // An active copy first: one kept inactive applies nowhere. A rule reworded in the store since holds its file's text.
      let held: ScopedInvariant | undefined;
      for (const holding of [inStore.get(key), edited.size > 0 ? edited.get(importedTextHash(c.text)) : undefined])
        for (const inv of holding ?? []) if (applies(inv, scope) && (held === undefined || (!held.active && inv.active))) held = inv;
      // A line copied out of an exported block (or a block that lost its markers) ends with its invariant's id: that
      // invariant, not a new one whose text would carry the id (an empty store holds none).
      const copied = held === undefined && byId.size > 0 ? exportedEntryId(c.text) : undefined;
      if (copied !== undefined) held = byId.get(copied);
      const first = said.get(key);
      const planned: PlannedCandidate = {
        n: candidates.length + 1,
        file: f.file,
        line: c.line,
        end_line: c.end_line,
        whole: c.whole,
        ...(c.reads ? { reads: true as const } : {}),
        text: c.text,
        tags: c.tags,
        severity: severityOf(c.text),
        scope,
        status: 'new',
        near: near(c.text, key, scope),
      };
      if (held) {
        planned.status = 'exists';
        planned.same_as = held.active ? { id: held.id, path: held.path } : { id: held.id, path: held.path, inactive: true };
      } else if (first && (first.scope.kind === 'global' || first.scope.project === scope.project)) {
        planned.status = 'duplicate';
        planned.same_as = { file: first.file, line: first.line };
      } else if (!first) said.set(key, { file: f.file, line: c.line, scope });
      candidates.push(planned);
    }
  }
  return { files, candidates, projects, stale: staleImports(files, store, elsewhere) };
}

/**
 * The candidates the review kept, each with the near-duplicates in `store` of its text in its scope as the review left
 * them: a text edited, or moved to another scope, has other near-duplicates than the file's (planImport's `store`).
 */
export function nearAfterReview(
  plan: ImportPlan,
  chosen: readonly PlannedCandidate[],
  store: readonly ScopedInvariant[],
): PlannedCandidate[] {
  const planned = new Map(plan.candidates.map((c) => [c.n, c]));
  const moved = (c: PlannedCandidate) => {
    const p = planned.get(c.n);
    return p === undefined || p.text !== c.text || plannedScopeName(p.scope) !== plannedScopeName(c.scope);
  };
  const changed = chosen.filter(moved);
  if (changed.length === 0) return [...chosen];
  const near = nearIndex(
    store.filter((i) => i.active),
    changed.map((c) => c.text),
  );
  return chosen.map((c) => (moved(c) ? { ...c, near: near(c.text, textKey(c.text), c.scope) } : c));
}

/**
 * The near-duplicates in `store` of each of `texts` (`nearDuplicatesOf`'s,
 * in the store's order) that hold in a scope. The loose keys one edit apart
 * come from `nearPairs` over the distinct keys, linear in them, where a scan
 * of the store for each candidate costs their product (a second import of a
 * monorepo compares 20,000 candidates with 20,000 invariants).
 */
function nearIndex(
  store: readonly ScopedInvariant[],
  texts: readonly string[],
): (text: string, key: string, scope: PlannedScope) => { id: string; path: string }[] {
  if (store.length === 0) return () => [];
  const keys: string[] = [];
  const indexOf = new Map<string, number>();
  /** The store's invariants (their indexes) by the index of their loose key. */
  const holders: number[][] = [];
  const add = (loose: string): number => {
    let k = indexOf.get(loose);
    if (k === undefined) {
      k = keys.length;
      indexOf.set(loose, k);
      keys.push(loose);
      holders.push([]);
    }
    return k;
  };
  const storeLoose = store.map((inv) => looseKey(inv.text));
  const storeKey = store.map((inv) => textKey(inv.text));
  for (let s = 0; s < store.length; s++) holders[add(storeLoose[s]!)]!.push(s);
  for (const t of texts) add(looseKey(t));
  const neighbours: number[][] = keys.map(() => []);
  for (const [a, b] of nearPairs(keys)) {
    neighbours[a]!.push(b);
    neighbours[b]!.push(a);
  }
  return (text, key, scope) => {
    const loose = looseKey(text);
    const k = indexOf.get(loose)!;
    const found: number[] = [];
    // Same loose key: near unless the text keys are equal too (then a duplicate) or nothing is left of it.
    if (loose !== '') for (const s of holders[k]!) if (storeKey[s] !== key && applies(store[s]!, scope)) found.push(s);
    // One edit apart: never the same text key.
    for (const n of neighbours[k]!) for (const s of holders[n]!) if (applies(store[s]!, scope)) found.push(s);
    return found.sort((a, b) => a - b).map((s) => ({ id: store[s]!.id, path: store[s]!.path }));
  };
}

function rank(f: ImportFile): number {
  return f.target.kind === 'global' ? 0 : 1;
}

/** Whether an invariant of the store already holds where a candidate of `scope` would apply. */
function applies(inv: ScopedInvariant, scope: PlannedScope): boolean {
  if (inv.scope.kind === 'global' || inv.scope.kind === 'inherited') return true;
  return scope.kind === 'project' && inv.scope.kind === 'project' && inv.scope.project === scope.project;
}

/**
 * The plan as the review left it: each kept candidate as edited (text, severity, scope), each new one it dropped
 * `dropped`, so the report after a review says what was written rather than what the files proposed.
 */
export function reviewedPlan(plan: ImportPlan, chosen: readonly PlannedCandidate[]): ImportPlan {
  const kept = new Map(chosen.map((c) => [c.n, c]));
  const candidates = plan.candidates.map((c): PlannedCandidate => {
    if (c.status !== 'new') return c;
    return kept.get(c.n) ?? { ...c, status: 'dropped' };
  });
  return { ...plan, candidates };
}
