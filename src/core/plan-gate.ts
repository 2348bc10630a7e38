import type { Severity } from './model.ts';
import { latestDecision } from './decision-tip.ts';
import { SET_LEAVES_PROJECT_OUT } from './plan-project.ts';
import type { DecisionNode, EnforcementRecord, EnforcementRun, Violation } from './records.ts';
import { WAIVE_NEEDS, type WaiverScope, waiverExpiry } from './waivers.ts';

/**
 * The rule of `plan status` (docs/plans.md, "plan status"): one pure
 * function from the facts of a plan to a verdict with its reasons, so the
 * gate is decided in one place and every reason is shown.
 */

/** Why a plan passes or fails the gate: every schema and option naming a reason is derived from this list. */
export const GATE_REASON_CODES = [
  /** An error-severity violation stands (never relaxed by `--allow`). */
  'error-violation',
  /** The effective set is not empty and no run was ever recorded. */
  'not-run',
  /** The latest run's actor failed as a whole (crash, exit status, timeout, bad answer). */
  'run-failed',
  /** The latest run is not whole: its enforcement file is missing, or it lacks a record for an invariant it was asked about. */
  'run-incomplete',
  /** The effective set changed after the latest run (an invariant added, removed, or its text or severity edited). */
  'stale',
  /** An invariant of the set was not enforced by the latest run: fails for error severity, reported for warning and info. */
  'unenforced',
  /** A warning or info violation stands: reported, never fails. */
  'violation',
  /** An enforcement file that no decision node commits (a run interrupted while it was written): ignored, reported. */
  'unfinished-run',
  /** The plan's project is not in the store: its set leaves out that project's invariants. */
  'unknown-project',
  /** An action template the plan was made from changed since (`plan show`'s drift): reported, never fails. */
  'drift',
] as const;
export type GateReasonCode = (typeof GATE_REASON_CODES)[number];

/** `fail` makes `plan status` exit 1; `report` is shown only. */
export const GATE_LEVELS = ['fail', 'report'] as const;

/** The reasons `--allow` may turn from failing into reported. */
export const RELAXABLE = Object.freeze([
  'not-run',
  'run-failed',
  'run-incomplete',
  'stale',
  'unenforced',
  'unknown-project',
] as const satisfies readonly GateReasonCode[]);
export type RelaxableReason = (typeof RELAXABLE)[number];

export interface GateReason {
  code: GateReasonCode;
  level: (typeof GATE_LEVELS)[number];
  /** A failing reason turned into a report by `--allow`. */
  allowed?: true;
  message: string;
  invariant_id?: string;
  severity?: Severity;
  /** `stale`: invariants of today's set the run had no record for. */
  added?: number;
  /** `stale`: records of the run whose invariant left the set. */
  removed?: number;
  /** `stale`: invariants whose digest differs from their record's; absent when the run's records keep no digest. */
  edited?: number;
  /** `error-violation`: the expired waivers of the standing violations' invariants, which renewing would cover. */
  expiredWaivers?: string[];
}

/** A waiver of an invariant of the set that no longer holds: what renewing it takes. */
export interface ExpiredWaiver {
  id: string;
  invariant_id: string;
  expires: string;
  path: string;
  scope: WaiverScope;
}

export interface GateVerdict {
  failing: boolean;
  reasons: GateReason[];
}

/** One invariant of the plan's effective set now. */
export interface GateInvariant {
  id: string;
  severity: Severity;
  /** `sha256:<hex>` of `invariantDigestInput` of it: compared with its record's to count edits. */
  digest?: string;
}

/** The latest committed run: the newest decision node and what it points at. */
export interface CommittedRun {
  node: DecisionNode;
  /** The enforcement file the node names; absent when it is missing. */
  run?: EnforcementRun;
  /** When the file the node names is there but is another node's run (its decision_id): that node's id. */
  runOf?: string;
}

