import type { AgentsError } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { boundHeapGrowth } from '../heap.ts';
import { dropUnreadOnStop } from '../output-stop.ts';
import { abortOnStopSignals } from '../stop-signals.ts';

export default defineCommand<{ allowWrite?: boolean }>({
  builder: (y) =>
    y.option('allow-write', {
      type: 'boolean',
      describe:
        'turn on the tools that write to the store (record_violation, record_reconciliation); default: `mcp: {allow_write: …}` in config.yaml, which --no-allow-write overrides',
    }),
  async run(argv, ctx) {
    // The store is found (or the command fails with exit 2) before the server starts; the
    // service that reads it is loaded after `initialize` is answered (docs/performance.md).
    const root = await ctx.root();
    // The commands its answers name, for the client's folder (CliContext.agentsCommandAt).
    const agents = ctx.agentsCommandAt(root);
    // A long-running server reads the store again on every call: without a bound, V8 lets the
    // garbage of those reads pile up to several times the live heap (docs/mcp.md, "Performance").
    boundHeapGrowth();
    // A stop signal ends the server as it ends the CLI's other long-running commands: exit 130, nothing half written.
    return abortOnStopSignals(MCP_STOPPED, async (stop) => {
      // stdin is read, and `initialize` answered, before the MCP SDK is loaded: the client waits for nothing else.
      const { mcpInput } = await import('../../mcp/initialize.ts');
      const input = mcpInput(process.stdin, process.stdout);
      const stopped = new Promise<never>((_, reject) => stop.addEventListener('abort', () => reject(stop.reason), { once: true }));
      stopped.catch(() => {});
      try {
        // Loading the SDK holds the event loop: the first line is read (and answered) first.
        await Promise.race([input.started, stopped]);
        // The MCP SDK is loaded by this command only (docs/mcp.md).
        const { serveMcp } = await import('../../mcp/server.ts');
        stop.throwIfAborted();
        return await serveMcp({
          root,
          stop,
          input,
          // No parse cache: a server that lives for hours would hold its groups and rewrite one at each change,
          // and its memory must stay flat over 1,000 calls (docs/adr/0503-reads-answered-from-settled-stamps.md).
          service: (notice) => ctx.invariants({ keepParses: false, notice, agents }),
          // Given either way, the option wins over config.yaml, as --commit and --no-commit do.
          allowWrite: argv.allowWrite,
          stderr: ctx.io.stderr,
          agents,
          ...settle(ctx.io.env),
        });
      } finally {
        // Stopped, nothing more is read: the client's open stdin must not keep the process alive, nor answers it
        // leaves unread (a full pipe), once they had a moment to leave.
        if (stop.aborted) {
          process.stdin.destroy();
          await dropUnreadOnStop(process.stdout, 1000, 'answers', (stop.reason as AgentsError).exitCode);
        }
      }
    });
  },
});

const MCP_STOPPED = 'the server stopped: each write under way was finished, and a call waiting for a lock gave up, writing nothing.';

/** AGENTS_MCP_SETTLE_MS: the watcher's quiet time, for tests and benchmarks that make many changes. */
function settle(env: Record<string, string | undefined>): { settleMs?: number } {
  const n = Number(env.AGENTS_MCP_SETTLE_MS);
  return Number.isInteger(n) && n > 0 && n <= 10_000 ? { settleMs: n } : {};
}
