/**
 * The environment every test runs in, whatever the developer's or CI's own: a home folder of the
 * run's own (so no `~/.claude/settings.json`, `~/.codex/config.toml` or `~/.gitconfig` of the
 * machine is read), none of the variables that move a client's settings or steer the CLI, git's
 * own variables cleared (test/helpers/git.ts sets the ones the tests use), one time zone and one
 * locale. vitest.config.ts applies it before any worker starts, so the in-process CLI and every
 * process a test starts inherit it; a test that sets one of these passes it as before.
 */
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Variables whose value on the machine would change what the CLI or a client reads. */
const CLEARED = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  // A suite run from a client's session: the guard hook would look for the store in that session's folder.
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'XDG_CONFIG_HOME',
  'FORCE_COLOR',
  'CLICOLOR_FORCE',
  'LANGUAGE',
];

/** A proxy of the machine would carry the tests' requests to their own servers on 127.0.0.1. */
const PROXIES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'no_proxy'];

/** The suite's own variables, which pass through (AGENTS_TEST_TMP_ROOT, AGENTS_FILE_CPU, …). */
const SUITE_VARIABLE = /^AGENTS_(TEST_|FILE_CPU$)/;

/**
 * Makes `env` hermetic in place; the home folder goes under `root` (the run's temporary folder)
 * or the system's. The machine's home and proxies stay known (AGENTS_TEST_USER_HOME,
 * AGENTS_TEST_USER_PROXIES) for the few processes that need the user's own setup: userSetup().
 */
export function hermeticEnv(env: NodeJS.ProcessEnv, root: string = tmpdir()): void {
  env.AGENTS_TEST_USER_HOME ??= env.HOME || homedir();
  env.AGENTS_TEST_USER_PROXIES ??= JSON.stringify(Object.fromEntries(PROXIES.filter((n) => env[n] !== undefined).map((n) => [n, env[n]])));
  const home = mkdtempSync(join(root, 'agents-tests-home-'));
  env.HOME = home;
  env.AGENTS_TEST_HOME = home;
  for (const name of Object.keys(env)) {
    if (CLEARED.includes(name) || PROXIES.includes(name) || name.startsWith('GIT_') || name.startsWith('LC_')) delete env[name];
    else if (name.startsWith('AGENTS_') && !SUITE_VARIABLE.test(name)) delete env[name];
  }
  env.TZ = 'UTC';
  env.LANG = 'C.UTF-8';
}

/** The machine's own home folder, for a process that needs the user's setup (npm's configuration and cache). */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENTS_TEST_USER_HOME || homedir();
}

/** The machine's home folder and proxies, for a process that reaches the npm registry as the user does. */
export function userSetup(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { HOME: userHome(env), ...(JSON.parse(env.AGENTS_TEST_USER_PROXIES || '{}') as Record<string, string>) };
}
