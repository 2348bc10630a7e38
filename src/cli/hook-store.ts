import { UsageError } from '../core/errors.ts';
import type { ValidationResult } from '../validate/result.ts';
import type { CliContext } from './context.ts';

/**
 * The store of a hook run on the index (`validate --staged`, `guard check --staged`, the export-check hook):
 * `{ place }` instead of the usage error when there is no store folder and the index holds nothing at its place: the
 * hook in `.git/hooks` runs on every branch, and a commit of a branch without the store, or one that removes it,
 * records no store to check (docs/validation.md, "Plain git hook").
 *
 * When the index holds the store but the working tree does not (a sparse checkout that leaves it out, its folder
 * deleted and not staged), a commit that stages none of its files records it as HEAD has it: with `unchanged`, such
 * a run checks nothing of it (`{ place, outOfCheckout: true }`); otherwise, or when the commit stages files of it,
 * it is refused as `sparse-store`, saying how to bring it back, never called a repository without a store.
 */
export async function hookStore(
  ctx: CliContext,
  { unchanged = false }: { unchanged?: boolean } = {},
): Promise<string | { place: string; outOfCheckout?: true }> {
  try {
    return await ctx.root();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const [{ existsSync }, { isAbsolute, join, relative, sep }, { repoTop }, { DEFAULT_STORE_DIR, explicitStore }] = await Promise.all([
      import('node:fs'),
      import('node:path'),
      import('../store/git-dir.ts'),
      import('../store/discover.ts'),
    ]);
    const top = repoTop(ctx.io.cwd);
    if (top === undefined) throw error;
    const place = explicitStore({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd }) ?? join(top, DEFAULT_STORE_DIR);
    const rel = relative(top, place);
    // Something stands there (a file, a folder that is no store), or the place is outside the repository: the error says it.
    if (existsSync(place) || rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw error;
    const folder = rel.split(sep).join('/');
    const [{ indexFilesUnder, stagedUnder }, { GitError }] = await Promise.all([import('../git/changed.ts'), import('../git/repo.ts')]);
    let held: string[];
    let staged: string[] = [];
    try {
      held = await indexFilesUnder(top, folder);
      if (held.length > 0) staged = await stagedUnder(top, folder);
    } catch (failure) {
      if (failure instanceof GitError) throw error;
      throw failure;
    }
    if (held.length === 0) return { place };
    if (unchanged && staged.length === 0) return { place, outOfCheckout: true };
    const [{ sparseAddArgument }, { shellWord }] = await Promise.all([import('../git/sparse.ts'), import('../core/shell-word.ts')]);
    const add = await sparseAddArgument(top, folder);
    throw new UsageError(
      `the store ${folder}/ is in the git index but not in the working tree: ${held.length} of its files (such as ${held[0]}) are not checked out${staged.length > 0 ? `, and this commit stages ${staged.length} of them` : ''}`,
      `Bring it back: \`git sparse-checkout add ${shellWord(add)}\` in a sparse checkout, else \`git checkout -- ${shellWord(folder)}\`; \`git rm -r --cached ${shellWord(folder)}\` stages its removal instead.`,
      { missing: held.length, file: held[0], add },
      'sparse-store',
    );
  }
}

/** The result of a hook run that found no store file in the commit. */
export function emptyResult(store: string, source: string): ValidationResult {
  return {
    store,
    source,
    files: 0,
    diagnostics: [],
    fixes: [],
    strict: false,
    ok: true,
    counts: { error: 0, warning: 0, info: 0 },
    displayPrefix: '',
    repoPrefix: '',
  };
}
