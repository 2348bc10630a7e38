// The writing tools while writing is off (docs/mcp.md): listed, saying so, and refused when called, with what turns
// writing on.
import { docsRef } from '../core/docs-link.ts';
import { type CommandHint, UsageError } from '../core/errors.ts';
import type { ToolDef } from './tool.ts';

/**
 * Why writing is off, and what turns it on: `option` when --no-allow-write turned it off, whatever config.yaml says
 * (which may well say `allow_write: true`, so advising it would not help); `config` when config.yaml left it off. Each
 * hint is given the path of the served store's config.yaml, which it names: not a `.agents/` the server may not serve.
 */
const WRITE_OFF = {
  option: {
    why: 'this server was started with --no-allow-write',
    hint: (config: string): string =>
      `Start the server without --no-allow-write (then \`mcp: {allow_write: true}\` in ${config} decides), or with --allow-write (${docsRef('mcp.md')}).`,
  },
  config: {
    why: 'this server was started without --allow-write',
    // The server's `agents`, with its --store: the restart it names serves the same store.
    hint:
      (config: string): CommandHint =>
      (agents) =>
        `Start the server with \`${agents} mcp --allow-write\`, or set \`mcp: {allow_write: true}\` in ${config} (${docsRef('mcp.md')}).`,
  },
} as const;

/** A tool as tools/list gives it: a writing one while writing is off says so, in its description and `_meta`. */
export function toolListing(tool: ToolDef, writeOn: boolean, offBy: keyof typeof WRITE_OFF) {
  const off = tool.writes && !writeOn;
  return {
    name: tool.name,
    title: tool.title,
    description: off
      ? `OFF in this server: ${WRITE_OFF[offBy].why}, so calling this tool returns an error. ${tool.description}`
      : tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: {
      title: tool.title,
      readOnlyHint: !tool.writes,
      ...(tool.writes ? { destructiveHint: false, idempotentHint: false } : {}),
      openWorldHint: false,
    },
    _meta: { 'agents/enabled': !off },
  };
}

/** The refusal of a call to a writing tool while writing is off; `config`: the path of the store's config.yaml. */
export function writeOffError(tool: ToolDef, by: keyof typeof WRITE_OFF, config: string): UsageError {
  const off = WRITE_OFF[by];
  return new UsageError(`${tool.name} is off: ${off.why}, so it does not allow writing to the store`, off.hint(config), {
    reason: 'write-off',
    by,
  });
}
