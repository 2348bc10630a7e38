import type { CliIo } from './io.ts';
import { directForm, directMain } from './direct-main.ts';

/**
 * What bin/agents.js runs for `agents guard hook`, the command an agent's
 * client starts before every tool call: the hook's own bundle, dist/hook.cjs
 * (docs/adr/0508-the-guard-hook-bundle.md), holding only what a call with a
 * current index runs. What it imports on demand (the index's rebuild, a
 * violation's record) comes from the full bundle. Any other form, or the hook
 * with an option it does not take, returns undefined: the full bundle answers.
 */
export async function hookMain(args: readonly string[], io?: CliIo): Promise<number | undefined> {
  return directForm(args)?.command === 'guard hook' ? directMain(args, io) : undefined;
}
