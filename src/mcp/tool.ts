// What a tool of the MCP server is and what a call is given: shared by the
// tool list (tools.ts), the tools kept in modules of their own
// (check-action.ts, reconcile.ts) and the server that calls them.
import type { InvariantService } from '../service/invariant-service.ts';
import type { PlanService } from '../service/plan-service.ts';
import type { InputSchema } from './args.ts';
import type { PromptedSets } from './prompted-sets.ts';

/** What a tool answers: data for `structuredContent`, and the same for a person (or a model) to read. */
export interface ToolAnswer {
  data: Record<string, unknown>;
  text: string;
  /**
   * The service's notices the text says in words of its own (plan_status's `unknown-project` reason is the warning
   * the read noticed): not added again as "Note:" lines. A notice the text holds as it is needs no mention here.
   */
  said?: readonly string[];
}

export interface ToolContext {
  service: InvariantService;
  plans: PlanService;
  /** The run's environment (the agent's AGENTS_PLAN, AGENTS_NO_CACHE), not necessarily the process's. */
  env: Record<string, string | undefined>;
  /** The start of a command an answer tells to run: `agents`, or `agents --store DIR` when the server was given one. */
  agents: string;
  /** The MCP client, `name/version`, when it said (kept as the model of a run it records). */
  client?: () => string | undefined;
  /** The sets this server's reconcile_plan prompts gave: an answer to one is checked against the set as it is now. */
  prompted?: PromptedSets;
  /** Aborted when the client cancels the call (notifications/cancelled): a write waiting for a lock gives up. */
  signal?: AbortSignal;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** Writes to the store: listed always, callable only when writing is allowed. */
  writes: boolean;
  inputSchema: InputSchema;
  outputSchema: Record<string, unknown>;
  run: (args: Record<string, string | boolean | string[]>, ctx: ToolContext) => Promise<ToolAnswer>;
  /**
   * The answer to a call that failed (bad arguments, an unreadable store), for a tool whose caller cannot take an
   * error result; undefined leaves it the error result every tool gives.
   */
  answerError?: (error: unknown, rawArgs: unknown, ctx: ToolContext) => Promise<ToolAnswer | undefined>;
}