export interface GateFacts {
  /** The plan's effective set now, in order. */
  effective: readonly GateInvariant[];
  /** The digest of the effective set now (see docs/plans.md, "set_digest"). */
  setDigest: string;
  latest?: CommittedRun;
  /** Enforcement files no decision node commits: never taken as a run. */
  unfinished: readonly string[];
  /** Open violations: not resolved, and not of an invariant a waiver covers now. */
  violations: readonly Violation[];
  /** Invariants a waiver covers now: left unenforced, they report instead of failing. */
  waived?: ReadonlySet<string>;
  /** Invariants of the set a policy source locks (docs/extends.md, "Floors"): no waiver covers them, so none is offered. */
  locked?: ReadonlySet<string>;
  /** The waivers of the set's invariants that have expired: an error violation of one names them, to renew. */
  expired?: readonly ExpiredWaiver[];
  /** The plan's id: the reasons that say to run `plan strategize` name it, so the command works as written. */
  plan?: string;
  /**
   * The start of the commands the reasons name: `agents`, or `agents --store DIR` for a run given a store, so that a
   * command pasted in the same folder reaches the same store. `agents` when left out.
   */
  agents?: string;
  /** The plan's project when it has no folder, and where the plan file names it (`file:line:col`). */
  missingProject?: { project: string; at: string };
  /** How the action templates the plan was made from moved since (`plan show`'s drift), counted by kind. */
  drift?: {
    actions: readonly string[];
    changed: number;
    removed: number;
    added: number;
    gone: readonly { ref: string; why: string }[];
    /** Why the templates could not be compared (an invalid file in one), when they could not. */
    unread?: string;
  };
}

export interface GateOptions {
  /** Reasons to report rather than fail (`plan status --allow CODE`). */
  allow?: readonly RelaxableReason[];
}

/**
 * The latest run that was written whole. A run is two files, the enforcement
 * file and then the decision node that names it (docs/adr/0064-run-committed-by-decision-node.md): the newest `invariant_enforced` node is the
 * latest run; an enforcement file no node names is an unfinished write, never
 * a run.
 */
