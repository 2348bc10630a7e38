import { readFailure } from '../store/read-plan.ts';
import { cacheableBlob, settledBefore, stampedKey, WorkingTreeSource, type ReadResult, type TreeSource } from '../store/tree-source.ts';
import type { FactsCache } from './cache.ts';
import type { ContentJob, ValidateOptions } from './checks/context.ts';
import type { FileFacts } from './file-facts.ts';
import type { RecordingSource } from './recording-source.ts';

/**
 * The facts of every file to check. From a git source the blob ids come with
 * the listing, so a file the cache knows is not even read; in the working
 * tree a file whose stat stamp the cache kept is not read either, and every
 * other file is read (without keeping a copy) and its content hashed.
 * Files the cache does not know are parsed and checked, and their facts added
 * to it. The bytes of files with something to report are kept (positions,
 * `--fix`); the others are read again if a later check needs them.
 */
export async function readFacts(
  source: RecordingSource,
  tree: TreeSource,
  jobs: readonly ContentJob[],
  cache: FactsCache,
  options: ValidateOptions,
): Promise<FileFacts[]> {
  const onProgress = options.onProgress;
  let read = 0;
  const tick = onProgress && (() => onProgress('read', ++read, jobs.length));
  // Aligned with `jobs`; every index is set below (a read answers every path asked).
  const facts: FileFacts[] = new Array(jobs.length);
  // Files changed at or after this instant are read, never answered by their stamp.
  const before = settledBefore((options.now ?? new Date()).getTime());
  if (cache.empty && !tree.blobIds && tree instanceof WorkingTreeSource) {
    // A cold run (no cache, outside git, a fresh clone): every file is read and checked, in batches, on every core that pays.
    const { checkFiles, threadsFor } = await import('./check-pool.ts');
    const paths = jobs.map((j) => j.entry.path);
    const kinds = jobs.map((j) => j.kind);
    const batch = cache.enabled ? { hash: true, settledBefore: before } : { hash: false };
    await checkFiles(tree.root, paths, kinds, batch, threadsFor(jobs.length, options.jobs), (start, files) => {
      // Read and checked together: one count.
      onProgress?.('check', start + files.length, jobs.length);
      for (let k = 0; k < files.length; k++) {
        const i = start + k;
        const c = files[k]!;
        const path = paths[i]!;
        if (c.fail) {
          facts[i] = { d: [readFailure(path, c.fail)] };
          continue;
        }
        // Not a failure: checked.
        const f = c.f!;
        facts[i] = f;
        if (c.bytes) source.remember(path, c.bytes);
        if (c.blob !== undefined) cache.set(path, c.blob, f);
      }
    });
    return facts;
  }
  const toCheck: { i: number; bytes: Uint8Array; blob: string | undefined }[] = [];
  const useCache = cache.enabled;
  const known = tree.blobIds ? await tree.blobIds() : undefined;
  // The digest (node:crypto) loads only where files are hashed: a cached working tree.
  const contentHash = useCache && !known ? (await import('./content-hash.ts')).contentHash : undefined;
  const failed = (i: number, r: Exclude<ReadResult, { ok: true }>) => {
    facts[i] = { d: [readFailure(jobs[i]!.entry.path, r)] };
    tick?.();
  };
  // A file read: cached facts, or a file to check. The first `length` bytes of `bytes`; `shared`: only valid during the call.
  const take = (i: number, bytes: Uint8Array, length: number, shared: boolean, knownBlob?: string, stamp?: string) => {
    tick?.();
    const path = jobs[i]!.entry.path;
    const own = () => (shared ? Buffer.from(bytes.subarray(0, length)) : bytes.subarray(0, length));
    const blob = useCache ? (knownBlob ?? contentHash?.(bytes, length)) : undefined;
    const hit = blob !== undefined && knownBlob === undefined ? cache.get(path, blob, stamp) : undefined;
    if (hit) {
      facts[i] = hit;
      if (hit.d !== undefined) source.remember(path, own());
      return;
    }
    toCheck.push({ i, bytes: own(), blob: blob !== undefined ? stampedKey(blob, stamp) : undefined });
  };
  const takeResult = (i: number, r: ReadResult, knownBlob?: string) =>
    r.ok ? take(i, r.bytes, r.bytes.byteLength, false, knownBlob) : failed(i, r);

  if (known) {
    const toRead: number[] = [];
    for (let i = 0; i < jobs.length; i++) {
      const path = jobs[i]!.entry.path;
      // An unmerged path has no blob to key on: it is read (and refused).
      const blob = cacheableBlob(known.get(path));
      const hit = useCache && blob !== undefined ? cache.get(path, blob) : undefined;
      if (hit) facts[i] = hit;
      else toRead.push(i);
    }
    const contents = await tree.read(toRead.map((i) => jobs[i]!.entry.path));
    for (const i of toRead) {
      const path = jobs[i]!.entry.path;
      takeResult(i, contents.get(path)!, cacheableBlob(known.get(path)));
    }
  } else if (tree instanceof WorkingTreeSource) {
    const paths = jobs.map((j) => j.entry.path);
    // A file whose stat stamp the cache kept is not read at all; the bytes of the others are hashed.
    const known = (i: number, stamp: string) => {
      const hit = cache.known(paths[i]!, stamp);
      if (hit === undefined) return false;
      facts[i] = hit;
      tick?.();
      return true;
    };
    tree.visit(
      paths,
      (i, bytes, length, stamp) => take(i, bytes, length, true, undefined, stamp),
      failed,
      useCache ? { settledBefore: before, known } : undefined,
    );
  } else {
    const contents = await tree.read(jobs.map((j) => j.entry.path));
    for (let i = 0; i < jobs.length; i++) takeResult(i, contents.get(jobs[i]!.entry.path)!);
  }

  // The checker (parser, schema validators) loads only when some file is not in the cache.
  if (toCheck.length === 0) return facts;
  const { checkFile } = await import('./check-file.ts');
  for (const [n, { i, bytes, blob }] of toCheck.entries()) {
    if (onProgress) {
      onProgress('check', n + 1, toCheck.length);
      // With a display up, the event loop turns now and then, so Ctrl-C can erase it (src/cli/progress.ts).
      if (n % 512 === 511) await new Promise((resolve) => setImmediate(resolve));
    }
    const job = jobs[i]!;
    const path = job.entry.path;
    const f = await checkFile(path, job.kind, bytes);
    facts[i] = f;
    if (f.d !== undefined) source.remember(path, bytes);
    if (blob !== undefined) cache.set(path, blob, f);
  }
  return facts;
}
