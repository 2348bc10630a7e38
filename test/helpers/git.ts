import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
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
};

/** Runs git in `cwd` and returns its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** Makes `dir` a git repository on branch main with a fixed identity (one git process: the settings are appended to its config). */
export function gitInit(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  appendFileSync(join(dir, '.git/config'), '[commit]\n\tgpgsign = false\n[user]\n\tname = Test Author\n\temail = author@example.com\n');
}

/** Stages everything and commits; returns the new commit id. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD').trim();
}
