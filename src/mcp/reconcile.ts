import { UsageError } from '../core/errors.ts';
import { MAX_CONTEXT_BYTES } from '../core/limits.ts';
import { escapeUnsafe } from '../core/plain-text.ts';
import { answerForIds, parseModelAnswer, PROMPT_VERSION, promptText, reconcilePrompt } from '../core/reconcile-prompt.ts';
import type { ActorResult } from '../core/records.ts';
import { SCHEMAS } from '../core/schema-docs.ts';
import { setChangedText } from '../present/plan.ts';
import { changedIds, invariantDigests, setDigest } from '../service/plans/common.ts';
import { someNames } from '../core/closest.ts';
import type { Actor } from '../enforce/actors.ts';
import { checkArgs, idArg, type InputSchema, trimmed } from './args.ts';
import type { PromptedSet } from './prompted-sets.ts';
import type { ToolContext, ToolDef } from './tool.ts';
import { cursorArg, pageOf } from './pages.ts';
import { MAX_LONG_ARGUMENT } from './line-limit.ts';

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
    {
      name: 'cursor',
      description: 'Optional: the next_cursor a page of this prompt gave, for the next page of a set too long for one message.',
      required: false,
    },
  ],
} as const;

/**
 * The prompt's arguments as a schema, checked as a tool's are: a misspelt `context` is refused, never dropped
 * into a prompt that says no context was given.
 */
const PROMPT_ARGS: InputSchema = {
  type: 'object',
  properties: {
    plan: idArg(RECONCILE_PROMPT.arguments[0].description),
    // A first bound in characters, which a text within the bytes always meets; its bytes are counted after (contextOf).
    context: { type: 'string', description: RECONCILE_PROMPT.arguments[1].description, maxLength: MAX_CONTEXT_BYTES },
    cursor: cursorArg(RECONCILE_PROMPT.arguments[2].description),
  },
  required: ['plan'],
  additionalProperties: false,
};

/** The prompt's context, at most MAX_CONTEXT_BYTES of UTF-8 as a `--context` file holds: 1 MiB of text either way. */
function contextOf(context: string | undefined): string | null {
  if (context === undefined) return null;
  const bytes = Buffer.byteLength(context, 'utf8');
  if (bytes > MAX_CONTEXT_BYTES)
    throw new UsageError(
      `the context is ${bytes} bytes of UTF-8; the limit is ${MAX_CONTEXT_BYTES} (1 MiB)`,
      'Summarise the plan context, as a --context file of plan strategize would be.',
    );
  return context;
}

/**
 * The `reconcile_plan` prompt for a plan: one user message. A set too long for one message is given in pages, as the
 * tools give theirs (./pages.ts): each page the prompt for its invariants, the last one how to record the answer to
 * all of them at once, since a run records a judgement of the whole set.
 */
export async function reconcilePlanPrompt(
  ctx: ToolContext,
  rawArgs: unknown,
): Promise<{
  description: string;
  messages: { role: 'user'; content: { type: 'text'; text: string } }[];
  _meta: { 'agents/set_digest': string; 'agents/next_cursor': string | null };
}> {
  const args = await checkArgs(RECONCILE_PROMPT.name, PROMPT_ARGS, rawArgs, "See the prompt's arguments (prompts/list).");
  const plan = args.plan as string;
  const context = contextOf(args.context as string | undefined);
  // The agent is the run's actor: a set its run could not record is refused before it judges thousands for nothing.
  const request = await ctx.plans.actorRequest(plan, context, agentJudge(ctx.client?.()));
  // The set's digest goes out with the prompt and comes back with the answer: an answer to a set edited since is
  // refused, never recorded as a judgement of the set as it is now. Kept here too, for the clients that leave it out.
  const digests = await invariantDigests(request.invariants);
  const set: PromptedSet = {
    setDigest: await setDigest(request.invariants),
    records: request.invariants.map((i) => ({ invariant_id: i.id, digest: digests.get(i.id)! })),
  };
  const id = request.plan.id;
  const total = request.invariants.length;
  // Each entry with its digest: an invariant of a page given edited before the next is asked for is a set changed
  // between pages (store-changed), as its set_digest would tell, never an answer to pages of two sets recorded as one.
  const entries = set.records.map((r) => `${r.invariant_id} ${r.digest}`);
  const page = pageOf(entries, args.cursor as string | undefined, { tool: RECONCILE_PROMPT.name, of: id }, ({ from, to, next }) => {
    const paged = next !== null || from > 0;
    const record = (answer: string) =>
      `call the tool record_reconciliation with plan "${id}", set_digest "${set.setDigest}" and answer: ${answer}, as a string`;
    const whole = `one JSON object whose results hold all ${total} invariants`;
    const text = [
      promptText(reconcilePrompt(request, request.invariants.slice(from, to))).trimEnd(),
      '',
      ...(!paged
        ? [`When you have judged every invariant, ${record('your JSON object')}.`]
        : [
            `Page: invariants ${from + 1} to ${to} of the ${total} of the plan's set.`,
            next !== null
              ? `Judge them, then get the reconcile_plan prompt again with plan "${id}", the same context and cursor "${next}" for the next ones. Once you have judged every page, ${record(whole)}.`
              : `When you have judged them and those of the pages before, ${record(whole)}.`,
          ]),
      'It records the run under the plan; if it reports a problem with the answer, correct the answer and call it again; if it reports that the set changed, get this prompt again and judge the set it gives.',
    ].join('\n');
    const which = paged ? `invariants ${from + 1} to ${to} of the ${total}` : `the ${total} invariants`;
    const description = `Judge ${which} of plan ${id} (prompt ${PROMPT_VERSION})`;
    // A client shows the prompt: the context's control and bidirectional characters are escaped, as the CLI's
    // `plan strategize --show-prompt` prints them (store texts hold none). Escaped here, so the page is measured so.
    return { data: { next_cursor: next, description }, text: escapeUnsafe(text, { newlines: true }) };
  });
  ctx.prompted?.remember(id, set);
  const { description, next_cursor } = page.data as { description: string; next_cursor: string | null };
  return {
    description,
    messages: [{ role: 'user', content: { type: 'text', text: page.text } }],
    _meta: { 'agents/set_digest': set.setDigest, 'agents/next_cursor': next_cursor },
  };
}

