// What stands at a scope lock's name when it is no lock file a writer made (a folder, a link, a FIFO): said to a
// writer, which stops at once, and removed by `validate --fix`.
import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentsError, EXIT_CODES, InvalidStoreError } from '../core/errors.ts';
import { LOCK_NAME } from '../core/layout.ts';
import { fsyncDir, writeFailure } from './atomic-write.ts';
import { assertNoLinkedFolder } from './no-links.ts';
import { describeType } from './read-file.ts';

/**
 * What stands at a lock's name when it is not a file a writer made (a folder,
 * a link, a FIFO…): no writer could ever take or clear it. Null for a regular
 * file or nothing.
 */
export function lockBlocker(path: string): string | null {
  try {
    const st = lstatSync(path);
    return st.isFile() ? null : describeType(st);
  } catch {
    return null;
  }
}

/**
 * Removes what stands at a lock's name when it is not a regular file (see
 * lockBlocker): a link, a FIFO, a socket or device node, or an empty folder.
 * A folder that holds files is kept (they are not the tool's to delete), and
 * so is a regular file, which may be a live writer's lock.
 */
export function removeLockBlocker(root: string, rel: string): void {
  assertNoLinkedFolder(root, rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '', `remove ${rel}`);
  const path = join(root, rel);
  let folder: boolean;
  try {
    const st = lstatSync(path);
    if (st.isFile()) throw new AgentsError(`${rel} is a regular file now (a writer's lock); it was kept`, EXIT_CODES.usage);
    folder = st.isDirectory();
  } catch (error) {
    if (error instanceof AgentsError) throw error;
    return; // Gone already: nothing stands in a writer's way.
  }
  try {
    if (folder) rmdirSync(path);
    else unlinkSync(path);
    fsyncDir(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY')
      throw new AgentsError(`${rel}/ holds files; move them out, then remove the folder`, EXIT_CODES.usage);
    throw writeFailure(error, rel);
  }
}

/**
 * Refuses (exit 3) at once when the lock of `folder` (or its breaker) is something no writer can take or clear.
 * `label`: a folder outside the store (under the git folder), named by its whole path: `validate --fix` never
 * reaches it, so the hint says to remove it.
 */
export function assertLockUsable(lockPath: string, folder: string, label?: string): void {
  for (const [path, name] of [
    [lockPath, LOCK_NAME],
    [`${lockPath}.break`, `${LOCK_NAME}.break`],
  ] as const) {
    const what = lockBlocker(path);
    if (what === null) continue;
    const owner = label ?? folder;
    const file = owner === '' ? name : `${owner}/${name}`;
    const message = `${file} is ${what}, not a writer's lock file; every writer of ${owner || 'the store'} would wait on it`;
    const remove =
      label === undefined
        ? {
            fix: 'Run `agents validate --fix` to remove it',
            whole: (agents: string) => `Run \`${agents} validate --fix\` to remove ${file}`,
          }
        : { fix: 'Move it away or delete it', whole: () => `Move ${file} away or delete it` };
    throw new InvalidStoreError(
      `cannot lock ${owner || 'the store'}: ${message}`,
      [
        {
          code: 'bad-lock',
          severity: 'error',
          file,
          line: 0,
          col: 0,
          message,
          hint: `${remove.fix} (it never holds anything of the store).`,
        },
      ],
      (agents) => `Nothing was written. ${remove.whole(agents)}, then run the command again.`,
    );
  }
}
