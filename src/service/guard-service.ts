/**
 * The guard use cases (docs/guard.md): decide one agent action against the
 * store's guards, record the violation a deny makes in the active plan, and
 * log every decision. The hook runs before every tool call, so its common
 * path reads one index file and stats a handful of folders; the store itself
 * is read (and the index rebuilt) only when one of them changed.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { answeredDecision } from '../core/guard-answers.ts';
import { envSwitchOn } from '../core/env-switch.ts';
import { type ClientAction, GuardTimeout } from '../core/guard-clients.ts';
import { resolvePrefix } from '../core/id-prefix.ts';
import { actionProjects, evaluateGuards, patternsNeeded, type GuardAction, type GuardIndex, type GuardVerdict } from '../core/guard.ts';
import { GuardMatchers } from '../core/guard-matchers.ts';
import type { TextMatcher } from '../core/guard-patterns.ts';
import type { BoundedEngine } from './pattern-thread.ts';
import { guardReason } from '../core/guard-reason.ts';
import { reservedReason } from '../core/guard-reserved.ts';
import { indexFits } from '../core/guard-index-shape.ts';
import { truncateCounted } from '../core/names.ts';
import {
  appendAudit,
  folderStamp,
  guardDir,
  projectMetasStamp,
  racyStamp,
  readActivePlan,
  readGuardIndex,
  stamp,
  type StampSeen,
  WatchedStamps,
  writeGuardIndex,
} from '../store/guard-files.ts';
import { repoTop } from '../store/git-dir.ts';
import { type ActionAsGiven, resolveAction, stopPast } from './guard-action.ts';
import { ReservedPaths } from './guard-reserved-paths.ts';
import type { GitSide } from './guard-build.ts';
import { physicalPath } from './link-paths.ts';

/** A plan id as the store writes it: the active plan named so needs no look-up. */
const FULL_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The fixed folders that hold invariants or waivers: their files' stamps count too (folderStamp). */
const FILE_FOLDERS = /^(?:global|plans\/[^/]+(?:\/waivers)?)$/;

function fixedPaths(plan: string | null): string[] {
  const out = ['', 'config.yaml', 'extends.lock.yaml', 'global', 'projects', 'plans'];
  if (plan !== null) out.push(`plans/${plan}`, `plans/${plan}/waivers`);
  return out;
}

/** A stamp as `take` gives it; for an index being built at `at`, marked when what it saw changed just before (racyStamp). */
function stampAt(at: number | undefined, take: (seen?: StampSeen) => string): string {
  return at === undefined ? take() : racyStamp(at, take);
}

export interface GuardDecisionRecord {
  verdict: GuardVerdict;
  /** The reason shown to the agent (the decisive hit's), when one decided. */
  reason?: string;
  plan: string | null;
  /** The violation recorded in the active plan, or why none was. */
  violation?: { id: string; path: string } | { notRecorded: string };
  /** What the plan's set, read to record the violation, lacks (a plan whose project is gone): kept in the audit line. */
  warnings?: string[];
  action: GuardAction;
}

export class GuardService {
  readonly gitAgents: string | undefined;
  readonly top: string;
  #stored: { stamps: Record<string, string>; index: GuardIndex } | undefined;
  /** The folders and files no file tool may write. */
  readonly #reserved: ReservedPaths;
  /** The folders' stamps of a long-lived process, taken again only when their watchers saw a change. */
  readonly #watched: WatchedStamps | undefined;
  /** The pattern runs made in the hook's pattern thread, for the audit line (`threadRuns`). */
  #threadRuns = 0;

  constructor(
    readonly root: string,
    readonly env: Record<string, string | undefined>,
    readonly clock: () => Date = () => new Date(),
    /**
     * `longLived`: a server answering many calls, the index's stamps checked on each one. `program`: the folder of the
     * agents package that runs the hook (default: found from the running program). `agents`: the start of the commands
     * a reason names (default `agents`), the run's with its --store, so that the command reaches the store that judged.
     */
    readonly options: { longLived?: boolean; program?: string; deadline?: number; agents?: string } = {},
  ) {
    this.gitAgents = guardDir(root);
    this.#watched = options.longLived ? new WatchedStamps() : undefined;
    const top = repoTop(root) ?? dirname(resolve(root));
    this.top = physicalPath(top);
    this.#reserved = new ReservedPaths(root, this.top, options.program);
  }

  /** The active plan: AGENTS_PLAN in the agent's environment, else `agents plan activate`. */
  activePlan(): string | null {
    const named = this.env.AGENTS_PLAN?.trim() || readActivePlan(this.gitAgents);
    if (!named) return null;
    if (FULL_ID.test(named)) return named;
    // A prefix (or an id in lower case) is the plan it names, as every command takes it: the kept index is that plan's,
    // and its folder's stamps are compared. Unresolved, it matched no index, and the store was read again on every call.
    let folders: string[] = [];
    try {
      folders = readdirSync(join(this.root, 'plans'));
    } catch {
      // No plans: the build says the plan is not in the store.
    }
    const found = resolvePrefix(named, folders);
    return found.kind === 'unique' ? found.id : named;
  }

