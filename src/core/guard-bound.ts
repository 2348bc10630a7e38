/**
 * The bound of one guard decision for a caller that waits on it (the hook's client, an agent's MCP `check_action`):
 * past it the decision is given up and answered by guard.on_error (docs/guard.md, "When the hook cannot decide"). Pure.
 */

/** The bound as set: a bound below a second in milliseconds, which rounded to tenths of a second read `0 s`. */
export const boundText = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

/**
 * The longest bound: `guard install` gives the hook 30 s in each client's settings (and puts back a timeout changed
 * there), and a client lets the call through, unlogged, when the hook runs past it; the 10 s left are for the
 * process to start, answer by guard.on_error and log (docs/adr/0089-guard-hook-bounds-its-time.md).
 */
export const MAX_HOOK_BOUND_MS = 20_000;

/**
 * How long the hook works at most (AGENTS_GUARD_TIMEOUT_MS, else 20 s) before it answers without its decision, the
 * problem of a value that is no number, and how a reason names the bound (`source`). A value above
 * {@link MAX_HOOK_BOUND_MS} is taken as that: a longer one let the client cut the hook off first.
 */
export function hookTimeout(env: Record<string, string | undefined>): { ms: number; source: string; problem?: string } {
  const raw = env.AGENTS_GUARD_TIMEOUT_MS;
  const source = 'AGENTS_GUARD_TIMEOUT_MS';
  if (raw === undefined || raw === '') return { ms: MAX_HOOK_BOUND_MS, source };
  // However many digits: a whole number past the cap is capped, not refused as no number.
  if (/^\d+$/.test(raw) && Number(raw) > MAX_HOOK_BOUND_MS)
    return {
      ms: MAX_HOOK_BOUND_MS,
      source: `AGENTS_GUARD_TIMEOUT_MS=${raw.length > 20 ? `${raw.slice(0, 20)}…` : raw} is capped at ${boundText(MAX_HOOK_BOUND_MS)}, below the 30 s guard install gives the hook`,
    };
  if (/^\d{1,9}$/.test(raw) && Number(raw) > 0) return { ms: Number(raw), source };
  // Said, as AGENTS_LOCK_TIMEOUT_MS's is; the hook keeps its own bound meanwhile.
  return {
    ms: MAX_HOOK_BOUND_MS,
    source,
    problem: `AGENTS_GUARD_TIMEOUT_MS="${raw.slice(0, 20)}" is not a number of milliseconds (set it to one such as 20000, or unset it)`,
  };
}
