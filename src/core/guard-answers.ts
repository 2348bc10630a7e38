/**
 * The answers the agent clients obey (docs/guard.md, "What the agent sees"): a decision or a failure to decide, in
 * each client's own protocol. Pure: the hook prints them and `check_action` hands them back.
 */
import type { GuardClient } from './guard-clients.ts';
import type { GuardDecision } from './guard.ts';

/** What the hook prints and its exit code. */
export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The decision a client is given: `ask` is a deny where the client cannot ask (Codex, Gemini), which the hook records
 * and logs as the deny it is.
 */
export function answeredDecision(client: GuardClient, decision: GuardDecision): GuardDecision {
  return decision === 'ask' && client !== 'claude' && client !== 'cursor' ? 'deny' : decision;
}

/**
 * The answer in the client's protocol ({@link answeredDecision}); `allow` and
 * `none` print nothing, so the client's own permissions decide (the hook never
 * forces an allow).
 */
export function clientAnswer(client: GuardClient, decision: GuardDecision, reason: string, event: string): HookAnswer {
  if (decision === 'none' || decision === 'allow') return { stdout: '', stderr: '', exitCode: 0 };
  const ask = answeredDecision(client, decision) === 'ask';
  switch (client) {
    case 'claude':
    case 'codex':
      return {
        stdout: `${JSON.stringify({
          hookSpecificOutput: {
            hookEventName: event || 'PreToolUse',
            permissionDecision: ask ? 'ask' : 'deny',
            permissionDecisionReason: reason,
          },
        })}\n`,
        stderr: '',
        exitCode: 0,
      };
    case 'gemini':
      return { stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, stderr: '', exitCode: 0 };
    case 'cursor':
      return {
        stdout: `${JSON.stringify({ permission: ask ? 'ask' : 'deny', user_message: reason, agent_message: reason })}\n`,
        stderr: '',
        exitCode: 0,
      };
  }
}

/** The answer when the hook cannot decide and `guard.on_error` is deny: every client treats exit 2 as a block, with stderr as the reason. */
export function errorAnswer(reason: string, onError: 'deny' | 'allow'): HookAnswer {
  return onError === 'deny'
    ? { stdout: '', stderr: `agents guard: ${reason}; denied (guard.on_error: deny)\n`, exitCode: 2 }
    : { stdout: '', stderr: `agents guard: ${reason}; not checked (guard.on_error: allow)\n`, exitCode: 0 };
}