export function committedRuns(
  decisions: readonly DecisionNode[],
  enforcement: readonly EnforcementRun[],
): { latest?: CommittedRun; unfinished: string[] } {
  const byId = new Map(enforcement.map((r) => [r.id, r]));
  const claimed = new Map<string, EnforcementRun>();
  const nodes = decisions.filter((n) => n.type === 'invariant_enforced');
  for (const node of nodes) {
    // Older nodes may lack enforcement_id: their run is the one that names them.
    const run = node.enforcement_id !== undefined ? byId.get(node.enforcement_id) : enforcement.find((r) => r.decision_id === node.id);
    if (run !== undefined && run.decision_id === node.id) claimed.set(node.id, run);
  }
  const whole = new Set([...claimed.values()].map((r) => r.id));
  const unfinished = enforcement.filter((r) => !whole.has(r.id)).map((r) => r.id);
  // The tip of the tree, as the next run's parent is chosen: not the node a clock set ahead dated newest.
  const node = latestDecision(nodes);
  if (node === undefined) return { unfinished };
  const run = claimed.get(node.id);
  if (run) return { latest: { node, run }, unfinished };
  // A file that is there, named by a hand edit or a copied node, is no more this node's run than a missing one.
  const named = node.enforcement_id !== undefined ? byId.get(node.enforcement_id) : undefined;
  return { latest: named ? { node, runOf: named.decision_id } : { node }, unfinished };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The verdict of `plan status` (pure). Fails when an error violation stands,
 * when the set is not empty and was never reconciled, when the latest run
 * failed, is incomplete or is older than the set, or left an error-severity
 * invariant unenforced. Warning and info (unenforced invariants, violations)
 * only report. `allow` relaxes the listed reasons to reports.
 */
export function judgePlan(facts: GateFacts, options: GateOptions = {}): GateVerdict {
  const allow = new Set<GateReasonCode>(options.allow);
  const reasons: GateReason[] = [];
  const add = (r: GateReason) => {
    // Only the relaxable reasons: an allow list from a library caller may name any code, and an error violation must fail.
    if (r.level === 'fail' && allow.has(r.code) && (RELAXABLE as readonly GateReasonCode[]).includes(r.code))
      reasons.push({ ...r, level: 'report', allowed: true });
    else reasons.push(r);
  };

  const agents = facts.agents ?? 'agents';
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const v of facts.violations) bySeverity[v.severity]++;
  if (bySeverity.error > 0) {
    // Which ones, and the command that resolves one: the gate's message is what CI shows.
    const errors = facts.violations.filter((v) => v.severity === 'error');
    const ids = errors.map((v) => v.id);
    const named = fiveOf(ids);
    const resolve = `\`${agents} invariant violation resolve ${ids.length === 1 ? ids[0] : 'ID'}\``;
    const expired = renewable(errors, facts);
    add({
      code: 'error-violation',
      level: 'fail',
      message:
        (ids.length === 1
          ? `1 error violation stands (${named}): once it is dealt with, run ${resolve}${waiveWords(errors, facts, expired.length > 0 ? undefined : agents)}`
          : `${ids.length} error violations stand (${named}): once each is dealt with, run ${resolve} for it${waiveWords(errors, facts, expired.length > 0 ? undefined : agents)}`) +
        renewWords(expired, agents),
      ...(expired.length > 0 ? { expiredWaivers: expired.map((w) => w.id) } : {}),
    });
  }
  for (const s of ['warning', 'info'] as const) {
    if (bySeverity[s] > 0)
      add({ code: 'violation', level: 'report', severity: s, message: `${plural(bySeverity[s], `${s} violation`)} recorded` });
  }
  if (facts.unfinished.length > 0) {
    add({
      code: 'unfinished-run',
      level: 'report',
      message: `${plural(facts.unfinished.length, 'unfinished run')} ignored (an enforcement file no decision node names: ${facts.unfinished.join(', ')})`,
    });
  }

  if (facts.missingProject !== undefined) {
    const { project, at } = facts.missingProject;
    add({
      code: 'unknown-project',
      level: 'fail',
      message: `the plan targets project ${project}, which is not in the store (no projects/${project}/; ${at}): ${SET_LEAVES_PROJECT_OUT}: restore the project, or correct \`project\` in the plan file`,
    });
  }

  const strategize = `${agents} plan strategize${facts.plan !== undefined ? ` ${facts.plan}` : ''}`;
  for (const message of driftMessages(facts.drift, agents, facts.plan)) add({ code: 'drift', level: 'report', message });
  const latest = facts.latest;
  if (!latest) {
    if (facts.effective.length > 0)
      add({
        code: 'not-run',
        level: 'fail',
        message: `the plan was never reconciled: run \`${strategize}\` (${plural(facts.effective.length, 'invariant')} to enforce)`,
      });
  } else if (!latest.run) {
    add({
      code: 'run-incomplete',
      level: 'fail',
      message:
        latest.runOf !== undefined
          ? `the latest run's enforcement file ${latest.node.enforcement_id} is the run of decision ${latest.runOf}, not of decision ${latest.node.id}, which names it`
          : `the latest run's enforcement file${latest.node.enforcement_id ? ` ${latest.node.enforcement_id}` : ''} is missing (decision ${latest.node.id})`,
    });
    // No record of any: nothing of the set is known to be enforced, whatever allows the incomplete run.
    for (const inv of facts.effective) add(unrecorded(inv, facts.waived));
  } else {
    const run = latest.run;
    const records = new Map(run.records.map((r) => [r.invariant_id, r]));
    if (run.error !== undefined) add({ code: 'run-failed', level: 'fail', message: `the latest run's actor failed: ${run.error}` });
    const current = new Set(facts.effective.map((i) => i.id));
    const unchanged = run.set_digest !== undefined ? run.set_digest === facts.setDigest : sameIds(current, records);
    if (!unchanged) {
      const changes = setChanges(facts.effective, run.records);
      const { added, removed, edited } = changes;
      // A run whose records keep no digest can tell ids added and removed only (the wording before digests).
      const what =
        edited !== undefined
          ? `${added} added, ${removed} removed, ${edited} edited since ${run.created_at}`
          : `${added + removed > 0 ? `${added} added, ${removed} removed since` : 'an invariant was edited since'}, ${run.created_at}`;
      add({
        code: 'stale',
        level: 'fail',
        message: `the effective set changed after the latest run (${what}): run \`${strategize}\` again`,
        ...changes,
      });
      // An invariant added since was never judged: unenforced as one the run left out, so that allowing the stale
      // run does not pass an error invariant no run has seen (as allowing an incomplete run does not).
      for (const inv of facts.effective) if (!records.has(inv.id)) add(unrecorded(inv, facts.waived));
    } else {
      const missing = facts.effective.filter((i) => !records.has(i.id));
      if (missing.length > 0)
        add({
          code: 'run-incomplete',
          level: 'fail',
          message: `the latest run has no record for ${plural(missing.length, 'invariant')} of the set: ${missing.map((i) => i.id).join(', ')}`,
        });
      for (const inv of missing) add(unrecorded(inv, facts.waived));
    }
    for (const inv of facts.effective) {
      const rec = records.get(inv.id);
      if (!rec || rec.enforced) continue;
      const waived = facts.waived?.has(inv.id) ?? false;
      add({
        code: 'unenforced',
        level: inv.severity === 'error' && !waived ? 'fail' : 'report',
        invariant_id: inv.id,
        severity: inv.severity,
        message: `${inv.severity} invariant ${inv.id} was not enforced${waived ? ' (waived)' : ''}: ${rec.actor_response}`,
      });
    }
  }
  return { failing: reasons.some((r) => r.level === 'fail'), reasons };
}

