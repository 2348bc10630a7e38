// The entry of a worker thread of `agents validate` (check-pool.ts): checks
// the batches of working-tree files it is sent, one at a time, and posts each
// batch's facts back. Built as its own file (dist/validate-worker.js).
import { parentPort, workerData } from 'node:worker_threads';
import { WorkingTreeSource } from '../store/tree-source.ts';
import { type BatchOptions, checkBatch } from './check-file.ts';
import type { ContentKind } from './file-facts.ts';

/** What a worker is started with. */
export interface WorkerSetup extends BatchOptions {
  root: string;
}

/** One batch: files `start` to `start + paths.length - 1` of the run's list. */
export interface WorkerBatch {
  start: number;
  paths: string[];
  kinds: ContentKind[];
}

const setup = workerData as WorkerSetup;
const tree = new WorkingTreeSource(setup.root);
const port = parentPort!;

port.on('message', (batch: WorkerBatch) => {
  checkBatch(tree, batch.paths, batch.kinds, setup).then(
    (files) => port.postMessage({ start: batch.start, files }),
    (error: unknown) =>
      port.postMessage({ start: batch.start, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
