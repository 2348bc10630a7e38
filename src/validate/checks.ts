import type { Diagnostic, DiagnosticCode, RelatedLocation } from '../core/diagnostics.ts';
import { classifyPath, isKnownFolder, isTemporaryName, type PathKind } from '../core/layout.ts';
import { describeScope, scopeFolder, type ScopedInvariant, type Severity } from '../core/model.ts';
import { isUlid, nameProblem, ulidProblem } from '../core/names.ts';
import { textKey } from '../core/normalise.ts';
import { diagAt, offsetAt, parseYaml, type YamlFile } from '../core/parse.ts';
import { SCHEMAS, type SchemaName } from '../core/schemas.ts';
import { shadowMap } from '../core/shadow.ts';
import { isScopeFolder, readEntries, readFailure, type StoreSnapshot } from '../store/read.ts';
import type { TreeEntry, TreeSource } from '../store/tree-source.ts';
import { RecordingSource } from './recording-source.ts';
import { checkRecord, RECORD_SCHEMAS } from './records.ts';

export interface ValidateOptions {
  /**
   * Whether the process that wrote a `.lock` is still running (same host);
   * `undefined` when that cannot be known. Absent: every lock is stale (a lock
   * in the index or a revision was committed by mistake).
   */
  lockHolderAlive?: (pid: number, host: string) => boolean | undefined;
}

/** Everything one validation found, with what later steps (`--fix`, paths filter) need. */
export interface ValidateReport {
  /** "working tree", "index", … */
  source: string;
  /** Every entry of the tree. */
  entries: TreeEntry[];
  /** Number of files checked. */
  files: number;
  diagnostics: Diagnostic[];
  /** Bytes of every file read, by store-relative path. */
  bytes: ReadonlyMap<string, Uint8Array>;
  /** Ids that name a file or plan folder anywhere in the store. */
  usedIds: ReadonlySet<string>;
}

const MODELINE_RE = /^(?:\uFEFF)?#\s*yaml-language-server:\s*\$schema=/;

function problem(code: DiagnosticCode, severity: Severity, file: string, message: string, hint?: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  const d: Diagnostic = { code, severity, file, line: 0, col: 0, message, ...extra };
  if (hint !== undefined) d.hint = hint;
  return d;
}

/**
 * Every check of `agents validate` over one tree (working tree, index or
 * revision). Reads through the same store readers as the other commands,
 * then adds what only validation needs: layout, records, ids across the
 * store, duplicates, shadows, references, schema copies and modelines.
 */
export async function validateTree(tree: TreeSource, options: ValidateOptions = {}): Promise<ValidateReport> {
  const source = new RecordingSource(tree);
  const entries = await source.list('', { recursive: true });
  const diagnostics: Diagnostic[] = [];
  const kinds = new Map<string, PathKind>();
  for (const e of entries) kinds.set(e.path, classifyPath(e.path));

  diagnostics.push(...checkLayout(entries, kinds));
  diagnostics.push(...(await checkLocks(source, entries, kinds, options)));

  const snapshot = await readEntries(source, entries, undefined, kinds);
  diagnostics.push(...snapshot.diagnostics);
  diagnostics.push(...(await checkRecords(source, entries, kinds)));
  diagnostics.push(...(await checkSchemaCopies(source, entries)));

  const ids = checkIds(entries, kinds);
  const usedIds = ids.usedIds;
  diagnostics.push(...ids.diagnostics);

  const located = new Located(source.bytes);
  // Duplicates and shadows only exist among invariants whose text key is shared: one key per text, computed once.
  const shared = sharingText(snapshot.invariants);
  diagnostics.push(...checkDuplicates(shared, located));
  diagnostics.push(...checkShadows(shared, snapshot.plans, located));
  diagnostics.push(...checkReferences(snapshot, entries, usedIds, located));
  diagnostics.push(...checkModelines(source.bytes, kinds, diagnostics));

  const files = entries.filter((e) => e.type !== 'dir').length;
  return { source: source.description, entries, files, diagnostics: unique(diagnostics), bytes: source.bytes, usedIds };
}

/** One diagnostic per code and place: the layout check and the reader may both meet one link. */
function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\0${d.file}\0${d.line}\0${d.col}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Kinds of path whose entries the readers report themselves when they are not files. */
const READ_KINDS = new Set<PathKind['kind']>(['invariant', 'plan', 'action-meta', 'config', 'bad-id', 'record']);

