// The files of a folder that a sparse checkout keeps out of the working tree.
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { configMatching, GitProcessError, runGit } from './runner.ts';

/**
 * The tracked files under `dir` (relative to it), hidden ones aside, that git
 * marks skip-worktree and that are not in the working tree: what a sparse
 * checkout leaves out. A file marked by hand (`git update-index
 * --skip-worktree`) that is still on disk is not among them. One `git
 * ls-files` process; none found when git cannot answer.
 */
export async function sparseMissing(dir: string): Promise<string[]> {
  // A folder the checkout leaves out whole is not on disk (a store `init` would make there): git runs in the
  // nearest folder that is, and is asked for the files under `dir`.
  let from = dir;
  while (!existsSync(from) && dirname(from) !== from) from = dirname(from);
  const under = relative(from, dir).split(sep).join('/');
  const skipped = (await skipWorktree(from, [under === '' ? '.' : under]))
    .map(({ path }) => (under === '' ? path : path.slice(under.length + 1)))
    // A hidden file (a folder's `.gitkeep`) holds nothing a reader takes.
    .filter((p) => !p.slice(p.lastIndexOf('/') + 1).startsWith('.'));
  const missing = await Promise.all(
    skipped.map((p) =>
      lstat(join(dir, p)).then(
        () => false,
        () => true,
      ),
    ),
  );
  return skipped.filter((_, i) => missing[i]);
}

/** An index entry a sparse checkout leaves out: its blob, and its mode (`100644`, `120000` for a link, `160000` for a gitlink). */
export interface SparseEntry {
  blob: string;
  mode: string;
}

/**
 * Of `paths` (files relative to `top`, the working tree's top, that are not on disk), those a sparse checkout leaves
 * out, each with the entry the index holds for it: what `git checkout` would put there (a file, or a link whose blob
 * is its target). One `git ls-files` process.
 */
export async function sparseBlobs(top: string, paths: readonly string[]): Promise<Map<string, SparseEntry>> {
  if (paths.length === 0) return new Map();
  return new Map((await skipWorktree(top, paths)).map(({ path, blob, mode }) => [path, { blob, mode }]));
}

/** The tracked files of `pathspecs` (literal, relative to `cwd`) marked skip-worktree, with their staged blobs and modes. */
async function skipWorktree(cwd: string, pathspecs: readonly string[]): Promise<{ path: string; blob: string; mode: string }[]> {
  let out: string;
  try {
    out = (await runGit(cwd, ['--literal-pathspecs', 'ls-files', '-t', '-s', '-z', '--', ...pathspecs])).toString('utf8');
  } catch (error) {
    if (error instanceof GitProcessError) return [];
    throw error;
  }
  // "S <mode> <blob> <stage>\t<path>": the tag, then the staged entry.
  const found: { path: string; blob: string; mode: string }[] = [];
  for (const record of out.split('\0')) {
    if (!record.startsWith('S ')) continue;
    const tab = record.indexOf('\t');
    const [mode, blob] = record.slice(2, tab).split(' ');
    found.push({ path: record.slice(tab + 1), blob: blob!, mode: mode! });
  }
  return found;
}

/**
 * What `git sparse-checkout add` takes to bring every file under `folder` (`/`-separated, from the top of the
 * repository holding `cwd`) back into its checkout. In cone mode (and outside a sparse checkout) the folder itself.
 * Otherwise a pattern of the folder's files: a non-cone `add FOLDER` appends a pattern of the folder, which an
 * exclusion of a folder below it (`!/.agents/projects/`) still overrides, as git matches the nearer folder first.
 */
export async function sparseAddArgument(cwd: string, folder: string): Promise<string> {
  let settings: Map<string, string>;
  try {
    // The last of each key wins, as git reads its files in order.
    settings = new Map(await configMatching(cwd, '^core\\.sparsecheckout(cone)?$', ['--type=bool']));
  } catch (error) {
    if (error instanceof GitProcessError) return folder;
    throw error;
  }
  if (settings.get('core.sparsecheckout') !== 'true' || settings.get('core.sparsecheckoutcone') === 'true') return folder;
  // Glob characters of the folder's name taken literally; the leading `/` anchors it at the top.
  return `/${folder.replace(/[\\*?[]/g, '\\$&')}/**`;
}
