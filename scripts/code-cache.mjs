// Writes dist/agents.cjs.cache (or, with --direct, dist/agents.cjs.direct.cache;
// with --hook, dist/hook.cjs.cache): V8's compiled code for the CLI's bundle,
// made by running everyday commands (or the direct starts, or the guard hook
// with its own bundle) in this process on a store it makes
// (docs/adr/0302-cli-bundle-with-code-cache.md,
// docs/adr/0508-the-guard-hook-bundle.md). Run by scripts/build.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { cacheFileOf, loadBundle, ownCacheFileOf, writeCache } from '../bin/load-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const full = join(root, 'dist/agents.cjs');
// `--direct`: the cache of the direct starts (bin/load-bundle.js), made after the other one; `--hook`: the hook bundle's.
const hook = process.argv.includes('--hook');
const direct = process.argv.includes('--direct');
const file = hook ? join(root, 'dist/hook.cjs') : full;
const cacheFile = cacheFileOf(file, direct);
// For those two, the store is made by other processes, so that only what the starts themselves compile is kept.
const startsOnly = direct || hook;
const work = mkdtempSync(join(tmpdir(), 'agents-code-cache-'));
try {
  // Nothing of the caller's may point the commands elsewhere: a build inside a git hook has GIT_DIR and
  // GIT_INDEX_FILE set, and AGENTS_STORE would name the caller's store.
  for (const k of Object.keys(process.env)) if (/^(GIT_|AGENTS_)/.test(k)) delete process.env[k];
  const env = {
    ...process.env,
    // The commands it starts open no TLS connection: Node need not parse a certificate bundle at each start.
    NODE_EXTRA_CA_CERTS: '',
    HOME: work,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
    CI: 'true',
    GIT_AUTHOR_NAME: 'build',
    GIT_AUTHOR_EMAIL: 'build@example.com',
    GIT_COMMITTER_NAME: 'build',
    GIT_COMMITTER_EMAIL: 'build@example.com',
  };
  const git = (...args) => spawnSync('git', args, { cwd: work, env, stdio: 'ignore' }).status === 0;
  const inGit = git('init', '-q');

  // Made afresh: a cache V8 took would bring back everything it holds.
  rmSync(cacheFile, { force: true });
  const loaded = loadBundle(file, { cacheFile });
  let out = '';
  const io = { stdout: { write: (s) => (out += s), columns: 100 }, stderr: { write: () => true }, stdin: process.stdin, env, cwd: work };
  /**
   * Runs `agents ARGS` in this process as bin/agents.js would (the direct starts first), which must
   * end with `expected`; its output as JSON when asked for. The store is made by other processes, so
   * that the cache keeps only what the warming commands compile: V8 reads a whole cache at every start.
   */
  const agents = async (args, expected = 0, { input, setup = false } = {}) => {
    let code;
    if (setup) {
      const r = spawnSync(process.execPath, [join(root, 'bin/agents.js'), ...args], { cwd: work, env, encoding: 'utf8', input });
      code = r.status;
      out = r.stdout;
    } else {
      out = '';
      const run = { ...io, stdin: input === undefined ? process.stdin : Readable.from([input]) };
      code = hook
        ? await loaded.exports.hookMain(args, run)
        : ((await loaded.exports.directMain(args, run)) ?? (await loaded.exports.main(args, run)));
    }
    if (code !== expected) throw new Error(`agents ${args.join(' ')} ended with ${code}, not ${expected}, while warming the code cache`);
    return args.includes('json') ? JSON.parse(out) : out;
  };
  const setup = { setup: true };
  await agents(['--help'], 0, setup);
  await agents(['init'], 0, setup);
  await agents(['project', 'add', 'myapp'], 0, setup);
  await agents(['invariant', 'add', '--global', 'Never delete production data'], 0, setup);
  await agents(['invariant', 'add', '--project', 'myapp', 'Keep the public API backwards compatible'], 0, setup);
  await agents(['action', 'add', 'local/release'], 0, setup);
  await agents(['invariant', 'add', '--action', 'local/release', 'Run the tests before tagging'], 0, setup);
  if (!startsOnly) {
    // The everyday reads alone, on a store of plain invariants (guards bring in the pattern engine, which a store
    // without them never loads): a command not among them compiles what it adds when it first runs, which costs
    // less than reading, at every start, the code of every command (docs/adr/0303-code-cache-of-the-everyday-reads.md).
    if (inGit) git('add', '-A') && git('commit', '-q', '-m', 'store');
    await agents(['invariant', 'list']);
    await agents(['invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json']);
    await agents(['validate']);
  } else {
    const guard = ['--guard-write', 'secrets/**', '--guard-command', 'git push .*--force', '--guard-content', 'BEGIN PRIVATE KEY'];
    await agents(['invariant', 'add', '--global', 'Never leak a secret', ...guard], 0, setup);
    if (inGit) git('add', '-A') && git('commit', '-q', '-m', 'store');
    await agents(['plan', 'use', 'local/release', '--project', 'myapp'], 0, setup);
    if (hook) {
      // What runs at nearly every tool call: a call once the guard index is current (the first call after a change,
      // which builds it, is made by another process).
      const input = (tool_name, tool_input) =>
        JSON.stringify({ session_id: 's', cwd: work, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 't' });
      const hookArgs = ['guard', 'hook', '--client', 'claude'];
      const write = input('Write', { file_path: join(work, 'src/a.ts'), content: 'x' });
      await agents(hookArgs, 0, { ...setup, input: write });
      await agents(hookArgs, 0, { input: input('Bash', { command: 'ls' }) });
      await agents(hookArgs, 0, { input: write });
    } else if (inGit) {
      // What runs at nearly every commit: a commit that stages no store file (the hook has a bundle of its own).
      git('add', '-A') && git('commit', '-q', '-m', 'plan');
      await agents(['validate', '--staged']);
    }
  }
  // Commands bound the heap's growth through a V8 flag (src/cli/heap.ts); V8 takes a cache only under
  // the flags it was made with, so the default comes back first.
  setFlagsFromString('--heap-growing-percent=0');
  if (!writeCache(cacheFile, loaded.digest, loaded.script.createCachedData())) throw new Error(`could not write ${cacheFile}`);
  // Checked as bin/load-bundle.js will see it: a new process must take the cache.
  const check = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { loadBundle } from ${JSON.stringify(join(root, 'bin/load-bundle.js'))}; process.stdout.write(String(loadBundle(${JSON.stringify(file)}, { cacheFile: ${JSON.stringify(cacheFile)} }).cacheTaken));`,
    ],
    { encoding: 'utf8' },
  );
  if (check.stdout !== 'true') throw new Error(`V8 does not take ${cacheFile} in a new process: ${check.stderr || check.stdout}`);
  // A run this warm-up started before the cache existed left a cache of its own (bin/load-bundle.js), in this
  // process's environment: gone, as the build's is the one to take.
  for (const d of [false, true]) rmSync(ownCacheFileOf(full, d), { force: true });
  rmSync(ownCacheFileOf(join(root, 'dist/hook.cjs'), false), { force: true });
} finally {
  rmSync(work, { recursive: true, force: true });
}
