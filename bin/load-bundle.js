// Loads dist/agents.cjs, the CLI's CommonJS bundle, with the code V8 compiled
// for it on an earlier run (docs/adr/0302-cli-bundle-with-code-cache.md).
// Node 20 keeps no compiled code between runs, and V8 takes it back only for
// a script, not an ES module: hence one CommonJS bundle, compiled here.
// CommonJS itself (bin/package.json), like bin/agents.js: a command run
// never starts Node's ES module loader.
'use strict';
const { accessSync, constants, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

/**
 * Whether `agents ARGS` may be one of the forms `directMain` starts without
 * the argument parser: `mcp`, `guard hook` or `validate --staged`, past the
 * options before the command (`agents --store DIR mcp`, as client
 * configurations write it). `directMain` hands any other form of them back
 * to `main`. They also have a code cache of their own.
 */
function startsDirectly(args) {
  const words = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const a = args[i];
    if (a === '--store') i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  if (words[0] === 'mcp') return true;
  if (words[0] === 'guard') return words[1] === 'hook';
  return words[0] === 'validate' && args.includes('--staged');
}

/**
 * The bundle of its own that `agents ARGS` may be started from, if any:
 * `hook.cjs` for `guard hook`, which an agent's client starts before every
 * tool call (docs/adr/0508-the-guard-hook-bundle.md), `commit-hook.cjs` for
 * `validate --staged`, the commit hook (docs/adr/0512-the-commit-hook-bundle.md).
 * Either hands back a form it does not take.
 */
function startsAsHook(args) {
  const words = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--store');
  if (words[0] === 'guard' && words[1] === 'hook') return 'hook.cjs';
  return words[0] === 'validate' && args.includes('--staged') ? 'commit-hook.cjs' : undefined;
}

/** The first line of the bundle: a digest of its text, which its cache file repeats. */
const HEADER = /^\/\/ agents-invariants build ([0-9a-f]{16})\n/;

/**
 * A cache file of the bundle, as the build makes it: a line of the header's
 * digest and the environment it was made in (`environmentKey`), then V8's
 * data. The direct starts (one of them runs at every agent tool call and
 * every commit) have a cache of their own: V8 reads a whole cache, and
 * theirs is a third of the size of the one for every other command.
 */
function cacheFileOf(file, direct) {
  return direct ? `${file}.direct.cache` : `${file}.cache`;
}

/**
 * This Node version and set of Node options, as a short key: V8 takes a
 * cache only under the version and flags it was made with.
 */
function environmentKey() {
  const environment = `${process.version}\0${process.arch}\0${process.execArgv.join('\0')}\0${process.env.NODE_OPTIONS ?? ''}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < environment.length; i++) h = Math.imul(h ^ environment.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/**
 * The cache a run makes for itself when there is no cache made in its
 * environment: one for each environment, so that a run under other flags
 * (`--cpu-prof`, NODE_OPTIONS) never replaces the build's.
 */
function ownCacheFileOf(file, direct, key = environmentKey()) {
  return `${cacheFileOf(file, direct).slice(0, -'.cache'.length)}.${key}.cache`;
}

/** The environment key and V8's data of a cache file, if it was made for this very text. */
function readCache(cacheFile, digest) {
  if (digest === undefined) return undefined;
  let data;
  try {
    // Only a regular file: reading a FIFO put in its place would wait for a writer forever.
    if (!statSync(cacheFile, { throwIfNoEntry: false })?.isFile()) return undefined;
    data = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const end = data.indexOf(10);
  const [made, key] = data.toString('latin1', 0, Math.max(end, 0)).split(' ');
  return end > 0 && made === digest && key ? { key, data: data.subarray(end + 1) } : undefined;
}

/** A temporary of a cache being written (`writeCache`): the cache's name, the writer's pid, `.tmp`. */
const CACHE_TEMPORARY = /\.cache\.\d+\.tmp$/;

/**
 * Removes the temporaries of caches beside `target` that a run killed while writing one left: nothing else removes
 * them. A writer takes milliseconds, so one older than a minute is no run's at work, whatever its pid now names.
 */
function removeStaleTemporaries(target) {
  const folder = dirname(target);
  let names;
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!CACHE_TEMPORARY.test(name)) continue;
    const path = join(folder, name);
    try {
      const stat = lstatSync(path);
      if (stat.isFile() && now - stat.mtimeMs > 60_000) rmSync(path, { force: true });
    } catch {
      // Gone already, or not ours to remove: the cache is written all the same.
    }
  }
}

/**
 * Writes the cache whole or not at all (a temporary file renamed over it); a folder we may not write is left alone.
 * Only a run without a cache it can take writes one: the run after one killed while writing clears its temporary.
 */
function writeCache(target, digest, data) {
  removeStaleTemporaries(target);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${digest} ${environmentKey()}\n`, 'latin1'), data]), { flag: 'wx' });
    renameSync(temporary, target);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}

