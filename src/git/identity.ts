import { gitClient } from './client.ts';

/**
 * The author git would record here ("Jane Doe <jane@example.com>"), honouring
 * GIT_AUTHOR_* and git config as git does; undefined outside git or when no
 * identity is set.
 */
export async function gitAuthor(cwd: string): Promise<string | undefined> {
  try {
    const ident = await (await gitClient(cwd)).raw(['var', 'GIT_AUTHOR_IDENT']);
    const m = /^(.*<[^>]*>)/.exec(ident.trim());
    return m?.[1]?.trim() || undefined;
  } catch {
    return undefined;
  }
}
