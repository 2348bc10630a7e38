import { UsageError } from '../core/errors.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import type { ActorRequest } from '../core/records.ts';
import { PROMPT_VERSION, promptText, readModelAnswer, reconcilePrompt } from '../core/reconcile-prompt.ts';
import { SCHEMAS } from '../core/schema-docs.ts';
import { setChangedText } from '../present/plan.ts';
import type { Actor } from '../enforce/actors.ts';
import { checkArgs, type InputSchema } from './args.ts';
import type { ToolContext, ToolDef } from './tool.ts';

/**
 * Reconciliation over MCP (docs/mcp.md): the `reconcile_plan` prompt hands the connected
 * agent the same prompt the agent and llm actors send, and the `record_reconciliation`
 * tool records its answer as a run, exactly as `plan strategize` does. The agent is then
 * the actor: it judges in its own session, with its own model.
 */

export const RECONCILE_PROMPT = {
  name: 'reconcile_plan',
  title: 'Judge a plan against its invariants',
  description:
    "Evaluates each invariant of a plan's effective set against the plan's goal and context, then records the judgement with the record_reconciliation tool (which needs a server started with --allow-write).",
  arguments: [
    { name: 'plan', description: 'The plan id or a unique prefix (4+ characters).', required: true },
    { name: 'context', description: "Optional: the plan's context (its steps, a design note), as text.", required: false },
  ],
} as const;

/** The most characters of context the prompt takes, as `--context` does (1 MiB of text). */
const MAX_CONTEXT = 1024 * 1024;

/**
 * The prompt's arguments as a schema, checked as a tool's are: a misspelt `context` is refused, never dropped
 * into a prompt that says no context was given.
 */
const PROMPT_ARGS: InputSchema = {
  type: 'object',
  properties: {
    plan: { type: 'string', description: RECONCILE_PROMPT.arguments[0].description, minLength: 1, maxLength: 26 },
    context: { type: 'string', description: RECONCILE_PROMPT.arguments[1].description, maxLength: MAX_CONTEXT },
  },
  required: ['plan'],
  additionalProperties: false,
};

/** The `reconcile_plan` prompt for a plan: one user message. */
export async function reconcilePlanPrompt(
  ctx: ToolContext,
  rawArgs: unknown,
): Promise<{ description: string; messages: { role: 'user'; content: { type: 'text'; text: string } }[] }> {
  const args = await checkArgs(RECONCILE_PROMPT.name, PROMPT_ARGS, rawArgs, "See the prompt's arguments (prompts/list).");
  const plan = args.plan as string;
  const context = (args.context as string | undefined) ?? null;
  const request = await ctx.plans.actorRequest(plan, context);
  const prompt = reconcilePrompt(request, request.invariants);
  const text = [
    promptText(prompt).trimEnd(),
    '',
    `When you have judged every invariant, call the tool record_reconciliation with plan "${request.plan.id}" and answer: your JSON object, as a string.`,
    'It records the run under the plan; if it reports a problem with the answer, correct the answer and call it again.',
  ].join('\n');
  // A client shows the prompt: the context's control and bidirectional characters are escaped, as the CLI's
  // `plan strategize --show-prompt` prints them (store texts hold none).
  const shown = escapeUnsafe(text, { newlines: true });
  return {
    description: `Judge the ${request.invariants.length} invariants of plan ${request.plan.id} (prompt ${PROMPT_VERSION})`,
    messages: [{ role: 'user', content: { type: 'text', text: shown } }],
  };
}

/** Reads the answer strictly; a bad one is refused (nothing written) with what to correct, for the agent to try again. */
function checkedActor(request: ActorRequest, answer: string, client: string | undefined): Actor {
  const read = readModelAnswer(
    answer,
    request.invariants.map((i) => i.id),
  );
  if (!read.ok) {
    throw new UsageError(
      `record_reconciliation: ${read.reason}`,
      'Nothing was recorded. Correct the answer and call record_reconciliation again.',
    );
  }
  return {
    kind: 'agent',
    description: 'the agent connected over MCP',
    ...(client !== undefined ? { model: clientModel(client) } : {}),
    promptVersion: PROMPT_VERSION,
    evaluate: async () => ({ ok: true, response: { results: read.results } }),
  };
}

/**
 * The run's `model` for the client's `name/version`, which the client chose, not the agent: its control and
 * bidirectional characters shown as escapes and its length cut to what enforcement.schema.json takes, so no
 * client's name keeps its agent from recording (the write would refuse the record, and no answer can fix it).
 */
export function clientModel(client: string): string {
  const max = SCHEMAS['enforcement.schema.json'].properties.model.maxLength - 'mcp:'.length;
  const chars = [...escapeUnsafe(client)];
  return `mcp:${chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('')}`;
}

/** The tool that records the agent's judgement as a run; the MCP client is kept as the run's `model`. */
export function reconcileTools(): ToolDef[] {
  return [
    {
      name: 'record_reconciliation',
      title: 'Record a reconciliation run',
      description:
        "Records your judgement of a plan's invariants (from the reconcile_plan prompt) as a reconciliation run: one enforcement file and one decision node under the plan, as `agents plan strategize` writes. " +
        '`plan`: the plan id or a unique prefix; `answer`: the JSON object {"results": [{"invariant_id", "enforced", "response"}]} with exactly one result for each invariant of the plan\'s effective set. ' +
        'A malformed answer, or one that leaves out or adds an invariant, is refused and nothing is written.',
      writes: true,
      inputSchema: {
        type: 'object',
        properties: {
          plan: { type: 'string', description: 'Plan id or unique prefix (4+ characters).', minLength: 1, maxLength: 26 },
          answer: {
            type: 'string',
            description: 'The JSON answer, as text (actor-response.schema.json).',
            minLength: 2,
            maxLength: 16 * 1024 * 1024,
          },
        },
        required: ['plan', 'answer'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          plan: { type: 'string' },
          decision_id: { type: 'string' },
          enforcement_id: { type: 'string' },
          enforced: { type: 'integer' },
          total: { type: 'integer' },
          ok: { type: 'boolean' },
          set_changed: {
            type: ['object', 'null'],
            properties: { added: { type: 'integer' }, removed: { type: 'integer' }, edited: { type: 'integer' } },
          },
        },
        required: ['plan', 'decision_id', 'enforcement_id', 'enforced', 'total', 'ok', 'set_changed'],
      },
      async run(args, ctx) {
        const plan = args.plan as string;
        const request = await ctx.plans.actorRequest(plan, null);
        const actor = checkedActor(request, args.answer as string, ctx.client?.());
        const r = await ctx.plans.strategize(plan, { actor, ...(ctx.signal ? { signal: ctx.signal } : {}) });
        const enforced = r.run.records.filter((x) => x.enforced).length;
        const data = {
          plan: r.plan.id,
          decision_id: r.decision.id,
          enforcement_id: r.run.id,
          enforced,
          total: r.run.records.length,
          ok: r.ok,
          set_changed: r.setChanged,
        };
        // ok false with every invariant enforced is a set that changed meanwhile: said, as plan strategize says it.
        const text = [
          `Recorded run ${r.run.id} of plan ${r.plan.id}: ${enforced} of ${data.total} invariants enforced.`,
          ...(r.setChanged ? [`Warning: ${setChangedText(r.plan.id, r.setChanged)}.`] : []),
          `  plans/${r.plan.id}/decisions/${r.decision.id}.yaml`,
          `  plans/${r.plan.id}/enforcement/${r.run.id}.yaml`,
        ].join('\n');
        return { data, text };
      },
    },
  ];
}
