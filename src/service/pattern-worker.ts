// The entry of the guard hook's pattern thread (pattern-thread.ts): runs one pattern over one text at a time and
// says whether it matched through the memory it shares with the hook, which waits on it no longer than its
// deadline. Built as its own file (dist/pattern-worker.js).
import { parentPort } from 'node:worker_threads';
import { compileRegex } from '../core/guard-patterns.ts';

/** One run: the pattern, the text, and the cell the answer goes in (pattern-thread.ts's RUN_* values). */
export interface PatternRun {
  pattern: string;
  text: string;
  answer: SharedArrayBuffer;
}

parentPort!.on('message', ({ pattern, text, answer }: PatternRun) => {
  const cell = new Int32Array(answer);
  let value: number;
  try {
    value = compileRegex(pattern)(text) ? 2 : 1;
  } catch {
    value = 3;
  }
  Atomics.store(cell, 0, value);
  Atomics.notify(cell, 0);
});
