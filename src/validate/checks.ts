import type { Diagnostic, DiagnosticCode, RelatedLocation } from '../core/diagnostics.ts';
import { isKnownFolder, pathClassifier, isTemporaryName, type PathKind } from '../core/layout.ts';
import { describeScope, scopeFolder, type Plan, type ScopedInvariant, type Severity, type StoreConfig } from '../core/model.ts';
import { isUlid, nameProblem, ulidProblem } from '../core/names.ts';
import { textKey } from '../core/normalise.ts';
import type { YamlFile } from '../core/parse.ts';
import { SCHEMAS, type SchemaName } from '../core/schema-docs.ts';
import { canMeet, nearPairs, nearPairsTouching, oneEditApart, type NearKind } from '../core/near-duplicates.ts';
import { shadowMap } from '../core/shadow.ts';
import { isScopeFolder, planReads, readFailure, type ReadJob } from '../store/read-plan.ts';
import { WorkingTreeSource, type ReadResult, type TreeEntry, type TreeSource } from '../store/tree-source.ts';
import { FactsCache } from './cache.ts';
import { isContentKind, type ContentKind, type FileFacts } from './file-facts.ts';
import { RecordingSource } from './recording-source.ts';

export interface ValidateOptions {
  /**
   * Whether the process that wrote a `.lock` is still running (same host);
   * `undefined` when that cannot be known. Absent: every lock is stale (a lock
   * in the index or a revision was committed by mistake).
   */
  lockHolderAlive?: (pid: number, host: string) => boolean | undefined;
  /** Facts of files checked in earlier runs (see cache.ts); absent: every file is parsed and checked. */
  cache?: FactsCache;
  /**
   * The repository's files (relative to its top) that projects' paths are
   * matched against, asked for only when some project.yaml has paths;
   * undefined when they cannot be known (no git repository, a revision).
   */
  repoFiles?: () => Promise<readonly string[] | undefined>;
  /** The time waivers are judged at (`waiver-expired`); absent: expiry is not checked. */
  now?: Date;
  /** The invariant ids of a policy source's action template (`SOURCE:NS/NAME`), for promoted origins; absent: the store extends nothing. */
  sourceActionIds?: (ref: string) => Promise<ReadonlySet<string> | undefined>;
  /**
   * Threads that check the files no cache answers (`--jobs`, docs/validation.md):
   * 1 is this thread alone; absent, every core when there are enough files.
   */
  jobs?: number;
  /** Told as files are read, then as those the cache does not know are checked (a progress display). */
  onProgress?: (phase: 'read' | 'check', done: number, total: number) => void;
  /**
   * Hook mode (docs/validation.md, "What hook mode checks"): whether a path
   * is one the change touches. The caller keeps only the diagnostics on such
   * a path or naming one as related; checks whose findings can be told from
   * the touched paths alone (layout, near-duplicates) then look only at what
   * those can take part in. The diagnostics kept are the same as a full
   * run's; others may be left out. The folders of a touched path must be
   * touched too.
   */
  touches?: (path: string) => boolean;
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
  /** Ids that name a file or plan folder anywhere in the store. */
  usedIds: ReadonlySet<string>;
}

function problem(
  code: DiagnosticCode,
  severity: Severity,
  file: string,
  message: string,
  hint: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  // Every finding of these checks comes with a hint (after `extra`: the order of a diagnostic's keys in JSON).
  return { code, severity, file, line: 0, col: 0, message, ...extra, hint };
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
  // Aligned with `entries`: each path's kind, classified once (one folder's paths share a scope object).
  const classify = pathClassifier();
  const kinds = entries.map((e) => classify(e.path));

  diagnostics.push(...checkLayout(entries, kinds, options.touches));
  diagnostics.push(...(await checkLocks(source, entries, kinds, options)));

  // File by file: the shared reader's rules for what is read, then each file's own checks (or their cached facts).
  const jobs = planReads(entries, (k) => isContentKind(k) || k.kind === 'bad-id', diagnostics, kinds) as ContentJob[];
  const cache = options.cache ?? FactsCache.none();
  const facts = await readFacts(source, tree, jobs, cache, options);
  for (const f of facts) if (f.d) diagnostics.push(...f.d);
  diagnostics.push(...(await checkSchemaCopies(source, tree, entries, cache)));

  const ids = checkIds(entries, kinds);
  const usedIds = ids.usedIds;
  diagnostics.push(...ids.diagnostics);

  const plans = new Map<string, Plan>();
  for (let i = 0; i < jobs.length; i++) {
    const kind = jobs[i]!.kind;
    if (kind.kind !== 'plan') continue;
    const plan = facts[i]!.p;
    if (plan) plans.set(kind.plan, plan);
  }
  const located = new Located(source);
  // Duplicates and shadows only exist among invariants whose text key is shared: one key per text, computed once.
  const shared = await sharingText(source, jobs, facts);
  await located.load(shared.invariants.map((inv) => inv.path));
  diagnostics.push(...checkDuplicates(shared, located));
  diagnostics.push(...checkShadows(shared, plans, located));
  diagnostics.push(...(await checkOverrides(jobs, facts, located)));
  diagnostics.push(...(await checkNearDuplicates(jobs, facts, plans, located, options.touches)));
  // config.yaml, read once and only if a check needs it; a broken one is reported as its own file's
  // problem, and counts as the defaults here.
  let config: Promise<StoreConfig> | undefined;
  const storeConfig = () => {
    config ??= import('../store/config.ts').then(async ({ readConfig }) => (await readConfig(source)).config);
    return config;
  };
  diagnostics.push(...(await checkReferences(storeConfig, jobs, facts, plans, entries, usedIds, located, options.sourceActionIds)));
  diagnostics.push(...(await checkWaivers(jobs, facts, usedIds, located, options.now)));
  diagnostics.push(...checkModelines(jobs, facts, diagnostics));
  diagnostics.push(...(await checkProjectPaths(storeConfig, jobs, facts, located, options)));

  const files = entries.filter((e) => e.type !== 'dir').length;
  return { source: source.description, entries, files, diagnostics: unique(diagnostics), usedIds };
}

