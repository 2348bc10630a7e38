import { lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AgentsError, UsageError } from '../core/errors.ts';
import type { ActorChoice } from '../core/actor-choice.ts';
import { SCHEMAS, schemaCopy, type SchemaName } from '../core/schema-docs.ts';
import { EXAMPLE_ACTOR_FILE, EXAMPLE_ACTOR_SOURCE } from './example-actor.ts';
import { formatConfigFile } from '../core/serialize.ts';
import { assertOwnStore } from './ownership.ts';
import { fileOnPath } from './discover.ts';
import { failedPartWay, fsyncDir, tempName, writeFailure, writeFileAtomic } from './atomic-write.ts';
import { removeStaleTemps } from './stale-temps.ts';
import { GIT_ATTRIBUTES } from '../core/layout.ts';
import { folderState } from './unchecked-submodule.ts';

export const SCOPE_FOLDERS = ['global', 'projects', 'actions', 'plans'] as const;

/**
 * The store's `.gitattributes`: every writer writes LF, and git keeps it so in every checkout, whatever core.autocrlf
 * or core.eol say, so a plain `git add` under core.safecrlf takes the files as written (docs/adr/0606).
 */
export const STORE_GIT_ATTRIBUTES =
  "# Written by `agents init`: the store's files keep LF line ends in every checkout, as agents writes them.\n* text=auto eol=lf\n";

/**
 * Writes the tool's schemas into `<store>/schemas/` (for editors' modelines). `refresh`: the command that refreshes the
 * copies of a store in use (`agents init --schemas`, with the run's --store), whose refusal part-way names what was
 * written and says to run it again; a new store is built in a folder removed on failure.
 */
export function writeSchemas(root: string, refresh?: string): string[] {
  const written: string[] = [];
  const all = Object.keys(SCHEMAS) as SchemaName[];
  for (const name of all) {
    try {
      writeFileAtomic(root, `schemas/${name}`, schemaCopy(name), 'replace');
    } catch (error) {
      // Each copy is written whole, one after another: a refusal part-way names those before it, never "nothing changed".
      if (refresh !== undefined) failedPartWay(error, written, refresh, all.length);
      throw error;
    }
    written.push(`schemas/${name}`);
  }
  return written;
}

/**
 * What `agents init` finds at `root`, checked before any of its modes writes (a new store, `--hooks`, `--schemas`):
 * no folder, an empty one, or a store. A link to nothing, a file (or a path below one) and a folder that holds
 * something else (another tool's `.agents/`) are refused, exit 2, so that no mode writes beside them.
 */
export function initTargetState(root: string): 'none' | 'empty' | 'store' {
  let state: ReturnType<typeof folderState>;
  try {
    state = folderState(root);
  } catch (error) {
    throw writeFailure(error, root);
  }
  if (state === 'none' && isLink(root)) {
    // A link to nothing: a folder cannot be renamed onto it, and what it should lead to is the user's to say.
    throw new UsageError(
      `cannot create a store at ${root}: it is a symbolic link to ${readlinkSync(root)}, which does not exist`,
      'Nothing was changed. Create the folder the link points to (the store is made in it), or remove the link.',
    );
  }
  if (state === 'not-a-folder') {
    // The path itself, or a file on the way to it (`file/sub`).
    throw new UsageError(
      `cannot create a store at ${root}: ${fileOnPath(root) ?? root} is not a folder`,
      'Nothing was changed. Choose a folder with --store DIR.',
    );
  }
  if (state !== 'full') return state;
  // A folder of that name may be another tool's: said as what it is, not as a store.
  const entries = readdirSync(root);
  if (entries.some((e) => e === 'config.yaml' || (SCOPE_FOLDERS as readonly string[]).includes(e))) return 'store';
  const shown = entries.sort().slice(0, 3).join(', ');
  throw new UsageError(
    `${root} is not empty and holds no store (no config.yaml, no ${SCOPE_FOLDERS.join('/, ')}/; it holds ${shown}${entries.length > 3 ? ', …' : ''}): another tool may use that folder`,
    'Nothing was changed. Put the store elsewhere with --store DIR (then AGENTS_STORE or --store DIR for every command), or move what the folder holds.',
    { entries: entries.slice(0, 20) },
    'not-a-store',
  );
}

/**
 * Creates a new store at `root`; refuses to touch an existing one. The store
 * is made whole or not at all: in a temporary folder beside it, renamed into
 * place (into an empty folder that is there already, its entries are moved
 * in, and taken out again should one fail), so a failed init (a full disk, a
 * folder it may not write in) leaves nothing that a second init would take
 * for a store.
 */
export function initStore(root: string, actor?: ActorChoice): string[] {
  const state = initTargetState(root);
  if (state === 'store')
    throw new UsageError(
      `a store already exists at ${root}`,
      'Nothing was changed. Use it as it is, or choose another folder with --store DIR.',
    );
  // An empty folder someone else made: nothing is created in it (docs/store-format.md).
  if (state === 'empty') assertOwnStore(root, 'write in');
  const parent = dirname(root);
  try {
    makeFolders(parent);
  } catch (error) {
    throw writeFailure(error, root);
  }
  // A store a killed init was building beside it, which git would show for ever: removed once its process is gone.
  removeStaleTemps(parent, [basename(root)]);
  const temp = tempName(root);
  const made: string[] = [];
  try {
    mkdirSync(temp);
    for (const folder of SCOPE_FOLDERS) {
      mkdirSync(join(temp, folder));
      writeFileAtomic(temp, `${folder}/.gitkeep`, '');
      made.push(`${folder}/`);
    }
    writeFileAtomic(temp, 'config.yaml', formatConfigFile(actor));
    made.push('config.yaml');
    writeFileAtomic(temp, GIT_ATTRIBUTES, STORE_GIT_ATTRIBUTES);
    made.push(GIT_ATTRIBUTES);
    if (actor?.actor === 'command') {
      writeFileAtomic(temp, EXAMPLE_ACTOR_FILE, EXAMPLE_ACTOR_SOURCE);
      made.push(EXAMPLE_ACTOR_FILE);
    }
    made.push(...writeSchemas(temp));
    if (state === 'none') renameSync(temp, root);
    else moveInto(temp, root);
    fsyncDir(parent);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error instanceof AgentsError ? error : writeFailure(error, root);
  }
  return made;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The entries of `from` moved into the empty folder `to`, then `from` removed; on a failure, those moved go back. */
function moveInto(from: string, to: string): void {
  const moved: string[] = [];
  try {
    for (const name of readdirSync(from)) {
      renameSync(join(from, name), join(to, name));
      moved.push(name);
    }
  } catch (error) {
    for (const name of moved) rmSync(join(to, name), { recursive: true, force: true });
    throw error;
  }
  rmdirSync(from);
}

/**
 * `mkdir -p`: each missing folder of `path` made in turn. Not Node's recursive
 * mkdir, which retries for ever where a file system answers ENOENT for a folder
 * it will not make (`/proc/x`).
 */
function makeFolders(path: string): void {
  try {
    mkdirSync(path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(path).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
  }
  makeFolders(dirname(path));
  mkdirSync(path);
}
