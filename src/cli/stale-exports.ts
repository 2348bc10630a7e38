import { AgentsError } from '../core/errors.ts';
import type { CliContext } from './context.ts';

/**
 * The exported instruction files a write just made stale (`agents export` would change them), for the commands
 * that change what the export writes without running it; none when the store chose no export targets.
 */
export async function staleExports(ctx: CliContext): Promise<string[]> {
  try {
    const exporter = await ctx.exporter({ cache: false });
    return (await exporter.plan()).changes.filter((c) => c.action !== 'unchanged').map((c) => c.path);
  } catch (error) {
    // No targets chosen, or a store export cannot read: nothing to say stale here; `export --check` says why.
    if (error instanceof AgentsError) return [];
    throw error;
  }
}