/** A file validation reads and checks on its own. */
type ContentJob = ReadJob & { kind: ContentKind };
/** A job whose facts hold what only an invariant's have (a key digest, a near key). */
type InvariantJob = ContentJob & { kind: Extract<ContentKind, { kind: 'invariant' }> };

/**
 * The facts of every file to check. From a git source the blob ids come with
 * the listing, so a file the cache knows is not even read; in the working
 * tree every file is read (without keeping a copy) and its content hashed.
 * Files the cache does not know are parsed and checked, and their facts added
 * to it. The bytes of files with something to report are kept (positions,
 * `--fix`); the others are read again if a later check needs them.
 */
async function readFacts(
  source: RecordingSource,
  tree: TreeSource,
  jobs: readonly ContentJob[],
  cache: FactsCache,
  options: ValidateOptions,
): Promise<FileFacts[]> {
  const onProgress = options.onProgress;
  let read = 0;
  const tick = onProgress && (() => onProgress('read', ++read, jobs.length));
  // Aligned with `jobs`; every index is set below (a read answers every path asked).
  const facts: FileFacts[] = new Array(jobs.length);
  if (cache.empty && !tree.blobIds && tree instanceof WorkingTreeSource) {
    // A cold run (no cache, outside git, a fresh clone): every file is read and checked, in batches, on every core that pays.
    const { checkFiles, threadsFor } = await import('./check-pool.ts');
    const paths = jobs.map((j) => j.entry.path);
    const kinds = jobs.map((j) => j.kind);
    await checkFiles(tree.root, paths, kinds, { hash: cache.enabled }, threadsFor(jobs.length, options.jobs), (start, files) => {
      // Read and checked together: one count.
      onProgress?.('check', start + files.length, jobs.length);
      for (let k = 0; k < files.length; k++) {
        const i = start + k;
        const c = files[k]!;
        const path = paths[i]!;
        if (c.fail) {
          facts[i] = { d: [readFailure(path, c.fail)] };
          continue;
        }
        // Not a failure: checked.
        const f = c.f!;
        facts[i] = f;
        if (c.bytes) source.remember(path, c.bytes);
        if (c.blob !== undefined) cache.set(path, c.blob, f);
      }
    });
    return facts;
  }
  const toCheck: { i: number; bytes: Uint8Array; blob: string | undefined }[] = [];
  const useCache = cache.enabled;
  const known = tree.blobIds ? await tree.blobIds() : undefined;
  // The digest (node:crypto) loads only where files are hashed: a cached working tree.
  const contentHash = useCache && !known ? (await import('./content-hash.ts')).contentHash : undefined;
  const failed = (i: number, r: Exclude<ReadResult, { ok: true }>) => {
    facts[i] = { d: [readFailure(jobs[i]!.entry.path, r)] };
    tick?.();
  };
  // A file read: cached facts, or a file to check. The first `length` bytes of `bytes`; `shared`: only valid during the call.
  const take = (i: number, bytes: Uint8Array, length: number, shared: boolean, knownBlob?: string) => {
    tick?.();
    const path = jobs[i]!.entry.path;
    const own = () => (shared ? Buffer.from(bytes.subarray(0, length)) : bytes.subarray(0, length));
    const blob = useCache ? (knownBlob ?? contentHash?.(bytes, length)) : undefined;
    const hit = blob !== undefined && knownBlob === undefined ? cache.get(path, blob) : undefined;
    if (hit) {
      facts[i] = hit;
      if (hit.d !== undefined) source.remember(path, own());
      return;
    }
    toCheck.push({ i, bytes: own(), blob });
  };
  const takeResult = (i: number, r: ReadResult, knownBlob?: string) =>
    r.ok ? take(i, r.bytes, r.bytes.byteLength, false, knownBlob) : failed(i, r);

  if (known) {
    const toRead: number[] = [];
    for (let i = 0; i < jobs.length; i++) {
      const path = jobs[i]!.entry.path;
      const blob = known.get(path)?.sha;
      const hit = useCache && blob !== undefined ? cache.get(path, blob) : undefined;
      if (hit) facts[i] = hit;
      else toRead.push(i);
    }
    const contents = await tree.read(toRead.map((i) => jobs[i]!.entry.path));
    for (const i of toRead) {
      const path = jobs[i]!.entry.path;
      takeResult(i, contents.get(path)!, known.get(path)?.sha);
    }
  } else if (tree instanceof WorkingTreeSource) {
    tree.visit(
      jobs.map((j) => j.entry.path),
      (i, bytes, length) => take(i, bytes, length, true),
      failed,
    );
  } else {
    const contents = await tree.read(jobs.map((j) => j.entry.path));
    for (let i = 0; i < jobs.length; i++) takeResult(i, contents.get(jobs[i]!.entry.path)!);
  }

  // The checker (parser, schema validators) loads only when some file is not in the cache.
  if (toCheck.length === 0) return facts;
  const { checkFile } = await import('./check-file.ts');
  for (const [n, { i, bytes, blob }] of toCheck.entries()) {
    if (onProgress) {
      onProgress('check', n + 1, toCheck.length);
      // With a display up, the event loop turns now and then, so Ctrl-C can erase it (src/cli/progress.ts).
      if (n % 512 === 511) await new Promise((resolve) => setImmediate(resolve));
    }
    const job = jobs[i]!;
    const path = job.entry.path;
    const f = await checkFile(path, job.kind, bytes);
    facts[i] = f;
    if (f.d !== undefined) source.remember(path, bytes);
    if (blob !== undefined) cache.set(path, blob, f);
  }
  return facts;
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
const READ_KINDS = new Set<PathKind['kind']>([
  'invariant',
  'plan',
  'action-meta',
  'project-meta',
  'config',
  'extends-lock',
  'bad-id',
  'record',
  'waiver',
]);

/**
 * Folders and files that fit no shape of the layout, bad names, plan folders without plan.yaml, links, temporaries.
 * Each finding is on the path looked at (or, for a plan folder, its plan.yaml, which a change can touch only when
 * the folder holds a touched path), and paths under a reported folder are skipped: with `touches`, only touched
 * paths (a touched path's folders are touched too) are looked at, and every finding on a touched path is still made.
 */
function checkLayout(entries: readonly TreeEntry[], kinds: readonly PathKind[], touches?: (path: string) => boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reported: string[] = [];
  const under = (p: string) => reported.some((r) => p.startsWith(`${r}/`));
  // Only the plan.yaml files are looked up (for plan-missing): a set of them, not of every path, made when first needed.
  let planFiles: Set<string> | undefined;
  const hasPlanFile = (path: string) => {
    if (planFiles === undefined) {
      planFiles = new Set();
      for (const e of entries) if (e.path.endsWith('/plan.yaml')) planFiles.add(e.path);
    }
    return planFiles.has(path);
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (touches && !touches(e.path)) continue;
    if (under(e.path)) continue;
    if (e.type === 'dir') {
      if (READ_KINDS.has(kinds[i]!.kind)) {
        // A folder where a file must be (every such path ends in .yaml): the reader reports it (not-a-file); skip what is inside.
        reported.push(e.path);
        continue;
      }
      if (kinds[i]!.kind === 'lock') {
        // A folder where a lock goes: checkLocks reports it; what is inside is never read.
        reported.push(e.path);
        continue;
      }
      if (!isKnownFolder(e.path)) {
        out.push(folderProblem(e.path));
        reported.push(e.path);
        continue;
      }
      const parts = e.path.split('/');
      if (parts[0] === 'plans' && parts.length === 2 && !hasPlanFile(`${e.path}/plan.yaml`)) {
        out.push(
          problem(
            'plan-missing',
            'error',
            `${e.path}/plan.yaml`,
            `plan folder ${e.path}/ has no plan.yaml`,
            'Restore plan.yaml (git checkout, or `agents plan use`), or remove the folder if the plan is gone.',
          ),
        );
      }
      continue;
    }
    // A linked scope folder: the shared reader reports it.
    if (e.type === 'symlink' && isScopeFolder(e.path)) continue;
    const kind = kinds[i]!;
    switch (kind.kind) {
      case 'unknown':
        if (e.type === 'symlink') out.push(linkProblem(e.path));
        else
          out.push(
            problem(
              'unknown-path',
              'warning',
              e.path,
              `${e.path} fits no place in the store layout and is never read`,
              'Move it out of the store, or see docs/store-format.md for where files go.',
            ),
          );
        break;
      case 'bad-name':
        out.push(
          problem(
            'bad-name',
            'error',
            e.path,
            `${kind.problem}; files under it are never read`,
            'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-"; plan folders are ULIDs.',
          ),
        );
        break;
      case 'temporary':
        out.push(
          problem(
            'temporary-file',
            'warning',
            e.path,
            `${e.path} is a temporary file left by an interrupted write`,
            'Run `agents validate --fix` to remove it (it never holds the only copy of anything).',
          ),
        );
        break;
      case 'schema':
      case 'actor':
      case 'keep':
        if (e.type === 'symlink') out.push(linkProblem(e.path));
        break;
    }
  }
  return out;
}

function linkProblem(path: string): Diagnostic {
  return problem(
    'symlink',
    'error',
    path,
    `${path} is a symbolic link; links are never followed inside a store`,
    'Replace the link with the file itself, or remove it.',
  );
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
    return problem(
      'temporary-file',
      'warning',
      path,
      `${path}/ is a plan folder left by an interrupted \`plan use\` (it is renamed into place only when complete)`,
      'Run `agents validate --fix` to remove it; the plan was never created.',
    );
  } else if (top === 'plans' && depth === 2) why = ulidProblem(a!, 'plan folder');
  if (why)
    return problem(
      'bad-name',
      'error',
      path,
      `${why}; files under it are never read`,
      'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-"; plan folders are ULIDs.',
    );
  return problem(
    'unknown-path',
    'warning',
    path,
    `folder ${path}/ fits no place in the store layout and is never read`,
    'Move it out of the store, or see docs/store-format.md for where folders go.',
  );
}

