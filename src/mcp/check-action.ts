/**
 * MCP `check_action` (docs/guard.md, "MCP"): the guard hook's answer for a
 * harness that asks before acting. It decides only: nothing is recorded, as
 * the harness, not the hook, then acts or not.
 */
import { AgentsError, missingOption, UsageError } from '../core/errors.ts';
import type { GuardDecision } from '../core/guard.ts';
import { boundText, hookTimeout } from '../core/guard-bound.ts';
import { clientAnswer } from '../core/guard-answers.ts';
import { GUARD_CLIENTS, type GuardClient, GuardTimeout, hookReason, namedToolAction } from '../core/guard-clients.ts';
import { makeStyle } from '../core/style.ts';
import { verdictJson, verdictText } from '../present/guard.ts';
import { FILE_URL } from '../service/guard-paths.ts';
import { GuardService } from '../service/guard-service.ts';
import type { ToolContext, ToolDef } from './tool.ts';
import { MAX_LONG_ARGUMENT } from './line-limit.ts';

/** One guard service a store, kept for the server's life: its index stays in memory between calls. */
const services = new WeakMap<ToolContext['service'], GuardService>();

function guardOf(ctx: ToolContext): GuardService {
  let guard = services.get(ctx.service);
  if (!guard)
    services.set(
      ctx.service,
      // Its reasons name the server's `agents`, with its --store, as every answer of the server does.
      (guard = new GuardService(ctx.service.root, ctx.env, undefined, { longLived: true, agents: ctx.agents })),
    );
  return guard;
}

/** The text of an answer in a client's hook protocol ("{}" when nothing is decided). */
function hookText(client: GuardClient, decision: GuardDecision, reason: string): string {
  return clientAnswer(client, decision, reason, client === 'gemini' ? 'BeforeTool' : 'PreToolUse').stdout.trim() || '{}';
}

export const CHECK_ACTION: ToolDef = {
  name: 'check_action',
  title: 'Check an action against the guards',
  description:
    "Before acting: would the store's guards let an agent write this file, run this command or call this tool? " +
    'Answers `decision` (deny for an error invariant, ask for a warning, allow for info, none when no guard matches) with the invariant that decides and why, ' +
    'exactly as `agents guard hook` would. Give at least one of `path` (relative to the repository top, or absolute), `command`, `tool`; ' +
    '`content` is the text the action would write; `cwd` the folder it runs in (default: the repository top).',
  writes: false,
  inputSchema: {
    type: 'object',
    properties: {
      // Each as long as the hook takes it (a message's worth): an action padded past a shorter bound (a command, a path
      // of `./` past 4,096 characters) would be answered by guard.on_error, not judged, and with `allow` let through.
      path: {
        type: 'string',
        description: 'A file the action would create, change or delete.',
        minLength: 1,
        maxLength: MAX_LONG_ARGUMENT,
      },
      command: { type: 'string', description: 'A shell command the action would run.', minLength: 1, maxLength: MAX_LONG_ARGUMENT },
      tool: {
        type: 'string',
        description: 'The tool the agent would call (e.g. mcp__db__drop_table).',
        minLength: 1,
        maxLength: MAX_LONG_ARGUMENT,
      },
      content: { type: 'string', description: 'Text the action would write.', maxLength: MAX_LONG_ARGUMENT },
      cwd: {
        type: 'string',
        description: 'The folder the action runs in (default: the repository top).',
        minLength: 1,
        maxLength: MAX_LONG_ARGUMENT,
      },
      client: {
        type: 'string',
        description: "Answer the text in this client's hook protocol (for Claude Code's mcp_tool hook: claude).",
        enum: ['claude', 'codex', 'gemini', 'cursor'],
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      decision: { enum: ['deny', 'ask', 'allow', 'none'] },
      plan: { type: ['string', 'null'] },
      reason: { type: ['string', 'null'] },
      hits: { type: 'array', items: { type: 'object' } },
    },
    required: ['decision', 'plan', 'reason', 'hits'],
  },
  async run(args, ctx) {
    const path = args.path as string | undefined;
    const command = args.command as string | undefined;
    // The mistake `agents guard try` without --path, --command or --tool is: one code for it on every surface.
    if (path === undefined && command === undefined && args.tool === undefined)
      throw missingOption('check_action: give at least one of path, command, tool', 'e.g. {"path": "infra/prod.tf"}', 'check_action', [
        'path',
        'command',
        'tool',
      ]);
    const guard = guardOf(ctx);
    // The agent waits on the answer as a client waits on its hook, and the server answers nothing else meanwhile: the
    // judging is bounded as the hook's is, a heavy pattern over a long text run in a thread it leaves at the bound.
    const bound = hookTimeout(ctx.env);
    // A bound that is no number is refused, as the hook refuses it, rather than judged under one the user did not set.
    if (bound.problem !== undefined) throw new UsageError(bound.problem);
    const deadline = Date.now() + bound.ms;
    const tool = (args.tool as string | undefined) ?? (command !== undefined ? 'Bash' : 'Write');
    // Both from the repository top, as the tool's description says: a path is not taken from `cwd` (`~/…`, `~user/…` stay the
    // home folder's and a `~` folder's, as toAction reads it).
    // A `file:` URL too, read as the path it names.
    const fromTop = (p: string) => (p.startsWith('/') || p.startsWith('~') || FILE_URL.test(p) ? p : `${guard.top}/${p}`);
    const paths = path !== undefined ? [fromTop(path)] : [];
    const judged = async () => {
      const action = guard.toAction(
        {
          tool,
          // Read as the hook reads the same tool's input: a patch's files, a command's folders, a read that writes nothing.
          ...namedToolAction(tool, {
            paths,
            ...(command !== undefined ? { command } : {}),
            ...(args.content !== undefined ? { content: args.content as string } : {}),
          }),
          // From the top as named: `~/x` is read as the hook reads a folder named so.
          cwd: guard.top,
          ...(args.cwd !== undefined ? { dir: args.cwd as string } : {}),
        },
        deadline,
      );
      return guard.evaluate(action, deadline);
    };
    const { verdict, reason, plan } = await judged().catch((error: unknown) => {
      if (!(error instanceof GuardTimeout)) throw error;
      throw new UsageError(
        `check_action: no decision within ${boundText(bound.ms)} (${bound.source}): the action names more paths or folders, or longer text, than can be judged in that time`,
        'Check a shorter text, or fewer paths.',
        { ms: bound.ms },
        'guard-timeout',
      );
    });
    const client = args.client as GuardClient | undefined;
    // For a hook that parses the text as its decision: the client's own answer ("{}" when nothing is decided).
    const text = client ? hookText(client, verdict.decision, reason ?? '') : verdictText(makeStyle(false), verdict, reason);
    return { data: verdictJson(verdict, reason, plan), text };
  },
  // In a client's protocol the caller is a hook (Claude Code's mcp_tool), which lets an action through on an error
  // result: a call that cannot be decided is answered by guard.on_error instead, as `agents guard hook` answers it.
  async answerError(error, rawArgs, ctx) {
    const client = (rawArgs as { client?: unknown } | null | undefined)?.client;
    if (!(error instanceof AgentsError) || !GUARD_CLIENTS.includes(client as GuardClient)) return undefined;
    const onError = await guardOf(ctx).onError();
    const why = hookReason(error, ctx.agents);
    const reason = onError === 'deny' ? `${why}; denied (guard.on_error: deny)` : `${why}; not checked (guard.on_error: allow)`;
    return { data: { decision: onError, plan: null, reason, hits: [] }, text: hookText(client as GuardClient, onError, reason) };
  },
};