  /**
   * The stamps the index must match: the fixed folders, each named project's
   * folder, the files of the folders that hold invariants and waivers (an
   * edit in place changes no folder, but changes the file's own stamp), and
   * every project's project.yaml.
   */
  private stamps(plan: string | null, projects: Iterable<string>, watched = this.#watched, at?: number): Record<string, string> {
    const out = this.fixedStamps(plan, watched, at);
    this.addProjectStamps(out, projects, watched, at);
    return out;
  }

  /** The stamps that depend on no action: the fixed folders and every project's project.yaml. */
  private fixedStamps(plan: string | null, watched = this.#watched, at?: number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const rel of fixedPaths(plan)) {
      const path = join(this.root, rel);
      out[rel] = stampAt(at, (seen) =>
        FILE_FOLDERS.test(rel) ? (watched ? watched.stamp(path) : folderStamp(path, seen)) : stamp(path, seen),
      );
    }
    // Which project holds a path can change in any project's project.yaml, not only in those the index names for it.
    const projectsDir = join(this.root, 'projects');
    out['projects/*/project.yaml'] = stampAt(at, (seen) =>
      watched ? watched.projectMetas(projectsDir) : projectMetasStamp(projectsDir, seen),
    );
    // Inherited rules live in the policy sources' cache, pinned by extends.lock.yaml (a fixed stamp).
    return out;
  }

  /** Adds to `stamps` those of each named project's folder and waivers. */
  private addProjectStamps(stamps: Record<string, string>, projects: Iterable<string>, watched = this.#watched, at?: number): void {
    for (const p of projects) {
      for (const key of [`projects/${p}`, `projects/${p}/waivers`]) {
        const path = join(this.root, key);
        stamps[key] = stampAt(at, (seen) => (watched ? watched.stamp(path) : folderStamp(path, seen)));
      }
    }
  }

  /**
   * The guard index, from `.git/agents/guard-index.json` when every stamp that
   * matters is unchanged (the fixed folders, and the folders and files of the
   * projects `action` touches; every project without an action), else
   * rebuilt from the store and saved. A one-shot command checks once; the MCP
   * server (`longLived`) on every call. `fresh`: rebuilt whatever the stamps say.
   */
  async index(action?: GuardAction, fresh = false): Promise<{ index: GuardIndex; rebuilt: boolean }> {
    const plan = this.activePlan();
    if (fresh) this.#stored = undefined;
    if (this.#stored && this.#stored.index.plan === plan && !this.options.longLived && indexFits(this.#stored.index, action))
      return { index: this.#stored.index, rebuilt: false };
    // A change written before this call was asked for is already queued by the kernel, but its watcher's event may come
    // after the request in the same turn of the event loop: one turn lets every such event mark its folder first.
    if (this.#watched) await new Promise((resolve) => setImmediate(resolve));
    const kept = this.#stored !== undefined || (this.gitAgents !== undefined && !envSwitchOn(this.env, 'AGENTS_NO_CACHE') && !fresh);
    // When there is an index to compare, the stamps that depend on no action come first: their thousands of stats make
    // V8 optimise Node's stat code on another thread, which then works while the index is read, not at the exit.
    const now = kept ? this.fixedStamps(plan) : undefined;
    const stored = this.#stored ?? (kept ? readGuardIndex(this.gitAgents!) : undefined);
    // A damaged index (an entry this call reads that is not of the build's shape) is a miss, never an answer.
    if (now && stored && stored.index.plan === plan && indexFits(stored.index, action)) {
      const names = action
        ? actionProjects(stored.index, action)
        : Object.keys(stored.stamps)
            .map((k) => (k.startsWith('projects/') ? k.slice('projects/'.length) : ''))
            // A project's folder: one name, not its waivers nor the project.yaml stamp of every project.
            .filter((name) => name !== '' && !name.includes('/'));
      this.addProjectStamps(now, names);
      if (Object.entries(now).every(([k, v]) => stored.stamps[k] === v)) {
        this.#stored = stored;
        return { index: stored.index, rebuilt: false };
      }
    }
    // A store a sparse checkout leaves partly out would give guards without those files: the call is not decided
    // (guard.on_error), as for a store that cannot be read.
    await (await import('../store/sparse-store.ts')).refuseSparseStore(this.root);
    const { buildIndex } = await import('./guard-build.ts');
    // The folders' stamps are taken before the read: a file added while the store is read is seen by the next call.
    // Every project's folders, taken once (no watcher for each: the calls that follow watch the folders they compare).
    const built = await buildIndex(this.root, plan, this.clock(), (names) => this.stamps(plan, names, undefined, Date.now()));
    const stamps = built.stamps;
    if (this.gitAgents !== undefined) writeGuardIndex(this.gitAgents, stamps, built.index);
    this.#stored = { stamps, index: built.index };
    return { index: built.index, rebuilt: true };
  }

  /**
   * The guard index of the store as git holds it (at a commit, or in the index): {@link indexFromGit}, for the active
   * plan of this run, its waivers those that hold at `now` (a commit's: {@link timeAt}).
   */
  async indexAt(at: GitSide, now = this.clock()): Promise<GuardIndex> {
    const { indexFromGit } = await import('./guard-build.ts');
    return indexFromGit(physicalPath(this.root), this.top, this.activePlan(), now, at);
  }

  /**
   * The time a commit is judged at, as its guards are read from it: its committer date (rangeEnd's `time`), no later
   * than now. A waiver that held then lets its changes through, though it has ended since.
   */
  timeAt(at: { time: Date }): Date {
    return new Date(Math.min(at.time.getTime(), this.clock().getTime()));
  }

  /**
   * `guard.on_error` of config.yaml, for a hook that could not decide: from
   * the index this run loaded, else from config.yaml; deny when it cannot be read.
   */
  async onError(): Promise<'deny' | 'allow'> {
    if (this.#stored) return this.#stored.index.onError;
    try {
      const [{ loadConfig }, { WorkingTreeSource }] = await Promise.all([import('../store/config.ts'), import('../store/tree-source.ts')]);
      return (await loadConfig(new WorkingTreeSource(this.root))).guard.on_error;
    } catch {
      return 'deny';
    }
  }

  /** A client's action with its paths resolved (links, `..`) and made relative to the repository's top. */
  toAction(action: ActionAsGiven, deadline = this.options.deadline): GuardAction {
    if (this.options.longLived) this.#reserved.refresh();
    return resolveAction(action, { top: this.top, reserved: this.#reserved, deadline });
  }

  /**
   * Which guards an action breaks (no recording, no log): `guard try` and MCP `check_action`. `deadline` (ms since the
   * epoch; the service's by default) bounds the judging as the hook's is bounded, past it a GuardTimeout.
   */
  async evaluate(
    action: GuardAction,
    deadline = this.options.deadline,
  ): Promise<{ verdict: GuardVerdict; reason?: string; plan: string | null }> {
    // Before the index: a write into git's folder or the store is denied even when the store cannot be read.
    const reserved = action.reserved?.[0];
    if (reserved) {
      let plan: string | null = null;
      try {
        plan = this.activePlan();
      } catch {
        // An active plan file that cannot be read does not stand in the way of this deny: the plan is only named.
      }
      return { verdict: { decision: 'deny', hits: [] }, reason: reservedReason(reserved, this.options.agents), plan };
    }
    return this.judged(action, async (index) => {
      const engine = await this.patternEngine(index, action, deadline);
      let verdict: GuardVerdict;
      try {
        verdict = evaluateGuards(index, action, this.clock(), new GuardMatchers(engine, () => stopPast(deadline)));
      } finally {
        // Its pattern thread, if one was started, is ended with the judging: a long-lived server would keep one a call.
        if (engine !== undefined && 'end' in engine) (engine as BoundedEngine).end();
      }
      return verdict.decisive
        ? { verdict, reason: guardReason(verdict.decisive, index.plan, index.planProject, this.options.agents), plan: index.plan }
        : { verdict, plan: index.plan };
    });
  }

  /**
   * The regular-expression engine `action` needs, loaded only then: under a deadline (the hook's, check_action's), one
   * whose long runs are made in a thread the caller can leave at it (pattern-thread.ts); the GuardMatchers stops between
   * runs at the deadline.
   */
  private async patternEngine(
    index: GuardIndex,
    action: GuardAction,
    deadline: number | undefined,
  ): Promise<((pattern: string) => TextMatcher) | BoundedEngine | undefined> {
    if (!patternsNeeded(index, action)) return undefined;
    if (deadline !== undefined) return (await import('./pattern-thread.ts')).boundedRegex(deadline, () => this.#threadRuns++);
    return (await import('../core/guard-patterns.ts')).compileRegex;
  }

  /**
   * `judge` run over the index for `action`. A kept index it fails on was
   * damaged in a way its shape does not show (a pattern RE2 refuses, which
   * the build never keeps): it is built again from the store, and judged once more.
   */
  async judged<T>(action: GuardAction, judge: (index: GuardIndex) => Promise<T>): Promise<T> {
    const { index, rebuilt } = await this.index(action);
    try {
      return await judge(index);
    } catch (error) {
      // Out of time is no damage of the index: judging again would only run further past the deadline.
      if (rebuilt || error instanceof GuardTimeout) throw error;
      return judge((await this.index(action, true)).index);
    }
  }

  /**
   * The hook's decision on one client action: evaluated, a deny recorded as a
   * violation of the active plan (through the plan service's writer), and the
   * decision appended to the audit log. `decided` hears the verdict as soon as it is known.
   */
  async decide(client: ClientAction, decided?: (verdict: GuardVerdict, reason: string | undefined) => void): Promise<GuardDecisionRecord> {
    const action = this.toAction(client);
    const { verdict, reason, plan } = await this.evaluate(action);
    // Heard before the violation is recorded: a hook out of time still answers what was decided.
    decided?.(verdict, reason);
    const record: GuardDecisionRecord = { verdict, plan, action, ...(reason !== undefined ? { reason } : {}) };
    // What the client was told: a warning's ask is a deny where the client cannot ask, recorded and logged as one.
    const answered = answeredDecision(client.client, verdict.decision);
    if (answered === 'deny' && plan !== null && verdict.decisive) {
      const warnings: string[] = [];
      record.violation = await this.recordViolation(plan, client, verdict, warnings);
      if (warnings.length > 0) record.warnings = warnings;
    }
    // Every decision, "none" included: the log tells what the agent did, not only what was stopped.
    appendAudit(this.gitAgents, {
      at: this.clock().toISOString(),
      client: client.client,
      event: client.event,
      tool: client.tool,
      ...(client.session !== undefined ? { session: client.session } : {}),
      decision: answered,
      plan,
      files: action.files,
      ...(action.command !== undefined ? { command: action.command } : {}),
      ...(action.reserved ? { reserved: action.reserved } : {}),
      hits: verdict.hits.map((h) => ({
        invariant: h.rule.id,
        kind: h.kind,
        entry: h.entry,
        subject: truncateCounted(h.subject),
        waived: h.waived,
        ...(h.below ? { below: true } : {}),
      })),
      ...(record.violation ? { violation: record.violation } : {}),
      ...(record.warnings ? { warnings: record.warnings } : {}),
      ...(this.#threadRuns > 0 ? { threadRuns: this.#threadRuns } : {}),
    });
    return record;
  }

  /**
   * Logs a call the hook could not judge (input, store, index), answered by
   * `guard.on_error`: the audit log holds every call, an unchecked one too.
   * `client` is the action when its input could be read.
   */
  logError(reason: string, answer: 'deny' | 'allow', client?: ClientAction): void {
    appendAudit(this.gitAgents, {
      at: this.clock().toISOString(),
      ...(client
        ? {
            client: client.client,
            event: client.event,
            tool: client.tool,
            ...(client.session !== undefined ? { session: client.session } : {}),
          }
        : {}),
      decision: 'error',
      answer,
      reason,
      ...(this.#threadRuns > 0 ? { threadRuns: this.#threadRuns } : {}),
    });
  }

  private async recordViolation(
    plan: string,
    client: ClientAction,
    verdict: GuardVerdict,
    /** Receives the notices of the plan's set (docs/adr/0118-a-plan-whose-project-is-gone-says-so.md). */
    warnings: string[],
  ): Promise<{ id: string; path: string } | { notRecorded: string }> {
    const hit = verdict.decisive!;
    try {
      const [{ InvariantService }, { PlanService }, { escapeUnsafe, quoteText }, { wellFormed }, { cutText }] = await Promise.all([
        import('./invariant-service.ts'),
        import('./plan-service.ts'),
        import('../core/plain-text.ts'),
        import('../core/utf8.ts'),
        import('../core/records.ts'),
      ]);
      // What the agent sent is kept as escapes on one line each: the store refuses a control or bidirectional character
      // in details, and a deny of a path or command holding one (secrets/\u202eevil) would otherwise go unrecorded.
      const plain = (text: string) => escapeUnsafe(wellFormed(text));
      const what =
        hit.kind === 'command'
          ? `command ${quoteText(client.command ?? '')}`
          : hit.kind === 'tool'
            ? `tool ${plain(hit.subject)}`
            : `${hit.below ? 'files below' : 'path'} ${plain(hit.subject)}`;
      const details = [
        `Denied by agents guard hook: ${client.client} ${plain(client.tool)}, ${what}`,
        `guard ${hit.kind}: ${plain(hit.entry)}`,
        ...(client.session !== undefined ? [`session ${plain(client.session)}`] : []),
      ].join('\n');
      const plans = new PlanService(new InvariantService(this.root, { notice: (m) => warnings.push(m) }));
      // Cut between characters: a cut through a surrogate pair leaves half of one, which is no text.
      const r = await plans.addViolation({ plan, invariant: hit.rule.id, details: cutText(details, 10_000) });
      return { id: r.violation.id, path: r.path };
    } catch (error) {
      return { notRecorded: (error as Error).message };
    }
  }
}
