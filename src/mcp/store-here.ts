// The store the server was started on, checked around each read of it (docs/mcp.md, "Errors").
import { requireStore } from '../store/discover.ts';

/** The store the server was started on, still a store (store/discover.ts): else the error `no-store`. */
export function requireStoreHere(root: string): void {
  requireStore(root, 'the server started', 'the server reads it again at once');
}

/**
 * Runs a read of the store at `root`, which must be there before it and still be there after it. A store folder
 * moved away while it is read lists as folders that hold nothing: the answer would be a shorter set, or an unknown
 * project, instead of the store that went away.
 */
export async function readingStore<T>(root: string, read: () => Promise<T>): Promise<T> {
  requireStoreHere(root);
  try {
    return await read();
  } finally {
    // A store gone meanwhile is the answer, whatever the read gave; else the read's answer or failure stands.
    requireStoreHere(root);
  }
}
