// The entry of the guard hook's pattern thread (pattern-thread.ts): runs one pattern over one text at a time and
// says whether it matched through the memory it shares with the hook, which waits on it no longer than its
// deadline. Built as its own file (dist/pattern-worker.js).
import { parentPort } from 'node:worker_threads';
import { compileRegex } from '../core/guard-patterns.ts';
import { FAILED, MATCH, NO_MATCH, type PatternRun } from './pattern-thread.ts';

parentPort!.on('message', ({ pattern, text, answer }: PatternRun) => {
  const cell = new Int32Array(answer);
  let value: number;
  try {
    value = compileRegex(pattern)(text) ? MATCH : NO_MATCH;
  } catch {
    value = FAILED;
  }
  Atomics.store(cell, 0, value);
  Atomics.notify(cell, 0);
});
