import { createInterface } from 'node:readline';
import { CancelledError, UsageError } from '../core/errors.ts';
import type { CliContext } from './io.ts';

/**
 * Asks a yes/no question (default No). Outside an interactive terminal it
 * refuses with exit 2 and names the flag that answers it.
 */
export async function confirm(ctx: CliContext, question: string, flag = '--yes'): Promise<boolean> {
  if (!ctx.interactive) {
    throw new UsageError('confirmation needed, but this is not an interactive terminal (or --no-input was given)', `Nothing was changed. Run again with ${flag} to confirm.`);
  }
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stdout as NodeJS.WritableStream, terminal: true });
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      rl.on('SIGINT', () => reject(new CancelledError()));
      rl.on('close', () => reject(new CancelledError()));
      rl.question(`${question} [y/N] `, resolve);
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.removeAllListeners('close');
    rl.close();
  }
}
