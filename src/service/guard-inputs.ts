/**
 * The files a shell command writes that only the file system or git can tell (docs/guard.md, "Shell commands"), read
 * as the command would find them: a patch file's headers, the names a tar (plain or gzip) or zip archive holds, what a
 * script file or a package's script writes, a package's manifest and lock files, and the files git lists for a git
 * command. An archive that cannot be read stands for files of unknown names below the folders it is extracted into.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { archiveKind, tarNames, zipNames } from '../core/guard-archive.ts';
import { type PlacedInput, placedTargets, placedUnreadFolders, shellWritesIn } from '../core/guard-scripts.ts';
import { UsageError } from '../core/errors.ts';
import { GuardTimeout } from '../core/guard-clients.ts';
import { diffNames, untrackedNames } from '../git/diff-names.ts';
import { readRegularFile, throwIfNoFileDescriptor } from '../store/read-file.ts';

/** The largest patch file or archive the hook reads, and the most an archive may inflate to: past them it is unread. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
/** The largest script file (`python3 fix.py`) whose text the hook reads for the files it writes. */
const MAX_SCRIPT_BYTES = 1024 * 1024;
/** The most files an archive may name before it is taken as unread: files of unknown names where it is extracted. */
const MAX_ARCHIVE_NAMES = 100_000;

/** Whether `path` is a regular file (through links); a folder named by a file or one not to be read is none. */
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch (error) {
    throwIfNoFileDescriptor(error, path);
    return false;
  }
}

/**
 * The folder of the package a package manager works on from `start`: the nearest one up to the repository's `top`
 * that holds its manifest; undefined outside the repository, or with none there (then it is `start`'s own).
 */
function packageRoot(manifest: string, start: string, top: string): string | undefined {
  if (relative(top, start).startsWith('..') || isAbsolute(relative(top, start))) return undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (isFile(join(dir, manifest))) return dir;
    if (dir === top || dirname(dir) === dir) return undefined;
  }
}

/**
 * The files the script `name` of the package a manager runs from `start` writes (`npm run build`): its `pre` and
 * `post` scripts' too, each read as a shell command run in the package's folder. None when it has no such script.
 */
function packageScriptPaths(name: string, start: string, top: string): string[] {
  const root = packageRoot('package.json', start, top) ?? start;
  const read = readRegularFile(join(root, 'package.json'), MAX_SCRIPT_BYTES, { followLinks: true });
  if (!read.ok) return [];
  let scripts: unknown;
  try {
    scripts = (JSON.parse(read.bytes.toString('utf8')) as { scripts?: unknown }).scripts;
  } catch {
    return [];
  }
  if (typeof scripts !== 'object' || scripts === null) return [];
  const out: string[] = [];
  for (const key of [`pre${name}`, name, `post${name}`]) {
    const text = Object.hasOwn(scripts, key) ? (scripts as Record<string, unknown>)[key] : undefined;
    if (typeof text !== 'string') continue;
    try {
      out.push(...shellWritesIn(text).paths.map((p) => (isAbsolute(p) || p.startsWith('~') ? p : join(root, p))));
    } catch (error) {
      // A script past what the hook reads in its time names nothing, as a script file does.
      if (!(error instanceof UsageError)) throw error;
    }
  }
  return out;
}

/** A patch file's text, or an archive's names; undefined when the file is not there, too large, or of a kind not read. */
function readInput(input: PlacedInput, path: string, top: string): string | string[] | undefined {
  if (input.kind === 'package') return packageRoot(input.manifest, path, top);
  const read = readRegularFile(path, MAX_INPUT_BYTES, { followLinks: true });
  // unzip looks for `NAME.zip` when NAME is not there.
  if (!read.ok && read.code === 'missing' && input.kind === 'archive' && input.program === 'unzip' && !path.endsWith('.zip'))
    return readInput(input, `${path}.zip`, top);
  if (!read.ok) return undefined;
  if (input.kind === 'patch') return read.bytes.toString('utf8');
  // A script is read by patterns over its whole text: one larger than a program anyone writes by hand is not.
  if (input.kind === 'script') return read.bytes.length <= MAX_SCRIPT_BYTES ? read.bytes.toString('utf8') : undefined;
  let bytes: Uint8Array = read.bytes;
  if (archiveKind(bytes) === 'gzip') {
    try {
      // Loaded here: the hook's every other call never inflates.
      bytes = process.getBuiltinModule('node:zlib').gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES });
    } catch {
      return undefined;
    }
  }
  const kind = archiveKind(bytes);
  const names = kind === 'tar' ? tarNames(bytes) : kind === 'zip' ? zipNames(bytes) : undefined;
  return names !== undefined && names.length <= MAX_ARCHIVE_NAMES ? names : undefined;
}

/**
 * The files `inputs` make their commands write, named as the command's other paths are (`spellings` gives each
 * spelling of a path from where the action starts), `git apply`'s from the repository's `top` too; and the folders
 * an archive that could not be read is extracted into, whose files' names are unknown. `inTime` stops the work past
 * the hook's `deadline` (ms since the epoch), which bounds the git it asks as well.
 */
export function inputPaths(
  inputs: readonly PlacedInput[],
  top: string,
  spellings: (p: string) => string[],
  inTime: () => void,
  deadline?: number,
): { paths: string[]; folders: string[] } {
  const out = { paths: [] as string[], folders: [] as string[] };
  for (const input of inputs) {
    if (input.kind === 'git') {
      inTime();
      const bound = deadline === undefined ? 10_000 : Math.max(1, deadline - Date.now());
      const names =
        input.diff !== undefined ? diffNames(top, input.diff, bound) : untrackedNames(top, input.untracked ?? 'standard', bound);
      // A list git could not give within the hook's time, or too long to hold, is no call the hook can decide.
      if (names === 'timeout') throw new GuardTimeout('no decision in time');
      if (names === 'too-large')
        throw new UsageError(
          'git lists more files than the hook can judge for the command',
          'Run the git command yourself, or narrow it to the paths it is meant for.',
        );
      out.paths.push(...placedTargets(input, names === 'unknown' ? undefined : names, top));
      continue;
    }
    let found = false;
    if (input.file !== '')
      for (const named of spellings(input.file)) {
        inTime();
        if (input.kind === 'package' && input.script !== undefined) {
          out.paths.push(...packageScriptPaths(input.script, resolve(named), top));
          found = true;
          continue;
        }
        const read = readInput(input, resolve(named), top);
        if (read === undefined) continue;
        found = true;
        out.paths.push(...placedTargets(input, read, top));
      }
    if (!found) {
      out.paths.push(...placedTargets(input, undefined, top));
      out.folders.push(...placedUnreadFolders(input));
    }
  }
  return out;
}
