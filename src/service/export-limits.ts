import type { WatchedFile } from './export-plan.ts';
import { watched } from './export-remembered.ts';
import { type FileChange, readExisting } from './export-targets.ts';

/**
 * The warnings for AGENTS.md files Codex CLI would not read whole. Codex reads the AGENTS.md files
 * from the repository's top down to the folder it works in, in that order and at most `limit` bytes
 * together (`project_doc_max_bytes`), and leaves the rest unread without a word: the nested file of
 * a project, read last, is the one cut. Each AGENTS.md the export writes is counted with those above
 * it, as written now or as on disk.
 */
export function agentsMdBudgetWarnings(
  top: string,
  changes: readonly FileChange[],
  limit: number,
  reader: string,
): { warnings: string[]; watched: WatchedFile[] } {
  const after = new Map(changes.filter((c) => c.target === 'agents-md').map((c) => [c.path, c.after]));
  // A folder's AGENTS.md is above every nested one below it: each is read once, not once per file it is above.
  const read = new Map<string, string | undefined>();
  // The folders found to be folders, shared by the reads: the index's gitlinks are read once for them all.
  const checked = new Set<string>();
  const text = (path: string): string | undefined => {
    if (after.has(path)) return after.get(path);
    if (read.has(path)) return read.get(path);
    let t: string | undefined;
    try {
      t = readExisting(top, path, checked);
    } catch {
      // A file the export cannot read is no file Codex reads either.
      t = undefined;
    }
    read.set(path, t);
    return t;
  };
  const warnings: string[] = [];
  for (const [path, own] of after) {
    if (own === undefined || !(path === 'AGENTS.md' || path.endsWith('/AGENTS.md'))) continue;
    const folders = path.split('/').slice(0, -1);
    const chain: string[] = [];
    let bytes = 0;
    for (let depth = 0; depth <= folders.length; depth++) {
      const file = [...folders.slice(0, depth), 'AGENTS.md'].join('/');
      const t = text(file);
      if (t === undefined) continue;
      chain.push(file);
      bytes += Buffer.byteLength(t);
    }
    if (bytes <= limit) continue;
    const what = chain.length === 1 ? `${path} is ${bytes} bytes` : `${chain.join(', ')} are ${bytes} bytes together`;
    warnings.push(
      `${what}; ${reader} reads at most ${limit} bytes of the AGENTS.md files from the repository's top down to its folder and leaves the invariants past them unread: export fewer severities (export.severities) or raise the limit`,
    );
  }
  // The files counted that the export does not write: a run the cache answers says the same only while they are as they were.
  return { warnings, watched: [...read].map(([path, text]) => watched(path, text)) };
}