/**
 * What the gate says of the plan's drift from its templates (the `drift` reasons), and `plan strategize` before its
 * actor runs: one text for both, naming the `plan sync` that applies it.
 */
export function driftMessages(drift: GateFacts['drift'], agents: string, plan?: string): string[] {
  const messages: string[] = [];
  // A template that cannot be read is not one whose invariants all left: `plan sync` refuses it, so no sync is offered.
  if (drift?.unread !== undefined)
    messages.push(`${drift.unread}: the plan's drift from its templates is not known; run \`${agents} validate\``);
  for (const { ref, why } of drift?.gone ?? [])
    messages.push(
      `the action template ${ref} the plan was made from cannot be read (${why}): the plan keeps its copies, which its runs judge`,
    );
  if (drift !== undefined && drift.changed + drift.removed + drift.added > 0) {
    // The plan keeps its own copies, which its runs judge: a template tightened since is not in them until a sync.
    const templates = `${drift.actions.length === 1 ? 'template' : 'templates'} ${drift.actions.join(', ')}`;
    const id = plan !== undefined ? ` ${plan}` : '';
    messages.push(
      `the action ${templates} changed since the plan was made from ${drift.actions.length === 1 ? 'it' : 'them'} (${drift.changed} changed, ${drift.removed} removed, ${drift.added} added), which the plan's runs do not judge: \`${agents} plan sync${id}\` applies the changes, then run \`${agents} plan strategize${id}\` again`,
    );
  }
  return messages;
}

/**
 * How the error-violation reason ends: waiving the invariant, with the command that does it, which only an invariant of
 * the plan's set can be (`invariant waive` refuses another), and only one no policy source locks (it refuses that too): a
 * violation whose invariant has left the set, or is locked, is said to need resolving.
 */
