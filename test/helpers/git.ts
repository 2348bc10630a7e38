import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Environment for git in tests: fixed identity and dates, no user or system config, no signing. */
export const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_AUTHOR_DATE: '2026-11-29T12:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-29T12:00:00Z',
  // No `git maintenance run --auto` after each commit: a process per commit that the tests never need.
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'maintenance.auto',
  GIT_CONFIG_VALUE_0: 'false',
};

/** Runs git in `cwd` and returns its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/**
 * Makes `dir` a git repository on branch main with a fixed identity and no automatic maintenance
 * (also for the commits the tool makes there): one git process, the settings appended to its config.
 */
export function gitInit(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  appendFileSync(
    join(dir, '.git/config'),
    '[commit]\n\tgpgsign = false\n[user]\n\tname = Test Author\n\temail = author@example.com\n[maintenance]\n\tauto = false\n',
  );
}

/**
 * The commit HEAD names in the repository at `dir`: read from `dir/.git` when that is its git folder
 * (a detached HEAD, or a branch's loose ref, which a commit has just written), else asked of git.
 */
function headCommit(dir: string): string {
  try {
    const head = readFileSync(join(dir, '.git/HEAD'), 'utf8').trim();
    const id = head.startsWith('ref: ') ? readFileSync(join(dir, '.git', head.slice('ref: '.length)), 'utf8').trim() : head;
    if (/^[0-9a-f]{40}$/.test(id)) return id;
  } catch {
    // Not the repository's top, a worktree (.git is a file), or a packed ref.
  }
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** Stages everything and commits; returns the new commit id. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return headCommit(dir);
}
