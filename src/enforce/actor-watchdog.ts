// What stops an actor's process group when this process dies without stopping it (docs/plans.md, "Timeouts").
import { spawn } from 'node:child_process';

/**
 * The watchdog's script: it reads one line, the word `done` once the run has stopped the group itself; its input
 * ending without it means this process is gone, and the group gets SIGTERM, then SIGKILL a second later, as a stop
 * gives it. `$1` is the group's id.
 */
const WATCHDOG = 'read -r word; [ "$word" = done ] || { kill -s TERM -- "-$1"; sleep 1; kill -s KILL -- "-$1"; } 2>/dev/null';

/**
 * Starts the watchdog of the process group `pgid` (an actor leading its own group) and answers the call that lets it
 * go once the run has stopped the group. The group is out of reach of the signals that end this process (a CI
 * runner's SIGKILL to the job's group, which no handler hears), and its time-out is this process's to keep: without
 * the watchdog it would run on, unbounded. The watchdog leads a group of its own, so that the signal that ends this
 * process does not end it too. None on Windows, which has no process groups to signal; none where no /bin/sh runs.
 */
export function watchGroup(pgid: number): () => void {
  if (process.platform === 'win32') return () => {};
  let dog: ReturnType<typeof spawn>;
  try {
    dog = spawn('/bin/sh', ['-c', WATCHDOG, 'agents-actor-watchdog', String(pgid)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    return () => {};
  }
  // No shell (a distroless image): the run goes on unwatched, as it would have without the watchdog.
  dog.on('error', () => {});
  dog.stdin!.on('error', () => {});
  // This process never waits for the watchdog: it ends with its input.
  dog.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    dog.stdin!.end('done\n');
  };
}
