import { relative, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.ts';
import {
  affectedTargets,
  allTargets,
  diffStores,
  invariantFieldChanges,
  targetChanged,
  targetFolders,
  targetKey,
  type DiffSide,
  type FieldChange,
  type SideShape,
  type StoreDiff,
  type TargetRef,
} from '../core/diff.ts';
import { InvalidStoreError, UsageError } from '../core/errors.ts';
import { classifyPath, type PathKind } from '../core/layout.ts';
import { scopeFolder, type Plan, type Scope, type ScopedInvariant } from '../core/model.ts';
import { MIN_PREFIX, nameProblem, truncate } from '../core/names.ts';
import { parseInvariant, parsePlan } from '../core/parse.ts';
import { GitError, NULL_SHA, catFileBatch, isShallow, logRaw, mergeBase, resolveCommit, topLevel, type LogCommit } from '../git/repo.ts';
import { gitBlobId } from '../store/blob-id.ts';
import { GitTreeSource } from '../store/git-source.ts';
import { readFailure } from '../store/read.ts';
import { WorkingTreeSource, type ReadResult } from '../store/tree-source.ts';

/** What `agents invariant diff` compares, and for which targets. */
export interface DiffRequest {
  /** `A..B`, `A...B`, `A`, or undefined (HEAD against the working tree, or the index with `staged`). */
  range?: string;
  staged?: boolean;
  project?: string;
  /** A plan id or a unique prefix of one (among the plans of either side). */
  plan?: string;
  /** Report every project of either side, changed or not. */
  allProjects?: boolean;
}

/** One side of a diff, for people and for JSON. */
export interface SideInfo {
  /** `HEAD`, `main`, `merge base of main and HEAD`, `working tree`, `index`. */
  label: string;
  kind: 'revision' | 'index' | 'working tree';
  commit?: string;
  /** For `A...B`: the two revisions whose merge base this side is. */
  mergeBaseOf?: [string, string];
}

export interface DiffResult extends StoreDiff {
  range: string;
  before: SideInfo;
  after: SideInfo;
  /** Store paths whose content differs (invariants and plan files). */
  changedPaths: string[];
}

type SideSpec = { kind: 'empty' } | { kind: 'revision'; rev: string } | { kind: 'commit'; commit: string; label: string; mergeBaseOf?: [string, string] } | { kind: 'index' } | { kind: 'working tree' };

interface Side {
  info: SideInfo;
  /** Relevant store files: path → blob id (mode folded in, so a file turned into a link differs). */
  files: Map<string, string>;
  kinds: Map<string, PathKind>;
  /** path → "path NUL blob id": the key of a parse, shared by both sides when the file did not change. */
  keys: Map<string, string>;
  /** Reads bytes of some files in one batch. */
  read(paths: readonly string[]): Promise<Map<string, ReadResult>>;
}

function keysOf(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, id] of files) out.set(p, `${p}\0${id}`);
  return out;
}

