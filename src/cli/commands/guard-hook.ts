import { EXIT_CODES } from '../../core/errors.ts';
import {
  type ClientAction,
  clientAnswer,
  errorAnswer,
  GUARD_CLIENTS,
  GuardInputError,
  hookReason,
  parseClientInput,
  type GuardClient,
  type HookAnswer,
} from '../../core/guard-clients.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';

interface HookArgs {
  client?: GuardClient;
}

const MAX_INPUT = 16 * 1024 * 1024;

/** The hook's input: all of standard input, at most 16 MiB (a larger one is refused, not truncated). */
async function readInput(ctx: CliContext): Promise<string> {
  const whole = ctx.io.readStdin?.(MAX_INPUT);
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
    try {
      const [{ GuardService }, root] = await Promise.all([import('../../service/guard-service.ts'), ctx.root()]);
      service = new GuardService(root, ctx.io.env);
      action = parseClientInput(await readInput(ctx), argv.client);
      if (!action.blocking) return EXIT_CODES.ok;
      const decided = await service.decide(action);
      return send(ctx, clientAnswer(action.client, decided.verdict.decision, decided.reason ?? '', action.event));
    } catch (error) {
      // Whatever stops a decision (input, store, index) is answered by guard.on_error, never by a stack trace.
      const onError = service ? await service.onError() : 'deny';
      const why = hookReason(error);
      // Logged with its answer: with on_error allow, the log is the only trace of a call let through unchecked.
      service?.logError(why, onError, action);
      return send(ctx, errorAnswer(why, onError));
    }
  },
});
