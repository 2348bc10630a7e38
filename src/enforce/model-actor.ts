import { UsageError } from '../core/errors.ts';
import type { ActorOutcome, ActorRequest, ActorResult } from '../core/records.ts';
import { batchPrompts, PROMPT_VERSION, readModelAnswer, reconcilePrompt, type ReconcilePrompt } from '../core/reconcile-prompt.ts';
import type { Actor } from './actors.ts';

/** Defaults of the agent and llm actors' keys in config.yaml (docs/actors.md). */
export const MODEL_ACTOR_DEFAULTS = {
  batch_size: 50,
  max_request_chars: 200_000,
  max_output_tokens: 4096,
  max_retries: 3,
} as const;

/** What one prompt got back: the model's answer (text or a parsed value), or why there is none. */
export type SendOutcome = { ok: true; answer: unknown } | { ok: false; reason: string };

/** How a prompt reaches a model: an HTTP endpoint (llm) or an agent CLI (agent). */
export interface ModelTransport {
  /** The model as records name it: `anthropic/claude-sonnet-4-5`, `claude` (the CLI's default model). */
  model: string;
  /** Sends one prompt. `signal` aborts at the run's time-out or on cancel; never rejects for the model's failure. */
  send(prompt: ReconcilePrompt, signal: AbortSignal, timeLeftMs: number): Promise<SendOutcome>;
  /** Takes the secret the transport sends (the llm actor's key) out of a text that is shown or recorded. */
  clean?: (text: string) => string;
}

export interface ModelActorOptions {
  kind: 'agent' | 'llm';
  description: string;
  transport: ModelTransport;
  /** The whole run's limit: every batch and retry together. */
  timeoutMs: number;
  batchSize: number;
  maxRequestChars: number;
  /** Cancels the run: `evaluate` then rejects with the signal's reason, as the command actor does. */
  signal?: AbortSignal;
}

/**
 * The run's prompts, or exit 2: a prompt over max_request_chars is known before anything is sent, so no actor
 * ran and nothing is recorded (ADR 0035), as `--show-prompt` says it.
 */
export function promptsFor(request: ActorRequest, batchSize: number, maxRequestChars: number): { prompts: ReconcilePrompt[] } {
  const batches = batchPrompts(request, batchSize, maxRequestChars);
  if (!batches.ok) throw new UsageError(batches.reason, 'Nothing was sent or written.');
  return batches;
}

/** Longest note on a malformed answer put into the retry's prompt. */
const RETRY_NOTE = 300;

/**
 * An actor that judges with a model (docs/actors.md): the effective set in batches, one
 * prompt each; a malformed answer is asked for once more with what was wrong; an answer
 * that leaves out or invents an invariant, a transport failure or the time-out fails the
 * whole run, which `plan status` then reports as `run-failed`.
 */
export function modelActor(options: ModelActorOptions): Actor {
  return {
    kind: options.kind,
    description: options.description,
    model: options.transport.model,
    promptVersion: PROMPT_VERSION,
    async evaluate(request) {
      const batches = promptsFor(request, options.batchSize, options.maxRequestChars);
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error('timeout')), options.timeoutMs);
      const started = Date.now();
      const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
      try {
        const results: ActorResult[] = [];
        for (const [i, prompt] of batches.prompts.entries()) {
          const where = batches.prompts.length > 1 ? ` (batch ${i + 1} of ${batches.prompts.length})` : '';
          const got = await judgeBatch(request, prompt, signal, () => options.timeoutMs - (Date.now() - started));
          if (options.signal?.aborted) throw options.signal.reason;
          if (timeout.signal.aborted) {
            return {
              ok: false,
              reason: `${options.description} did not answer within ${options.timeoutMs} ms (timeout_ms) and was stopped`,
            };
          }
          if (!got.ok) return { ok: false, reason: `${options.description}${where}: ${got.reason}` };
          results.push(...got.results);
        }
        return { ok: true, response: { results } } satisfies ActorOutcome;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  async function judgeBatch(
    request: ActorRequest,
    prompt: ReconcilePrompt,
    signal: AbortSignal,
    timeLeft: () => number,
  ): Promise<{ ok: true; results: ActorResult[] } | { ok: false; reason: string }> {
    let current = prompt;
    for (let attempt = 1; ; attempt++) {
      const sent = await options.transport.send(current, signal, Math.max(1, timeLeft()));
      if (signal.aborted) return { ok: false, reason: 'stopped' };
      if (!sent.ok) return sent;
      const read = readModelAnswer(sent.answer, current.ids);
      if (read.ok) return read;
      // Why an answer is unusable quotes it (its start, an id it named): an endpoint that answers with the key
      // (a gateway's error given as the model's text) would have it recorded and printed.
      read.reason = options.transport.clean?.(read.reason) ?? read.reason;
      if (!read.malformed || attempt >= 2) {
        return { ok: false, reason: attempt >= 2 ? `${read.reason} (after one retry)` : read.reason };
      }
      const invariants = request.invariants.filter((inv) => current.ids.includes(inv.id));
      current = reconcilePrompt(request, invariants, read.reason.slice(0, RETRY_NOTE));
    }
  }
}
