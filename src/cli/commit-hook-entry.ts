import type { CliIo } from './io.ts';
import { directForm, directMain } from './direct-main.ts';

/**
 * What bin/agents.js runs for `agents validate --staged`, the commit hook:
 * a bundle of its own, dist/commit-hook.cjs (docs/adr/0512-the-commit-hook-bundle.md),
 * holding what a commit that stages no store file runs (the store's discovery
 * and the one git process that lists the staged files). What it imports on
 * demand to check staged files comes from the full bundle. Any other form
 * returns undefined: the full bundle answers.
 */
export async function hookMain(args: readonly string[], io?: CliIo): Promise<number | undefined> {
  return directForm(args)?.command === 'validate' ? directMain(args, io) : undefined;
}
