// The store's own files an actor command runs (docs/store-format.md, "Stores
// owned by someone else"): `[sh, actors/check.sh]` runs a script the store
// ships. Its owner is checked like config.yaml's: a script another user can
// write would run as us.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The files inside the store folder `cwd` that `command` names (the program
 * or any argument that is a path there), each with the folders between it
 * and the store. Programs outside the store (`node`, `/usr/bin/python3`)
 * are the system's, and not listed.
 */
export function actorFiles(cwd: string, command: readonly string[]): string[] {
  const out = new Set<string>();
  for (const arg of command) {
    if (arg === '' || arg.startsWith('-')) continue;
    const path = resolve(cwd, arg);
    const rel = relative(cwd, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !existsSync(path)) continue;
    out.add(path);
    for (let dir = dirname(path); dir !== cwd && relative(cwd, dir) !== '' && !relative(cwd, dir).startsWith('..'); dir = dirname(dir))
      out.add(dir);
  }
  return [...out];
}

/**
 * The first argument after the program that names a file of the store's `actors/` folder (the place of its actor
 * scripts) that is not there: `[node, actors/my-actor.mjs]` with the script not committed, or misspelt.
 */
export function missingActorScript(cwd: string, command: readonly string[]): string | undefined {
  for (const arg of command.slice(1)) {
    // A word with a blank inside is no path but a shell's script (`[sh, -c, "actors/run.sh | tee log"]`).
    if (arg === '' || arg.startsWith('-') || /\s/.test(arg.trim())) continue;
    const path = resolve(cwd, arg);
    const [top, ...rest] = relative(cwd, path).split(sep);
    if (top === 'actors' && rest.length > 0 && !existsSync(path)) return arg;
  }
  return undefined;
}
