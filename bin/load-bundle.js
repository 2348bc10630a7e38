// Loads dist/agents.cjs, the CLI's CommonJS bundle, with the code V8 compiled
// for it on an earlier run (docs/adr/0302-cli-bundle-with-code-cache.md).
// Node 20 keeps no compiled code between runs, and V8 takes it back only for
// a script, not an ES module: hence one CommonJS bundle, compiled here.
import { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/**
 * Whether `agents ARGS` is one of the forms `directMain` starts without the
 * argument parser: the first command word, past the options before it
 * (`agents --store DIR mcp`, as client configurations write it), is one of
 * its commands. `directMain` hands any other form of them back to `main`.
 */
export function startsDirectly(args) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--store') i++;
    else if (!a.startsWith('-')) return a === 'mcp' || a === 'validate' || a === 'guard';
  }
  return false;
}

/** The first line of the bundle: a digest of its text, which its cache file repeats. */
const HEADER = /^\/\/ agents-invariants build ([0-9a-f]{16})\n/;

/**
 * A cache file of the bundle: the header's digest and a newline, then V8's
 * data. The direct starts (one of them runs at every agent tool call and
 * every commit) have a cache of their own: V8 reads a whole cache, and
 * theirs is a third of the size of the one for every other command.
 */
export function cacheFileOf(file, direct) {
  return direct ? `${file}.direct.cache` : `${file}.cache`;
}

/** V8's data for the bundle, if the cache file was made for this very text. */
function readCache(cacheFile, digest) {
  if (digest === undefined) return undefined;
  let data;
  try {
    data = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const head = `${digest}\n`;
  return data.toString('latin1', 0, head.length) === head ? data.subarray(head.length) : undefined;
}

/** Writes the cache whole or not at all (a temporary file renamed over it); a folder we may not write is left alone. */
export function writeCache(target, digest, data) {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${digest}\n`, 'latin1'), data]), { flag: 'wx' });
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
export function loadBundle(file, cacheFile = cacheFileOf(file, false)) {
  const source = readFileSync(file, 'latin1');
  const digest = HEADER.exec(source)?.[1];
  const cachedData = readCache(cacheFile, digest);
  // The bundle is one function expression (scripts/build.mjs wraps it).
  const script = new Script(source, { filename: file, cachedData });
  const url = pathToFileURL(file);
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(
      module.exports,
      module.exports,
      createRequire(file),
      module,
      file,
      dirname(file),
      (specifier) => import(new URL(specifier, url).href),
    );
  return { exports: module.exports, script, digest, cacheFile, cacheTaken: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * When V8 did not take the cache (none yet, another Node version, other V8
 * flags), makes one of what is compiled so far, for the next run, if the
 * package's folder may be written.
 */
export function refreshCache(loaded) {
  if (loaded.cacheTaken || loaded.digest === undefined) return;
  try {
    accessSync(dirname(loaded.cacheFile), constants.W_OK);
  } catch {
    return;
  }
  writeCache(loaded.cacheFile, loaded.digest, loaded.script.createCachedData());
}
