// The start-up budgets of bench/run.mjs (docs/benchmarks.md), each a ratio to
// `node -e 0` measured interleaved in the same run, median of at least 10 runs:
//  - `agents --version` ≤ 1.3×;
//  - `validate --staged` with no store file staged (a pre-commit hook on a
//    commit that touches no store file) ≤ 1.5×;
//  - every other command on a copy of the example store ≤ 2× (the commands
//    that write run on a fresh copy each time, restored before each run,
//    untimed); `tui` needs a terminal and is not measured here;
//  - `agents mcp`: spawn to its answer to `initialize` ≤ 2×.
// Kept apart from run.mjs's other blocks; run.mjs passes its helpers in.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './store.mjs';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const INVARIANT = '01M8KJT9G0XNWEM589ZS7FV0VT';
const PROJECT_INVARIANT = '01M8KJXYP0GVPRF8KRRE9G8474';
const VIOLATION_TEXT = 'Skipped the coverage check';

/**
 * A git repository holding a copy of the example store (committed), with a
 * file outside the store staged: what a pre-commit hook sees on most commits.
 * Returns the repository, its store, and a function that restores the store.
 */
function exampleRepo(work, example) {
  const repo = join(work, 'startup-example');
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
  const store = join(repo, '.agents');
  cpSync(example, store, { recursive: true });
  writeFileSync(join(repo, 'src/index.ts'), 'export {};\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'store');
  writeFileSync(join(repo, 'src/index.ts'), 'export const x = 1;\n');
  git(repo, 'add', 'src/index.ts');
  const restore = () => {
    rmSync(store, { recursive: true, force: true });
    cpSync(example, store, { recursive: true });
  };
  return { repo, store, restore };
}

/** The block itself. `h` holds run.mjs's helpers: measure, row, unavailable, agents, NODE0, RUNS, work, example, measureInitialize. */
export async function startupRows(h) {
  const { measure, row, unavailable, agents, NODE0, work, example } = h;
  const runs = Math.max(10, h.RUNS * 2);
  const { repo, restore } = exampleRepo(work, example);
  const env = {
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
  /** A command run in the example repository (its store found upwards); `writes` restores the store before each run. */
  const cmd = (args, { expect = 0, writes = false } = {}) => ({
    argv: agents(...args),
    cwd: repo,
    env,
    expect,
    before: writes ? restore : undefined,
  });
  const commands = [
    ['--help', cmd(['--help'])],
    ['init (a store exists: exit 2)', cmd(['init'], { expect: 2 })],
    ['import --dry-run (no instruction file: exit 2)', cmd(['import', '--dry-run'], { expect: 2 })],
    ['invariant add --global TEXT', cmd(['invariant', 'add', '--global', 'Never push on Fridays'], { writes: true })],
    ['invariant list', cmd(['invariant', 'list'])],
    ['invariant list --effective --project myapp', cmd(['invariant', 'list', '--effective', '--project', 'myapp'])],
    ['invariant show ID', cmd(['invariant', 'show', INVARIANT.slice(0, 8)])],
    [
      'invariant edit ID --text TEXT',
      cmd(['invariant', 'edit', INVARIANT.slice(0, 8), '--text', 'Never delete any production data'], { writes: true }),
    ],
    ['invariant move ID --project myapp', cmd(['invariant', 'move', INVARIANT.slice(0, 8), '--project', 'myapp'], { writes: true })],
    ['invariant remove ID --yes', cmd(['invariant', 'remove', INVARIANT.slice(0, 8), '--yes'], { writes: true })],
    ['invariant diff (HEAD to the working tree)', cmd(['invariant', 'diff'])],
    [
      'invariant waive ID --project myapp',
      cmd(
        [
          'invariant',
          'waive',
          PROJECT_INVARIANT.slice(0, 8),
          '--project',
          'myapp',
          '--reason',
          'bench',
          '--owner',
          'bench',
          '--expires',
          '2099-01-01',
        ],
        { writes: true },
      ),
    ],
    ['invariant log ID', cmd(['invariant', 'log', INVARIANT.slice(0, 8)])],
    [
      'invariant violation add',
      cmd(
        ['invariant', 'violation', 'add', '--plan', PLAN.slice(0, 8), '--invariant', INVARIANT.slice(0, 8), '--details', VIOLATION_TEXT],
        {
          writes: true,
        },
      ),
    ],
    ['invariant violation list', cmd(['invariant', 'violation', 'list'])],
    ['export --check --target agents-md (not written: exit 1)', cmd(['export', '--check', '--target', 'agents-md'], { expect: 1 })],
    ['which src/index.ts', cmd(['which', 'src/index.ts'])],
    ['validate (the example store)', cmd(['validate'])],
    ['plan use local/code-coverage', cmd(['plan', 'use', 'local/code-coverage', '--project', 'myapp'], { writes: true })],
    ['plan list', cmd(['plan', 'list'])],
    ['plan show ID', cmd(['plan', 'show', PLAN.slice(0, 8)])],
    ['plan sync ID --yes', cmd(['plan', 'sync', PLAN.slice(0, 8), '--yes'])],
    ['plan decisions ID', cmd(['plan', 'decisions', PLAN.slice(0, 8)])],
    ['plan status ID (a failing gate: exit 1)', cmd(['plan', 'status', PLAN.slice(0, 8)], { expect: 1 })],
    ['action add NS/NAME', cmd(['action', 'add', 'local/bench'], { writes: true })],
    ['action list', cmd(['action', 'list'])],
    ['project add NAME', cmd(['project', 'add', 'bench'], { writes: true })],
    ['project list', cmd(['project', 'list'])],
    ['extends fetch (no sources: nothing to fetch)', cmd(['extends', 'fetch'])],
  ];
  const [n0, version, staged, ...rest] = measure(
    [NODE0, { argv: agents('--version') }, cmd(['validate', '--staged']), ...commands.map(([, c]) => c)],
    runs,
  );
  row('agents --version', '—', version, n0, 'node -e 0', { max: 1.3 });
  row('validate --staged (no store file staged)', 'example, git', staged, n0, 'node -e 0', { max: 1.5 });
  for (const [i, [name]] of commands.entries()) row(name, 'example, git', rest[i], n0, 'node -e 0', { max: 2 });
  restore();
  // The MCP server: spawn to its answer to `initialize` (a client's handshake), interleaved with node -e 0.
  try {
    const m = await h.measureInitialize(example, runs);
    row('mcp: spawn → initialize answer', 'example', { ms: m.initialize }, { ms: m.node0 }, 'node -e 0', { max: 2 });
  } catch (error) {
    unavailable('mcp: spawn → initialize answer', 'example', '≤ 2×', String(error.message).slice(0, 200));
  }
}