/**
 * `.lock` files: in the working tree, stale when their process is gone; in
 * git, never to be committed. At a lock's name, anything but a regular file
 * (a folder, a link, a FIFO…) is an error: no writer can take or clear it, so
 * every writer of that scope would wait on it.
 */
async function checkLocks(
  source: TreeSource,
  entries: readonly TreeEntry[],
  kinds: readonly PathKind[],
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const inGit = !options.lockHolderAlive;
  const scopeOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/'))) || 'the store';
  const fixHint = inGit
    ? 'Remove it from git (`git rm -r --cached <path>`) and add `.lock` to .gitignore.'
    : 'Run `agents validate --fix` to remove it (it never holds anything of the store).';
  // The lock files; what is no file is reported now.
  const locks: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (kinds[i]!.kind !== 'lock') continue;
    const e = entries[i]!;
    if (e.type === 'file') {
      locks.push(e.path);
      continue;
    }
    const what = e.type === 'dir' ? 'a folder' : e.type === 'symlink' ? 'a symbolic link' : 'a special file (FIFO, socket or device)';
    out.push(
      problem(
        'bad-lock',
        'error',
        e.path,
        `${e.path} is ${what}, not a writer's lock file; every writer of ${scopeOf(e.path)} would wait on it`,
        fixHint,
      ),
    );
  }
  if (inGit) {
    for (const path of locks) {
      out.push(
        problem(
          'bad-lock',
          'error',
          path,
          `${path} is a writer's lock file committed to git; checked out, it can stop every writer of ${scopeOf(path)}`,
          fixHint,
        ),
      );
    }
    return out;
  }
  const contents = await source.read(locks);
  for (const path of locks) {
    const r = contents.get(path)!;
    if (!r.ok && r.code !== 'missing') {
      // Listed as a file, but not one when read (replaced meanwhile by a FIFO or a device).
      out.push(problem('bad-lock', 'error', path, `${path} ${r.message}; every writer of ${scopeOf(path)} would wait on it`, fixHint));
      continue;
    }
    const text = r.ok ? new TextDecoder().decode(r.bytes) : '';
    // split gives at least one part.
    const [pidText, host = ''] = text.trim().split(/\s+/);
    const pid = Number(pidText);
    const alive = Number.isInteger(pid) && pid > 0 ? options.lockHolderAlive!(pid, host) : false;
    if (alive === false) {
      out.push(
        problem(
          'stale-lock',
          'warning',
          path,
          `${path} was left by process ${pidText || '?'}${host ? ` on ${host}` : ''}, which is no longer running`,
          'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
        ),
      );
    }
  }
  return out;
}

