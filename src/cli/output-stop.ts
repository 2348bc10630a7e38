import { STOP_SIGNALS, signalExitCode } from '../core/errors.ts';

/**
 * While the process's stdout waits for a slow reader, a stop signal no one else handles ends the run at once, as its
 * default action would (a reader that never reads must not hold it), but saying that the output is cut short, with
 * the signal's code: only a run whose output went out whole ends with the command's own code. Returns the undoing.
 * A module of its own: the output's writer loads it at start-up, and nothing below the CLI with it.
 */
export function sayCutOnStop(stream: unknown): () => void {
  if (stream !== process.stdout) return () => {};
  const cut = (signal: NodeJS.Signals) => {
    process.stderr.write(`agents: stopped by ${signal} while the output was written: it is cut short\n`);
    process.exit(signalExitCode(signal));
  };
  const taken = STOP_SIGNALS.filter((signal) => process.listenerCount(signal) === 0);
  for (const signal of taken) process.once(signal, cut);
  return () => {
    for (const signal of taken) process.removeListener(signal, cut);
  };
}
