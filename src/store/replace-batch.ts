// Many files replaced, each atomically, with one flush of the file system
// for them all (`validate --fix`); single writes are atomic-write.ts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentsError } from '../core/errors.ts';
import { temporaryName } from '../core/layout.ts';
import { assertMine, fsyncDir, modeToKeep, writeFailure } from './atomic-write.ts';
import { writerMark } from './lock-owner.ts';
import { writeAll } from './write-all.ts';
import { assertNoLinkedFolder } from './no-links.ts';

/** fsync errors that mean written bytes did not reach the disk. */
const LOST_DATA = new Set(['ENOSPC', 'EDQUOT', 'EIO']);

/**
 * Flushes the file system that holds `path` to its disk: syncfs(2), through
 * coreutils `sync -f` (Linux). One call costs about as much as a few fsyncs,
 * however many files were written since. False where it is not available;
 * the caller then flushes file by file.
 */
export function syncFileSystem(path: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return spawnSync('sync', ['-f', path], { stdio: 'ignore', timeout: 120_000 }).status === 0;
  } catch {
    return false;
  }
}

/**
 * Replaces many files, each atomically, without an fsync per file
 * (docs/adr/0076-validate-fix-one-flush.md): every new content goes to a temporary beside its file first
 * (`stage`); `commit` then flushes them all to disk at once, renames each into
 * place, and flushes the renames. A crash at any point leaves each file
 * either as it was or replaced whole, and at most temporaries that readers
 * skip and `validate --fix` removes; after a power loss the same holds, since
 * no rename is made before the data it exposes is on disk.
 */
export class ReplaceBatch {
  /**
   * The staged files, by store-relative path only: the temporary's name
   * follows from the path and its place here (`tmpOf`), so a large batch
   * keeps no absolute paths (docs/adr/0071-bounded-memory.md).
   */
  private readonly staged: string[] = [];
  private readonly safeFolders = new Set<string>();
  private dirty = false;
  /** Random per batch, as `tempName`'s is per file: `.<name>.<writer>.<pid>.<token><n>.tmp`. */
  private readonly token = randomBytes(4).toString('hex');

  constructor(private readonly root: string) {
    assertMine(root);
  }

  private tmpOf(rel: string, n: number): string {
    const slash = rel.lastIndexOf('/');
    return join(
      this.root,
      rel.slice(0, slash + 1),
      temporaryName(rel.slice(slash + 1), process.pid, writerMark(), `${this.token}${n.toString(16)}`),
    );
  }

  /** Writes the new content of `rel` to a temporary beside it; throws the user-facing error of a refused write (nothing left behind). */
  stage(rel: string, content: string): void {
    const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (!this.safeFolders.has(relDir)) {
      assertNoLinkedFolder(this.root, relDir, `write ${rel}`);
      this.safeFolders.add(relDir);
    }
    const tmp = this.tmpOf(rel, this.staged.length);
    try {
      const keep = modeToKeep(join(this.root, rel));
      const fd = openSync(tmp, 'wx', 0o644);
      try {
        if (keep !== undefined) fchmodSync(fd, keep);
        writeAll(fd, content);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      removeQuietly(tmp);
      throw writeFailure(error, rel);
    }
    this.staged.push(rel);
  }

  /** Removes a file (made durable by `commit`'s final flush); false when it was gone already. */
  remove(rel: string): boolean {
    const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    assertNoLinkedFolder(this.root, relDir, `remove ${rel}`);
    this.safeFolders.add(relDir);
    try {
      unlinkSync(join(this.root, rel));
    } catch (error) {
      // A temporary gone since the check: its writer finished and renamed it into place, which is no failure.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw writeFailure(error, rel);
    }
    this.dirty = true;
    return true;
  }

  /** Removes every staged temporary and puts none in place (a run cancelled before `commit`). */
  discard(): void {
    for (const [n, rel] of this.staged.entries()) removeQuietly(this.tmpOf(rel, n));
    this.staged.length = 0;
  }

  /** Puts every staged file in place; returns the files that could not be, with why (their temporaries removed). */
  commit(): Map<string, AgentsError> {
    const failed = new Map<string, AgentsError>();
    if (this.staged.length > 0) {
      // The data first: a rename must never reach the disk before the bytes it exposes.
      const flushed = syncFileSystem(this.root);
      for (const [n, rel] of this.staged.entries()) {
        const tmp = this.tmpOf(rel, n);
        try {
          if (!flushed) fsyncFile(tmp);
          renameSync(tmp, join(this.root, rel));
          this.dirty = true;
        } catch (error) {
          removeQuietly(tmp);
          failed.set(rel, writeFailure(error, rel));
        }
      }
      this.staged.length = 0;
    }
    if (this.dirty && !syncFileSystem(this.root)) for (const dir of this.folders()) fsyncDir(dir);
    this.dirty = false;
    return failed;
  }

  private folders(): Set<string> {
    return new Set([...this.safeFolders].map((d) => join(this.root, d)));
  }
}

/** Removes a temporary of the batch; one never made, or gone already, is no error. */
function removeQuietly(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    // Never made, or gone already.
  }
}

function fsyncFile(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    fsyncSync(fd);
  } catch (error) {
    // Data the disk could not take must stop the rename; anything else (gone, not flushable) need not.
    if (LOST_DATA.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