/**
 * Evaluates the bundle as Node evaluates a CommonJS module, and returns its
 * exports with `script` (to make a cache of) and whether V8 took the cache.
 * The bundle imports the terminal UI's ES modules through `__agentsImportEsm`,
 * because a script compiled here may not call `import()` itself.
 */
function loadBundle(file, { direct = false, cacheFile } = {}) {
  const source = readFileSync(file, 'latin1');
  const digest = HEADER.exec(source)?.[1];
  // The build's cache when it was made in this environment; else this environment's own, once an
  // earlier run made it; else the build's, for V8 to judge.
  const key = environmentKey();
  const own = ownCacheFileOf(file, direct, key);
  let chosen = cacheFile ?? cacheFileOf(file, direct);
  let cache = readCache(chosen, digest);
  if (cacheFile === undefined && cache?.key !== key) {
    const mine = readCache(own, digest);
    if (mine) [chosen, cache] = [own, mine];
  }
  const cachedData = cache?.data;
  // The bundle is one function expression (scripts/build.mjs wraps it).
  const script = new Script(source, { filename: file, cachedData });
  const url = pathToFileURL(file);
  const module = { exports: {} };
  let full;
  script.runInThisContext().call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    (specifier) => import(new URL(specifier, url).href),
    // The guard hook's bundle takes what it does not hold from the full bundle beside it, loaded on first use.
    (key) => {
      if (full === undefined) {
        full = loadBundle(join(dirname(file), 'agents.cjs'), { direct: true });
        refreshCache(full);
      }
      const load = full.exports.fullModules?.[key];
      if (load === undefined) throw new Error(`dist/agents.cjs does not hold ${key}: build the package again (npm run build)`);
      return load();
    },
  );
  const cacheTaken = cachedData !== undefined && !script.cachedDataRejected;
  return { exports: module.exports, script, digest, cacheFile: chosen, ownCacheFile: cacheFile ?? own, cacheTaken };
}

/**
 * When V8 did not take a cache (none yet, another Node version, other V8
 * flags), makes this process's own of what is compiled so far, for the next
 * run under the same version and options, if the package's folder may be
 * written. The build's cache is never replaced.
 */
function refreshCache(loaded) {
  if (loaded.cacheTaken || loaded.digest === undefined) return;
  try {
    accessSync(dirname(loaded.ownCacheFile), constants.W_OK);
  } catch {
    return;
  }
  writeCache(loaded.ownCacheFile, loaded.digest, loaded.script.createCachedData());
}

exports.startsDirectly = startsDirectly;
exports.startsAsHook = startsAsHook;
exports.cacheFileOf = cacheFileOf;
exports.environmentKey = environmentKey;
exports.ownCacheFileOf = ownCacheFileOf;
exports.writeCache = writeCache;
exports.loadBundle = loadBundle;
exports.refreshCache = refreshCache;
