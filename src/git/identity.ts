import { runGit } from './runner.ts';

/**
 * The author git would record here ("Jane Doe <jane@example.com>"), honouring
 * GIT_AUTHOR_* and git config as git does; undefined outside git or when no
 * identity is set. One process started directly: every `add` asks, and
 * simple-git would cost more to load than git takes to answer.
 */
export async function gitAuthor(cwd: string): Promise<string | undefined> {
  try {
    const ident = (await runGit(cwd, ['var', 'GIT_AUTHOR_IDENT'])).toString('utf8');
    const m = /^(.*<[^>]*>)/.exec(ident.trim());
    return m?.[1]?.trim() || undefined;
  } catch {
    return undefined;
  }
}
