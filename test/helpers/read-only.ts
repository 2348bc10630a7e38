import { spawnSync } from 'node:child_process';
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
