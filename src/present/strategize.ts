// The shapes `plan strategize` prints (docs/json-output.md): the run an actor made and the decision recorded, and with
// --show-prompt what a model actor would be sent; built here so that the command only runs the actor.
import { escapeUnsafe as oneLine } from '../core/plain-text.ts';
import { shellWord } from '../core/shell-word.ts';
import type { Style } from '../core/style.ts';
import type { PreviewProblem, PromptPreview } from '../enforce/model-actors.ts';
import type { StrategizeResult } from '../service/plans/types.ts';
import { decisionJson, planJson, runJson, setChangedText } from './plan.ts';

/** The JSON of `plan strategize`: ok, the plan, the decision, the run (as `enforcement`), run-level notes, set changes. */
export function strategizedJson(result: StrategizeResult) {
  return {
    ok: result.ok,
    plan: planJson(result.plan),
    decision: decisionJson(result.decision),
    enforcement: runJson(result.run),
    problems: result.problems,
    set_changed: result.setChanged,
  };
}

/** The text of `plan strategize`: the verdict, each invariant with the actor's answer on one line, then the files written. */
export function strategizedText(s: Style, result: StrategizeResult, agents: string): string {
  const { run, decision } = result;
  const enforced = run.records.filter((r) => r.enforced).length;
  const lines = [
    `${result.ok ? s.green('enforced') : enforced === run.records.length && !run.error ? s.yellow('stale') : s.red('not all enforced')}: ${enforced} of ${run.records.length} invariants of plan ${result.plan.id} (${run.actor} actor)`,
  ];
  if (run.error) lines.push(`${s.red('actor failed:')} ${oneLine(run.error)}`);
  // Each record's text looked up by id once, not by a pass over the set per record.
  const texts = new Map(result.request.invariants.map((i) => [i.id, i.text]));
  for (const rec of run.records) {
    lines.push(`  ${rec.enforced ? s.green('✓') : s.red('✗')} ${texts.get(rec.invariant_id) ?? rec.invariant_id}`);
    lines.push(`      ${s.dim(`${rec.invariant_id} · ${oneLine(rec.actor_response)}`)}`);
  }
  for (const p of result.problems) lines.push(`${s.yellow('note:')} ${p}`);
  const c = result.setChanged;
  if (c) lines.push(`${s.yellow('warning:')} ${setChangedText(result.plan.id, c, agents)}`);
  lines.push(
    '',
    `recorded decision ${decision.id}${decision.parent_id ? ` (after ${decision.parent_id})` : ' (the first)'}`,
    `  plans/${result.plan.id}/decisions/${decision.id}.yaml`,
    `  plans/${result.plan.id}/enforcement/${run.id}.yaml`,
  );
  return lines.join('\n');
}

/** What `--show-prompt` gives a model actor: its model, prompt version and the requests it would make. */
export interface PromptShown {
  prompt_version: string;
  model: string;
  requests: PromptPreview[];
  /** What would stop a run before anything is sent (an agent CLI not found), or null. */
  problem: PreviewProblem | null;
}

/** The JSON of `plan strategize --show-prompt` for the agent and llm actors. */
export function promptJson(kind: 'agent' | 'llm', preview: PromptShown) {
  return { actor: kind, ...preview };
}

/** Its text: each request's endpoint (the key's variable named, never its value) or command, then the prompt. */
export function promptText(kind: 'agent' | 'llm', preview: PromptShown, apiKeyEnv: string | undefined): string {
  const out: string[] = [
    `${kind} actor · ${preview.model} · prompt ${preview.prompt_version} · ${preview.requests.length} request(s); nothing sent`,
  ];
  for (const [i, r] of preview.requests.entries()) {
    out.push('', `── request ${i + 1} of ${preview.requests.length}: ${r.ids.length} invariant(s)`);
    if (r.endpoint) {
      const key = apiKeyEnv ? `, the key from $${apiKeyEnv} in a header (not shown)` : '';
      out.push(`POST ${r.endpoint}${key}`);
    }
    if (r.command) out.push(`${r.command.map(shellWord).join(' ')} < prompt`);
    out.push('', '[system]', r.system, '', '[user]', r.user);
  }
  return out.join('\n');
}
