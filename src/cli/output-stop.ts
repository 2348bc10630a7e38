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

/**
 * After a stop, output its reader still leaves unread (an MCP client that stopped reading its server's answers) is
 * given `graceMs` to leave, then dropped and said so, and the process ends with `code` once the run has reported its
 * stop: a pending write to a full pipe would hold it until the reader reads or a second signal comes, as the default
 * action of the signal, which `sayCutOnStop` keeps for a later one, would not.
 */
export async function dropUnreadOnStop(stream: NodeJS.WriteStream, graceMs: number, what: string, code: number): Promise<void> {
  if ((stream.writableLength ?? 0) === 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, graceMs);
    stream.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if ((stream.writableLength ?? 0) === 0) return;
  process.stderr.write(`agents: ${stream.writableLength} bytes of ${what} the reader left unread were dropped at the stop\n`);
  process.exitCode = code;
  // Unreferenced: it fires only while that write still holds the process, after the run's own report of the stop.
  setTimeout(() => process.exit(code), 200).unref();
}