function waiveWords(errors: readonly Violation[], facts: GateFacts, agents: string | undefined): string {
  const inSet = new Set(facts.effective.map((i) => i.id));
  const locked = facts.locked;
  const gone = errors.filter((v) => !inSet.has(v.invariant_id));
  const held = errors.filter((v) => inSet.has(v.invariant_id) && locked?.has(v.invariant_id) === true);
  const ids = (vs: readonly Violation[]) => [...new Set(vs.map((v) => v.invariant_id))];
  // Words alone leave a newcomer to find the flags: the command names the invariant when one is to waive, and the plan;
  // none when an expired waiver's renewal is named after (agents undefined), which is that command for its invariant.
  const waivable = ids(errors.filter((v) => inSet.has(v.invariant_id) && locked?.has(v.invariant_id) !== true));
  const id = waivable.length === 1 ? waivable[0] : 'INVARIANT';
  const command = agents === undefined ? '' : `: \`${agents} invariant waive ${id} --plan ${facts.plan ?? 'PLAN'} ${WAIVE_NEEDS}\``;
  if (gone.length + held.length === 0) return `, or waive its invariant${command}`;
  const [left, floors] = [ids(gone), ids(held)];
  if (gone.length + held.length === errors.length) {
    const them = errors.length === 1 ? 'it' : 'them';
    const is = (list: readonly string[]) => (list.length === 1 ? 'is' : 'are');
    // One kind: "its invariant X is …", as each was said before; both: each group named with its own reason.
    const lead = (list: readonly string[]) => (list.length === 1 ? `its invariant ${fiveOf(list)}` : `their invariants ${fiveOf(list)}`);
    if (floors.length === 0) return ` (${lead(left)} ${is(left)} no longer in the plan's set, so no waiver covers ${them})`;
    if (left.length === 0) return ` (${lead(floors)} ${is(floors)} locked by a policy source, so no waiver covers ${them})`;
    return ` (${fiveOf(left)} ${is(left)} no longer in the plan's set, and ${fiveOf(floors)} ${is(floors)} locked by a policy source, so no waiver covers ${them})`;
  }
  if (floors.length === 0)
    return `, or, for one whose invariant is still in the plan's set, waive that invariant (not ${fiveOf(left)}, which left the set)${command}`;
  const not = [...(left.length > 0 ? [`${fiveOf(left)}, which left the set`] : []), `${fiveOf(floors)}, which a policy source locks`];
  return `, or, for one whose invariant a waiver can cover, waive that invariant (not ${not.join(', nor ')})${command}`;
}

/**
 * The expired waivers of the standing error violations' invariants that a new waiver could replace (the invariant in
 * the set and not locked), newest expiry first: a waiver that lapsed is the likeliest cause of a violation failing again.
 */
function renewable(errors: readonly Violation[], facts: GateFacts): ExpiredWaiver[] {
  const inSet = new Set(facts.effective.map((i) => i.id));
  const ids = new Set(errors.map((v) => v.invariant_id).filter((id) => inSet.has(id) && facts.locked?.has(id) !== true));
  return (facts.expired ?? [])
    .filter((w) => ids.has(w.invariant_id))
    .sort((a, b) => (waiverExpiry(b.expires) || 0) - (waiverExpiry(a.expires) || 0));
}

/** The end of the error-violation reason naming each expired waiver (file, expiry) and the `invariant waive` that renews it. */
function renewWords(expired: readonly ExpiredWaiver[], agents: string): string {
  if (expired.length === 0) return '';
  const named = expired
    .slice(0, 5)
    .map((w) => `${w.id} of ${w.invariant_id} (expires: ${w.expires}, ${w.path})`)
    .join(', ');
  const more = expired.length > 5 ? `, and ${expired.length - 5} more` : '';
  // The new waiver goes where the expired one was: its plan's or its project's.
  const scopes = new Set(expired.map((w) => (w.scope.kind === 'plan' ? `--plan ${w.scope.plan}` : `--project ${w.scope.project}`)));
  const scope = scopes.size === 1 ? [...scopes][0]! : '(--plan P | --project P)';
  const one = new Set(expired.map((w) => w.invariant_id)).size === 1;
  const id = one ? expired[0]!.invariant_id : 'ID';
  const them = expired.length === 1 ? 'it' : 'one';
  return `; ${expired.length === 1 ? 'its expired waiver' : 'the expired waivers'} ${named}${more}: to renew ${them}, record a new waiver with \`${agents} invariant waive ${id} ${scope} ${WAIVE_NEEDS}\`, which replaces the expired file`;
}

