/**
 * One run of a `command` or `content` pattern that may outlast the hook's deadline, made in a worker thread the hook
 * can leave at its deadline (docs/guard.md, "When the hook cannot decide"; the figures in
 * docs/adr/0607-one-pattern-run-bounded-by-a-worker.md). The engine's run cannot be interrupted in the thread that
 * started it, and a client lets a call through, unlogged, when its hook runs past the client's time. A run that
 * cannot outlast the deadline stays in this thread, as starting a thread costs more than most runs (the ADR's figure).
 */
import { Worker } from 'node:worker_threads';
import { GuardTimeout } from '../core/guard-clients.ts';
import { type CompiledPattern, compileRegex, runMayOutlast, type TextMatcher } from '../core/guard-patterns.ts';
import { builtWorker } from '../store/built-worker.ts';

/** The answers the worker writes in the shared cell (pattern-worker.ts): none yet, no match, a match, a failure. */
export const [PENDING, NO_MATCH, MATCH, FAILED] = [0, 1, 2, 3];

/** One run posted to the worker: the pattern, the text, and the cell its answer goes in. */
export interface PatternRun {
  pattern: string;
  text: string;
  answer: SharedArrayBuffer;
}

/** The engine {@link boundedRegex} makes, with `end` to end its thread once the judging is done. */
export type BoundedEngine = ((pattern: string) => TextMatcher) & { end(): void };

/**
 * compileRegex for a run bounded by `deadline` (ms since the epoch): a run that {@link runMayOutlast} the time left is
 * made in a worker thread (started on the first such run, kept for the next), waited on until the deadline, and past
 * it the thread is ended and a GuardTimeout thrown, which the hook answers by guard.on_error. Without the built worker
 * (the sources run directly) every run stays in this thread. `sent` hears each run posted to the thread, which the
 * audit log counts: where a run was made shows in no answer.
 */
export function boundedRegex(deadline: number, sent?: () => void): BoundedEngine {
  let worker: Worker | undefined;
  // Looked for on the first run that needs it: the common call never does.
  let file: URL | undefined | null = null;
  const end = () => {
    void worker?.terminate();
    worker = undefined;
  };
  const inWorker = (url: URL, pattern: string, text: string): boolean => {
    if (!worker) {
      worker = new Worker(url);
      // A thread left idle never keeps the hook's process from ending.
      worker.unref();
    }
    const answer = new SharedArrayBuffer(4);
    const cell = new Int32Array(answer);
    worker.postMessage({ pattern, text, answer } satisfies PatternRun);
    sent?.();
    // This thread sleeps until the worker answers or the deadline passes; the message is handled by the worker meanwhile.
    for (let left = deadline - Date.now(); Atomics.load(cell, 0) === PENDING && left > 0; left = deadline - Date.now())
      Atomics.wait(cell, 0, PENDING, left);
    const value = Atomics.load(cell, 0);
    if (value === MATCH || value === NO_MATCH) return value === MATCH;
    // Out of time (or the thread failed, which is no decision either): the run is stopped where it is.
    end();
    if (value === PENDING) throw new GuardTimeout('no decision in time');
    throw new Error(`the pattern ${JSON.stringify(pattern)} could not be run in its thread`);
  };
  const engine = (pattern: string): TextMatcher => {
    const here: CompiledPattern = compileRegex(pattern);
    return (text) => {
      // A text with CR line ends is searched twice (compileRegex).
      const characters = text.includes('\r') ? 2 * text.length : text.length;
      if (!runMayOutlast(characters, here.size, deadline - Date.now())) return here(text);
      if (file === null) file = builtWorker('pattern-worker.js');
      return file === undefined ? here(text) : inWorker(file, pattern, text);
    };
  };
  return Object.assign(engine, { end });
}
