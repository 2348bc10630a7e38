import { createInterface } from 'node:readline';
import { CancelledError, UsageError } from '../core/errors.ts';
import type { TuiIo } from '../tui/run-ink.tsx';
import type { CliContext } from './io.ts';

/** Refuses (exit 2, naming the flag that answers instead) when no one can be asked. */
export function requireInteractive(ctx: CliContext, flag = '--yes'): void {
  if (!ctx.interactive) {
    throw new UsageError('confirmation needed, but this is not an interactive terminal (or --no-input was given)', `Nothing was changed. Run again with ${flag} to confirm.`);
  }
}

/** The terminal an Ink screen runs in, from the CLI's context. Type-only link to src/tui: nothing of Ink is loaded. */
export function tuiIo(ctx: CliContext): TuiIo {
  return { stdin: ctx.io.stdin, stdout: ctx.io.stdout, color: ctx.color };
}

/**
 * Asks a yes/no question (default No). Outside an interactive terminal it
 * refuses with exit 2 and names the flag that answers it.
 */
export async function confirm(ctx: CliContext, question: string, flag = '--yes'): Promise<boolean> {
  requireInteractive(ctx, flag);
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
