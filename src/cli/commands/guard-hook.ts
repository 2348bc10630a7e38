import { resolve } from 'node:path';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import {
  type ClientAction,
  GUARD_CLIENTS,
  GuardInputError,
  GuardTimeout,
  hookReason,
  PROJECT_FOLDER_VARIABLE,
  parseClientInput,
  type GuardClient,
} from '../../core/guard-clients.ts';
import { clientAnswer, errorAnswer, type HookAnswer } from '../../core/guard-answers.ts';
import type { GuardDecision } from '../../core/guard.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { StdinTimeout } from '../io.ts';
import { boundText, hookTimeout } from '../../core/guard-bound.ts';

interface HookArgs {
  client?: GuardClient;
}

const MAX_INPUT = 16 * 1024 * 1024;

/**
 * The hook's input: all of standard input, at most 16 MiB (a larger one is refused, not truncated), ended by
 * `deadline`. Read through the stream, the hook's own timer ends a wait past it.
 */
async function readInput(ctx: CliContext, deadline: number): Promise<string> {
  // A person at a terminal, not a client: the hook would wait for JSON until its bound. Answered now, by on_error.
  if (ctx.io.stdin.isTTY)
    throw new GuardInputError(
      `the hook input is a terminal: a client writes its JSON to the hook (try an action with \`${ctx.agentsCommand()} guard try\`)`,
    );
  const whole = ctx.io.readStdin?.(MAX_INPUT, deadline);
  if (whole !== undefined) {
    if (whole.length > MAX_INPUT) throw new GuardInputError('the hook input is over 16 MiB');
    return whole.toString('utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_INPUT) throw new GuardInputError('the hook input is over 16 MiB');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(ctx: CliContext, answer: HookAnswer): number {
  if (answer.stdout) ctx.io.stdout.write(answer.stdout);
  if (answer.stderr) ctx.io.stderr.write(answer.stderr);
  return answer.exitCode;
}

/** The reason for an input that has not ended in the hook's time: a client that holds standard input open, or is slow to fill it. */
const inputLate = (bound: { ms: number; source: string }) =>
  `the hook input did not end within ${boundText(bound.ms)} (${bound.source}): the client must write its JSON and close standard input`;

/** `value`, or `fallback` when it has not come within `ms`. */
function within<T>(value: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([value, late]).finally(() => clearTimeout(timer));
}

export default defineCommand<HookArgs>({
  builder: (y) =>
    y.option('client', {
      choices: [...GUARD_CLIENTS],
      requiresArg: true,
      describe: 'the protocol of the input and answer (default: recognised from the input)',
    }),
  async run(argv, ctx) {
    let service: import('../../service/guard-service.ts').GuardService | undefined;
    let action: ClientAction | undefined;
    let verdict: { decision: GuardDecision; reason: string } | undefined;
    const timeout = hookTimeout(ctx.io.env);
    const deadline = Date.now() + timeout.ms;
    // While the input is read, a late answer blames the client that holds it open, not the store.
    let reading = false;
    // Once out of time the answer is given: a call that ends later (where the run cannot end the process) says nothing more.
    let late = false;
    const reply = (answer: HookAnswer) => (late ? answer.exitCode : send(ctx, answer));
    // The start of the commands a reason names: the run's, with its --store (the store's absolute path once it is found).
    let agents = ctx.agentsCommand();
    const call = async (): Promise<number> => {
      try {
        // The repository's own store, the one nearest its top: one an agent made below it (a folder it then works
        // in) would hold no guards (docs/adr/0603-the-hook-reads-the-outermost-store.md).
        const [{ GuardService }, { discoverStore }] = await Promise.all([
          import('../../service/guard-service.ts'),
          import('../../store/discover.ts'),
        ]);
        // From the folder the client's session started in, where it says it (--client names the client before the input).
        const variable = argv.client === undefined ? undefined : PROJECT_FOLDER_VARIABLE[argv.client];
        const session = variable === undefined ? undefined : ctx.io.env[variable];
        const cwd = session ? resolve(ctx.io.cwd, session) : ctx.io.cwd;
        const root = discoverStore({ store: ctx.store, env: ctx.io.env, cwd, outermost: true });
        // The commands its reasons name reach this store from wherever the agent's shell went (agentsCommandAt).
        agents = ctx.agentsCommandAt(root);
        service = new GuardService(root, ctx.io.env, undefined, { deadline, agents });
        reading = true;
        const raw = await readInput(ctx, deadline).catch((error: unknown) => {
          throw error instanceof StdinTimeout ? new GuardInputError(inputLate(timeout)) : error;
        });
        reading = false;
        action = parseClientInput(raw, argv.client);
        if (session) action.started = cwd;
        if (!action.blocking) return EXIT_CODES.ok;
        if (timeout.problem !== undefined) throw new UsageError(timeout.problem);
        const decided = await service.decide(action, (v, reason) => {
          verdict = { decision: v.decision, reason: reason ?? '' };
        });
        return reply(clientAnswer(action.client, decided.verdict.decision, decided.reason ?? '', action.event));
      } catch (error) {
        // Whatever stops a decision (input, store, index) is answered by guard.on_error, never by a stack trace.
        const onError = service ? await service.onError() : 'deny';
        const why =
          error instanceof GuardTimeout
            ? `no decision within ${boundText(timeout.ms)} (${timeout.source}): the call names more paths or folders, or longer text, than the hook can judge in that time`
            : hookReason(error, agents);
        // Logged with its answer: with on_error allow, the log is the only trace of a call let through unchecked.
        if (!late) service?.logError(why, onError, action);
        return reply(errorAnswer(why, onError));
      }
    };
    const limit = timeout.ms;
    const code = await within<number | 'late'>(call(), limit, 'late');
    if (code !== 'late') return code;
    late = true;
    // Out of time: the verdict when it is known (only the violation's record was left), else guard.on_error.
    const seconds = `${boundText(limit)} (${timeout.source})`;
    let answer: number;
    if (verdict !== undefined && action !== undefined) {
      const why = `the violation was not recorded within ${seconds}: the store or git answered too slowly`;
      service?.logError(why, verdict.decision === 'allow' || verdict.decision === 'none' ? 'allow' : 'deny', action);
      answer = send(ctx, clientAnswer(action.client, verdict.decision, verdict.reason, action.event));
    } else {
      const why = reading ? inputLate(timeout) : `no decision within ${seconds}: the store or git answered too slowly`;
      // config.yaml is read on the same slow store: a deny when it does not come at once.
      const onError = service
        ? await within(
            service.onError().catch(() => 'deny' as const),
            1_000,
            'deny' as const,
          )
        : 'deny';
      service?.logError(why, onError, action);
      answer = send(ctx, errorAnswer(why, onError));
    }
    // The work left (a git process, a read) would keep the process running past the client's time.
    ctx.io.exit?.(answer);
    return answer;
  },
});