/** The store's copies of the schemas (for editors) against the tool's own. */
async function checkSchemaCopies(
  source: TreeSource,
  tree: TreeSource,
  entries: readonly TreeEntry[],
  cache: FactsCache,
): Promise<Diagnostic[]> {
  if (!entries.some((e) => e.path === 'schemas' && e.type === 'dir') && !entries.some((e) => e.path.startsWith('schemas/'))) return [];
  const files = (Object.keys(SCHEMAS) as SchemaName[]).map((name) => ({ name, file: `schemas/${name}` }));
  // From git, a copy whose blob the cache knows is not read (its verdict is kept like a file's facts).
  const known = tree.blobIds && cache.enabled ? await tree.blobIds() : undefined;
  const verdicts = new Map<string, FileFacts>();
  for (const { file } of files) {
    const blob = known?.get(file)?.sha;
    const hit = blob === undefined ? undefined : cache.get(file, blob);
    if (hit) verdicts.set(file, hit);
  }
  const toRead = files.filter(({ file }) => !verdicts.has(file)).map(({ file }) => file);
  const contents = await source.read(toRead);
  const out: Diagnostic[] = [];
  const hint = 'Run `agents init --schemas` to refresh the copies, then commit them.';
  for (const { name, file } of files) {
    let verdict = verdicts.get(file);
    if (!verdict) {
      const r = contents.get(file)!;
      if (!r.ok && r.code !== 'missing') {
        // A link, a folder or a special file where the copy goes: said as it is, not as a missing copy.
        out.push(readFailure(file, r));
        continue;
      }
      if (!r.ok) {
        out.push(
          problem(
            'schema-outdated',
            'warning',
            file,
            `${file} is missing from the store; editors cannot validate ${name.replace('.schema.json', '')} files as you type`,
            hint,
          ),
        );
        continue;
      }
      let same = false;
      try {
        same = JSON.stringify(JSON.parse(new TextDecoder().decode(r.bytes))) === JSON.stringify(SCHEMAS[name]);
      } catch {
        // Not JSON: it differs.
      }
      verdict = same
        ? {}
        : {
            d: [
              problem(
                'schema-outdated',
                'warning',
                file,
                `${file} differs from the schema this version of agents checks against; editors may accept what validate refuses`,
                hint,
              ),
            ],
          };
      const blob = known?.get(file)?.sha;
      if (blob !== undefined) cache.set(file, blob, verdict);
    }
    if (verdict.d) out.push(...verdict.d);
  }
  return out;
}

/** The id each path stands for: its file name, or the plan folder for plan.yaml. */
function idOf(kind: PathKind): string | undefined {
  if (kind.kind === 'invariant' || kind.kind === 'record' || kind.kind === 'waiver') return kind.id;
  if (kind.kind === 'plan') return kind.plan;
  return undefined;
}

/** Whether `path` is a plan folder (`plans/<ULID>`), without splitting every path of the store. */
function isPlanFolderPath(path: string): boolean {
  return path.startsWith('plans/') && isUlid(path.slice(6));
}

/**
 * Ids in use anywhere in the store (file names, plan folders), and `id-reused`
 * for every later use of an id that names an invariant file, a plan or a
 * record: one id names one thing in the whole store. One pass over the entries.
 */
