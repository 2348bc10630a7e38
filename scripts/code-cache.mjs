// Writes V8's compiled code for the command line's bundles, beside them:
// dist/agents.cjs.cache (the everyday reads), dist/agents.cjs.direct.cache
// (the direct starts) and dist/hook.cjs.cache (the guard hook's own bundle)
// (docs/adr/0302-cli-bundle-with-code-cache.md,
// docs/adr/0303-code-cache-of-the-everyday-reads.md,
// docs/adr/0508-the-guard-hook-bundle.md). Run by scripts/build.mjs.
//
// The stores the commands run on are made once, by other processes, and copied
// for each cache; each cache is then made in a process of its own
// (`--warm KIND DIR`), which runs its commands in process: a script compiled
// once in a process keeps what any run compiled, so two caches cannot share one.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { cacheFileOf, loadBundle, ownCacheFileOf, writeCache } from '../bin/load-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const full = join(root, 'dist/agents.cjs');
const BIN = join(root, 'bin/agents.js');

// Nothing of the caller's may point the commands elsewhere: a build inside a git hook has GIT_DIR and
// GIT_INDEX_FILE set, and AGENTS_STORE would name the caller's store.
for (const k of Object.keys(process.env)) if (/^(GIT_|AGENTS_)/.test(k)) delete process.env[k];

/** The environment of the commands run in `dir`. */
const envIn = (dir) => ({
  ...process.env,
  // They open no TLS connection: Node need not parse a certificate bundle at each start.
  NODE_EXTRA_CA_CERTS: '',
  HOME: dir,
  GIT_CONFIG_NOSYSTEM: '1',
  NO_COLOR: '1',
  CI: 'true',
  GIT_AUTHOR_NAME: 'build',
  GIT_AUTHOR_EMAIL: 'build@example.com',
  GIT_COMMITTER_NAME: 'build',
  GIT_COMMITTER_EMAIL: 'build@example.com',
});
/** This process's own (the caller's, less what points elsewhere), for the processes that make and check the caches. */
const CHILD_ENV = { ...process.env, NODE_EXTRA_CA_CERTS: '' };
const git = (dir, ...args) => spawnSync('git', args, { cwd: dir, env: envIn(dir), stdio: 'ignore' }).status === 0;

/** A hook input of a Claude Code tool call in `dir`: by default, a write the guards allow. */
const hookInput = (dir, tool_name = 'Write', tool_input = { file_path: join(dir, 'src/a.ts'), content: 'x' }) =>
  JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 't' });
const HOOK_ARGS = ['guard', 'hook', '--client', 'claude'];

const warm = process.argv.indexOf('--warm');
if (warm < 0) makeAll();
else await warmOne(process.argv[warm + 1], process.argv[warm + 2]);