/** The first five ids of a list, and how many more it holds: what the gate's one-line messages name. */
function fiveOf(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, and ${ids.length - 5} more` : ''}`;
}

/** An invariant of the set the latest run kept no record of: not enforced by it, failing for an error one unless waived. */
function unrecorded(inv: GateInvariant, waivedIds: ReadonlySet<string> | undefined): GateReason {
  const waived = waivedIds?.has(inv.id) ?? false;
  return {
    code: 'unenforced',
    level: inv.severity === 'error' && !waived ? 'fail' : 'report',
    invariant_id: inv.id,
    severity: inv.severity,
    message: `${inv.severity} invariant ${inv.id} was not enforced${waived ? ' (waived)' : ''}: the latest run has no record of it`,
  };
}

/**
 * What changed in the set since a run (pure): invariants added (no record),
 * records removed (their invariant left the set), and invariants edited (in
 * both, their digest differs from the record's). `edited` is absent unless
 * every invariant in both has a digest on either side: a run written before
 * records kept one cannot tell.
 */
export function setChanges(
  effective: readonly GateInvariant[],
  records: readonly Pick<EnforcementRecord, 'invariant_id' | 'digest'>[],
): { added: number; removed: number; edited?: number } {
  const { added, removed, edited } = setChangeIds(effective, records);
  return edited === undefined
    ? { added: added.length, removed: removed.length }
    : { added: added.length, removed: removed.length, edited: edited.length };
}

/** The ids behind setChanges' counts, in the set's and the records' order: what an answer to a changed set names. */
export function setChangeIds(
  effective: readonly GateInvariant[],
  records: readonly Pick<EnforcementRecord, 'invariant_id' | 'digest'>[],
): { added: string[]; removed: string[]; edited?: string[] } {
  const current = new Map(effective.map((i) => [i.id, i]));
  const judged = new Map(records.map((r) => [r.invariant_id, r]));
  const added = effective.filter((i) => !judged.has(i.id)).map((i) => i.id);
  const removed = records.filter((r) => !current.has(r.invariant_id)).map((r) => r.invariant_id);
  const edited: string[] = [];
  for (const i of effective) {
    const r = judged.get(i.id);
    if (r === undefined) continue;
    if (r.digest === undefined || i.digest === undefined) return { added, removed };
    if (r.digest !== i.digest) edited.push(i.id);
  }
  return { added, removed, edited };
}

function sameIds(current: ReadonlySet<string>, records: ReadonlyMap<string, unknown>): boolean {
  if (current.size !== records.size) return false;
  for (const id of current) if (!records.has(id)) return false;
  return true;
}

/** What a digest is taken of, for one invariant: what matters to its enforcement. */
export type Digested = { id: string; severity: Severity; text: string };

/** One invariant's row of the set digest: `[id, severity, text]`. */
function digestRow(i: Digested): [string, Severity, string] {
  return [i.id, i.severity, i.text];
}

/**
 * The text the set digest is taken of: each invariant's row (`[id, severity,
 * text]`), by id, one JSON array. Pure; the service hashes it (SHA-256)
 * because core does no cryptography.
 */
export function setDigestInput(effective: readonly Digested[]): string {
  const rows = effective.map(digestRow).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return JSON.stringify(rows);
}

/**
 * The text one invariant's digest is taken of (a run keeps it in each
 * record): its row of the set digest, the same JSON, so the two cannot
 * disagree on what counts as an edit.
 */
export function invariantDigestInput(invariant: Digested): string {
  return JSON.stringify(digestRow(invariant));
}
