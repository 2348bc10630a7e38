import type { CliIo } from './io.ts';
import { envSwitchOn } from '../core/env-switch.ts';
import { withCommas } from '../core/style.ts';
import { STOP_SIGNALS } from '../core/errors.ts';
import { terminalSize } from '../present/terminal-size.ts';

/**
 * A one-line progress display on stderr for long work (docs/commands.md,
 * "Progress"): drawn only on a terminal, not under CI nor with --quiet, and
 * only once the work has run for a second; each draw rewrites the line in
 * place, and `stop` erases it, so what remains on the screen is the
 * command's own output. Never a word on stdout.
 *
 * Cheap to feed: `update` may be called for every file; it looks at the
 * clock once every few calls and draws at most ten times a second.
 */
export interface Progress {
  /** Whether anything may be drawn at all (a terminal, no CI, no --quiet). */
  readonly enabled: boolean;
  /** `what` so far: `done` of `total` (e.g. "checking files", 3,000 of 100,000). */
  update(what: string, done: number, total: number): void;
  /** A line of its own (e.g. the actor's elapsed time), drawn on the same terms. */
  show(line: () => string): void;
  /** Redraws `line` every quarter second until stopped (work that waits on something else). */
  every(line: () => string): void;
  /** Erases the line and lets go of the terminal; safe to call twice. */
  stop(): void;
}

/** The delay before the first draw, ms: AGENTS_PROGRESS_DELAY_MS, else one second. */
function delayFrom(env: CliIo['env']): number {
  const raw = env.AGENTS_PROGRESS_DELAY_MS;
  return raw !== undefined && /^\d{1,7}$/.test(raw) ? Number(raw) : 1000;
}

const ERASE = '\r\x1b[2K';

export function startProgress(io: CliIo, options: { quiet?: boolean }): Progress {
  const stderr = io.stderr as CliIo['stderr'] & { columns?: number };
  // A terminal that says it cannot move the cursor (TERM=dumb: an editor's shell buffer) would print the erase as text.
  const enabled = Boolean(stderr.isTTY) && !envSwitchOn(io.env, 'CI') && io.env.TERM !== 'dumb' && options.quiet !== true;
  if (!enabled) {
    return { enabled, update() {}, show() {}, every() {}, stop() {} };
  }
  const delay = delayFrom(io.env);
  const started = performance.now();
  let lastDraw = -Infinity;
  let calls = 0;
  let drawn = false;
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  // A signal that ends the process while the line is up: erase it first, then let the signal do what it would have done.
  // With no other listener, the signal is sent again once ours is gone, so the process ends as it would have;
  // a command that handles the signal itself goes on doing so, whether it listened before the first draw (plan
  // strategize, whose `once` listener may have run already) or began to since (validate --fix, for its writes).
  let handledElsewhere = new Set<NodeJS.Signals>();
  const onSignal = (signal: NodeJS.Signals) => {
    const elsewhere = handledElsewhere.has(signal) || process.listenerCount(signal) > 1;
    stopped = true;
    erase();
    release();
    if (!elsewhere) process.kill(process.pid, signal);
  };
  const erase = () => {
    if (!drawn) return;
    stderr.write(ERASE);
    drawn = false;
  };
  // Listening from the first draw until stop; never twice.
  let listening = false;
  const listenOnce = () => {
    if (listening) return false;
    listening = true;
    return true;
  };
  const release = () => {
    listening = false;
    for (const s of STOP_SIGNALS) process.removeListener(s, onSignal);
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const draw = (text: string, now: number) => {
    if (!drawn && listenOnce()) {
      handledElsewhere = new Set(STOP_SIGNALS.filter((s) => process.listenerCount(s) > 0));
      for (const s of STOP_SIGNALS) process.on(s, onSignal);
    }
    const width = Math.max(10, terminalSize(stderr).columns - 1);
    stderr.write(`${ERASE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    drawn = true;
    lastDraw = now;
  };
  // At most ten draws a second, except the end of a phase, which is always drawn (once the delay is over):
  // a phase that ends within 100 ms of the last draw still shows that it ran.
  const due = (phaseEnd = false): number | undefined => {
    if (stopped) return undefined;
    const now = performance.now();
    return now - started >= delay && (phaseEnd || now - lastDraw >= 100) ? now : undefined;
  };
  return {
    enabled,
    update(what, done, total) {
      // The clock once every 16 calls, and always at the end of a phase.
      if (++calls % 16 !== 0 && done !== total) return;
      const now = due(done === total);
      if (now === undefined) return;
      const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
      draw(`${what}: ${withCommas(done)} of ${withCommas(total)} (${pct}%)`, now);
    },
    show(line) {
      const now = due();
      if (now !== undefined) draw(line(), now);
    },
    every(line) {
      if (timer !== undefined) clearInterval(timer);
      timer = setInterval(() => {
        const now = due();
        if (now !== undefined) draw(line(), now);
      }, 250);
      // Never the reason the process stays up.
      timer.unref();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      erase();
      release();
    },
  };
}