function checkIds(entries: readonly TreeEntry[], kinds: readonly PathKind[]): { usedIds: Set<string>; diagnostics: Diagnostic[] } {
  const usedIds = new Set<string>();
  // A use that does not grow the set is a reuse (rare): only then are first uses looked for.
  let reused: Map<string, string[]> | undefined;
  const planFolders: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const id = idOf(kinds[i]!);
    if (id) {
      const size = usedIds.size;
      if (usedIds.add(id).size === size) {
        reused ??= new Map();
        const list = reused.get(id);
        if (list) list.push(e.path);
        else reused.set(id, [e.path]);
      }
    }
    if (e.type === 'dir' && isPlanFolderPath(e.path)) planFolders.push(e.path.slice(6));
  }
  for (const id of planFolders) usedIds.add(id);
  const diagnostics: Diagnostic[] = [];
  if (!reused) return { usedIds, diagnostics };
  // Grouped by id in the order of first use.
  const first = new Map<string, string>();
  for (let i = 0; i < entries.length; i++) {
    const id = idOf(kinds[i]!);
    if (id && reused.has(id) && !first.has(id)) first.set(id, entries[i]!.path);
  }
  for (const [id, firstPath] of first) {
    for (const p of reused.get(id)!) {
      diagnostics.push(
        problem(
          'id-reused',
          'error',
          p,
          `id ${id} is already used by ${firstPath}; an id names one thing in the whole store`,
          'Give this file a new id (copy the text with `agents invariant add`, then delete this file).',
          { related: [{ file: firstPath, line: 0, col: 0, message: `first use of ${id}` }] },
        ),
      );
    }
  }
  return { usedIds, diagnostics };
}

/** Parses files again on demand, for the positions of keys in the few files a check reports. */
class Located {
  private readonly cache = new Map<string, YamlFile | null>();
  private yamlModule: typeof import('../core/parse.ts') | undefined;

  constructor(private readonly source: RecordingSource) {}

  /**
   * Reads the files whose positions will be asked for (a git source may not have read them yet; the source reads
   * only those it has not kept), and loads the parser. No file: nothing is read or loaded.
   */
  async load(files: readonly string[]): Promise<void> {
    if (files.length === 0) return;
    await this.source.read(files);
    this.yamlModule ??= await import('../core/parse.ts');
  }

  /** The file parsed again; every caller has called load() first, which loads the parser. */
  yaml(file: string): YamlFile | undefined {
    if (!this.cache.has(file)) {
      const b = this.source.bytes.get(file);
      this.cache.set(file, b ? (this.yamlModule!.parseYaml(file, b).value ?? null) : null);
    }
    return this.cache.get(file) ?? undefined;
  }

  at(
    file: string,
    path: readonly string[],
    code: DiagnosticCode,
    severity: Severity,
    message: string,
    hint: string,
    related?: RelatedLocation[],
  ): Diagnostic {
    const y = this.yaml(file);
    const d = y
      ? this.yamlModule!.diagAt(y, this.yamlModule!.offsetAt(y, path), code, message, hint)
      : problem(code, severity, file, message, hint);
    d.severity = severity;
    if (related) d.related = related;
    return d;
  }

  where(file: string, path: readonly string[]): { line: number; col: number } {
    const y = this.yaml(file);
    return y ? y.lines.linePos(this.yamlModule!.offsetAt(y, path)) : { line: 0, col: 0 };
  }
}

/** The invariants whose text key (docs/resolution.md) another invariant shares, in their order, with their keys. */
interface SharedText {
  invariants: ScopedInvariant[];
  keys: string[];
}

/**
 * Invariants whose key digest another invariant shares are parsed again in
 * full (few: a digest is shared only by equal texts), then grouped by their
 * text keys themselves.
 */
async function sharingText(source: RecordingSource, jobs: readonly ContentJob[], facts: readonly FileFacts[]): Promise<SharedText> {
  // Digests seen once, and those seen again (rare): one set operation per invariant.
  const seen = new Set<string>();
  let again: Set<string> | undefined;
  for (let i = 0; i < jobs.length; i++) {
    // Only an invariant has a key digest.
    const k = facts[i]!.k;
    if (k === undefined) continue;
    const size = seen.size;
    if (seen.add(k).size === size) (again ??= new Set()).add(k);
  }
  const out: SharedText = { invariants: [], keys: [] };
  if (!again) return out;
  const candidates: InvariantJob[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const k = facts[i]!.k;
    if (k !== undefined && again.has(k)) candidates.push(jobs[i] as InvariantJob);
  }
  const contents = await source.read(candidates.map((j) => j.entry.path));
  const { readInvariant } = await import('./check-file.ts');
  const all: ScopedInvariant[] = [];
  for (const { entry, kind } of candidates) {
    // Read again (a working tree's file may have changed since): it may no longer be there, or parse.
    const r = contents.get(entry.path)!;
    if (!r.ok) continue;
    const value = await readInvariant(entry.path, kind, r.bytes);
    if (value) all.push(value);
  }
  const keys = all.map((inv) => textKey(inv.text));
  const exact = new Map<string, number>();
  for (const k of keys) exact.set(k, (exact.get(k) ?? 0) + 1);
  for (let i = 0; i < all.length; i++) {
    if (exact.get(keys[i]!)! < 2) continue;
    out.invariants.push(all[i]!);
    out.keys.push(keys[i]!);
  }
  return out;
}