/** Paths the diff looks at: invariants (and misnamed ones in scope folders) and plan files. */
function relevant(kind: PathKind): boolean {
  return kind.kind === 'invariant' || kind.kind === 'plan' || (kind.kind === 'bad-id' && kind.scope !== undefined);
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

function gitFailure(error: unknown): never {
  if (error instanceof GitError) {
    throw new UsageError(
      error.message,
      error.kind === 'not-a-repo' ? 'Reviewing changes needs the store inside a git repository.' : 'Check the revision with `git log --oneline`; in a shallow clone fetch it first (`git fetch --depth=N origin REV` or `git fetch --unshallow`).',
    );
  }
  throw error;
}

/** The parse of one blob at one path, shared by both sides when the file did not change. */
interface Parsed {
  invariant?: ScopedInvariant;
  plan?: Plan;
  diagnostics: Diagnostic[];
}

/**
 * Git-native review (SPEC 8, issue "git-native review"): effective-set diffs
 * between two trees of the store, and the history of one invariant.
 */
export class ReviewService {
  constructor(readonly root: string) {}

  private async top(): Promise<string> {
    try {
      return await topLevel(this.root);
    } catch (error) {
      return gitFailure(error);
    }
  }

  private async sides(top: string, request: DiffRequest): Promise<{ range: string; before: SideSpec; after: SideSpec }> {
    const range = request.range?.trim() || undefined;
    if (range !== undefined && range.startsWith('-')) throw new UsageError(`revision range "${truncate(range)}" may not start with "-"`);
    const three = range?.indexOf('...') ?? -1;
    const two = range?.indexOf('..') ?? -1;
    if (range !== undefined && two >= 0) {
      if (request.staged) throw new UsageError('--staged compares HEAD (or one revision) with the index; it cannot be combined with a range A..B', 'Give one revision with --staged, or drop --staged.');
      if (three >= 0) {
        const a = range.slice(0, three) || 'HEAD';
        const b = range.slice(three + 3) || 'HEAD';
        try {
          const [ca, cb] = [await resolveCommit(top, a), await resolveCommit(top, b)];
          const base = await mergeBase(top, ca, cb);
          return { range, before: { kind: 'commit', commit: base, label: `merge base of ${a} and ${b}`, mergeBaseOf: [a, b] }, after: { kind: 'commit', commit: cb, label: b } };
        } catch (error) {
          return gitFailure(error);
        }
      }
      const a = range.slice(0, two) || 'HEAD';
      const b = range.slice(two + 2) || 'HEAD';
      return { range, before: { kind: 'revision', rev: a }, after: { kind: 'revision', rev: b } };
    }
    const a = range ?? 'HEAD';
    const after: SideSpec = request.staged ? { kind: 'index' } : { kind: 'working tree' };
    let before: SideSpec = { kind: 'revision', rev: a };
    if (range === undefined) {
      // Before the first commit HEAD names no commit: compare with nothing, as `git diff --cached` does.
      try {
        await resolveCommit(top, 'HEAD');
      } catch {
        before = { kind: 'empty' };
      }
    }
    return { range: range ?? (request.staged ? 'HEAD (staged)' : 'HEAD'), before, after };
  }

  private async openSide(top: string, spec: SideSpec, idLength: () => number): Promise<Side> {
    const prefix = relative(top, this.root).split(sep).join('/');
    if (prefix.startsWith('..')) throw new UsageError(`the store ${this.root} is outside the git repository ${top}`);
    if (spec.kind === 'empty') {
      return { info: { label: 'no commit yet', kind: 'revision' }, files: new Map(), kinds: new Map(), keys: new Map(), read: async () => new Map() };
    }
    if (spec.kind === 'working tree') {
      const source = new WorkingTreeSource(this.root);
      const entries = await source.list('', { recursive: true });
      const kinds = new Map<string, PathKind>();
      const paths: string[] = [];
      for (const e of entries) {
        if (e.type === 'dir' || !e.path.endsWith('.yaml')) continue;
        const kind = classifyPath(e.path);
        if (!relevant(kind)) continue;
        kinds.set(e.path, kind);
        paths.push(e.path);
      }
      const bytes = await source.read(paths);
      const files = new Map<string, string>();
      const len = idLength();
      for (const p of paths) {
        const r = bytes.get(p)!;
        files.set(p, r.ok ? gitBlobId(r.bytes, len) : `unreadable:${r.code}`);
      }
      return { info: { label: 'working tree', kind: 'working tree' }, files, kinds, keys: keysOf(files), read: async (ps) => new Map(ps.map((p) => [p, bytes.get(p)!])) };
    }
    let source: GitTreeSource;
    let info: SideInfo;
    try {
      if (spec.kind === 'index') {
        source = await GitTreeSource.index(this.root);
        info = { label: 'index', kind: 'index' };
      } else {
        const commit = spec.kind === 'commit' ? spec.commit : await resolveCommit(top, spec.rev);
        const label = spec.kind === 'commit' ? spec.label : spec.rev;
        source = await GitTreeSource.atCommit(this.root, top, commit, `${label} (${short(commit)})`);
        info = { label, kind: 'revision', commit, ...(spec.kind === 'commit' && spec.mergeBaseOf ? { mergeBaseOf: spec.mergeBaseOf } : {}) };
      }
    } catch (error) {
      return gitFailure(error);
    }
    const listing = await source.blobIds();
    const files = new Map<string, string>();
    const kinds = new Map<string, PathKind>();
    for (const [p, e] of listing) {
      if (!p.endsWith('.yaml')) continue;
      const kind = classifyPath(p);
      if (!relevant(kind)) continue;
      kinds.set(p, kind);
      files.set(p, e.mode.startsWith('100') ? e.sha : `${e.mode}:${e.sha}`);
    }
    return { info, files, kinds, keys: keysOf(files), read: (ps) => source.read(ps) };
  }

  /** The effective-set diff between two trees of the store. */
  async diff(request: DiffRequest = {}): Promise<DiffResult> {
    if (request.project !== undefined && request.plan !== undefined) throw new UsageError('give --project or --plan, not both');
    if (request.allProjects && (request.project !== undefined || request.plan !== undefined)) {
      throw new UsageError('--all-projects cannot be combined with --project or --plan');
    }
    if (request.project !== undefined) {
      const problem = nameProblem(request.project, 'project');
      if (problem) throw new UsageError(problem, 'Project names match ^[a-z0-9][a-z0-9._-]{0,63}$.');
    }
    const top = await this.top();
    const { range, before: bSpec, after: aSpec } = await this.sides(top, request);
    const before = await this.openSide(top, bSpec, () => 40);
    let idLength = 40;
    for (const sha of before.files.values()) {
      idLength = sha.length === 64 ? 64 : 40;
      break;
    }
    const after = await this.openSide(top, aSpec, () => idLength);

    const changed: string[] = [];
    for (const [p, sha] of before.files) if (after.files.get(p) !== sha) changed.push(p);
    for (const p of after.files.keys()) if (!before.files.has(p)) changed.push(p);
    changed.sort();
    const changedSet = new Set(changed);

    // Bytes: one batch per side. The first side reads every relevant file; the second only the
    // files whose blob differs (an unchanged file has the same bytes on both sides).
    const blobs = new Map<string, ReadResult>();
    const keyOf = (side: Side, p: string) => side.keys.get(p)!;
    for (const side of [before, after]) {
      const todo = [...side.files.keys()].filter((p) => !blobs.has(keyOf(side, p)));
      const got = await side.read(todo);
      for (const p of todo) blobs.set(keyOf(side, p), got.get(p) ?? { ok: false, code: 'missing', message: 'is missing' });
    }
    const cache = new Map<string, Parsed>();
    const parse = (side: Side, paths: readonly string[]) => this.parseSide(side, paths, blobs, cache);
    // Plans first: every plan.yaml on both sides, to know which plans target which project.
    const planFiles = new Map([before, after].map((side) => [side, [...side.kinds].filter(([, k]) => k.kind === 'plan').map(([p]) => p)]));
    const planPaths = (side: Side) => planFiles.get(side)!;
    parse(before, planPaths(before));
    parse(after, planPaths(after));
    const shape = (side: Side): SideShape & { plans: Map<string, Plan> } => {
      const projects = new Set<string>();
      const plans = new Map<string, Plan>();
      for (const [p, k] of side.kinds) {
        if (k.kind === 'invariant' && k.scope.kind === 'project') projects.add(k.scope.project);
        if (k.kind === 'plan') {
          const plan = cache.get(side.keys.get(p)!)?.plan;
          if (plan) plans.set(k.plan, plan);
        }
      }
      return { projects, plans };
    };
    const bShape = shape(before);
    const aShape = shape(after);

    let targets: TargetRef[];
    const everything = allTargets(bShape, aShape);
    if (request.project !== undefined) {
      if (!everything.some((t) => t.kind === 'project' && t.project === request.project)) {
        throw new UsageError(`unknown project ${request.project}: it has no folder and no plan targets it in ${before.info.label} or ${after.info.label}`, 'Check the name; `agents invariant list` shows the scopes.');
      }
      targets = [{ kind: 'project', project: request.project }];
    } else if (request.plan !== undefined) {
      const want = request.plan.toUpperCase();
      const matches = everything.filter((t): t is { kind: 'plan'; plan: string } => t.kind === 'plan' && t.plan.startsWith(want));
      const exact = matches.filter((t) => t.plan === want);
      const found = exact.length > 0 ? exact : want.length >= MIN_PREFIX ? matches : [];
      if (found.length === 0) throw new UsageError(`unknown plan ${truncate(request.plan)} in ${before.info.label} and ${after.info.label}`, 'Give the plan id (or a unique prefix of 4+ characters); `agents plan list` shows them.');
      if (found.length > 1) throw new UsageError(`plan prefix ${want} is ambiguous: ${found.map((t) => t.plan).join(', ')}`, 'Give more characters of the id.');
      targets = found;
    } else {
      targets = affectedTargets(changed, bShape, aShape);
      if (request.allProjects) {
        const keys = new Set(targets.map(targetKey));
        for (const t of everything) if (t.kind === 'project' && !keys.has(targetKey(t))) targets.push(t);
      }
    }

    // Files each side needs: the folders of every target, plus every changed file (for the file-level report).
    const need = (side: Side, plans: Map<string, Plan>): string[] => {
      const folders = new Set<string>();
      for (const t of targets) for (const f of targetFolders(t, plans)) folders.add(f);
      const out: string[] = [];
      for (const [p, k] of side.kinds) {
        if (k.kind === 'plan') continue;
        const scope = k.kind === 'invariant' ? k.scope : k.kind === 'bad-id' ? k.scope : undefined;
        if (changedSet.has(p) || (scope && folders.has(scopeFolder(scope)))) out.push(p);
      }
      return out;
    };
    const bNeed = need(before, bShape.plans);
    const aNeed = need(after, aShape.plans);
    parse(before, bNeed);
    parse(after, aNeed);

    // Anything unreadable or invalid that was needed stops the diff (exit 3), naming the side.
    for (const [side, paths] of [
      [before, [...planPaths(before), ...bNeed]],
      [after, [...planPaths(after), ...aNeed]],
    ] as const) {
      const errors = paths.flatMap((p) => cache.get(side.keys.get(p)!)?.diagnostics ?? []).filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        const first = errors[0]!;
        const where = first.line > 0 ? `${first.file}:${first.line}:${first.col}` : first.file;
        const at = side.info.kind === 'revision' ? `revision ${side.info.label}${side.info.commit ? ` (${short(side.info.commit)})` : ''}` : `the ${side.info.label}`;
        throw new InvalidStoreError(
          errors.length === 1 ? `cannot diff: ${where} is invalid in ${at}` : `cannot diff: ${errors.length} store files are invalid in ${at}, first ${where}`,
          errors,
          side.info.kind === 'revision' ? 'The file is broken in that revision; compare other revisions, or fix it in a new commit.' : undefined,
        );
      }
    }

    const collect = (side: Side, paths: readonly string[]) =>
      paths.map((p) => cache.get(side.keys.get(p)!)?.invariant).filter((i): i is ScopedInvariant => i !== undefined);
    const bSide: DiffSide = { plans: bShape.plans, invariants: collect(before, bNeed) };
    const aSide: DiffSide = { plans: aShape.plans, invariants: collect(after, aNeed) };
    const diff = diffStores(
      { before: collect(before, bNeed.filter((p) => changedSet.has(p))), after: collect(after, aNeed.filter((p) => changedSet.has(p))) },
      bSide,
      aSide,
      targets,
    );
    const explicit = request.project !== undefined || request.plan !== undefined;
    diff.targets = diff.targets.filter((t) => explicit || targetChanged(t) || (request.allProjects && t.target.kind === 'project'));
    return { ...diff, range, before: before.info, after: after.info, changedPaths: changed };
  }

  /** Parses `paths` of one side from the bytes already read; a blob met on both sides is parsed once. */
  private parseSide(side: Side, paths: readonly string[], blobs: ReadonlyMap<string, ReadResult>, cache: Map<string, Parsed>): void {
    for (const p of paths) {
      const key = side.keys.get(p)!;
      if (cache.has(key)) continue;
      const kind = side.kinds.get(p)!;
      const r = blobs.get(key);
      if (kind.kind === 'bad-id') {
        cache.set(key, { diagnostics: [{ code: 'id-invalid', severity: 'error', file: p, line: 0, col: 0, message: `${kind.problem}; every *.yaml in a scope folder is an invariant`, hint: 'Rename the file to <its id>.yaml, or move it out of the scope folder.' }] });
        continue;
      }
      if (!r || !r.ok) {
        cache.set(key, { diagnostics: [readFailure(p, r ?? { ok: false, code: 'missing', message: 'is missing' })] });
        continue;
      }
      if (kind.kind === 'invariant') {
        const parsed = parseInvariant(p, r.bytes, kind.scope, kind.id);
        cache.set(key, { diagnostics: parsed.diagnostics, ...(parsed.value ? { invariant: parsed.value } : {}) });
      } else if (kind.kind === 'plan') {
        const parsed = parsePlan(p, r.bytes, kind.plan);
        cache.set(key, { diagnostics: parsed.diagnostics, ...(parsed.value ? { plan: parsed.value } : {}) });
      }
    }
  }

  /** The history of one invariant (an id or a unique prefix), newest first, following moves between scopes. */
  async log(idOrPrefix: string): Promise<LogResult> {
    const want = idOrPrefix.toUpperCase();
    if (want.length < MIN_PREFIX || want.length > 26 || !/^[0-9A-HJKMNP-TV-Z]+$/.test(want)) {
      throw new UsageError(`"${truncate(idOrPrefix)}" is not an invariant id or a prefix of one`, `Give the full id or at least ${MIN_PREFIX} of its first characters.`);
    }
    const top = await this.top();
    const prefix = relative(top, this.root).split(sep).join('/');
    const base = prefix === '' ? '' : `${prefix}/`;
    let commits: LogCommit[];
    try {
      // The id stays in the file name wherever the file moves: one glob finds every scope it lived in.
      commits = await logRaw(top, [`:(glob)${base}**/${want}*.yaml`]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/does not have any commits|bad default revision/.test(message)) commits = [];
      else throw new UsageError(`git log failed: ${message.trim()}`);
    }
    type Hit = { status: string; oldSha: string; newSha: string; path: string; id: string; scope: Scope };
    const perCommit: { c: LogCommit; hits: Hit[] }[] = [];
    const ids = new Set<string>();
    for (const c of commits) {
      const hits: Hit[] = [];
      for (const ch of c.changes) {
        if (!ch.path.startsWith(base)) continue;
        const rel = ch.path.slice(base.length);
        const kind = classifyPath(rel);
        if (kind.kind !== 'invariant' || !kind.id.startsWith(want)) continue;
        ids.add(kind.id);
        hits.push({ ...ch, path: rel, id: kind.id, scope: kind.scope });
      }
      if (hits.length > 0) perCommit.push({ c, hits });
    }
    const exact = ids.has(want) ? [want] : [...ids];
    if (exact.length === 0) {
      throw new UsageError(`no invariant with id ${want.length === 26 ? want : `prefix ${want}`} in the history of ${top}`, 'Check the id; `git log` only sees committed files (and a shallow clone only its own commits).');
    }
    if (exact.length > 1) throw new UsageError(`id prefix ${want} is ambiguous in the history; it matches:\n${exact.sort().map((i) => `  ${i}`).join('\n')}`, 'Give more characters of the id.');
    const id = exact[0]!;
    const shas = new Set<string>();
    for (const { hits } of perCommit) for (const h of hits) if (h.id === id) for (const s of [h.oldSha, h.newSha]) if (s !== NULL_SHA) shas.add(s);
    const blobs = await catFileBatch(top, [...shas]);
    const parsedAt = (sha: string, path: string, scope: Scope): { inv?: ScopedInvariant; problem?: Diagnostic } => {
      if (sha === NULL_SHA) return {};
      const bytes = blobs.get(sha);
      if (!bytes) return { problem: { code: 'file-unreadable', severity: 'error', file: path, line: 0, col: 0, message: `${path}: its object is missing from the repository` } };
      const p = parseInvariant(path, bytes, scope, id);
      return p.value ? { inv: p.value } : p.diagnostics[0] ? { problem: p.diagnostics[0] } : {};
    };
    const events: LogEvent[] = [];
    for (const { c, hits } of perCommit) {
      const mine = hits.filter((h) => h.id === id);
      if (mine.length === 0) continue;
      const gone = mine.filter((h) => h.newSha === NULL_SHA);
      const born = mine.filter((h) => h.oldSha === NULL_SHA);
      const edits = mine.filter((h) => h.oldSha !== NULL_SHA && h.newSha !== NULL_SHA);
      const head = { commit: c.commit, author: c.author, email: c.email, date: c.date, subject: c.subject };
      const event = (change: LogEvent['change'], path: string, scope: Scope, fromPath?: string, fromScope?: Scope, oldSha = NULL_SHA, newSha = NULL_SHA): void => {
        const b = fromPath !== undefined && fromScope ? parsedAt(oldSha, fromPath, fromScope) : parsedAt(oldSha, path, scope);
        const a = parsedAt(newSha, path, scope);
        const e: LogEvent = { ...head, change, path, scope, fields: b.inv && a.inv ? invariantFieldChanges(b.inv, a.inv).filter((f) => f.field !== 'scope') : [] };
        if (fromPath !== undefined) e.fromPath = fromPath;
        if (fromScope) e.fromScope = fromScope;
        const shown = a.inv ?? b.inv;
        if (shown) e.text = shown.text;
        const problem = a.problem ?? (change === 'removed' ? undefined : b.problem);
        if (problem) e.invalid = problem;
        events.push(e);
      };
      while (gone.length > 0 && born.length > 0) {
        const from = gone.shift()!;
        const to = born.shift()!;
        event('moved', to.path, to.scope, from.path, from.scope, from.oldSha, to.newSha);
      }
      for (const h of born) event('added', h.path, h.scope, undefined, undefined, NULL_SHA, h.newSha);
      for (const h of edits) event('edited', h.path, h.scope, undefined, undefined, h.oldSha, h.newSha);
      for (const h of gone) event('removed', h.path, h.scope, undefined, undefined, h.oldSha, NULL_SHA);
    }
    const shallow = await isShallow(top);
    const latest = events[0];
    return { id, deleted: latest?.change === 'removed', ...(latest && latest.change !== 'removed' ? { path: latest.path } : {}), shallow, events };
  }
}

/** One commit's change to an invariant. */
export interface LogEvent {
  commit: string;
  author: string;
  email: string;
  /** ISO 8601 author date. */
  date: string;
  subject: string;
  change: 'added' | 'edited' | 'moved' | 'removed';
  /** Store-relative path after the change (the removed path, for removals). */
  path: string;
  scope: Scope;
  fromPath?: string;
  fromScope?: Scope;
  /** The text after the change (before it, for removals). */
  text?: string;
  /** Fields that changed (edits and moves). */
  fields: FieldChange[];
  /** The file as committed was invalid here (its first problem). */
  invalid?: Diagnostic;
}

export interface LogResult {
  id: string;
  /** The last commit in its history removed it. */
  deleted: boolean;
  /** Where it lives at the newest commit that touched it (absent when deleted). */
  path?: string;
  /** The repository is a shallow clone: history may stop early. */
  shallow: boolean;
  /** Newest first. */
  events: LogEvent[];
}