/** Folders and files that fit no shape of the layout, bad names, plan folders without plan.yaml, links, temporaries. */
function checkLayout(entries: readonly TreeEntry[], kinds: ReadonlyMap<string, PathKind>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reported: string[] = [];
  const under = (p: string) => reported.some((r) => p.startsWith(`${r}/`));
  // Only the plan.yaml files are looked up (for plan-missing): a set of them, not of every path.
  const planFiles = new Set<string>();
  for (const e of entries) if (e.path.endsWith('/plan.yaml')) planFiles.add(e.path);
  for (const e of entries) {
    if (under(e.path)) continue;
    if (e.type === 'dir') {
      if (e.path.endsWith('.yaml') && READ_KINDS.has(kinds.get(e.path)?.kind ?? 'unknown')) {
        // A folder where a file must be: the reader reports it (not-a-file); skip what is inside.
        reported.push(e.path);
        continue;
      }
      if (!isKnownFolder(e.path)) {
        out.push(folderProblem(e.path));
        reported.push(e.path);
        continue;
      }
      const parts = e.path.split('/');
      if (parts[0] === 'plans' && parts.length === 2 && !planFiles.has(`${e.path}/plan.yaml`)) {
        out.push(problem('plan-missing', 'error', `${e.path}/plan.yaml`, `plan folder ${e.path}/ has no plan.yaml`, 'Restore plan.yaml (git checkout, or `agents plan use`), or remove the folder if the plan is gone.'));
      }
      continue;
    }
    // A linked scope folder: the shared reader reports it.
    if (e.type === 'symlink' && isScopeFolder(e.path)) continue;
    const kind = kinds.get(e.path)!;
    switch (kind.kind) {
      case 'unknown':
        if (e.type === 'symlink') out.push(linkProblem(e.path));
        else out.push(problem('unknown-path', 'warning', e.path, `${e.path} fits no place in the store layout and is never read`, 'Move it out of the store, or see "The store" in the README for where files go.'));
        break;
      case 'bad-name':
        out.push(problem('bad-name', 'error', e.path, `${kind.problem}; files under it are never read`, 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-"; plan folders are ULIDs.'));
        break;
      case 'temporary':
        out.push(problem('temporary-file', 'warning', e.path, `${e.path} is a temporary file left by an interrupted write`, 'Run `agents validate --fix` to remove it (it never holds the only copy of anything).'));
        break;
      case 'schema':
      case 'actor':
      case 'keep':
        if (e.type === 'symlink') out.push(linkProblem(e.path));
        break;
      default:
        break;
    }
  }
  return out;
}

function linkProblem(path: string): Diagnostic {
  return problem('symlink', 'error', path, `${path} is a symbolic link; links are never followed inside a store`, 'Replace the link with the file itself, or remove it.');
}

/** A folder that is not part of the layout: a broken name where a name goes, else an unknown path. */
function folderProblem(path: string): Diagnostic {
  const [top, a, b] = path.split('/');
  const depth = path.split('/').length;
  let why: string | null = null;
  if (top === 'projects' && depth === 2) why = nameProblem(a!, 'project');
  else if (top === 'actions' && depth === 2) why = nameProblem(a!, 'action namespace');
  else if (top === 'actions' && depth === 3) why = nameProblem(b!, 'action name');
  else if (top === 'plans' && depth === 2 && isTemporaryName(a!)) {
    return problem('temporary-file', 'warning', path, `${path}/ is a plan folder left by an interrupted \`plan use\` (it is renamed into place only when complete)`, 'Run `agents validate --fix` to remove it; the plan was never created.');
  } else if (top === 'plans' && depth === 2) why = ulidProblem(a!, 'plan folder');
  if (why) return problem('bad-name', 'error', path, `${why}; files under it are never read`, 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-"; plan folders are ULIDs.');
  return problem('unknown-path', 'warning', path, `folder ${path}/ fits no place in the store layout and is never read`, 'Move it out of the store, or see "The store" in the README for where folders go.');
}

/** `.lock` files: in the working tree, stale when their process is gone; in git, always stale. */
async function checkLocks(source: TreeSource, entries: readonly TreeEntry[], kinds: ReadonlyMap<string, PathKind>, options: ValidateOptions): Promise<Diagnostic[]> {
  const locks = entries.filter((e) => e.type === 'file' && kinds.get(e.path)?.kind === 'lock').map((e) => e.path);
  if (locks.length === 0) return [];
  const contents = await source.read(locks);
  const out: Diagnostic[] = [];
  for (const path of locks) {
    const r = contents.get(path);
    const text = r?.ok ? new TextDecoder().decode(r.bytes) : '';
    const [pidText = '', host = ''] = text.trim().split(/\s+/);
    const pid = Number(pidText);
    if (!options.lockHolderAlive) {
      out.push(problem('stale-lock', 'warning', path, `${path} is a writer's lock file; it must never be committed`, 'Remove it from git (`git rm --cached`) and add `.lock` to .gitignore.'));
      continue;
    }
    const alive = Number.isInteger(pid) && pid > 0 ? options.lockHolderAlive(pid, host) : false;
    if (alive === false) {
      out.push(problem('stale-lock', 'warning', path, `${path} was left by process ${pidText || '?'}${host ? ` on ${host}` : ''}, which is no longer running`, 'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.'));
    }
  }
  return out;
}

/** Plan records: their kind's schema, or YAML validity until they have one. */
async function checkRecords(source: TreeSource, entries: readonly TreeEntry[], kinds: ReadonlyMap<string, PathKind>): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const jobs: { path: string; kind: Extract<PathKind, { kind: 'record' }> }[] = [];
  for (const e of entries) {
    const kind = kinds.get(e.path);
    if (kind?.kind !== 'record') continue;
    if (e.type !== 'file') {
      out.push(readFailure(e.path, e.type === 'symlink' ? { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' } : { ok: false, code: 'not-a-file', message: e.type === 'dir' ? 'is a folder, not a file' : 'is not a regular file' }));
      continue;
    }
    jobs.push({ path: e.path, kind });
  }
  if (jobs.length === 0) return out;
  const contents = await source.read(jobs.map((j) => j.path));
  for (const { path, kind } of jobs) {
    const r = contents.get(path);
    if (!r) continue;
    if (!r.ok) out.push(readFailure(path, r));
    else out.push(...checkRecord(path, kind.record, r.bytes));
  }
  return out;
}

/** The store's copies of the schemas (for editors) against the tool's own. */
async function checkSchemaCopies(source: TreeSource, entries: readonly TreeEntry[]): Promise<Diagnostic[]> {
  if (!entries.some((e) => e.path === 'schemas' && e.type === 'dir') && !entries.some((e) => e.path.startsWith('schemas/'))) return [];
  const names = Object.keys(SCHEMAS) as SchemaName[];
  const contents = await source.read(names.map((n) => `schemas/${n}`));
  const out: Diagnostic[] = [];
  const hint = 'Run `agents init --schemas` to refresh the copies, then commit them.';
  for (const name of names) {
    const file = `schemas/${name}`;
    const r = contents.get(file);
    if (!r || !r.ok) {
      out.push(problem('schema-outdated', 'warning', file, `${file} is missing from the store; editors cannot validate ${name.replace('.schema.json', '')} files as you type`, hint));
      continue;
    }
    let same = false;
    try {
      same = JSON.stringify(JSON.parse(new TextDecoder().decode(r.bytes))) === JSON.stringify(SCHEMAS[name]);
    } catch {
      same = false;
    }
    if (!same) out.push(problem('schema-outdated', 'warning', file, `${file} differs from the schema this version of agents checks against; editors may accept what validate refuses`, hint));
  }
  return out;
}

/** The id each path stands for: its file name, or the plan folder for plan.yaml. */
function idOf(kind: PathKind | undefined): string | undefined {
  if (!kind) return undefined;
  if (kind.kind === 'invariant' || kind.kind === 'record') return kind.id;
  if (kind.kind === 'plan') return kind.plan;
  return undefined;
}

/** Whether `path` is a plan folder (`plans/<ULID>`), without splitting every path of the store. */
function isPlanFolderPath(path: string): boolean {
  return path.length === 32 && path.startsWith('plans/') && isUlid(path.slice(6));
}

/**
 * Ids in use anywhere in the store (file names, plan folders), and `id-reused`
 * for every later use of an id that names an invariant file, a plan or a
 * record: one id names one thing in the whole store. One pass over the entries.
 */
function checkIds(entries: readonly TreeEntry[], kinds: ReadonlyMap<string, PathKind>): { usedIds: Set<string>; diagnostics: Diagnostic[] } {
  const usedIds = new Set<string>();
  // First use of each id; the later uses are collected only when there are any (rare).
  const first = new Map<string, string>();
  let reused: Map<string, string[]> | undefined;
  for (const e of entries) {
    const id = idOf(kinds.get(e.path));
    if (id) {
      usedIds.add(id);
      const had = first.get(id);
      if (had === undefined) first.set(id, e.path);
      else {
        reused ??= new Map();
        const list = reused.get(id);
        if (list) list.push(e.path);
        else reused.set(id, [e.path]);
      }
    }
    if (e.type === 'dir' && isPlanFolderPath(e.path)) usedIds.add(e.path.slice(6));
  }
  const diagnostics: Diagnostic[] = [];
  if (!reused) return { usedIds, diagnostics };
  // Grouped by id in the order of first use.
  for (const [id, firstPath] of first) {
    const rest = reused.get(id);
    if (!rest) continue;
    for (const p of rest) {
      diagnostics.push(problem('id-reused', 'error', p, `id ${id} is already used by ${firstPath}; an id names one thing in the whole store`, 'Give this file a new id (copy the text with `agents invariant add`, then delete this file).', { related: [{ file: firstPath, line: 0, col: 0, message: `first use of ${id}` }] }));
    }
  }
  return { usedIds, diagnostics };
}

/** Parses recorded files again on demand, for the positions of keys in the few files a check reports. */
class Located {
  private readonly cache = new Map<string, YamlFile | null>();

  constructor(private readonly bytes: ReadonlyMap<string, Uint8Array>) {}

  yaml(file: string): YamlFile | undefined {
    if (!this.cache.has(file)) {
      const b = this.bytes.get(file);
      this.cache.set(file, b ? (parseYaml(file, b).value ?? null) : null);
    }
    return this.cache.get(file) ?? undefined;
  }

  at(file: string, path: readonly string[], code: DiagnosticCode, severity: Severity, message: string, hint?: string, related?: RelatedLocation[]): Diagnostic {
    const y = this.yaml(file);
    const d = y ? diagAt(y, offsetAt(y, path), code, message, hint) : problem(code, severity, file, message, hint);
    d.severity = severity;
    if (related) d.related = related;
    return d;
  }

  where(file: string, path: readonly string[]): { line: number; col: number } {
    const y = this.yaml(file);
    return y ? y.lines.linePos(offsetAt(y, path)) : { line: 0, col: 0 };
  }
}

/** The invariants whose text key (SPEC 5) another invariant shares, in their order, with their keys. */
interface SharedText {
  invariants: ScopedInvariant[];
  keys: string[];
}

function sharingText(all: readonly ScopedInvariant[]): SharedText {
  const keys = all.map((inv) => textKey(inv.text));
  const count = new Map<string, number>();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  const out: SharedText = { invariants: [], keys: [] };
  for (let i = 0; i < all.length; i++) {
    if (count.get(keys[i]!)! < 2) continue;
    out.invariants.push(all[i]!);
    out.keys.push(keys[i]!);
  }
  return out;
}

/** Equal text keys (SPEC 5) inside one scope: every copy but the oldest is an error. */
function checkDuplicates(shared: SharedText, located: Located): Diagnostic[] {
  const groups = new Map<string, ScopedInvariant[]>();
  for (const [i, inv] of shared.invariants.entries()) {
    const key = `${scopeFolder(inv.scope)}\u0000${shared.keys[i]!}`;
    const g = groups.get(key);
    if (g) g.push(inv);
    else groups.set(key, [inv]);
  }
  const out: Diagnostic[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.sort((a, b) => (a.id < b.id ? -1 : 1));
    const kept = g[0]!;
    for (const dup of g.slice(1)) {
      out.push(
        located.at(
          dup.path,
          ['text'],
          'duplicate-text',
          'error',
          `same text as ${kept.id} (${kept.path}) in ${describeScope(dup.scope)}; a scope holds each text once`,
          `Delete one of the two files (resolution keeps the older, ${kept.id}).`,
          [{ file: kept.path, ...located.where(kept.path, ['text']), message: `the copy that is kept: ${kept.id}` }],
        ),
      );
    }
  }
  return out;
}

/** The same text at a lower precedence: never applies where the higher copy does. */
function checkShadows(shared: SharedText, plans: StoreSnapshot['plans'], located: Located): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (shared.invariants.length === 0) return out;
  const map = shadowMap(shared.invariants, plans);
  for (const inv of shared.invariants) {
    const info = map.get(inv.id);
    if (!info) continue;
    for (const by of info.shadowedBy) {
      if (scopeFolder(by.scope) === scopeFolder(inv.scope)) continue; // a duplicate, reported above
      out.push(
        located.at(
          inv.path,
          ['text'],
          'shadowed',
          'warning',
          `${inv.id} (${describeScope(inv.scope)}) is shadowed by ${by.id} (${describeScope(by.scope)}, ${by.path}): the same text at a higher precedence`,
          'Nothing is lost, but one copy is redundant: delete the lower one unless it must apply elsewhere.',
          [{ file: by.path, ...located.where(by.path, ['text']), message: `the copy that applies: ${by.id}` }],
        ),
      );
    }
  }
  return out;
}

/** A plan's action and project must exist; a promoted invariant's origin may be gone (info). */
function checkReferences(snapshot: StoreSnapshot, entries: readonly TreeEntry[], usedIds: ReadonlySet<string>, located: Located): Diagnostic[] {
  const projects = new Set<string>();
  const actions = new Set<string>();
  for (const e of entries) {
    if (!e.path.startsWith('projects/') && !e.path.startsWith('actions/')) continue;
    const parts = e.path.split('/');
    if (parts[0] === 'projects' && parts[1] !== undefined && (parts.length > 2 || e.type === 'dir')) projects.add(parts[1]);
    if (parts[0] === 'actions' && parts[1] !== undefined && parts[2] !== undefined && (parts.length > 3 || e.type === 'dir')) actions.add(`${parts[1]}/${parts[2]}`);
  }
  const out: Diagnostic[] = [];
  for (const plan of snapshot.plans.values()) {
    const file = `plans/${plan.id}/plan.yaml`;
    if (plan.action !== undefined && !actions.has(plan.action)) {
      out.push(located.at(file, ['action'], 'unknown-action', 'warning', `plan ${plan.id} names action ${plan.action}, which is not in the store (no actions/${plan.action}/)`, 'Restore the action template, or correct the name.'));
    }
    if (plan.project !== undefined && !projects.has(plan.project)) {
      out.push(located.at(file, ['project'], 'unknown-project', 'warning', `plan ${plan.id} targets project ${plan.project}, which is not in the store (no projects/${plan.project}/)`, 'Create the project folder (e.g. with `agents invariant add --project`), or correct the name.'));
    }
  }
  for (const inv of snapshot.invariants) {
    const origin = inv.source?.origin_id;
    if (inv.scope.kind !== 'plan' || origin === undefined || usedIds.has(origin)) continue;
    out.push(located.at(inv.path, ['source', 'origin_id'], 'unknown-origin', 'info', `${inv.id} was promoted from ${origin}${inv.source?.ref ? ` (action ${inv.source.ref})` : ''}, which no longer exists`, 'Nothing to do unless the plan should follow the action again; the plan keeps its own copy.'));
  }
  return out;
}

/** The schema a file's modeline names, by kind; undefined for files that carry none. */
export function modelineSchema(kind: PathKind | undefined): SchemaName | undefined {
  switch (kind?.kind) {
    case 'invariant':
      return 'invariant.schema.json';
    case 'plan':
      return 'plan.schema.json';
    case 'config':
      return 'config.schema.json';
    case 'action-meta':
      return 'action.schema.json';
    case 'record':
      return RECORD_SCHEMAS[kind.record];
    default:
      return undefined;
  }
}

/** The modeline as the tool writes it (a prefix that MODELINE_RE accepts). */
const MODELINE_BYTES = new TextEncoder().encode('# yaml-language-server: $schema=');

function startsWithBytes(b: Uint8Array, prefix: Uint8Array): boolean {
  if (b.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

/** Files that parsed cleanly but lack the editor modeline (info; `--fix` adds it). */
function checkModelines(bytes: ReadonlyMap<string, Uint8Array>, kinds: ReadonlyMap<string, PathKind>, found: readonly Diagnostic[]): Diagnostic[] {
  const withErrors = new Set(found.filter((d) => d.severity === 'error').map((d) => d.file));
  const out: Diagnostic[] = [];
  const decoder = new TextDecoder();
  for (const [file, b] of bytes) {
    const schema = modelineSchema(kinds.get(file));
    if (!schema || withErrors.has(file) || b.byteLength === 0) continue;
    // The line the tool writes, compared byte for byte; anything else goes through the regular expression.
    if (startsWithBytes(b, MODELINE_BYTES)) continue;
    const head = decoder.decode(b.subarray(0, 200));
    if (MODELINE_RE.test(head)) continue;
    out.push({ code: 'modeline-missing', severity: 'info', file, line: 1, col: 1, message: `no \`# yaml-language-server: $schema=…\` first line; editors cannot validate this file as you type`, hint: 'Run `agents validate --fix` to add it.', lineText: head.split(/\r?\n/)[0] ?? '' });
  }
  return out;
}
