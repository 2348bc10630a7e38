import { UsageError } from '../core/errors.ts';
import type { ValidationResult } from '../validate/result.ts';
import type { CliContext } from './context.ts';

/**
 * The store of a hook run on the index (`validate --staged`, `guard check --staged`): `{ place }` instead of the usage error when there is no store folder and
 * the index holds nothing at its place: the hook in `.git/hooks` runs on every branch, and a commit of a branch
 * without the store, or one that removes it, records no store to check (docs/validation.md, "Plain git hook").
 */
export async function hookStore(ctx: CliContext): Promise<string | { place: string }> {
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
    const [{ indexHolds }, { GitError }] = await Promise.all([import('../git/changed.ts'), import('../git/repo.ts')]);
    try {
      if (await indexHolds(top, rel.split(sep).join('/'))) throw error;
    } catch (failure) {
      if (failure instanceof GitError) throw error;
      throw failure;
    }
    return { place };
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
