// Many new files and new folders written as one change, with one flush of
// the file system for them all (`import`): the create-only sibling of
// replace-batch.ts. Single writes are atomic-write.ts.
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentsError } from '../core/errors.ts';
import { assertMine, fsyncDir, tempName, writeFailure } from './atomic-write.ts';
import { makeFolders, writeAll } from './write-all.ts';
import { assertNoLinkedFolder } from './no-links.ts';
import { syncFileSystem } from './replace-batch.ts';

/**
 * New files (in folders that exist) and new folders with their files, put in
 * place together or not at all. Each is written to a temporary first (a file
 * beside its name, a folder's files in a temporary folder beside it), with no
 * flush; `commit` then flushes the file system once, links each file into
 * place (which fails if the name exists: nothing is overwritten) and renames
 * each folder into place (so a folder appears whole, its files with it), and
 * flushes once more. A failure removes what the batch had put in place and
 * its temporaries, and is thrown: the store is as it was. A crash leaves each
 * file whole or absent, and temporaries that readers skip and `validate --fix`
 * removes; no rename or link reaches the disk before the data it exposes.
 */
export class CreateBatch {
  private readonly files: { rel: string; tmp: string }[] = [];
  private readonly folders: { rel: string; tmp: string; names: string[] }[] = [];
  private readonly safeFolders = new Set<string>();

  constructor(private readonly root: string) {
    assertMine(root);
  }

  private checkFolder(relDir: string, action: string): void {
    if (this.safeFolders.has(relDir)) return;
    assertNoLinkedFolder(this.root, relDir, action);
    this.safeFolders.add(relDir);
  }

  /** Writes `content` to a temporary beside `rel`, a new file of a folder that exists (or is made here). */
  file(rel: string, content: string): void {
    const relDir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    this.checkFolder(relDir, `write ${rel}`);
    const path = join(this.root, rel);
    const tmp = tempName(path);
    this.files.push({ rel, tmp });
    try {
      makeFolders(dirname(path));
      writeNew(tmp, content);
    } catch (error) {
      this.discard();
      throw writeFailure(error, rel);
    }
  }

  /** Writes the files of the new folder `rel` into a temporary folder beside it. */
  folder(rel: string, files: readonly { name: string; content: string }[]): void {
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    this.checkFolder(parent, `create ${rel}`);
    const tmp = tempName(join(this.root, rel));
    const entry = { rel, tmp, names: files.map((f) => f.name) };
    try {
      makeFolders(dirname(tmp));
      mkdirSync(tmp);
      this.folders.push(entry);
      for (const f of files) writeNew(join(tmp, f.name), f.content);
    } catch (error) {
      this.discard();
      throw writeFailure(error, rel);
    }
  }

  /** Puts every file and folder in place, or, when one cannot be, none of them (then throws why). */
  commit(): void {
    // The data first: a link or a rename must never reach the disk before the bytes it exposes.
    if (!syncFileSystem(this.root)) {
      try {
        this.flushEach();
      } catch (error) {
        this.discard();
        throw writeFailure(error, this.folders[0]?.rel ?? this.files[0]?.rel ?? '');
      }
    }
    const placed: { rel: string; names?: string[] }[] = [];
    let at = '';
    try {
      for (const f of this.folders) {
        at = f.rel;
        renameSync(f.tmp, join(this.root, f.rel));
        placed.push({ rel: f.rel, names: f.names });
      }
      for (const f of this.files) {
        at = f.rel;
        linkSync(f.tmp, join(this.root, f.rel));
        placed.push({ rel: f.rel });
        unlinkSync(f.tmp);
      }
    } catch (error) {
      const left = this.undo(placed);
      this.discard();
      const failure = writeFailure(error, at);
      if (left.length === 0) throw failure;
      throw new AgentsError(failure.message, failure.exitCode, {
        hint: `${left.join(', ')} could not be removed again. Delete ${left.length === 1 ? 'it' : 'them'} when the store is writable, then run the command again.`,
      });
    }
    if (!syncFileSystem(this.root))
      for (const dir of new Set([...this.folders, ...this.files].map((f) => dirname(join(this.root, f.rel))))) fsyncDir(dir);
    this.files.length = 0;
    this.folders.length = 0;
  }

  /** Where the file system cannot be flushed at once: each temporary, and each temporary folder's entries. */
  private flushEach(): void {
    for (const f of this.files) fsyncPath(f.tmp);
    for (const f of this.folders) {
      for (const name of f.names) fsyncPath(join(f.tmp, name));
      fsyncDir(f.tmp);
    }
  }

  /** Takes out again what was put in place (the batch's own files only); returns what could not be. */
  private undo(placed: readonly { rel: string; names?: string[] }[]): string[] {
    const left: string[] = [];
    for (const p of [...placed].reverse()) {
      const path = join(this.root, p.rel);
      try {
        if (p.names === undefined) unlinkSync(path);
        else {
          for (const name of p.names) unlinkSync(join(path, name));
          rmdirSync(path);
        }
        fsyncDir(dirname(path));
      } catch {
        left.push(p.rel);
      }
    }
    return left;
  }

  /** Removes every temporary the batch made (its own, by their random names). */
  discard(): void {
    for (const f of this.files) {
      try {
        unlinkSync(f.tmp);
      } catch {
        // Placed (and unlinked) already, or never made.
      }
    }
    for (const f of this.folders) rmSync(f.tmp, { recursive: true, force: true });
    this.files.length = 0;
    this.folders.length = 0;
  }
}

/** A new file holding `content` (fails if the name exists), not flushed. */
function writeNew(path: string, content: string): void {
  const fd = openSync(path, 'wx', 0o644);
  try {
    writeAll(fd, content);
  } finally {
    closeSync(fd);
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
