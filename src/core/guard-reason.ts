/**
 * What a guard's hit says (docs/guard.md): the reason the client shows the
 * agent, and the command that waives the invariant where it can be. Pure.
 */
import type { GuardHit } from './guard.ts';
import { describeScope, type GuardKind } from './model.ts';
import { truncateCounted } from './names.ts';
import { escapeUnsafe } from './plain-text.ts';
import { WAIVE_NEEDS } from './waivers.ts';

const KIND_WORDS: Record<GuardKind, string> = {
  write: 'may not write files matching',
  command: 'may not run commands matching',
  content: 'may not write text matching',
  tool: 'may not call the tool',
};

/**
 * A guard entry (a glob, a pattern, a tool's name) as the person wrote it, between backticks: a pattern's
 * backslashes are its own (`\bterraform\s+apply\b`), not doubled as a JSON string would show them.
 */
export function quoteEntry(entry: string): string {
  return `\`${escapeUnsafe(entry)}\``;
}

/**
 * The reason the client shows the agent: the invariant's id, text and scope,
 * what matched, and how to waive it. One paragraph, plain text. `agents` starts the commands it names: the run's, with
 * its --store, so that the waiver reaches the store that denied the call.
 */
export function guardReason(hit: GuardHit, plan: string | null, planProject?: string, agents = 'agents'): string {
  const r = hit.rule;
  // The subject is the agent's (its command, its file's name): escaped, so that a control or bidirectional character
  // cannot hide or reorder what the person reads where the client asks them (a warning's `ask`).
  const subject = escapeUnsafe(truncateCounted(hit.subject));
  // A folder the command writes files of unknown names into: what to do so that the hook can read them.
  const below = `files below ${subject}, which the command writes from an archive the hook cannot read before it runs: save the archive in one call and extract it in the next, so that its files are judged`;
  const what = `${KIND_WORDS[hit.kind]} ${quoteEntry(hit.entry)}${hit.kind === 'tool' ? '' : ` (${hit.below ? below : subject})`}`;
  const waive = r.locked
    ? 'It is a locked floor of a policy source: it cannot be waived here.'
    : `To waive it: ${waiveCommand(hit, plan, planProject, undefined, agents)}.`;
  return `Blocked by invariant ${r.id} (${r.scope}, ${r.severity}): "${r.text}". An agent ${what}. ${waive}`;
}

/**
 * How a run makes a plan the active one: `plan activate` keeps it in the clone's git folder, for the hook and every
 * later run there; `AGENTS_PLAN` in the run's environment is the way where no one keeps that clone (a CI job, a check
 * no terminal runs), whose fresh clone holds no active plan.
 */
export type PlanActivation = 'activate' | 'environment';

/**
 * The command that waives the invariant of `hit` where it can be (not a locked floor's), with what it still needs.
 * `code` marks each command it names: a diagnostic's hint gives them as code spans, which its presenter starts with the
 * run's `agents` and --store (agentsHints); the hook's reason, read by an agent, names them plain, each started by
 * `agents` (the run's, as guardReason is given it). `activation`: how the plan a waiver is written to becomes the
 * active one where the check runs.
 */
export function waiveCommand(
  hit: GuardHit,
  plan: string | null,
  planProject?: string,
  code = (command: string) => command,
  agents = 'agents',
  activation: PlanActivation = 'activate',
): string {
  const r = hit.rule;
  const rest = WAIVE_NEEDS;
  // A project's waiver covers that project's files and folders only: for an action of no project, only the active plan's can.
  // The active plan's waives only what its own set holds: not the invariant of a project it does not target, which only
  // that project's waiver can (waiverReaches), and which `invariant waive --plan` refuses.
  const otherProject =
    hit.project !== undefined && hit.project !== planProject && r.scope === describeScope({ kind: 'project', project: hit.project });
  const activate =
    activation === 'environment'
      ? `, then run this check with ${code('AGENTS_PLAN=PLAN')} in its environment (no project holds it, so only an active plan can waive it; here the active plan is AGENTS_PLAN: ${code(`${agents} plan activate`)} keeps one in a clone's git folder, which a CI job's fresh clone does not have)`
      : `, then ${code(`${agents} plan activate PLAN`)} (no project holds it, so only an active plan can waive it)`;
  return (plan !== null && !otherProject) || hit.project === undefined
    ? `${code(`${agents} invariant waive ${r.id} --plan ${plan ?? 'PLAN'} ${rest}`)}${plan === null ? activate : ''}`
    : code(`${agents} invariant waive ${r.id} --project ${hit.project} ${rest}`);
}
