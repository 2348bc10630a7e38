import { someNames } from './closest.ts';
import { type ActorOutcome, type ActorRequest, type ActorRequestInvariant, type ActorResult, checkActorAnswer } from './records.ts';

/**
 * The prompt the `agent` and `llm` actors send (docs/actors.md). Its version is kept in
 * every enforcement run they write, so a record can be traced to the words that produced
 * it; change the text only together with the version.
 */
export const PROMPT_VERSION = 'reconcile-prompt/2';

const INSTRUCTIONS = `You are the Invariant Reconciliation Actor of a software team. An AI agent is about to carry out a plan.
The team keeps invariants: constraints in plain language that every plan must honour.
Judge each invariant below against the plan: its goal and its context.

For each invariant decide:
- enforced: true when the plan, as described, honours the invariant, or can honour it with the steps it
  already has or that the invariant itself adds as a constraint of every step;
- enforced: false when the plan breaks the invariant, plans a step that would break it, or leaves out
  something the invariant requires that cannot simply be added as a constraint.
Judge only from the goal, the context and the invariant's text, severity and rationale. When the context
says nothing about an invariant, it is enforced if the agent can honour it as a constraint while it works.
Give in "response" one or two sentences of reasoning that a reviewer can check against the plan: name the
step or the fact in the context that decided it.

Answer with one JSON object and nothing else, in this shape:
{"results": [{"invariant_id": "<id>", "enforced": true, "response": "<your reasoning>"}]}
Give exactly one result for each invariant listed, with its id exactly as written; name no other id.
Do not change any file and do not run any command: this is a judgement, not a task.`;

/** One prompt: instructions (the system part) and the plan with its invariants (the user part). */
export interface ReconcilePrompt {
  system: string;
  user: string;
  /** The invariant ids it asks about, in order. */
  ids: string[];
}

/**
 * The prompt for `invariants`, a batch of the request's effective set (pure). The goal and
 * the context are fenced and the invariants go in as JSON, so no text of theirs can pass
 * for an instruction's line.
 */
export function reconcilePrompt(request: ActorRequest, invariants: readonly ActorRequestInvariant[], retryNote?: string): ReconcilePrompt {
  const listed = invariants.map(listedItem);
  const parts = [
    `Plan ${request.plan.id}${request.plan.project ? ` (project ${request.plan.project})` : ''}${request.plan.action ? `, from the template ${request.plan.action}` : ''}.`,
    `Goal:\n${request.plan.goal === null ? '(no goal given)' : fence(request.plan.goal)}`,
    `Context:\n${request.context === null ? '(no context given)' : fence(request.context)}`,
    `Invariants (${invariants.length}):\n${JSON.stringify(listed, null, 1)}`,
  ];
  if (retryNote !== undefined) {
    parts.push(`Your previous answer could not be used: ${retryNote}. Answer again with the JSON object only.`);
  }
  return { system: INSTRUCTIONS, user: parts.join('\n\n'), ids: invariants.map((i) => i.id) };
}

function listedItem(i: ActorRequestInvariant): Record<string, unknown> {
  const item: Record<string, unknown> = { id: i.id, text: i.text, severity: i.severity, scope: i.scope };
  if (i.rationale !== undefined) item.rationale = i.rationale;
  return item;
}

/** The whole prompt as one text, for agents that take a single prompt and for `--show-prompt`. */
export function promptText(prompt: ReconcilePrompt): string {
  return `${prompt.system}\n\n${prompt.user}\n`;
}

/** Text the model must read as data: in a fence longer than any run of backticks inside it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

/**
 * The answer's JSON schema as structured-output features take it (OpenAI's strict mode,
 * Claude Code's --json-schema, Codex's --output-schema): every key required, no others.
 * Answers are checked against actor-response.schema.json all the same.
 */
export const ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['invariant_id', 'enforced', 'response'],
        properties: {
          invariant_id: { type: 'string' },
          enforced: { type: 'boolean' },
          response: { type: 'string' },
        },
      },
    },
  },
} as const;

/** A model's answer for one prompt: results for exactly the ids asked, or why not and whether asking again may help. */
export type ModelAnswer = { ok: true; results: ActorResult[] } | { ok: false; reason: string; malformed: boolean };

