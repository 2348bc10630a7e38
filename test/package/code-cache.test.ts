import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

const LIST = ['--store', join(REPO, '.agents.example'), 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'];

/** A copy of the installed package: bin/, package.json and the bundles (the full one, the guard hook's) with their caches. */
function packageCopy(): { dir: string; bundle: string; cache: string } {
  const dir = tempDir();
  cpSync(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'scripts'));
  for (const f of ['agents.cjs', 'agents.cjs.cache', 'hook.cjs', 'hook.cjs.cache', 'commit-hook.cjs', 'commit-hook.cjs.cache'])
    cpSync(join(REPO, 'dist', f), join(dir, 'dist', f));
  return { dir, bundle: join(dir, 'dist/agents.cjs'), cache: join(dir, 'dist/agents.cjs.cache') };
}

function run(bin: string, args: readonly string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
    timeout: 30_000,
  });
}

/**
 * Runs `node FILE.mjs` with `body` after bin/load-bundle.js's exports are imported: as a file, so that
 * the process has the Node options bin/agents.js runs with (a cache is per version and options).
 */
function withLoader(body: string, nodeArgs: readonly string[] = []): string {
  const file = join(tempDir(), 'probe.mjs');
  writeFileSync(file, `import * as loader from ${JSON.stringify(join(REPO, 'bin/load-bundle.js'))};\n${body}\n`);
  const r = spawnSync(process.execPath, [...nodeArgs, file], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  return r.stdout;
}

/** Whether a new process's V8 takes the cache `cache` of the bundle. */
function cacheTaken(bundle: string, cache: string): boolean {
  return (
    withLoader(
      `process.stdout.write(String(loader.loadBundle(${JSON.stringify(bundle)}, { cacheFile: ${JSON.stringify(cache)} }).cacheTaken));`,
    ) === 'true'
  );
}

/** The cache a run of bin/agents.js under `nodeArgs` makes for itself when V8 refuses the build's. */
function ownCache(bundle: string, direct = false, nodeArgs: readonly string[] = []): string {
  return withLoader(`process.stdout.write(loader.ownCacheFileOf(${JSON.stringify(bundle)}, ${direct}));`, nodeArgs);
}

/** The digest in the bundle's first line, which its cache file must repeat. */
function digestOf(bundle: string): string {
  const m = /^\/\/ agents-invariants build ([0-9a-f]{16})\n/.exec(readFileSync(bundle, 'latin1'));
  expect(m).not.toBeNull();
  return m![1]!;
}

describe('the CLI bundle and its code cache', () => {
  const expected = run(join(REPO, 'bin/agents.js'), LIST);

  it("the build leaves four caches (every command; the direct starts; the guard hook's and the commit hook's bundles) that V8 takes in a new process, made for the bundle beside them", () => {
    const bundle = join(REPO, 'dist/agents.cjs');
    const hook = join(REPO, 'dist/hook.cjs');
    const commitHook = join(REPO, 'dist/commit-hook.cjs');
    expect(expected.status).toBe(0);
    for (const [file, cache] of [
      [bundle, `${bundle}.cache`],
      [bundle, `${bundle}.direct.cache`],
      [hook, `${hook}.cache`],
      [commitHook, `${commitHook}.cache`],
    ] as const) {
      expect(readFileSync(cache, 'latin1').startsWith(`${digestOf(file)} `)).toBe(true);
      expect(cacheTaken(file, cache)).toBe(true);
    }
  });

  it("a direct start (agents validate --staged with store files staged) without the build's cache of the direct starts makes its own, and leaves the other", () => {
    const p = packageCopy();
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    // Staged files are checked by the full bundle, which the commit hook's bundle loads with the direct starts' cache.
    spawnSync('git', ['add', '.agents'], { cwd: repo });
    const before = readFileSync(p.cache);
    const r = spawnSync(process.execPath, [join(p.dir, 'bin/agents.js'), 'validate', '--staged'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    expect(cacheTaken(p.bundle, ownCache(p.bundle, true))).toBe(true);
    expect(readFileSync(p.cache).equals(before)).toBe(true);
  });

  it("a run under other Node options (V8 refuses the build's cache) makes its own, which the next such run takes; the build's stays", () => {
    const p = packageCopy();
    const before = readFileSync(p.cache);
    const options = ['--max-old-space-size=200'];
    const under = () =>
      spawnSync(process.execPath, [...options, join(p.dir, 'bin/agents.js'), ...LIST], { encoding: 'utf8', timeout: 30_000 });
    const first = under();
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(expected.stdout);
    const own = ownCache(p.bundle, false, options);
    expect(own).not.toBe(p.cache);
    expect(existsSync(own)).toBe(true);
    expect(readFileSync(p.cache).equals(before)).toBe(true);
    expect(withLoader(`process.stdout.write(String(loader.loadBundle(${JSON.stringify(p.bundle)}).cacheTaken));`, options)).toBe('true');
    // Without the options, the build's cache is still the one taken.
    expect(
      withLoader(
        `const l = loader.loadBundle(${JSON.stringify(p.bundle)}); process.stdout.write(String(l.cacheTaken && l.cacheFile === ${JSON.stringify(p.cache)}));`,
      ),
    ).toBe('true');
    expect(under().stdout).toBe(expected.stdout);
  });

  it('a cache made for another build is not taken: the command answers the same, and makes its own beside it', () => {
    const p = packageCopy();
    const data = readFileSync(p.cache);
    const head = data.indexOf(10) + 1;
    writeFileSync(p.cache, Buffer.concat([Buffer.from(`0123456789abcdef ${data.toString('latin1', 17, head)}`), data.subarray(head)]));
    expect(cacheTaken(p.bundle, p.cache)).toBe(false);
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    const own = ownCache(p.bundle);
    expect(readFileSync(own, 'latin1').startsWith(`${digestOf(p.bundle)} `)).toBe(true);
    expect(cacheTaken(p.bundle, own)).toBe(true);
  });

  it('a cache V8 refuses (its header right, its data damaged) changes no answer, and a good one is made beside it', () => {
    const p = packageCopy();
    const data = readFileSync(p.cache);
    writeFileSync(p.cache, Buffer.concat([data.subarray(0, data.indexOf(10) + 1), Buffer.alloc(4096, 7)]));
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(cacheTaken(p.bundle, ownCache(p.bundle))).toBe(true);
  });

  it('a FIFO in place of the cache is not read (nothing waits for a writer): the command answers the same', () => {
    const p = packageCopy();
    spawnSync('rm', ['-f', p.cache]);
    expect(spawnSync('mkfifo', [p.cache]).status).toBe(0);
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
  });

  it('a cache that cannot be written (a folder in its place) fails nothing, and no temporary file is left', () => {
    const p = packageCopy();
    spawnSync('rm', ['-f', p.cache]);
    const own = ownCache(p.bundle);
    mkdirSync(join(own, 'in-the-way'), { recursive: true });
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(readdirSync(join(p.dir, 'dist')).sort()).toEqual(
      ['agents.cjs', 'hook.cjs', 'hook.cjs.cache', 'commit-hook.cjs', 'commit-hook.cjs.cache', own.slice(own.lastIndexOf('/') + 1)].sort(),
    );
  });

  it("writing a cache removes the temporaries of the package's caches that a killed run left over a minute ago, and no newer one", () => {
    const loader = createRequire(import.meta.url)(join(REPO, 'bin/load-bundle.js')) as {
      writeCache: (target: string, digest: string, data: Buffer) => boolean;
    };
    const dist = tempDir();
    const stale = join(dist, 'hook.cjs.k2x9.cache.4242.tmp');
    const fresh = join(dist, 'agents.cjs.k2x9.cache.4243.tmp');
    for (const f of [stale, fresh, join(dist, 'notes.4242.tmp')]) writeFileSync(f, 'x');
    const old = new Date(Date.now() - 120_000);
    utimesSync(stale, old, old);
    utimesSync(join(dist, 'notes.4242.tmp'), old, old);
    expect(loader.writeCache(join(dist, 'agents.cjs.k2x9.cache'), '0123456789abcdef', Buffer.from('data'))).toBe(true);
    expect(readdirSync(dist).sort()).toEqual(['agents.cjs.k2x9.cache', 'agents.cjs.k2x9.cache.4243.tmp', 'notes.4242.tmp']);
  });

  it("warming the caches (part of the build) leaves the caller's repository and store alone, whatever GIT_* and AGENTS_* say", () => {
    const p = packageCopy();
    cpSync(join(REPO, 'scripts/code-cache.mjs'), join(p.dir, 'scripts/code-cache.mjs'));
    const caller = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: caller });
    cpSync(join(REPO, '.agents.example'), join(caller, '.agents'), { recursive: true });
    const listing = () =>
      spawnSync('sh', ['-c', 'find . -path ./.git/objects -prune -o -print | sort; git status --porcelain'], {
        cwd: caller,
        encoding: 'utf8',
      }).stdout;
    const before = listing();
    const r = spawnSync(process.execPath, [join(p.dir, 'scripts/code-cache.mjs')], {
      cwd: caller,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        GIT_DIR: join(caller, '.git'),
        GIT_INDEX_FILE: join(caller, '.git/index'),
        GIT_WORK_TREE: caller,
        AGENTS_STORE: join(caller, '.agents'),
      },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(listing()).toBe(before);
    expect(cacheTaken(p.bundle, join(p.dir, 'dist/agents.cjs.cache'))).toBe(true);
    expect(cacheTaken(p.bundle, join(p.dir, 'dist/agents.cjs.direct.cache'))).toBe(true);
  });

  it('a package without its bundle says how to build it (exit 70), without a trace', () => {
    const p = packageCopy();
    spawnSync('rm', ['-rf', join(p.dir, 'dist')]);
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(70);
    expect(r.stderr).toContain('npm run build');
    expect(r.stderr).not.toContain('    at ');
    expect(existsSync(join(p.dir, 'dist'))).toBe(false);
  });

  it('a reader that has gone (`agents … | head`) ends the command as SIGPIPE would (exit 141), without a trace', async () => {
    // The pipe's reading end is closed before the CLI has started, so its first write fails.
    const child = spawn(process.execPath, [join(REPO, 'bin/agents.js'), ...LIST], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(141);
    expect(stderr).toBe('');
  });

  it('a reader of stderr that has gone (`agents … 2>&1 | head`) ends the command with 141 too, not 1, a failed check', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin/agents.js'), 'no-such-command'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(141);
  });

  it.skipIf(!existsSync('/dev/full'))(
    'an output that cannot be written (a full disk) is exit 2 and one line saying so, without a trace',
    () => {
      // `agents validate --format sarif > agents.sarif` in CI on a full disk: /dev/full refuses every write with ENOSPC.
      const out = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [join(REPO, 'bin/agents.js'), ...LIST], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/^error: cannot write the output: ENOSPC/);
        expect(r.stderr).not.toContain('    at ');
        // `--version` alone is answered by the shim, before the bundle: the same line and exit code.
        const v = spawnSync(process.execPath, [join(REPO, 'bin/agents.js'), '--version'], {
          stdio: ['ignore', out, 'pipe'],
          encoding: 'utf8',
        });
        expect(v.status).toBe(2);
        expect(v.stderr).toMatch(/^error: cannot write the output: ENOSPC/);
      } finally {
        closeSync(out);
      }
    },
  );
});
