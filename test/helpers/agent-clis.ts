import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { withFolderLock } from '../../src/store/lock.ts';
import { userHome, userSetup } from './hermetic-env.ts';

/**
 * The real agent clients the end-to-end tests drive, at pinned versions. They are large (about
 * 100–420 MB each), so they are installed on first use into a cache folder outside the repository,
 * never into devDependencies: `npm ci` for contributors stays small.
 */
export const AGENT_CLIS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
} as const;

export type AgentCliName = keyof typeof AGENT_CLIS;

/** Ten minutes: a first install downloads a few hundred MB on a busy two-core machine. */
export const AGENT_CLI_INSTALL_TIMEOUT_MS = 600_000;

const run = promisify(execFile);

/** `${XDG_CACHE_HOME:-$HOME/.cache}/agents-invariants-test` of the machine's own home: shared by every worktree, test file and run. */
export function agentCliCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(userHome(env), '.cache');
  return join(base, 'agents-invariants-test');
}

/** The folder one client is installed into: `<cache>/<pkg>@<version>` with `/` in the scope turned to `+`. */
export function agentCliDir(name: AgentCliName, env: NodeJS.ProcessEnv = process.env): string {
  const c = AGENT_CLIS[name];
  return join(agentCliCacheRoot(env), `${c.pkg.replace('/', '+')}@${c.version}`);
}

const DONE = '.installed';

/**
 * The path of a client's executable, installing it first when the cache does not hold it yet.
 * Installs hold a lock on the cache folder, so two test files (or two worktrees) asking at once
 * install once; the marker file is written only after npm succeeded, so an interrupted install is
 * redone rather than half used.
 */
export async function agentCli(name: AgentCliName): Promise<string> {
  const c = AGENT_CLIS[name];
  const dir = agentCliDir(name);
  const bin = join(dir, 'node_modules', '.bin', c.bin);
  const marker = join(dir, DONE);
  if (installed(marker, c.version) && existsSync(bin)) return bin;
  const root = agentCliCacheRoot();
  mkdirSync(root, { recursive: true });
  // One lock a client, beside its folder: installing Codex need not wait for Claude Code.
  await withFolderLock(
    root,
    `${basename(dir)}.lock`,
    async () => {
      // Another process may have finished while this one waited.
      if (installed(marker, c.version) && existsSync(bin)) return;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"name":"agents-invariants-test-cli","private":true}\n');
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${c.pkg}@${c.version}`], {
        cwd: dir,
        timeout: AGENT_CLI_INSTALL_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          // npm's configuration, cache and proxies are the user's (the tests' own environment has none).
          ...userSetup(),
          npm_config_update_notifier: 'false',
          // The certificates npm needs for the registry (vitest.config.ts empties them for the rest).
          NODE_EXTRA_CA_CERTS: process.env.AGENTS_TEST_REGISTRY_CA ?? process.env.NODE_EXTRA_CA_CERTS ?? '',
        },
      });
      if (!existsSync(bin)) throw new Error(`npm installed ${c.pkg}@${c.version} into ${dir} but ${bin} is missing`);
      writeFileSync(marker, `${c.version}\n`);
    },
    { timeoutMs: AGENT_CLI_INSTALL_TIMEOUT_MS },
  );
  return bin;
}

function installed(marker: string, version: string): boolean {
  try {
    return readFileSync(marker, 'utf8').trim() === version;
  } catch {
    return false;
  }
}