/** Equal text keys (docs/resolution.md) inside one scope: every copy but the oldest is an error. */
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
    // The oldest is kept; every other copy is reported (a group of one has none).
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
function checkShadows(shared: SharedText, plans: ReadonlyMap<string, Plan>, located: Located): Diagnostic[] {
  const out: Diagnostic[] = [];
  const map = shadowMap(shared.invariants, plans);
  // Copies hidden on purpose: another copy of the text names them in `overrides` (checkOverrides checks the names).
  const overridden = new Set<string>();
  for (const inv of shared.invariants) if (inv.overrides !== undefined) overridden.add(inv.overrides);
  for (const inv of shared.invariants) {
    const info = map.get(inv.id);
    if (!info || overridden.has(inv.id)) continue;
    for (const by of info.shadowedBy) {
      if (scopeFolder(by.scope) === scopeFolder(inv.scope)) continue; // a duplicate, reported above
      out.push(
        located.at(
          inv.path,
          ['text'],
          'shadowed',
          'warning',
          `${inv.id} (${describeScope(inv.scope)}) is shadowed by ${by.id} (${describeScope(by.scope)}, ${by.path}): the same text at a higher precedence`,
          `Nothing is lost, but one copy is redundant: delete the lower one unless it must apply elsewhere. A copy that replaces it on purpose (e.g. with another severity) says so with \`overrides: ${inv.id}\` (\`agents invariant edit ${by.id} --overrides ${inv.id}\`).`,
          [{ file: by.path, ...located.where(by.path, ['text']), message: `the copy that applies: ${by.id}` }],
        ),
      );
    }
  }
  return out;
}

/** Each `overrides` names an invariant of the store with the same text key. */
async function checkOverrides(jobs: readonly ContentJob[], facts: readonly FileFacts[], located: Located): Promise<Diagnostic[]> {
  const naming: number[] = [];
  for (let i = 0; i < jobs.length; i++) if (facts[i]!.v !== undefined) naming.push(i);
  if (naming.length === 0) return [];
  const invariantAt = new Map<string, number>();
  for (let i = 0; i < jobs.length; i++) {
    const kind = jobs[i]!.kind;
    if (kind.kind === 'invariant' && facts[i]!.k !== undefined && !invariantAt.has(kind.id)) invariantAt.set(kind.id, i);
  }
  const found: { files: string[]; report: () => Diagnostic }[] = [];
  for (const i of naming) {
    const file = jobs[i]!.entry.path;
    const target = facts[i]!.v!;
    const at = invariantAt.get(target);
    if (at === undefined) {
      found.push({
        files: [file],
        report: () =>
          located.at(
            file,
            ['overrides'],
            'overrides-unknown',
            'error',
            `overrides names ${target}, which is no invariant in the store`,
            'Correct the id (`agents invariant list --all` shows them), or remove the overrides key.',
          ),
      });
    } else if (facts[at]!.k !== facts[i]!.k) {
      const other = jobs[at]!.entry.path;
      found.push({
        files: [file, other],
        report: () =>
          located.at(
            file,
            ['overrides'],
            'overrides-text',
            'error',
            `overrides names ${target} (${other}), whose text differs: an override is a copy of the same text`,
            'Make the texts equal (an override changes severity, tags or rationale, not the text), or remove the overrides key.',
            [{ file: other, ...located.where(other, ['text']), message: `the invariant named: ${target}` }],
          ),
      });
    }
  }
  await located.load(found.flatMap((x) => x.files));
  return found.map((x) => x.report());
}

/**
 * Near-duplicates (core/near-duplicates.ts) among active invariants that can
 * meet in one effective set: a warning on the newer of each pair, naming the
 * other. From the facts alone (the punctuation-free key of every invariant):
 * no file is parsed again except the few reported.
 */
async function checkNearDuplicates(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  plans: ReadonlyMap<string, Plan>,
  located: Located,
  touches?: (path: string) => boolean,
): Promise<Diagnostic[]> {
  const at: number[] = [];
  const keys: string[] = [];
  for (let i = 0; i < jobs.length; i++) {
    // Only an invariant has a near key (an empty one is paired with none).
    const n = facts[i]!.n;
    if (n === undefined) continue;
    at.push(i);
    keys.push(n);
  }
  type Found = { older: InvariantJob; newer: InvariantJob; kind: NearKind };
  /** The near-duplicate pairs among `pairs` (of indexes of `keys`). */
  const judge = (pairs: readonly [number, number][]): Found[] => {
    const out: Found[] = [];
    for (const [x, y] of pairs) {
      const i = at[x]!;
      const j = at[y]!;
      // Equal text keys are duplicates or shadows, reported above.
      if (facts[i]!.k === facts[j]!.k) continue;
      const kind: NearKind | undefined = keys[x] === keys[y] ? 'punctuation' : oneEditApart(keys[x]!, keys[y]!) ? 'one-edit' : undefined;
      // `at` holds invariants only.
      const a = jobs[i] as InvariantJob;
      const b = jobs[j] as InvariantJob;
      if (!kind || !canMeet(a.kind, b.kind, plans)) continue;
      out.push(a.kind.id < b.kind.id ? { older: a, newer: b, kind } : { older: b, newer: a, kind });
    }
    return out;
  };
  let found: Found[];
  if (touches === undefined) found = judge(nearPairs(keys));
  else {
    // Hook mode: a diagnostic sits on the newer of its pairs and names every older one. It is kept when a touched
    // file is among them, so: the pairs of the touched texts, then every pair of each newer file they name.
    const focus = new Set<number>();
    for (let x = 0; x < keys.length; x++) if (touches(jobs[at[x]!]!.entry.path)) focus.add(x);
    const newer = new Set<ContentJob>(judge(nearPairsTouching(keys, focus)).map((f) => f.newer));
    const newerAt = new Set<number>();
    for (let x = 0; x < keys.length; x++) if (newer.has(jobs[at[x]!]!)) newerAt.add(x);
    // No newer file: no focused key, no pair.
    found = judge(nearPairsTouching(keys, newerAt)).filter((f) => newer.has(f.newer));
  }
  const idOf = (j: InvariantJob) => j.kind.id;
  // Each newer file's older copies in the order of their ids (not of the pair search, which differs in hook mode).
  found.sort((p, q) => (idOf(p.older) < idOf(q.older) ? -1 : 1));
  await located.load(found.flatMap((f) => [f.older.entry.path, f.newer.entry.path]));
  const textOf = (path: string) => String((located.yaml(path)?.data as { text?: unknown } | undefined)?.text ?? '').trim();
  // One diagnostic per newer file, naming every older copy it nearly repeats.
  const byNewer = new Map<string, typeof found>();
  for (const f of found) {
    const list = byNewer.get(f.newer.entry.path);
    if (list) list.push(f);
    else byNewer.set(f.newer.entry.path, [f]);
  }
  return [...byNewer.entries()].map(([n, list]) => {
    const newer = list[0]!.newer;
    const others = list.map(
      ({ older, kind }) =>
        `${idOf(older)} ${JSON.stringify(textOf(older.entry.path))} (${older.entry.path}, ${kind === 'punctuation' ? 'the same but for punctuation' : 'one character apart'})`,
    );
    return located.at(
      n,
      ['text'],
      'near-duplicate',
      'warning',
      `${idOf(newer)} ${JSON.stringify(textOf(n))} nearly repeats ${others.join(' and ')}; ${list.length > 1 ? 'all' : 'both'} apply`,
      `Keep one: remove the newer (\`agents invariant remove ${idOf(newer)}\`), or edit a text if they mean different things.`,
      list.map(({ older }) => ({
        file: older.entry.path,
        ...located.where(older.entry.path, ['text']),
        message: `the other copy: ${idOf(older)}`,
      })),
    );
  });
}

