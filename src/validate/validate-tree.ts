import { type Diagnostic, uniqueDiagnostics } from '../core/diagnostics.ts';
import { pathClassifier } from '../core/layout.ts';
import type { Plan, StoreConfig } from '../core/model.ts';
import { isVanished, planReads } from '../store/read-plan.ts';
import { settledRead } from '../store/settled-read.ts';
import type { TreeEntry, TreeSource } from '../store/tree-source.ts';
import { FactsCache } from './cache.ts';
import type { ContentContext, ContentJob, ListingContext, SharedText, ValidateOptions } from './checks/context.ts';
import { Located } from './checks/located.ts';
import { CHECKS } from './checks/registry.ts';
import { sharingText } from './checks/shared-text.ts';
import { checkIds, copiesByFacts } from './checks/ids.ts';
import { isContentKind } from './file-facts.ts';
import { readFacts } from './read-facts.ts';
import { RecordingSource } from './recording-source.ts';

export type { ValidateOptions } from './checks/context.ts';

/** Everything one validation found, with what later steps (`--fix`, paths filter) need. */
export interface ValidateReport {
  /** "working tree", "index", … */
  source: string;
  /** Every entry of the tree. */
  entries: TreeEntry[];
  /** Number of files checked. */
  files: number;
  diagnostics: Diagnostic[];
  /** Ids that name a file or plan folder anywhere in the store (found on first call: only --fix asks). */
  usedIds(): ReadonlySet<string>;
}

/**
 * Every check of `agents validate` over one tree (working tree, index or
 * revision). Reads through the same store readers as the other commands,
 * then adds what only validation needs: the checks of the registry
 * (checks/registry.ts): layout, records, ids across the store, duplicates,
 * shadows, references, schema copies and modelines.
 */
export function validateTree(tree: TreeSource, options: ValidateOptions = {}): Promise<ValidateReport> {
  // A file listed and gone when read, or a file taken away during the read (a concurrent remove or move), is a
  // writer's moment: the tree is validated again, whole.
  return settledRead(
    tree,
    (last, moved) => validateOnce(tree, options, last, moved),
    (r) => r.diagnostics,
  );
}

/**
 * One validation of `tree`; unless `last`, it stops once its files are read if one of them vanished or a writer took
 * a file away meanwhile (`moved`): it is validated again.
 */
async function validateOnce(tree: TreeSource, options: ValidateOptions, last: boolean, moved: () => boolean): Promise<ValidateReport> {
  const source = new RecordingSource(tree);
  // `--profile`: each step timed (performance.now is a global; nothing is timed without a listener).
  const onTime = options.onTime;
  let mark = onTime ? performance.now() : 0;
  const timed = (step: string) => {
    if (!onTime) return;
    const now = performance.now();
    onTime(step, now - mark, mark);
    mark = now;
  };
  const entries = await source.list('', { recursive: true });
  const diagnostics: Diagnostic[] = [];
  // Aligned with `entries`: each path's kind, classified once (one folder's paths share a scope object).
  const classify = pathClassifier();
  const kinds = entries.map((e) => classify(e.path));
  timed('list');
  const listing: ListingContext = { source, entries, kinds, options };
  const record = (name: string, found: Diagnostic[]) => {
    options.onCheck?.(name, found);
    timed(name);
    diagnostics.push(...found);
  };
  for (const check of CHECKS) if (check.stage === 'listing') record(check.name, await check.run(listing));

  // File by file: the shared reader's rules for what is read, then each file's own checks (or their cached facts).
  const jobs = planReads(entries, (k) => isContentKind(k) || k.kind === 'bad-id', diagnostics, kinds) as ContentJob[];
  // A misnamed invariant file is still an invariant: the reader reports its name, and what it holds is checked too.
  for (let i = 0; i < entries.length; i++) {
    const kind = kinds[i]!;
    const entry = entries[i]!;
    if (kind.kind === 'bad-id' && kind.scope !== undefined && entry.type === 'file' && entry.path.endsWith('.yaml'))
      jobs.push({ entry, kind });
  }
  const cache = options.cache ?? FactsCache.none();
  const facts = await readFacts(source, tree, jobs, cache, options);
  for (const f of facts) if (f.d) diagnostics.push(...f.d);
  timed('files');
  if (!last && (diagnostics.some(isVanished) || moved()))
    return { source: source.description, entries, files: 0, diagnostics, usedIds: () => new Set<string>() };

  const plans = new Map<string, Plan>();
  for (let i = 0; i < jobs.length; i++) {
    const kind = jobs[i]!.kind;
    if (kind.kind !== 'plan') continue;
    const plan = facts[i]!.p;
    if (plan) plans.set(kind.plan, plan);
  }
  const located = new Located(source);
  // Known already where the tree is git's (its listing): which copies of an id are one blob, unread ones too.
  const blobs = await tree.blobIds?.();
  let ids: ReturnType<typeof checkIds> | undefined;
  // Duplicates and shadows only exist among invariants whose text key is shared: one key per text, computed once.
  let shared: Promise<SharedText> | undefined;
  // A broken config.yaml is reported as its own file's problem, and counts as the defaults here.
  let config: Promise<StoreConfig | undefined> | undefined;
  const content: ContentContext = {
    ...listing,
    tree,
    cache,
    jobs,
    facts,
    plans,
    located,
    found: diagnostics,
    ids: () =>
      (ids ??= checkIds(
        entries,
        kinds,
        copiesByFacts(
          jobs.map((j) => j.entry.path),
          facts,
          blobs,
        ),
      )),
    shared: () =>
      (shared ??= sharingText(source, jobs, facts).then(async (s) => {
        await located.load(s.invariants.map((inv) => inv.path));
        return s;
      })),
    storeConfig: () =>
      (config ??= import('../store/config.ts').then(async ({ readConfig }) => {
        const { config, diagnostics } = await readConfig(source);
        return diagnostics.some((d) => d.severity === 'error') ? undefined : config;
      })),
  };
  // Findings of the checks that read only the store's files, reused while those and the listing are unchanged.
  const memo = options.memo === true && options.touches === undefined && cache.enabled;
  // The inherited invariants some checks read join the key: a pin moved or a source fetched is a miss.
  const inheritedDigest = memo && options.inheritedDigest ? ` ${await options.inheritedDigest()}` : '';
  const treeDigest = memo ? (await import('./content-hash.ts')).listingDigest(entries) + inheritedDigest : '';
  for (const check of CHECKS) {
    if (check.stage !== 'content') continue;
    if (!memo || !(typeof check.pure === 'function' ? check.pure(content) : check.pure === true)) {
      record(check.name, await check.run(content));
      continue;
    }
    const found = cache.memoized(check.name, treeDigest) ?? (await check.run(content));
    cache.keep(check.name, treeDigest, found);
    record(check.name, found);
  }

  const files = entries.filter((e) => e.type !== 'dir').length;
  return { source: source.description, entries, files, diagnostics: uniqueDiagnostics(diagnostics), usedIds: usedIdsOf(entries, ids) };
}

/**
 * The ids in use: the id check's, when it ran; else found from the listing on first call (only --fix asks). Made
 * outside validateTree, so that the report holds the listing, not every file's facts, while --fix writes.
 */
function usedIdsOf(entries: readonly TreeEntry[], known: ReturnType<typeof checkIds> | undefined): () => ReadonlySet<string> {
  let found = known?.usedIds;
  return () => {
    if (found === undefined) {
      const classify = pathClassifier();
      found = checkIds(
        entries,
        entries.map((e) => classify(e.path)),
      ).usedIds;
    }
    return found;
  };
}
