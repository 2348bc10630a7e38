import { UsageError } from '../core/errors.ts';
import type { TuiIo } from '../tui/run-ink.tsx';
import type { CliContext } from './context.ts';

/** Refuses (exit 2, naming the flag that answers instead) when no one can be asked. */
export function requireInteractive(ctx: CliContext, flag = '--yes'): void {
  if (!ctx.interactive) {
    throw new UsageError(
      'confirmation needed, but this is not an interactive terminal (or --no-input was given)',
      `Nothing was changed. Run again with ${flag} to confirm.`,
      { flag },
      'confirmation-needed',
    );
  }
}

/** The terminal an Ink screen runs in, from the CLI's context. Type-only link to src/tui: nothing of Ink is loaded. */
export function tuiIo(ctx: CliContext): TuiIo {
  return { stdin: ctx.io.stdin, stdout: ctx.io.stdout, color: ctx.color, agents: ctx.agentsCommand() };
}
