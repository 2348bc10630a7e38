import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { hermeticEnv } from '../helpers/hermetic-env.ts';
import { tempDir } from '../helpers/tmp.ts';

const TEST = join(REPO, 'test');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx|mjs|cjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe("the tests' environment is the run's own, not the machine's", () => {
  it('this worker runs with the home folder and variables hermeticEnv gives (vitest.config.ts applies it)', () => {
    expect(process.env.HOME).toBeTruthy();
    expect(process.env.HOME).toBe(process.env.AGENTS_TEST_HOME);
    expect(process.env.HOME).not.toBe(process.env.AGENTS_TEST_USER_HOME);
    for (const name of [
      'HTTPS_PROXY',
      'http_proxy',
      'CLAUDE_CONFIG_DIR',
      'CODEX_HOME',
      'GEMINI_CLI_HOME',
      'AGENTS_STORE',
      'AGENTS_PLAN',
      'FORCE_COLOR',
      'GIT_DIR',
    ]) {
      expect(process.env[name], name).toBeUndefined();
    }
    expect(process.env.TZ).toBe('UTC');
  });

  it('hermeticEnv clears the client, CLI and git variables and keeps the suite’s own', () => {
    const root = tempDir();
    const env: NodeJS.ProcessEnv = {
      HOME: '/home/dev',
      CLAUDE_CONFIG_DIR: '/x',
      CODEX_HOME: '/x',
      GEMINI_CLI_HOME: '/x',
      AGENTS_STORE: '/nonexistent',
      AGENTS_LOCK_TIMEOUT_MS: '1',
      AGENTS_TEST_TMP_ROOT: root,
      AGENTS_FILE_CPU: '1',
      GIT_DIR: '/x',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      no_proxy: 'example.com',
      GIT_CONFIG_PARAMETERS: "'core.hooksPath=/x'",
      FORCE_COLOR: '1',
      LC_ALL: 'tr_TR.UTF-8',
      TZ: 'Pacific/Kiritimati',
      PATH: '/usr/bin',
    };
    hermeticEnv(env, root);
    const { HOME, ...rest } = env;
    expect(relative(root, HOME!).startsWith('agents-tests-home-')).toBe(true);
    expect(readdirSync(HOME!)).toEqual([]);
    expect(rest).toEqual({
      AGENTS_TEST_USER_HOME: '/home/dev',
      AGENTS_TEST_USER_PROXIES: JSON.stringify({ HTTPS_PROXY: 'http://127.0.0.1:9', no_proxy: 'example.com' }),
      AGENTS_TEST_HOME: HOME,
      AGENTS_TEST_TMP_ROOT: root,
      AGENTS_FILE_CPU: '1',
      TZ: 'UTC',
      LANG: 'C.UTF-8',
      PATH: '/usr/bin',
    });
  });

  it("no test reads the home folder (os.homedir, process.env.HOME) without setting HOME for what it runs; the machine's is userHome()", () => {
    const reads = /\bhomedir\(\)|process\.env\.HOME\b|process\.env\[['"]HOME['"]\]/;
    const sets = /\bHOME\s*:|process\.env\.HOME\s*=[^=]/;
    const offenders = sources(TEST)
      .filter((f) => !f.endsWith('/helpers/hermetic-env.ts') && !f.endsWith('/architecture/hermetic-env.test.ts'))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return reads.test(text) && !sets.test(text);
      })
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
  });
});
