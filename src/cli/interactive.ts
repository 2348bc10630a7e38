import { UsageError } from '../core/errors.ts';
import type { TuiIo } from '../tui/run-ink.tsx';
import type { CliContext } from './context.ts';

/** What a refusal for want of a terminal says of what the command would have asked about. */
export interface UnaskedChange {
  /** What it would change, shown on stderr in text (a failure prints nothing on stdout). */
  shown?: () => string;
  /** The hint: what the flag would do. */
  hint: string;
  /** Added to the error's detail beside `flag` (how many changes it would make). */
  detail: Record<string, unknown>;
}

/**
 * Refuses (exit 2, `confirmation-needed`, naming the flag that answers instead) when no one can be asked. `change`:
 * what the command would have asked about, shown and counted, so that the flag's run is not taken on faith.
 */
export function requireInteractive(ctx: CliContext, flag = '--yes', change?: UnaskedChange): void {
  if (ctx.interactive) return;
  if (change?.shown !== undefined && ctx.format === 'text') ctx.io.stderr.write(`${change.shown()}\n`);
  throw new UsageError(
    'confirmation needed, but this is not an interactive terminal (or --no-input was given)',
    change?.hint ?? `Nothing was changed. Run again with ${flag} to confirm.`,
    { flag, ...change?.detail },
    'confirmation-needed',
  );
}

/** The terminal an Ink screen runs in, from the CLI's context. Type-only link to src/tui: nothing of Ink is loaded. */
export function tuiIo(ctx: CliContext): TuiIo {
  return { stdin: ctx.io.stdin, stdout: ctx.io.stdout, color: ctx.color, agents: ctx.agentsCommand() };
}