/** A plan's action and project must exist; a promoted invariant's origin may be gone (info). */
async function checkReferences(
  storeConfig: () => Promise<StoreConfig>,
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  plans: ReadonlyMap<string, Plan>,
  entries: readonly TreeEntry[],
  usedIds: ReadonlySet<string>,
  located: Located,
  sourceActionIds?: ValidateOptions['sourceActionIds'],
): Promise<Diagnostic[]> {
  const projects = new Set<string>();
  const actions = new Set<string>();
  // A project or action exists when its folder does (every listing holds the folders of its files).
  for (const e of entries) {
    if (e.type !== 'dir') continue;
    if (e.path.startsWith('projects/')) {
      const name = e.path.slice('projects/'.length);
      if (!name.includes('/')) projects.add(name);
    } else if (e.path.startsWith('actions/')) {
      const rest = e.path.slice('actions/'.length);
      const slash = rest.indexOf('/');
      if (slash > 0 && !rest.includes('/', slash + 1)) actions.add(rest);
    }
  }
  // What to report, then the positions of each in one read.
  const found: { file: string; report: () => Diagnostic }[] = [];
  // A source's template (`SOURCE:NS/NAME`, docs/extends.md) lives in the source, not in actions/:
  // it is known when config.yaml's extends declares the source (plan sync compares it at the pin).
  let sources: Set<string> | undefined;
  const sourcesDeclared = async () => {
    sources ??= new Set((await storeConfig()).extends.map((s) => s.name));
    return sources;
  };
  // Why a plan's action is unknown (the end of the message, and the hint), or undefined when it is known.
  const actionProblem = async (action: string): Promise<{ why: string; hint: string } | undefined> => {
    const colon = action.indexOf(':');
    if (colon > 0) {
      const name = action.slice(0, colon);
      if ((await sourcesDeclared()).has(name)) return undefined;
      return {
        why: ` of the policy source ${name}, which config.yaml's extends does not declare`,
        hint: 'Declare the source in config.yaml (extends), or correct the name.',
      };
    }
    if (actions.has(action)) return undefined;
    return { why: `, which is not in the store (no actions/${action}/)`, hint: 'Restore the action template, or correct the name.' };
  };
  for (const plan of plans.values()) {
    const file = `plans/${plan.id}/plan.yaml`;
    const action = plan.action;
    const unknown = action === undefined ? undefined : await actionProblem(action);
    if (unknown !== undefined) {
      found.push({
        file,
        report: () =>
          located.at(file, ['action'], 'unknown-action', 'warning', `plan ${plan.id} names action ${action}${unknown.why}`, unknown.hint),
      });
    }
    if (plan.project !== undefined && !projects.has(plan.project)) {
      found.push({
        file,
        report: () =>
          located.at(
            file,
            ['project'],
            'unknown-project',
            'warning',
            `plan ${plan.id} targets project ${plan.project}, which is not in the store (no projects/${plan.project}/)`,
            'Create the project folder (e.g. with `agents invariant add --project`), or correct the name.',
          ),
      });
    }
  }
  for (const [i, { entry, kind }] of jobs.entries()) {
    if (kind.kind !== 'invariant') continue;
    const f = facts[i]!;
    const origin = f.o;
    if (origin === undefined || usedIds.has(origin)) continue;
    // Promoted from a policy source's template: the origin lives in the source, at its pinned commit.
    if (f.r !== undefined && (await sourceActionIds?.(f.r))?.has(origin)) continue;
    const id = kind.id;
    found.push({
      file: entry.path,
      report: () =>
        located.at(
          entry.path,
          ['source', 'origin_id'],
          'unknown-origin',
          'info',
          `${id} was promoted from ${origin}${f.r ? ` (action ${f.r})` : ''}, which no longer exists`,
          'Nothing to do unless the plan should follow the action again; the plan keeps its own copy.',
        ),
    });
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}

/**
 * Waivers: one past its expiry is an error (the exception was time-boxed; the
 * invariant applies again, and the file should go or be renewed), and one
 * naming an invariant that is not in the store is a warning.
 */
async function checkWaivers(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  usedIds: ReadonlySet<string>,
  located: Located,
  now: Date | undefined,
): Promise<Diagnostic[]> {
  const found: { file: string; report: () => Diagnostic }[] = [];
  let expired: ((w: { expires: string }, now: Date) => boolean) | undefined;
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind !== 'waiver') continue;
    const w = facts[i]!.w;
    if (w === undefined) continue;
    const file = entry.path;
    if (now !== undefined) {
      expired ??= (await import('../core/waivers.ts')).waiverHolds;
      if (!expired({ expires: w.x }, now)) {
        found.push({
          file,
          report: () =>
            located.at(
              file,
              ['expires'],
              'waiver-expired',
              'error',
              `waiver ${kind.id} of ${w.i} expired (expires: ${w.x}); the invariant applies again`,
              `Remove the file (\`git rm ${file}\`) or record a new waiver with \`agents invariant waive ${w.i} … --expires DATE\`.`,
            ),
        });
      }
    }
    if (!usedIds.has(w.i)) {
      found.push({
        file,
        report: () =>
          located.at(
            file,
            ['invariant_id'],
            'unknown-invariant',
            'warning',
            `waiver ${kind.id} names invariant ${w.i}, which is not in the store`,
            'Remove the waiver, or correct invariant_id.',
          ),
      });
    }
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}

