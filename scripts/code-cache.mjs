// Writes dist/agents.cjs.cache: V8's compiled code for the CLI's bundle, made
// by running everyday commands in this process on a store it makes
// (docs/adr/0302-cli-bundle-with-code-cache.md). Run by scripts/build.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { loadBundle, writeCache } from '../bin/load-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = join(root, 'dist/agents.cjs');
const work = mkdtempSync(join(tmpdir(), 'agents-code-cache-'));
try {
  const env = {
    ...process.env,
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
  rmSync(`${file}.cache`, { force: true });
  const loaded = loadBundle(file);
  let out = '';
  const io = { stdout: { write: (s) => (out += s), columns: 100 }, stderr: { write: () => true }, stdin: process.stdin, env, cwd: work };
  /**
   * Runs `agents ARGS` in this process as bin/agents.js would (the direct starts first), which must
   * end with `expected`; its output as JSON when asked for.
   */
  const agents = async (args, expected = 0, stdin = process.stdin) => {
    out = '';
    const run = { ...io, stdin };
    const code = (await loaded.exports.directMain(args, run)) ?? (await loaded.exports.main(args, run));
    if (code !== expected) throw new Error(`agents ${args.join(' ')} ended with ${code}, not ${expected}, while warming the code cache`);
    return args.includes('json') ? JSON.parse(out) : out;
  };
  await agents(['--help']);
  await agents(['init']);
  await agents(['project', 'add', 'myapp']);
  const { id } = await agents(['invariant', 'add', '--global', 'Never delete production data', '--format', 'json']);
  await agents(['invariant', 'add', '--project', 'myapp', 'Keep the public API backwards compatible']);
  await agents(['action', 'add', 'local/release']);
  await agents(['invariant', 'add', '--action', 'local/release', 'Run the tests before tagging']);
  if (inGit) git('add', '-A') && git('commit', '-q', '-m', 'store');
  const plan = (await agents(['plan', 'use', 'local/release', '--project', 'myapp', '--format', 'json'])).plan.id;
  await agents(['invariant', 'list']);
  await agents(['invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json']);
  await agents(['invariant', 'show', id]);
  await agents(['invariant', 'edit', id, '--text', 'Never delete any production data']);
  await agents(['invariant', 'violation', 'add', '--plan', plan, '--invariant', id, '--details', 'A table was dropped']);
  await agents(['invariant', 'violation', 'list']);
  await agents(['plan', 'list']);
  await agents(['plan', 'show', plan]);
  await agents(['plan', 'status', plan], 1);
  await agents(['action', 'list']);
  await agents(['project', 'list']);
  await agents(['which', 'src/index.ts'], 1);
  await agents(['export', '--check', '--target', 'agents-md'], 1);
  await agents(['validate']);
  if (inGit) {
    await agents(['invariant', 'diff']);
    await agents(['invariant', 'log', id]);
    git('add', '-A');
    await agents(['validate', '--staged']);
  }
  const toolCall = {
    session_id: 's',
    cwd: work,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 't',
  };
  await agents(['guard', 'hook', '--client', 'claude'], 0, Readable.from([JSON.stringify(toolCall)]));
  // Commands bound the heap's growth through a V8 flag (src/cli/heap.ts); V8 takes a cache only under
  // the flags it was made with, so the default comes back first.
  setFlagsFromString('--heap-growing-percent=0');
  if (!writeCache(file, loaded.digest, loaded.script.createCachedData())) throw new Error(`could not write ${file}.cache`);
  // Checked as bin/load-bundle.js will see it: a new process must take the cache.
  const check = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { loadBundle } from ${JSON.stringify(join(root, 'bin/load-bundle.js'))}; process.stdout.write(String(loadBundle(${JSON.stringify(file)}).cacheTaken));`,
    ],
    { encoding: 'utf8' },
  );
  if (check.stdout !== 'true') throw new Error(`V8 does not take dist/agents.cjs.cache in a new process: ${check.stderr || check.stdout}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
