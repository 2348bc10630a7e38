// The store the server was started on, checked around each read of it (docs/mcp.md, "Errors").
import { statSync } from 'node:fs';
import { storeChanged } from '../core/errors.ts';
import { requireStore } from '../store/discover.ts';

/** The store the server was started on, still a store (store/discover.ts): else the error `no-store`. */
export function requireStoreHere(root: string): void {
  requireStore(root, 'the server started', 'the server reads it again at once');
}

/** Reads made of a store whose folder changed under each, before the read is answered with `store-changed`. */
const READS_OF_A_CHANGING_STORE = 3;

/**
 * What tells the store folder at `root` apart from itself a moment later: its identity and its change time, which a
 * rename of the folder (away and back), and an entry made, renamed or removed in it, move on.
 */
function folderStamp(root: string): string {
  const st = statSync(root, { bigint: true });
  return `${st.dev}:${st.ino}:${st.ctimeNs}`;
}

/**
 * Runs a read of the store at `root`, which must be there before it and still be there after it. A store folder
 * moved away while it is read lists as folders that hold nothing: the answer would be a shorter set, or an unknown
 * project, instead of the store that went away. One moved away and back (or replaced) during the read is there
 * after it, but the read saw it gone: the folder's stamp tells, and the read is made again. `notes`: the notes the read
 * gathers for its answer, emptied before each read, so that the answer says only what the read it gives found (never
 * a plan's project said gone by the read that saw the store half away).
 */
export async function readingStore<T>(root: string, read: () => Promise<T>, notes?: string[]): Promise<T> {
  for (let reads = 1; ; reads++) {
    requireStoreHere(root);
    notes?.splice(0);
    const before = folderStamp(root);
    let answer: { value: T } | { error: unknown };
    try {
      answer = { value: await read() };
    } catch (error) {
      answer = { error };
    }
    // A store gone meanwhile is the answer, whatever the read gave; else the read's answer or failure stands.
    requireStoreHere(root);
    if (folderStamp(root) === before) {
      if ('error' in answer) throw answer.error;
      return answer.value;
    }
    if (reads === READS_OF_A_CHANGING_STORE)
      throw storeChanged(
        `the store at ${root} changed while it was read, ${reads} times running (moved away and back, or replaced)`,
        'Ask again once nothing moves the store folder.',
        { store: root },
      );
  }
}
