// Index entries git is told not to look at in the working tree (`git update-index --assume-unchanged` or
// `--skip-worktree`, which an agent can run): `git diff` takes such a file as its index copy, so an edit made to it
// through the shell is in no diff. guard check and validate --changed compare each one with its index blob
// themselves (docs/guard.md, docs/validation.md).
import { constants } from 'node:buffer';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { catFileBatch } from './object-reader.ts';
import { type ConfigPair, configMatching } from './runner.ts';

/**
 * git's options that keep a `core.fsmonitor` hook (config an agent can write) from answering for the working tree: one
 * that reports no change makes git trust the index for every file. The working tree is read as it is instead, and no
 * program the config names is run.
 */
export const NO_FSMONITOR = ['-c', 'core.fsmonitor=false'] as const;

/**
 * Configuration that switches off each filter driver git's config names (`filter.NAME.clean` or `process`, which a
 * `.gitattributes` line gives files; an agent can write both): git compares a working-tree file by what its clean
 * filter prints, so one that prints the committed text hides every edit from the diff. The bytes are read as they are.
 * One git process.
 */
export async function noFilters(cwd: string): Promise<ConfigPair[]> {
  const drivers = new Set(
    (await configMatching(cwd, '^filter\\..+\\.(clean|process)$')).map(([key]) => key.slice('filter.'.length, key.lastIndexOf('.'))),
  );
  return [...drivers].flatMap((name): ConfigPair[] => [
    [`filter.${name}.clean`, ''],
    [`filter.${name}.process`, ''],
    [`filter.${name}.required`, 'false'],
  ]);
}

/** An index entry `git ls-files -v -s` marks as hidden from the working tree. */
export interface HiddenEntry {
  path: string;
  /** The blob the index lists for it. */
  oid: string;
  /** Set by `--skip-worktree`, as a sparse checkout sets it: such a file missing from the working tree is not deleted. */
  skipWorktree: boolean;
}

/**
 * The hidden entries of `git ls-files -v -s` records ("h 100644 <oid> 0\tpath"): assume-unchanged ones are tagged
 * with a lower-case letter, skip-worktree ones with `S` (`s` for both). Only stage 0: a conflict is seen by git anyway.
 */
export function hiddenEntry(record: string): HiddenEntry | undefined {
  const m = /^([A-Za-z]) [0-7]+ ([0-9a-f]+) 0\t([\s\S]*)$/.exec(record);
  if (!m) return undefined;
  const tag = m[1]!;
  const skipWorktree = tag === 'S' || tag === 's';
  if (!skipWorktree && tag === tag.toUpperCase()) return undefined;
  return { path: m[3]!, oid: m[2]!, skipWorktree };
}

/**
 * The hidden entries of a whole `git ls-files -v -s -z` listing (see hiddenEntry). A record tagged `H`, as nearly all
 * are, is stepped over in the bytes: a store of many files is listed on every `guard check --staged`.
 */
export function hiddenEntries(listing: Buffer): HiddenEntry[] {
  const out: HiddenEntry[] = [];
  for (let start = 0; start < listing.length; ) {
    let end = listing.indexOf(0, start);
    if (end < 0) end = listing.length;
    // "H " (0x48, 0x20): a tracked entry the working tree shows as it is.
    if (!(listing[start] === 0x48 && listing[start + 1] === 0x20)) {
      const entry = hiddenEntry(listing.toString('utf8', start, end));
      if (entry) out.push(entry);
    }
    start = end + 1;
  }
  return out;
}

/** The most bytes of a working-tree file read to check its lines: the longest text the runtime holds, which a UTF-8 file of that size fits in. */
export const WORKTREE_LIMIT = constants.MAX_STRING_LENGTH;

/**
 * The bytes of the regular file `full` (`path` from the top, `size` its lstat's), refused over {@link WORKTREE_LIMIT}
 * (exit 2, `worktree-file-too-large`): a check must never pass lines it did not read, and the read stays bounded.
 */
export function readWhole(full: string, path: string, size: number): Buffer {
  const tooLarge = (bytes: number) =>
    new AgentsError(
      `${path}: a file of ${bytes} bytes in the working tree, over the ${WORKTREE_LIMIT} bytes read of one to check its lines; nothing was judged`,
      EXIT_CODES.usage,
      {
        hint: `If ${path} is not part of the change, add it to .gitignore or remove it (a tracked one: git update-index --no-assume-unchanged --no-skip-worktree, then git rm --cached); then run the command again.`,
        code: 'worktree-file-too-large',
        detail: { file: path, bytes, limit: WORKTREE_LIMIT },
      },
    );
  if (size > WORKTREE_LIMIT) throw tooLarge(size);
  const bytes = readFileSync(full);
  // Grown since lstat: its lines would not fit in one text either.
  if (bytes.length > WORKTREE_LIMIT) throw tooLarge(bytes.length);
  return bytes;
}

/**
 * A file's bytes as git would hash them (a link's target); undefined when it is gone, null when it is something else
 * (a submodule's folder), which is judged by git's diff alone.
 */
function worktreeBytes(top: string, path: string): Buffer | undefined | null {
  try {
    const full = join(top, path);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) return Buffer.from(readlinkSync(full, 'utf8'), 'utf8');
    return st.isFile() ? readWhole(full, path, st.size) : null;
  } catch (error) {
    if (error instanceof AgentsError) throw error;
    return undefined;
  }
}

function lines(text: string): string[] {
  if (text === '') return [];
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/**
 * The hidden files whose working-tree copy differs from the index, as a diff of `rev` with the working tree would
 * show them: a deleted one with no line, a changed one with each line the revision's copy does not hold (as many
 * times as it holds it) taken as added. One `git cat-file --batch` for all of them.
 */
export async function hiddenEdits(
  top: string,
  rev: string | undefined,
  entries: readonly HiddenEntry[],
): Promise<{ path: string; added: { line: number; text: string }[] }[]> {
  // A revision's copy is named by path, which may not hold a newline in cat-file's names: such a file's lines all count.
  const oldName = (path: string) => (rev === undefined || path.includes('\n') ? undefined : `${rev}:${path}`);
  const names = entries.flatMap((e) => [e.oid, oldName(e.path)].filter((n): n is string => n !== undefined));
  const blobs = await catFileBatch(top, names);
  const out: { path: string; added: { line: number; text: string }[] }[] = [];
  for (const e of entries) {
    const now = worktreeBytes(top, e.path);
    if (now === null) continue;
    if (now === undefined) {
      // Missing: deleted, unless skip-worktree left it out as a sparse checkout does.
      if (!e.skipWorktree) out.push({ path: e.path, added: [] });
      continue;
    }
    const indexed = blobs.get(e.oid);
    if (indexed?.equals(now)) continue;
    const name = oldName(e.path);
    const before = new Map<string, number>();
    for (const l of lines((name === undefined ? null : blobs.get(name))?.toString('utf8') ?? '')) before.set(l, (before.get(l) ?? 0) + 1);
    const added: { line: number; text: string }[] = [];
    lines(now.toString('utf8')).forEach((text, i) => {
      const left = before.get(text) ?? 0;
      if (left > 0) before.set(text, left - 1);
      else added.push({ line: i + 1, text });
    });
    out.push({ path: e.path, added });
  }
  return out;
}