/**
 * Reads a model's answer (pure): a JSON value, or text that is one JSON object or holds
 * exactly one fenced JSON block. It must match actor-response.schema.json (malformed
 * otherwise: worth one retry) and answer for exactly the ids asked, each once (otherwise
 * the run fails: a model that skips or invents an invariant is not asked to guess again).
 */
export function readModelAnswer(answer: unknown, ids: readonly string[]): ModelAnswer {
  const parsed = parseModelAnswer(answer);
  return parsed.ok ? answerForIds(parsed.results, ids) : parsed;
}

/** The first half of readModelAnswer: the answer's results, read and checked against the schema, whatever ids they name. */
export function parseModelAnswer(answer: unknown): ModelAnswer {
  let data: unknown = answer;
  if (typeof answer === 'string') {
    const json = jsonText(answer);
    if (json === undefined) {
      const start = JSON.stringify(answer.trim().slice(0, 80));
      return {
        ok: false,
        malformed: true,
        reason: `the answer is not one JSON object nor holds one fenced JSON block; it begins ${start}`,
      };
    }
    try {
      data = JSON.parse(json);
    } catch (error) {
      return { ok: false, malformed: true, reason: `the answer is not JSON (${(error as Error).message})` };
    }
  }
  const checked: ActorOutcome = checkActorAnswer(data ?? null);
  if (!checked.ok) return { ok: false, malformed: true, reason: checked.reason.replace("the actor's answer", 'the answer') };
  return { ok: true, results: checked.response.results };
}

/** The second half of readModelAnswer: results for exactly the ids asked, each once, or what is wrong with them. */
export function answerForIds(results: ActorResult[], ids: readonly string[]): ModelAnswer {
  const asked = new Set(ids);
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.invariant_id, (counts.get(r.invariant_id) ?? 0) + 1);
  const extra = [...counts.keys()].filter((id) => !asked.has(id));
  const missing = ids.filter((id) => !counts.has(id));
  const doubled = ids.filter((id) => (counts.get(id) ?? 0) > 1);
  const wrong = [
    extra.length > 0 ? `names ${someNames(extra, { shown: 5 })}, not asked about` : '',
    missing.length > 0 ? `leaves out ${someNames(missing, { shown: 5 })}` : '',
    doubled.length > 0 ? `answers twice for ${someNames(doubled, { shown: 5 })}` : '',
  ].filter((w) => w !== '');
  if (wrong.length > 0) return { ok: false, malformed: false, reason: `the answer ${wrong.join(', ')}` };
  return { ok: true, results };
}

/** The JSON text of an answer: all of it, or its one fenced block (```json, ```JSON or ```). */
function jsonText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return trimmed;
  // Info strings are case-insensitive in Markdown, and models write ```JSON too.
  const blocks = [...trimmed.matchAll(/```(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```/gi)];
  return blocks.length === 1 ? blocks[0]![1]!.trim() : undefined;
}

/**
 * Splits the effective set into batches of at most `batchSize` invariants whose prompt
 * stays within `maxChars` (pure). An invariant whose prompt alone is over the limit
 * gives the reason instead: the run fails rather than send a cut prompt.
 */
export function batchPrompts(
  request: ActorRequest,
  batchSize: number,
  maxChars: number,
): { ok: true; prompts: ReconcilePrompt[] } | { ok: false; reason: string } {
  const prompts: ReconcilePrompt[] = [];
  // The prompt's length without invariants, plus each invariant's JSON (an upper bound of its share).
  const base = promptText(reconcilePrompt(request, [])).length + RETRY_ROOM;
  const cost = (i: ActorRequestInvariant) => JSON.stringify(listedItem(i), null, 2).length + 2;
  let batch: ActorRequestInvariant[] = [];
  let chars = base;
  for (const inv of request.invariants) {
    const c = cost(inv);
    if (batch.length > 0 && (batch.length >= batchSize || chars + c > maxChars)) {
      prompts.push(reconcilePrompt(request, batch));
      batch = [];
      chars = base;
    }
    if (chars + c > maxChars) {
      return {
        ok: false,
        reason: `the prompt for invariant ${inv.id} is about ${chars + c} characters, over max_request_chars (${maxChars}): shorten the context or raise the limit in config.yaml`,
      };
    }
    batch.push(inv);
    chars += c;
  }
  if (batch.length > 0) prompts.push(reconcilePrompt(request, batch));
  return { ok: true, prompts };
}

/** Room kept in each prompt for the note a retry adds. */
const RETRY_ROOM = 400;
