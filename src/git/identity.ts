import { runEnv } from './run-environment.ts';
import { GitProcessError, runGit } from './runner.ts';

/**
 * What git strips or refuses in an identity's name and e-mail: white space,
 * controls and `.,:;<>"\'` at either end, and `<`, `>` or a newline anywhere.
 */
const CRUD = /^[\x00-\x20.,:;<>"\\']|[\x00-\x20.,:;<>"\\']$|[<>\n]/;

/**
 * The author from GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, when both are set and
 * git would record them as they are (they override any configuration, so git
 * would answer exactly this); undefined when git must be asked.
 */
export function authorFromEnvironment(env: Record<string, string | undefined>): string | undefined {
  return identityFromEnvironment(env, 'AUTHOR');
}

/** The same for the author or the committer (GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL). */
function identityFromEnvironment(env: Record<string, string | undefined>, who: 'AUTHOR' | 'COMMITTER'): string | undefined {
  const name = env[`GIT_${who}_NAME`];
  const email = env[`GIT_${who}_EMAIL`];
  if (!name || !email || CRUD.test(name) || CRUD.test(email)) return undefined;
  return `${name} <${email}>`;
}

/**
 * The author git would record here ("Jane Doe <jane@example.com>"), honouring
 * GIT_AUTHOR_* and git config as git does; undefined when git knows no
 * identity (or cannot run). Taken from the environment when it names the author
 * plainly (CI and hooks often do); else one git process: every
 * `add` asks, so it must cost no more than git takes to answer.
 */
export async function gitAuthor(cwd: string): Promise<string | undefined> {
  const plain = authorFromEnvironment(runEnv());
  if (plain !== undefined) return plain;
  try {
    const ident = (await runGit(cwd, ['var', 'GIT_AUTHOR_IDENT'])).toString('utf8');
    const m = /^(.*<[^>]*>)/.exec(ident.trim());
    return m?.[1]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * git's own reason it could not commit here for want of an identity (its last line, "fatal: unable to auto-detect
 * email address …"), or undefined when it knows one: a commit checked only once the file is written would leave it
 * written and staged. Each of committer and author that the environment does not name plainly is asked of git, by
 * its own rule, at the same time: the two can come from different places (`author.*` and `committer.*` beside
 * `user.*` in the configuration, an e-mail in GIT_COMMITTER_EMAIL alone), and git commit needs both.
 */
export async function missingIdentity(cwd: string): Promise<string | undefined> {
  const env = runEnv();
  const asked = (['COMMITTER', 'AUTHOR'] as const).filter((w) => identityFromEnvironment(env, w) === undefined);
  const reasons = await Promise.all(asked.map((who) => gitRefusal(cwd, who)));
  return reasons.find((r) => r !== undefined);
}

/** Why git cannot name the committer or the author here, or undefined when it can. */
async function gitRefusal(cwd: string, who: 'COMMITTER' | 'AUTHOR'): Promise<string | undefined> {
  try {
    await runGit(cwd, ['var', `GIT_${who}_IDENT`]);
    return undefined;
  } catch (error) {
    if (!(error instanceof GitProcessError) || error.exitCode !== 128) throw error;
    const lines = error.message.split('\n').filter((l) => l.trim() !== '');
    return (lines.findLast((l) => l.startsWith('fatal:')) ?? lines[0] ?? 'git knows no identity').trim();
  }
}
