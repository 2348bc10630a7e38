import { loadTui } from '../tui-loader.ts';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import type { Scope } from '../../core/model.ts';
import type { InvariantService } from '../../service/invariant-service.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import type { CliContext } from '../context.ts';
import { tuiIo } from '../interactive.ts';

/** Opens the browser; refuses (exit 2) where no one can use it. */
export async function browse(
  ctx: CliContext,
  service: InvariantService,
  scope: Scope | undefined,
  pattern: string | undefined,
  effective: boolean,
): Promise<number> {
  if (!ctx.interactive) {
    throw new UsageError(
      'the TUI needs an interactive terminal (stdin and stdout a TTY, TERM not dumb, not CI, no --no-input)',
      `In scripts use \`${ctx.agentsCommand()} invariant list\` (add --format json for machines).`,
    );
  }
  boundHeapGrowth();
  const { runBrowser } = await loadTui();
  await ctx.onScreen(() =>
    runBrowser(tuiIo(ctx), service, { ...(scope ? { scope } : {}), ...(pattern !== undefined ? { pattern } : {}), effective }),
  );
  return EXIT_CODES.ok;
}

export default defineCommand<Record<string, unknown>>({
  builder: (y) => y,
  async run(_argv, ctx) {
    return browse(ctx, await ctx.invariants(), undefined, undefined, false);
  },
});
