// A store that a sparse checkout leaves partly out of the working tree (docs/store-format.md).
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { type CommandHint, UsageError } from '../core/errors.ts';
import { shellWord } from '../core/shell-word.ts';
import { mayBeSparse, repoTop } from './git-dir.ts';

/**
 * Refuses (exit 2, `sparse-store`) a store that a sparse checkout leaves out of the working tree, in part or whole: the files
 * left out would read as absent, so an effective set would silently lack their invariants and a check would miss or
 * invent problems. `instead` says what else the user can run (a command: made with the run's agents). No git process
 * outside a sparse checkout.
 */
export async function refuseSparseStore(store: string, instead?: string | CommandHint): Promise<void> {
  if (!mayBeSparse(store)) return;
  const { sparseMissing, sparseAddArgument } = await import('../git/sparse.ts');
  const missing = await sparseMissing(store);
  if (missing.length === 0) return;
  const top = repoTop(store) ?? store;
  const folder = relative(top, store).split(sep).join('/') || '.';
  // What brings the store back is the checkout's mode's: a non-cone checkout needs a pattern of its files.
  const argument = await sparseAddArgument(top, folder);
  const add = `git sparse-checkout add ${shellWord(argument)}`;
  // Not there at all: the store git tracks is left out whole, where `init` would make a second one.
  const whole = !existsSync(store);
  throw new UsageError(
    whole
      ? `the repository's store ${folder}/ is outside this sparse checkout: git tracks ${missing.length} of its files (such as ${missing[0]}), none in the working tree`
      : `the store is partly outside this sparse checkout: ${missing.length} of its files (such as ${missing[0]}) are not in the working tree`,
    (agents) =>
      whole
        ? `Nothing was written. Add the store to the checkout: ${add}`
        : instead === undefined
          ? `Add the store to the checkout: ${add}`
          : `${typeof instead === 'function' ? instead(agents) : instead}, or add the store to the checkout: ${add}`,
    { missing: missing.length, file: missing[0], add: argument },
    'sparse-store',
  );
}
