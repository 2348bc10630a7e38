import { spawnSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { BIN } from './cli.ts';

/**
 * Runs the CLI on the store `root` made read-only: a read-only bind mount in a private mount namespace (a real
 * read-only file system, which refuses even root), else, where namespaces are not allowed, as a user who may not
 * write it.
 */
export function runReadOnly(root: string, args: readonly string[]) {
  const probe = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -o bind,ro "$1" "$1"', 'sh', root]);
  const argv = ['--store', root, ...args];
  const options = { encoding: 'utf8' as const, env: { ...process.env, CI: 'true' } };
  return probe.status === 0
    ? spawnSync(
        'unshare',
        ['-rm', 'sh', '-c', 'mount -o bind,ro "$1" "$1" && shift && exec "$@"', 'sh', root, process.execPath, BIN, ...argv],
        options,
      )
    : spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...argv], options);
}

/**
 * Makes `path` (a file or folder) read-only for this process, in place: a read-only bind mount when running as root
 * (who writes through any file mode), else no write permission. Returns what undoes it, or undefined where it cannot
 * be done (root without mount): the caller skips.
 */
export function makeReadOnly(path: string): (() => void) | undefined {
  if (process.getuid?.() === 0) {
    if (spawnSync('mount', ['--bind', path, path]).status !== 0) return undefined;
    if (spawnSync('mount', ['-o', 'remount,ro,bind', path]).status !== 0) {
      spawnSync('umount', [path]);
      return undefined;
    }
    return () => spawnSync('umount', [path]);
  }
  const mode = statSync(path).mode & 0o7777;
  chmodSync(path, mode & ~0o222);
  return () => chmodSync(path, mode);
}
