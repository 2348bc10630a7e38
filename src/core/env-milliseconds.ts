import { UsageError } from './errors.ts';

/**
 * A time in milliseconds an environment variable sets (`AGENTS_LOCK_TIMEOUT_MS`, `AGENTS_REGEX_TIME_LIMIT_MS`), else
 * `fallback` when it is unset or empty: one reading for each such variable, so that each refuses a value that is no
 * whole number alike (exit 2). `least` 1 refuses 0 too, for a limit under which nothing could run.
 */
export function millisecondsFromEnv(env: Record<string, string | undefined>, name: string, fallback: number, least: 0 | 1 = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < least)
    throw new UsageError(
      `${name}="${raw.slice(0, 20)}" is not a ${least === 1 ? 'positive ' : ''}number of milliseconds`,
      `Set it to a whole number such as ${fallback}, or unset it.`,
    );
  return Number(raw);
}
