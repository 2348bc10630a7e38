// The entry of a worker thread of `agents validate` (check-pool.ts): checks
// the batches of working-tree files it is sent, one at a time, and posts each
// batch's facts back. Built as its own file (dist/validate-worker.js).
import { parentPort, workerData } from 'node:worker_threads';
import { pathClassifier } from '../core/layout.ts';
import { WorkingTreeSource } from '../store/tree-source.ts';
import { type BatchOptions, checkBatch } from './check-file.ts';
import type { ContentKind } from './file-facts.ts';

/** What a worker is started with. */
export interface WorkerSetup extends BatchOptions {
  root: string;
}

/** One batch: files `start` to `start + paths.length - 1` of the run's list (each classified here, as the run classified it). */
export interface WorkerBatch {
  start: number;
  paths: string[];
}

const setup = workerData as WorkerSetup;
const tree = new WorkingTreeSource(setup.root);
const port = parentPort!;
// One classifier for the worker's life: the paths of a folder share one scope object, as in the validating thread.
const classify = pathClassifier();

port.on('message', (batch: WorkerBatch) => {
  // Only files of a content kind are sent (validate-tree.ts): the classifier gives each the kind it was checked as.
  const kinds = batch.paths.map(classify) as ContentKind[];
  checkBatch(tree, batch.paths, kinds, setup).then(
    (files) => port.postMessage({ start: batch.start, files }),
    (error: unknown) =>
      port.postMessage({ start: batch.start, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
