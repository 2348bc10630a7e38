/**
 * Where the suite's temporary folders go. The suite makes and removes tens of thousands of files
 * (git repositories, stores, npm installs); on ext4 a new inode is then searched for among the
 * recently deleted ones, which took a seventh of the suite's CPU. A tmpfs has no such search, so
 * when `TMPDIR` is not set and `/dev/shm` is a tmpfs with room to spare, each run gets a folder of
 * its own there (docs/adr/0117-test-folders-on-a-tmpfs.md). A `TMPDIR` the caller sets is kept.
 */
import { accessSync, chmodSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const SHM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
/** The most the suite holds at once is well under this (the pre-commit framework's node install is the largest). */
const ROOM = 4 * 1024 ** 3;
const PREFIX = 'agents-tests-';

/** True when process `pid` still runs (a signal 0 reaches it, or it is another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function usableTmpfs(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const fs = statfsSync(dir);
    return fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= ROOM;
  } catch {
    return false;
  }
}

/**
 * The folder this run's temporary files go under, made now, or undefined to keep the system's.
 * Folders of earlier runs whose process is gone (a run killed before its teardown) are removed,
 * since a tmpfs holds them in memory until the machine restarts.
 */
export function suiteTmpRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TMPDIR) return undefined;
  if (!usableTmpfs(SHM)) return undefined;
  for (const name of readdirSync(SHM)) {
    const pid = Number(/^agents-tests-(\d+)-/.exec(name)?.[1]);
    if (pid > 0 && !alive(pid)) rmSync(join(SHM, name), { recursive: true, force: true });
  }
  const root = mkdtempSync(join(SHM, `${PREFIX}${process.pid}-`));
  // As /tmp is: the tests that run a command as another user reach their folders through it.
  chmodSync(root, 0o1777);
  return root;
}
