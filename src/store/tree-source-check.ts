// A tree source a library caller builds (docs/library.md: an object with its list and read) answers what the readers
// go on with: an answer of the wrong shape is refused naming the method, as a callback's is, never a TypeError from
// inside the reader nor a listing read as empty.
import { UsageError } from '../core/errors.ts';
import { typeName } from '../core/input-shape.ts';
import { isObject } from '../core/parsed-shape.ts';
import { type ReadResult, type TreeEntry, type TreeSource, WorkingTreeSource } from './tree-source.ts';
import { docsRef } from '../core/docs-link.ts';

const HINT = `A TreeSource lists entries ({path, type}) and reads files into a Map of path to {ok: true, bytes} or {ok: false, code, message}. See ${docsRef('library.md')}.`;
const TYPES = new Set(['file', 'dir', 'symlink', 'other']);

function refuse(name: string, at: string, says: string): never {
  throw new UsageError(`${name}: source.${at} ${says}`, HINT, { field: `source.${at}` });
}

function checkList(name: string, answer: unknown): TreeEntry[] {
  if (!Array.isArray(answer)) refuse(name, 'list()', `must answer an array of entries, not ${typeName(answer)}`);
  for (const [i, e] of answer.entries()) {
    if (!isObject(e)) refuse(name, `list()[${i}]`, `must be an entry ({path, type}), not ${typeName(e)}`);
    if (typeof e.path !== 'string') refuse(name, `list()[${i}].path`, `must be a string, not ${typeName(e.path)}`);
    if (typeof e.type !== 'string' || !TYPES.has(e.type)) refuse(name, `list()[${i}].type`, `must be one of ${[...TYPES].join(', ')}`);
  }
  return answer as TreeEntry[];
}

function checkRead(name: string, paths: readonly string[], answer: unknown): Map<string, ReadResult> {
  if (!(answer instanceof Map)) refuse(name, 'read()', `must answer a Map of path to result, not ${typeName(answer)}`);
  for (const path of paths) {
    const r: unknown = answer.get(path);
    // A path left out of the answer is read as missing, as a source that lists a file it then cannot find.
    if (r === undefined) continue;
    const at = `read().get(${JSON.stringify(path)})`;
    if (!isObject(r) || typeof r.ok !== 'boolean')
      refuse(name, at, `must be {ok: true, bytes} or {ok: false, code, message}, not ${typeName(r)}`);
    if (r.ok && !(r.bytes instanceof Uint8Array)) refuse(name, `${at}.bytes`, `must be a Uint8Array, not ${typeName(r.bytes)}`);
    if (!r.ok && (typeof r.code !== 'string' || typeof r.message !== 'string'))
      refuse(name, at, 'must have a code and a message (strings)');
  }
  return answer as Map<string, ReadResult>;
}

/** `source` as `name` reads it, its answers checked; the tool's own sources are taken as they are. */
export function checkedTreeSource(name: string, source: TreeSource): TreeSource {
  if (source instanceof WorkingTreeSource) return source;
  return {
    get description() {
      return source.description;
    },
    get readPiece() {
      return source.readPiece;
    },
    list: async (dir, options) => checkList(name, await source.list(dir, options)),
    read: async (paths) => checkRead(name, paths, await source.read(paths)),
  };
}
