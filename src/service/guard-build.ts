/**
 * Builds the guard index from the store (docs/guard.md, "The index"): the
 * global scope, every project (with its project.yaml and waivers), the
 * active plan, and the inherited invariants. Loaded only when the index is
 * missing or stale, so the hook's common path never loads the store reader.
 */
import { buildGuardIndex, type GuardIndex } from '../core/guard.ts';
import { ambiguousMatches, resolvePrefix } from '../core/id-prefix.ts';
import { UsageError } from '../core/errors.ts';
import { type WaiverScope, writtenBy } from '../core/waivers.ts';
import { ignoresCase } from '../git/repo.ts';
import { loadConfig } from '../store/config.ts';
import { listProjectFolders } from '../store/projects.ts';
import { readFolders } from '../store/read.ts';
import { readWaivers } from '../store/read-waivers.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { InvariantService, requireValid } from './invariant-service.ts';

export async function buildIndex(
  root: string,
  plan: string | null,
  now: Date,
  /** The stamps of the store's folders (guard-service.ts), taken once the projects are listed and before any file is read. */
  stamps: (projects: readonly string[]) => Record<string, string>,
  /** Where the store is read: its working tree by default, or git's copy of it at a commit (GitTreeSource). */
  from?: TreeSource,
  /** The store as it was at `now` (a commit judged at its time): a waiver written after it held nowhere there. */
  asOf = false,
): Promise<{ index: GuardIndex; stamps: Record<string, string> }> {
  const service = new InvariantService(root, { clock: () => now }, from);
  const source = service.source;
  const projectFolders = await listProjectFolders(source);
  const projectNames = projectFolders.names;
  const taken = stamps(projectNames);
  let planInfo: { id: string; project?: string } | undefined;
  if (plan !== null) {
    try {
      const read = await service.readPlan(plan);
      planInfo = { id: read.id, ...(read.project !== undefined ? { project: read.project } : {}) };
    } catch (error) {
      // A prefix of several plans is ambiguous, not missing: said with the plans it matches (pickId's refusal).
      const matches = ambiguousMatches(error);
      if (matches)
        throw new UsageError(
          `the active plan ${plan} is ambiguous: it matches ${matches.length} plans of the store (${matches.join(', ')})`,
          (agents) =>
            `Give AGENTS_PLAN more characters of the id, enough for one plan, or run \`${agents} plan activate ID\` (or \`--clear\`).`,
          { matches },
        );
      // A plan the store holds but cannot read (an invalid plan.yaml) is said as every reader says it, with the
      // file:line:col to fix, not as a plan to replace.
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(
        `the active plan ${plan} is not in the store (${error.message})`,
        (agents) => `Set AGENTS_PLAN to a plan of this store, or run \`${agents} plan activate ID\` (or \`--clear\`).`,
      );
    }
  }
  const folders = ['global', ...projectNames.map((p) => `projects/${p}`), ...(planInfo ? [`plans/${planInfo.id}`] : [])];
  const snap = await readFolders(source, folders);
  // git's copy (guard check --staged, a range's end) may be broken where the file on disk is not: said so, with its fix.
  const at =
    from === undefined || from.description === 'working tree' ? undefined : from.description === 'index' ? 'the index' : from.description;
  const gitHint =
    at === undefined
      ? undefined
      : at === 'the index'
        ? (agents: string) => `Fix the file and stage it (git add), then run \`${agents} validate --staged\` to check what is staged.`
        : 'The file is broken in that revision; fix it in a new commit, or check a range that ends at another.';
  requireValid({ ...snap, diagnostics: [...projectFolders.diagnostics, ...snap.diagnostics] }, 'build the guard index', gitHint, at);
  const inherited = await service.inherited();
  const scopes: WaiverScope[] = projectNames.map((project) => ({ kind: 'project', project }));
  if (planInfo) scopes.push({ kind: 'plan', plan: planInfo.id });
  const waivers = await readWaivers(source, scopes);
  requireValid({ ...snap, diagnostics: waivers.diagnostics }, 'read the waivers', gitHint, at);
  const index = buildGuardIndex({
    invariants: inherited.length > 0 ? [...snap.invariants, ...inherited] : snap.invariants,
    projects: snap.projectMeta,
    waivers: asOf ? waivers.waivers.filter((w) => writtenBy(w, now)) : waivers.waivers,
    plan: planInfo,
    now,
    onError: (await loadConfig(source)).guard.on_error,
    caseless: await ignoresCase(root),
  });
  return { index, stamps: taken };
}

/** Where git holds the store a guard index is built from: a commit (`label` is how the range named it), or the index. */
export type GitSide = { commit: string; label: string } | 'index';

/**
 * The guard index of the store as git holds it: at the commit a range ends at (`guard check A..B` judges the range's
 * changes by the guards in force at B, not by today's), or in the index (`--staged` judges the commit by the guards it
 * records). Built from git's objects each time, never kept. The active plan `named` adds its guards where that side
 * holds it; one made since was in force nowhere there. A commit's waivers are those that held at `now`, its time.
 */
export async function indexFromGit(root: string, top: string, named: string | null, now: Date, at: GitSide): Promise<GuardIndex> {
  const { GitTreeSource } = await import('../store/git-source.ts');
  const source = at === 'index' ? await GitTreeSource.index(root) : await GitTreeSource.atCommit(root, top, at.commit, at.label);
  let plan: string | null = null;
  if (named !== null) {
    const held = (await source.list('plans', { recursive: false }))
      .filter((e) => e.type === 'dir')
      .map((e) => e.path.slice('plans/'.length));
    const found = resolvePrefix(named, held);
    if (found.kind === 'unique') plan = found.id;
  }
  try {
    return (await buildIndex(root, plan, now, () => ({}), source, at !== 'index')).index;
  } catch (error) {
    // The commit's own pins: fetched with `--rev`, which the hint then names.
    if (at === 'index') throw error;
    const { notFetchedAt } = await import('../store/extends.ts');
    throw notFetchedAt(error, at.commit);
  }
}
