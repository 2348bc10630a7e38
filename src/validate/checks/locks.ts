import type { Diagnostic } from '../../core/diagnostics.ts';
import type { PathKind } from '../../core/layout.ts';
import type { TreeEntry, TreeSource } from '../../store/tree-source.ts';
import type { ValidateOptions } from './context.ts';
import { problem } from './problem.ts';
import { staleLockReason } from '../../store/lock-owner.ts';

/**
 * `.lock` files: in the working tree, stale when their process is gone; in
 * git, never to be committed. At a lock's name, anything but a regular file
 * (a folder, a link, a FIFO…) is an error: no writer can take or clear it, so
 * every writer of that scope would wait on it.
 */
export async function checkLocks(
  source: TreeSource,
  entries: readonly TreeEntry[],
  kinds: readonly PathKind[],
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const inGit = !options.lockHolderAlive;
  const scopeOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/'))) || 'the store';
  const fixHint = inGit
    ? 'Remove it from git (`git rm -r --cached <path>`) and add `.lock` to .gitignore.'
    : 'Run `agents validate --fix` to remove it (it never holds anything of the store).';
  // The lock files; what is no file is reported now.
  const locks: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (kinds[i]!.kind !== 'lock') continue;
    const e = entries[i]!;
    if (e.type === 'file') {
      locks.push(e.path);
      continue;
    }
    const what = e.type === 'dir' ? 'a folder' : e.type === 'symlink' ? 'a symbolic link' : 'a special file (FIFO, socket or device)';
    out.push(
      problem(
        'bad-lock',
        'error',
        e.path,
        `${e.path} is ${what}, not a writer's lock file; every writer of ${scopeOf(e.path)} would wait on it`,
        fixHint,
      ),
    );
  }
  if (inGit) {
    for (const path of locks) {
      out.push(
        problem(
          'bad-lock',
          'error',
          path,
          `${path} is a writer's lock file committed to git; checked out, it can stop every writer of ${scopeOf(path)}`,
          fixHint,
        ),
      );
    }
    return out;
  }
  const contents = await source.read(locks);
  for (const path of locks) {
    const r = contents.get(path)!;
    if (!r.ok && r.code !== 'missing') {
      // Listed as a file, but not one when read (replaced meanwhile by a FIFO or a device).
      out.push(problem('bad-lock', 'error', path, `${path} ${r.message}; every writer of ${scopeOf(path)} would wait on it`, fixHint));
      continue;
    }
    const text = r.ok ? new TextDecoder().decode(r.bytes) : '';
    // The writers' own rule, so that `--fix` never keeps a lock reported here as stale.
    const why = staleLockReason(text, options.lockAge?.(path) ?? Number.POSITIVE_INFINITY, (o) =>
      options.lockHolderAlive!(o.pid, o.host, o.taken, o.ns, o.start) === false ? `process ${o.pid} on ${o.host} is gone` : null,
    );
    if (why !== null) {
      out.push(
        problem(
          'stale-lock',
          'warning',
          path,
          `${path} is stale: ${why}`,
          'Run `agents validate --fix` to remove it (or delete it if no agents command is running); the next writer clears it too.',
        ),
      );
    }
  }
  return out;
}
