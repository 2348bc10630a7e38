/**
 * Whether an on/off environment variable (`CI`, `AGENTS_NO_CACHE`) is on: set to anything but empty, `0` or `false`
 * (any case). One reading for each such variable, so that `AGENTS_NO_CACHE=0` turns the cache back on as `CI=0`
 * turns prompts back on, rather than each caller deciding what a value means.
 */
export function envSwitchOn(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