/** Files that parsed cleanly but lack the editor modeline (info; `--fix` adds it). */
function checkModelines(jobs: readonly ContentJob[], facts: readonly FileFacts[], found: readonly Diagnostic[]): Diagnostic[] {
  const withErrors = new Set(found.filter((d) => d.severity === 'error').map((d) => d.file));
  const out: Diagnostic[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const entry = jobs[i]!.entry;
    const line = facts[i]!.m;
    if (line === undefined || withErrors.has(entry.path)) continue;
    out.push({
      code: 'modeline-missing',
      severity: 'info',
      file: entry.path,
      line: 1,
      col: 1,
      message: `no \`# yaml-language-server: $schema=…\` first line; editors cannot validate this file as you type`,
      hint: 'Run `agents validate --fix` to add it.',
      lineText: line,
    });
  }
  return out;
}

/**
 * Projects' paths (docs/export.md): two projects covering the same files
 * (proved by the globs alone, or by a file of the repository both match),
 * and globs that match no file of the repository.
 */
async function checkProjectPaths(
  storeConfig: () => Promise<StoreConfig>,
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const projects: { name: string; file: string; paths: string[] }[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind !== 'project-meta') continue;
    // The schema gives `paths` at least one glob.
    const paths = facts[i]!.j?.paths;
    if (paths) projects.push({ name: kind.project, file: entry.path, paths });
  }
  if (projects.length === 0) return [];
  projects.sort((a, b) => (a.name < b.name ? -1 : 1));
  const { compileGlob, globsSurelyOverlap, literalFolder } = await import('../core/globs.ts');
  const allowOverlap = (await storeConfig()).projects.allow_overlap;
  const severity: Severity = allowOverlap ? 'warning' : 'error';
  const hint = 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.';
  const found: { file: string; report: () => Diagnostic }[] = [];
  const reportedPairs = new Set<string>();
  const overlap = (a: (typeof projects)[number], ai: number, b: (typeof projects)[number], bi: number, example?: string) => {
    const pair = `${a.name}\0${b.name}`;
    if (reportedPairs.has(pair)) return;
    reportedPairs.add(pair);
    const why = example ? `both hold ${example}` : 'the globs alone show it';
    found.push({
      file: b.file,
      report: () =>
        located.at(
          b.file,
          ['paths', String(bi)],
          'project-paths-overlap',
          severity,
          `paths.${bi} ${b.paths[bi]} of project ${b.name} overlaps paths.${ai} ${a.paths[ai]} of project ${a.name} (${why})`,
          hint,
          [{ file: a.file, ...located.where(a.file, ['paths', String(ai)]), message: `project ${a.name}'s path ${a.paths[ai]}` }],
        ),
    });
  };
  for (let x = 0; x < projects.length; x++) {
    for (let y = x + 1; y < projects.length; y++) {
      const a = projects[x]!;
      const b = projects[y]!;
      for (const [ai, ga] of a.paths.entries())
        for (const [bi, gb] of b.paths.entries()) if (globsSurelyOverlap(ga, gb)) overlap(a, ai, b, bi);
    }
  }
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  if (files) {
    // Each glob is tried only on the files below its literal folder.
    const globs = projects.flatMap((p, pi) =>
      p.paths.map((g, gi) => ({
        pi,
        gi,
        glob: g,
        matches: compileGlob(g),
        prefix: literalFolder(g) === '' ? '' : `${literalFolder(g)}/`,
        hits: 0,
      })),
    );
    for (const f of files) {
      let first: (typeof globs)[number] | undefined;
      for (const g of globs) {
        if (!f.startsWith(g.prefix) || !g.matches(f)) continue;
        g.hits++;
        if (!first) first = g;
        else if (first.pi !== g.pi) overlap(projects[first.pi]!, first.gi, projects[g.pi]!, g.gi, f);
      }
    }
    for (const g of globs) {
      if (g.hits > 0) continue;
      const p = projects[g.pi]!;
      found.push({
        file: p.file,
        report: () =>
          located.at(
            p.file,
            ['paths', String(g.gi)],
            'project-path-unmatched',
            'warning',
            `paths.${g.gi} ${g.glob} of project ${p.name} matches no file of the repository`,
            'Correct the glob (paths are relative to the top of the repository), or remove it.',
          ),
      });
    }
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}
