// Checks the files of a cold run (no cache can answer them) in batches, in
// worker threads when that pays (docs/validation.md, "Worker threads"; the
// reasons in docs/adr/0070-cold-validation-on-worker-threads.md). Each batch's facts are handed on in the order
// of the files, whichever thread checked them, so a report never depends on
// the number of threads.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { builtWorker } from '../store/built-worker.ts';
import { WorkingTreeSource } from '../store/tree-source.ts';
import type { BatchOptions, CheckedFile } from './check-file.ts';
import type { WorkerBatch, WorkerSetup } from './check-worker.ts';
import type { ContentKind } from './file-facts.ts';

/** Files per batch: large enough that a message costs little, small enough that threads finish together. */
export const BATCH_FILES = 1000;
/**
 * Below this many files to check, `--jobs` left to its default uses no
 * worker: starting one (Node compiles its own modules afresh in each thread)
 * costs more than it saves (docs/adr/0504-validation-threads-share-the-work.md).
 */
export const WORKER_MIN_FILES = 25_000;
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

/**
 * Reads and checks `paths` (working-tree files of `root`) and hands each
 * batch's results to `onBatch`, in order: batch 0 first, then 1, … With
 * `threads` above 1, this thread is one of them: it checks batches beside
 * `threads - 1` worker threads, so no thread sits waiting and one isolate
 * fewer warms up the checker. With 1 (or when the worker is not built) this
 * thread checks them one after another.
 */
export async function checkFiles(
  root: string,
  paths: readonly string[],
  kinds: readonly ContentKind[],
  options: BatchOptions,
  threads: number,
  onBatch: (start: number, files: CheckedFile[]) => void,
): Promise<void> {
  // The checker (parser, schema validators) loads in this thread: it checks files whatever the number of threads.
  const { checkBatch } = await import('./check-file.ts');
  const tree = new WorkingTreeSource(root);
  const here = (start: number, end: number) => checkBatch(tree, paths.slice(start, end), kinds.slice(start, end), options);
  // The event loop turns between pieces of this thread's work, so a progress display updates, Ctrl-C is heard and workers get their next batch.
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const url = threads > 1 ? builtWorker('validate-worker.js') : undefined;
  if (url === undefined) {
    for (let start = 0; start < paths.length; start += BATCH_FILES) {
      onBatch(start, await here(start, Math.min(paths.length, start + BATCH_FILES)));
      await turn();
    }
    return;
  }
  const size = Math.max(64, Math.min(BATCH_FILES, Math.ceil(paths.length / (threads * 4))));
  const starts: number[] = [];
  for (let start = 0; start < paths.length; start += size) starts.push(start);
  const setup: WorkerSetup = { root, ...options };
  const workers = Array.from({ length: Math.min(threads - 1, starts.length - 1) }, () => new Worker(url, { workerData: setup }));
  let stopped = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let delivered = 0;
      // Batches that came back before an earlier one: held until their turn.
      const waiting = new Map<number, CheckedFile[]>();
      const fail = (error: unknown) => {
        stopped = true;
        reject(error);
      };
      const done = (start: number, files: CheckedFile[]) => {
        waiting.set(start, files);
        try {
          for (let files = waiting.get(starts[delivered]!); files !== undefined; files = waiting.get(starts[delivered]!)) {
            waiting.delete(starts[delivered]!);
            onBatch(starts[delivered]!, files);
            delivered++;
          }
        } catch (error) {
          fail(error);
          return;
        }
        if (delivered === starts.length) resolve();
      };
      const endOf = (start: number) => Math.min(paths.length, start + size);
      const send = (w: Worker) => {
        if (next >= starts.length || stopped) return;
        const start = starts[next++]!;
        const end = endOf(start);
        // Paths only: the worker classifies them itself, as this thread did (a clone of every kind cost this thread more).
        const batch: WorkerBatch = { start, paths: paths.slice(start, end) };
        w.postMessage(batch);
      };
      for (const w of workers) {
        w.on('message', (m: { start: number; files?: CheckedFile[]; error?: string }) => {
          if (stopped) return;
          if (m.error !== undefined) {
            fail(new Error(`a validation worker failed: ${m.error}`));
            return;
          }
          send(w);
          done(m.start, m.files!);
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (delivered < starts.length) fail(new Error(`a validation worker stopped (exit ${code}) before its work was done`));
        });
        send(w);
      }
      // This thread takes batches from the same queue and checks each in quarters, turning the event loop between
      // them: a worker that finished waits at most a quarter of a batch for its next one.
      const mine = async () => {
        while (next < starts.length && !stopped) {
          const start = starts[next++]!;
          const end = endOf(start);
          const step = Math.ceil((end - start) / 4);
          const files: CheckedFile[] = [];
          for (let from = start; from < end; from += step) {
            files.push(...(await here(from, Math.min(end, from + step))));
            await turn();
          }
          if (stopped) return;
          done(start, files);
        }
      };
      mine().catch(fail);
    });
  } finally {
    stopped = true;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