/** The connected agent as a run's records name it: its kind, the client as its model, the prompt's version. */
function agentJudge(client: string | undefined): Pick<Actor, 'kind' | 'model' | 'promptVersion'> {
  return { kind: 'agent', ...(client !== undefined ? { model: clientModel(client) } : {}), promptVersion: PROMPT_VERSION };
}

/**
 * The agent as the run's actor: handed the set the run reads, it refuses (nothing written) a set changed since the one
 * it judged, then an answer that is not one for each invariant of it, with what to do, for the agent to try again.
 */
function checkedActor(plan: string, results: ActorResult[], judged: Judged | undefined, client: string | undefined): Actor {
  return {
    ...agentJudge(client),
    description: 'the agent connected over MCP',
    evaluate: async (request) => {
      const changed = judged && (await changedIds(request.invariants, judged));
      if (judged && changed) throw setChangedError(plan, judged.setDigest, changed);
      const read = answerForIds(
        results,
        request.invariants.map((i) => i.id),
      );
      if (!read.ok) throw badAnswer(read.reason);
      return { ok: true, response: { results: read.results } };
    },
  };
}

/** An answer that is no answer for the set: nothing written; the agent corrects it. */
function badAnswer(reason: string): UsageError {
  return new UsageError(
    `record_reconciliation: ${reason}`,
    'Nothing was recorded. Correct the answer and call record_reconciliation again.',
  );
}

/** The set an answer was given for: its digest, and its invariants' ids (with their digests when this server gave it). */
interface Judged {
  setDigest: string;
  records: PromptedSet['records'] | readonly { invariant_id: string }[];
}

/**
 * The set the answer judged: the one of the set_digest given, as the prompt that gave it (if this server did) or as
 * the answer names its ids (edits then cannot be told). Without one, the set of the last prompt this server gave for
 * the plan when the answer names its invariants, an older client's answer to it; else none: the answer names the set
 * as it is now (read with effective_invariants), and is taken for it, as before set_digest was given out.
 */
function judgedSet(ctx: ToolContext, plan: string, given: string | undefined, results: readonly ActorResult[]): Judged | undefined {
  if (given === undefined) {
    const last = ctx.prompted?.latest(plan);
    const named = new Set(results.map((r) => r.invariant_id));
    const same = last !== undefined && last.records.length === named.size && last.records.every((r) => named.has(r.invariant_id));
    return same ? last : undefined;
  }
  return ctx.prompted?.get(plan, given) ?? { setDigest: given, records: results.map((r) => ({ invariant_id: r.invariant_id })) };
}

/** An answer to a set that changed since: nothing recorded; the ids that changed named, and the prompt to ask again. */
function setChangedError(plan: string, judged: string, changed: { added: string[]; removed: string[]; edited?: string[] }): UsageError {
  const named = [
    ...(changed.added.length > 0 ? [`added: ${someNames(changed.added)}`] : []),
    ...(changed.removed.length > 0 ? [`removed: ${someNames(changed.removed)}`] : []),
    ...(changed.edited === undefined
      ? ['an edit cannot be named, as this server did not give that prompt']
      : changed.edited.length > 0
        ? [`edited: ${someNames(changed.edited)}`]
        : []),
  ];
  return new UsageError(
    `record_reconciliation: the effective set of plan ${plan} changed since the reconcile_plan prompt gave it (${named.join('; ')})`,
    `Nothing was recorded. Get the reconcile_plan prompt for plan ${plan} again, judge the set it gives, and call record_reconciliation with its set_digest.`,
    { plan, set_digest: judged, added: changed.added, removed: changed.removed, edited: changed.edited ?? null },
    'set-changed',
  );
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
          plan: idArg('Plan id or unique prefix (4+ characters).'),
          answer: {
            type: 'string',
            description: 'The JSON answer, as text (actor-response.schema.json).',
            minLength: 2,
            maxLength: MAX_LONG_ARGUMENT,
          },
          // Copied from the prompt, perhaps with the line break after it: trimmed as an id is.
          set_digest: trimmed({
            type: 'string',
            description:
              "The set_digest the reconcile_plan prompt gave: the set the answer judged. Left out, the last prompt's for the plan.",
            pattern: '^sha256:[0-9a-f]{64}$',
          }),
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
        const plan = await ctx.plans.resolvePlanId(args.plan as string);
        const answer = parseModelAnswer(args.answer as string);
        if (!answer.ok) throw badAnswer(answer.reason);
        const judged = judgedSet(ctx, plan, args.set_digest as string | undefined, answer.results);
        const actor = checkedActor(plan, answer.results, judged, ctx.client?.());
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
          ...(r.setChanged ? [`Warning: ${setChangedText(r.plan.id, r.setChanged, ctx.agents)}.`] : []),
          `  plans/${r.plan.id}/decisions/${r.decision.id}.yaml`,
          `  plans/${r.plan.id}/enforcement/${r.run.id}.yaml`,
        ].join('\n');
        return { data, text };
      },
    },
  ];
}
