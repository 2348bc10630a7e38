import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

const LIST = ['--store', join(REPO, '.agents.example'), 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'];

/** A copy of the installed package: bin/, package.json and the bundle with its cache. */
function packageCopy(): { dir: string; bundle: string; cache: string } {
  const dir = tempDir();
  cpSync(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'scripts'));
  for (const f of ['agents.cjs', 'agents.cjs.cache']) cpSync(join(REPO, 'dist', f), join(dir, 'dist', f));
  return { dir, bundle: join(dir, 'dist/agents.cjs'), cache: join(dir, 'dist/agents.cjs.cache') };
}

function run(bin: string, args: readonly string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
    timeout: 30_000,
  });
}

/** Whether a new process's V8 takes the bundle's cache (bin/load-bundle.js's own answer). */
function cacheTaken(bundle: string, cache = `${bundle}.cache`): boolean {
  const loader = join(REPO, 'bin/load-bundle.js');
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { loadBundle } from ${JSON.stringify(loader)}; process.stdout.write(String(loadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}).cacheTaken));`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  expect(r.stderr).toBe('');
  return r.stdout === 'true';
}

/** The digest in the bundle's first line, which its cache file must repeat. */
function digestOf(bundle: string): string {
  const m = /^\/\/ agents-invariants build ([0-9a-f]{16})\n/.exec(readFileSync(bundle, 'latin1'));
  expect(m).not.toBeNull();
  return m![1]!;
}

describe('the CLI bundle and its code cache', () => {
  const expected = run(join(REPO, 'bin/agents.js'), LIST);

  it('the build leaves two caches (every command; the direct starts) that V8 takes in a new process, made for the bundle beside them', () => {
    const bundle = join(REPO, 'dist/agents.cjs');
    expect(expected.status).toBe(0);
    for (const cache of [`${bundle}.cache`, `${bundle}.direct.cache`]) {
      expect(readFileSync(cache, 'latin1').startsWith(`${digestOf(bundle)}\n`)).toBe(true);
      expect(cacheTaken(bundle, cache)).toBe(true);
    }
  });

  it('a direct start (agents validate --staged) makes and then takes the cache of the direct starts, and leaves the other', () => {
    const p = packageCopy();
    const repo = tempDir();
    spawnSync('git', ['init', '-q'], { cwd: repo });
    cpSync(join(REPO, '.agents.example'), join(repo, '.agents'), { recursive: true });
    const before = readFileSync(p.cache);
    const r = spawnSync(process.execPath, [join(p.dir, 'bin/agents.js'), 'validate', '--staged'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    const direct = join(p.dir, 'dist/agents.cjs.direct.cache');
    expect(cacheTaken(p.bundle, direct)).toBe(true);
    expect(readFileSync(p.cache)).toEqual(before);
  });

  it('a cache made for another build is not taken: the command answers the same, and the cache is made again', () => {
    const p = packageCopy();
    const data = readFileSync(p.cache);
    writeFileSync(p.cache, Buffer.concat([Buffer.from('0123456789abcdef\n'), data.subarray(17)]));
    expect(cacheTaken(p.bundle)).toBe(false);
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(readFileSync(p.cache, 'latin1').startsWith(`${digestOf(p.bundle)}\n`)).toBe(true);
    expect(cacheTaken(p.bundle)).toBe(true);
  });

  it('a cache V8 refuses (its header right, its data damaged) changes no answer and is made again', () => {
    const p = packageCopy();
    const data = readFileSync(p.cache);
    writeFileSync(p.cache, Buffer.concat([data.subarray(0, 17), Buffer.alloc(4096, 7)]));
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(cacheTaken(p.bundle)).toBe(true);
  });

  it('a cache that cannot be written (a folder in its place) fails nothing, and no temporary file is left', () => {
    const p = packageCopy();
    spawnSync('rm', ['-f', p.cache]);
    mkdirSync(join(p.cache, 'in-the-way'), { recursive: true });
    const r = run(join(p.dir, 'bin/agents.js'), LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(
      spawnSync('ls', [join(p.dir, 'dist')], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .sort(),
    ).toEqual(['agents.cjs', 'agents.cjs.cache']);
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
    const r = spawnSync(process.execPath, [join(p.dir, 'scripts/code-cache.mjs'), '--direct'], {
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
});
