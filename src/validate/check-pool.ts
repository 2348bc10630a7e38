// Checks the files of a cold run (no cache can answer them) in batches, in
// worker threads when that pays (docs/validation.md, "Worker threads"; the
// reasons in docs/adr/0070-cold-validation-on-worker-threads.md). Each batch's facts are handed on in the order
// of the files, whichever thread checked them, so a report never depends on
// the number of threads.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WorkingTreeSource } from '../store/tree-source.ts';
import type { BatchOptions, CheckedFile } from './check-file.ts';
import type { WorkerBatch, WorkerSetup } from './check-worker.ts';
import type { ContentKind } from './file-facts.ts';

/** Files per batch: large enough that a message costs little, small enough that threads finish together. */
export const BATCH_FILES = 1000;
/** Below this many files to check, `--jobs` left to its default uses no worker: starting one costs more than it saves. */
export const WORKER_MIN_FILES = 4000;
/** The most worker threads the default starts. */
const MAX_DEFAULT_WORKERS = 8;

/**
 * How many threads check the files: `jobs` when given (1: this thread
 * alone), else every core the process may use, when there are enough files.
 */
export function threadsFor(files: number, jobs: number | undefined): number {
  if (jobs !== undefined) return Math.max(1, Math.min(jobs, Math.ceil(files / 64)));
  if (files < WORKER_MIN_FILES) return 1;
  return Math.max(1, Math.min(availableParallelism(), MAX_DEFAULT_WORKERS, Math.ceil(files / BATCH_FILES)));
}

/** The built worker (dist/validate-worker.js), beside this module or one folder up (from dist/chunks/); undefined when running from the sources. */
function workerFile(): URL | undefined {
  for (const rel of ['./validate-worker.js', '../validate-worker.js']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/**
 * Reads and checks `paths` (working-tree files of `root`) and hands each
 * batch's results to `onBatch`, in order: batch 0 first, then 1, … With
 * `threads` above 1, that many worker threads check batches side by side
 * while this one waits; with 1 (or when the worker is not built) this thread
 * checks them one after another.
 */
export async function checkFiles(
  root: string,
  paths: readonly string[],
  kinds: readonly ContentKind[],
  options: BatchOptions,
  threads: number,
  onBatch: (start: number, files: CheckedFile[]) => void,
): Promise<void> {
  const url = threads > 1 ? workerFile() : undefined;
  if (url === undefined) {
    // The checker (parser, schema validators) loads in this thread only when this thread checks.
    const { checkBatch } = await import('./check-file.ts');
    const tree = new WorkingTreeSource(root);
    for (let start = 0; start < paths.length; start += BATCH_FILES) {
      const end = Math.min(paths.length, start + BATCH_FILES);
      onBatch(start, await checkBatch(tree, paths.slice(start, end), kinds.slice(start, end), options));
      // The event loop turns between batches, so a progress display updates and Ctrl-C is heard.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return;
  }
  const size = Math.max(64, Math.min(BATCH_FILES, Math.ceil(paths.length / (threads * 4))));
  const starts: number[] = [];
  for (let start = 0; start < paths.length; start += size) starts.push(start);
  const setup: WorkerSetup = { root, ...options };
  const workers = Array.from({ length: Math.min(threads, starts.length) }, () => new Worker(url, { workerData: setup }));
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let delivered = 0;
      // Batches that came back before an earlier one: held until their turn.
      const waiting = new Map<number, CheckedFile[]>();
      const send = (w: Worker) => {
        if (next >= starts.length) return;
        const start = starts[next++]!;
        const end = Math.min(paths.length, start + size);
        const batch: WorkerBatch = { start, paths: paths.slice(start, end), kinds: kinds.slice(start, end) };
        w.postMessage(batch);
      };
      for (const w of workers) {
        w.on('message', (m: { start: number; files?: CheckedFile[]; error?: string }) => {
          if (m.error !== undefined) {
            reject(new Error(`a validation worker failed: ${m.error}`));
            return;
          }
          waiting.set(m.start, m.files!);
          send(w);
          try {
            for (let files = waiting.get(starts[delivered]!); files !== undefined; files = waiting.get(starts[delivered]!)) {
              waiting.delete(starts[delivered]!);
              onBatch(starts[delivered]!, files);
              delivered++;
            }
          } catch (error) {
            reject(error);
            return;
          }
          if (delivered === starts.length) resolve();
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (delivered < starts.length) reject(new Error(`a validation worker stopped (exit ${code}) before its work was done`));
        });
        send(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
