// The policy sources a policy source pins itself (its own extends.lock.yaml): they are not inherited through it,
// as only a source's global/ and actions/ are read, so fetch and update name them for the consumer to list.
import { EXTENDS_LOCK_FILE } from '../core/extends.ts';
import { parseExtendsLock } from '../core/extends-lock.ts';
import { MAX_FILE_BYTES } from '../core/limits.ts';
import { catFileBatch } from '../git/object-reader.ts';
import { parseYamlDocument } from './yaml-document.ts';

/** A source a policy source pins: how its own lock names it. */
export interface SourceOfSource {
  name: string;
  url: string;
  ref: string;
}

/**
 * The sources the store at `path` of `commit` pins in its own lock, read from the cache at `dir`. Only its lock is
 * read, never its config.yaml, and nothing of it runs. None for a lock that is absent, too large or invalid:
 * that one is the source's to fix, and it changes nothing of what this repository inherits.
 */
export async function sourcesOfSource(dir: string, commit: string, path: string): Promise<SourceOfSource[]> {
  const name = `${commit}:${path}/${EXTENDS_LOCK_FILE}`;
  const bytes = (await catFileBatch(dir, [name], MAX_FILE_BYTES)).get(name);
  if (!(bytes instanceof Uint8Array)) return [];
  const lock = await parseYamlDocument((syntax) => parseExtendsLock(EXTENDS_LOCK_FILE, bytes, syntax));
  return (lock.value?.sources ?? []).map((s) => ({ name: s.name, url: s.url, ref: s.ref }));
}