/** Makes the stores, then each cache in a process of its own. */
function makeAll() {
  const made = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'agents-code-cache-'));
    made.push(d);
    return d;
  };
  try {
    const run = (cwd, args, input) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: envIn(cwd), encoding: 'utf8', input });
      if (r.status !== 0) throw new Error(`agents ${args.join(' ')} ended with ${r.status} while making the code caches: ${r.stderr}`);
    };
    const copy = (from) => {
      const to = dir();
      cpSync(from, to, { recursive: true });
      return to;
    };
    const base = dir();
    const inGit = git(base, 'init', '-q');
    run(base, ['init']);
    run(base, ['project', 'add', 'myapp']);
    run(base, ['invariant', 'add', '--global', 'Never delete production data']);
    run(base, ['invariant', 'add', '--project', 'myapp', 'Keep the public API backwards compatible']);
    run(base, ['action', 'add', 'local/release']);
    run(base, ['invariant', 'add', '--action', 'local/release', 'Run the tests before tagging']);
    if (inGit) git(base, 'add', '-A') && git(base, 'commit', '-q', '-m', 'store');
    // The everyday reads, on a store of plain invariants: a guard brings in the pattern engine, which a store
    // without guards never loads.
    const reads = copy(base);
    const guard = ['--guard-write', 'secrets/**', '--guard-command', 'git push .*--force', '--guard-content', 'BEGIN PRIVATE KEY'];
    run(base, ['invariant', 'add', '--global', 'Never leak a secret', ...guard]);
    if (inGit) git(base, 'add', '-A') && git(base, 'commit', '-q', '-m', 'store');
    run(base, ['plan', 'use', 'local/release', '--project', 'myapp']);
    // The guard hook's usual call finds its index current: the first call, which builds it, is made here.
    const hook = copy(base);
    run(hook, HOOK_ARGS, hookInput(hook));
    // The direct starts' usual case: a commit that stages no store file.
    if (inGit) git(base, 'add', '-A') && git(base, 'commit', '-q', '-m', 'plan');
    for (const [kind, cwd] of [
      ['reads', reads],
      ['direct', inGit ? base : ''],
      ['hook', hook],
      ['commit-hook', inGit ? base : ''],
    ]) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--warm', kind, cwd], { stdio: 'inherit', env: CHILD_ENV });
      if (r.status !== 0) throw new Error(`making the ${kind} code cache failed (${r.status ?? r.signal})`);
    }
    // The commands above ran before the caches existed and left caches of their own (bin/load-bundle.js), in this
    // environment: gone, as the build's are the ones to take.
    for (const d of [false, true]) rmSync(ownCacheFileOf(full, d), { force: true });
    for (const name of ['hook.cjs', 'commit-hook.cjs']) rmSync(ownCacheFileOf(join(root, 'dist', name), false), { force: true });
  } finally {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * Makes one cache: the bundle loaded afresh in this process, the commands of `kind` run in it in `cwd` as
 * bin/agents.js would run them (the direct starts first), the compiled code written, and a new process
 * made to take it.
 */
async function warmOne(kind, cwd) {
  // The hooks have bundles of their own: the guard hook's and the commit hook's (`validate --staged`).
  const hook = kind === 'hook' || kind === 'commit-hook';
  const file = hook ? join(root, `dist/${kind}.cjs`) : full;
  const cacheFile = cacheFileOf(file, kind === 'direct');
  // Made afresh: a cache V8 took would bring back everything it holds.
  rmSync(cacheFile, { force: true });
  const loaded = loadBundle(file, { cacheFile });
  const env = envIn(cwd);
  const io = { stdout: { write: () => true, columns: 100 }, stderr: { write: () => true }, stdin: process.stdin, env, cwd };
  const agents = async (args, input) => {
    const run = { ...io, stdin: input === undefined ? process.stdin : Readable.from([input]) };
    const code = hook
      ? await loaded.exports.hookMain(args, run)
      : ((await loaded.exports.directMain(args, run)) ?? (await loaded.exports.main(args, run)));
    if (code !== 0) throw new Error(`agents ${args.join(' ')} ended with ${code} while warming the code cache`);
  };
  if (kind === 'reads') {
    // The everyday reads alone: a command not among them compiles what it adds when it first runs, which costs
    // less than reading, at every start, the code of every command (docs/adr/0303-code-cache-of-the-everyday-reads.md).
    await agents(['invariant', 'list']);
    await agents(['invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json']);
    await agents(['validate']);
  } else if (kind === 'direct') {
    // What runs at nearly every commit (outside git, nothing: the top level alone).
    if (cwd !== '') await agents(['validate', '--staged']);
  } else if (kind === 'commit-hook') {
    // A commit that stages no store file (outside git, nothing: the top level alone).
    if (cwd !== '') await agents(['validate', '--staged']);
  } else if (hook) {
    // What runs at nearly every tool call.
    await agents(HOOK_ARGS, hookInput(cwd, 'Bash', { command: 'ls' }));
    await agents(HOOK_ARGS, hookInput(cwd));
  } else throw new Error(`unknown code cache ${kind}`);
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
    { encoding: 'utf8', env: CHILD_ENV },
  );
  if (check.stdout !== 'true') throw new Error(`V8 does not take ${cacheFile} in a new process: ${check.stderr || check.stdout}`);
}
