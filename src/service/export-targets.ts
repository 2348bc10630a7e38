// The files an export writes, on disk: whether a path may be written (no
// link on the way, folders that are folders, a writable place) and what is
// there now. Usage errors (exit 2), raised before any file is written.
import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { ExportTargetName } from '../core/model.ts';
import type { Merge, RefusalReason } from '../core/export-merge.ts';
import { shellPath } from '../core/shell-word.ts';
import { readUtf8 } from '../core/utf8.ts';
import { type IgnoredPath, ignoredPaths } from '../git/commit.ts';
import { crlfInCheckout } from '../git/line-ends.ts';
import { indexFileGitlinks } from '../git/index-tree.ts';
import { indexGitlinks } from '../git/gitlinks.ts';
import { writeFailure } from '../store/atomic-write.ts';
import { type FileRead, readRegularFile } from '../store/read-file.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { absoluteLinkInside } from './link-paths.ts';
import { optionWords } from './option-words.ts';

/** The way round a refused target's file that the library's caller can take (the command line names its flag). */
const LIBRARY_OTHERWISE = `or ${optionWords(undefined).withoutTarget}`;

/** Why a target file cannot be written (`detail.reason` of `export-target-refused`, docs/json-output.md). */
type RefusedBecause =
  | 'symbolic-link'
  | 'absolute-link'
  | 'hard-link'
  | 'not-a-folder'
  | 'not-a-file'
  | 'link-to-other-rules'
  | 'link-chain'
  | 'other-repository'
  | 'not-writable'
  | 'not-utf8'
  | 'name-not-utf8'
  | 'unreadable'
  | 'too-large'
  | 'changed';

/** A target the export refuses, exit 2, before any file is written: one code, the path and the reason in its detail. */
export function targetRefused(message: string, hint: string, path: string, reason: RefusedBecause): UsageError {
  return new UsageError(message, hint, { path, reason }, 'export-target-refused');
}

/** An instruction file larger than this is not one the tool wrote: refused rather than read. */
export const MAX_TARGET_BYTES = 4 * 1024 * 1024;

/** One file an export writes, or would. */
export interface FileChange {
  path: string;
  target: ExportTargetName;
  action: 'create' | 'update' | 'unchanged' | 'delete';
  /** The text on disk before (undefined: no file). */
  before: string | undefined;
  /** The text after (undefined: the file is deleted). */
  after: string | undefined;
  /** The block is taken back from a file no project names any more, which stays for the owner's own text. */
  obsolete?: true;
}

/** A file the export leaves alone, and why. */
export interface Refusal {
  path: string;
  reason: RefusalReason;
  why: string;
  /** Where in the file to look (from 1), when known: a damaged block's marker, the first line a hand edit changed. */
  line?: number;
  /** A block edited by hand: the file's text now and what `--force` makes of it (undefined: deleted), --check's diff. */
  forced?: { before: string; after: string | undefined };
}

/**
 * A file left alone, with the line to look at when the refusal knows one. `before` is its text now, and `force` the
 * same merge with --force: asked only for a block edited by hand, the one refusal --force overrides by rewriting it.
 */
export function refusalOf(
  path: string,
  r: Extract<Merge, { kind: 'refuse' }>,
  before?: string,
  force?: () => Merge | { kind: 'delete' },
): Refusal {
  const refusal: Refusal = { path, reason: r.reason, why: r.why, ...(r.line === undefined ? {} : { line: r.line }) };
  if (r.reason !== 'hand-edited' || before === undefined || force === undefined) return refusal;
  const forced = force();
  if (forced.kind === 'write') refusal.forced = { before, after: forced.text };
  else if (forced.kind === 'delete') refusal.forced = { before, after: undefined };
  return refusal;
}

/**
 * A repository-relative path an export may write: no folder on the way, and not the file itself, is a symbolic link (it
 * could lead out of the repository; by absolute path, elsewhere in other clones), and the folders on the way are
 * folders. Usage error (exit 2) otherwise, before anything is written.
 */
export function checkTargetPath(
  top: string,
  rel: string,
  last: 'file' | 'folder' = 'file',
  folders?: Set<string>,
  /** The way round the hint offers: leaving the target out, as the caller's options name that. */
  otherwise = LIBRARY_OTHERWISE,
): void {
  const parts = rel.split('/');
  let at = '';
  for (let i = 0; i < parts.length; i++) {
    at = at === '' ? parts[i]! : `${at}/${parts[i]}`;
    // Folders already found to be real folders (the files of one export share most of theirs).
    if (i < parts.length - 1 && folders?.has(at)) continue;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(join(top, at));
    } catch {
      // A name that is not UTF-8 is listed with U+FFFD for its bytes, a name no folder has: a file written there would
      // make a folder of that mangled name beside the real one, which its agents never read.
      if (parts[i]!.includes('\uFFFD'))
        throw targetRefused(
          `cannot export to ${rel}: the name of ${at} is not UTF-8 (shown with \uFFFD for its bytes), so no file can be written in it by that name`,
          `Rename the folder to a UTF-8 name, ${otherwise}; nothing was written.`,
          rel,
          'name-not-utf8',
        );
      // A folder missing on the way may be a submodule's git has not checked out (its folder gone, or never made,
      // with or without a line of .gitmodules): the index's gitlink is all that says so, and a folder made there
      // would hold what git never sees.
      const linked = i < parts.length - 1 ? gitlinkOnWay(top, parts.slice(0, -1).join('/'), at, folders) : undefined;
      if (linked !== undefined) throw otherRepository(rel, linked, otherwise);
      return;
    }
    // A link by absolute path into the repository is refused for its true fault: it leads elsewhere in every other clone.
    const absolute = st.isSymbolicLink() && i === parts.length - 1 ? absoluteLinkInside(top, at) : undefined;
    if (absolute !== undefined)
      throw targetRefused(
        `cannot export to ${rel}: it is a symbolic link by absolute path (${absolute.abs}), which leads elsewhere, or nowhere, in every other clone of the repository`,
        `Link it by a relative path (\`ln -sf ${shellPath(absolute.relative)} ${shellPath(rel)}\`), or replace it with a real file, ${otherwise}; nothing was written.`,
        rel,
        'absolute-link',
      );
    if (st.isSymbolicLink()) {
      throw targetRefused(
        `cannot export to ${rel}: ${at} is a symbolic link, and an export never writes through a link (it could lead out of the repository)`,
        `Replace the link with a real file or folder, ${otherwise}; nothing was written.`,
        rel,
        'symbolic-link',
      );
    }
    if (i < parts.length - 1 && !st.isDirectory()) {
      throw targetRefused(
        `cannot export to ${rel}: ${at} is a file, not a folder`,
        `Move that file away, ${otherwise}; nothing was written.`,
        rel,
        'not-a-folder',
      );
    }
    if (i < parts.length - 1 && st.isDirectory() && holdsGit(top, at, folders)) throw otherRepository(rel, at, otherwise);
    if (i < parts.length - 1) folders?.add(at);
    if (i === parts.length - 1 && last === 'folder' && !st.isDirectory()) {
      throw targetRefused(
        `cannot export to ${rel}/: ${at} is a file, not a folder`,
        `Move that file away, ${otherwise}; nothing was written.`,
        rel,
        'not-a-folder',
      );
    }
    // A write replaces the file by renaming a new one over it: its other names would keep the old text, unsaid.
    if (i === parts.length - 1 && last === 'file' && st.isFile() && st.nlink > 1) {
      throw targetRefused(
        `cannot export to ${rel}: it has ${st.nlink} names (hard links), and a write would give this one alone the new text while the others kept the old`,
        `Keep one name and make the others symbolic links to it (CLAUDE.md -> AGENTS.md), ${otherwise}; nothing was written.`,
        rel,
        'hard-link',
      );
    }
    if (i === parts.length - 1 && last === 'file' && !st.isFile()) {
      throw targetRefused(
        `cannot export to ${rel}: it is not a regular file`,
        `Remove it, ${otherwise}; nothing was written.`,
        rel,
        'not-a-file',
      );
    }
  }
}

/** The refusal of target `rel` whose folder `at` on the way is a repository of its own (exit 2, other-repository). */
function otherRepository(rel: string, at: string, otherwise: string): UsageError {
  // A tool's own folder on the way (.cursor/rules, .github) is the target's, not a project's path.
  const toolFolder = at.split('/').some((part) => part.startsWith('.'));
  return targetRefused(
    `cannot export to ${rel}: ${at} is a repository of its own (a submodule, or a clone inside this one), so a file written there is not this repository's, and \`export --check\` on a fresh clone would miss it`,
    toolFolder
      ? `Make ${at} a folder of this repository (the export writes its rules file there), ${otherwise}; nothing was written.`
      : `Keep the project's paths out of that folder (a project there belongs in that repository's own store), ${otherwise}; nothing was written.`,
    rel,
    'other-repository',
  );
}

/**
 * The index's gitlinks, read once per run: keyed by the run's cache of the folders found to be folders, which every
 * caller on an export's path hands down (a call without one lists the whole index each time it asks).
 */
const GITLINKS = new WeakMap<Set<string>, Set<string>>();

/**
 * Whether folder `rel` holds `.git` (a folder, or the file a submodule or linked worktree has): the top of a
 * repository. One without it may be a submodule not checked out, which git's index tells, empty (a fresh clone's) or
 * holding files (an AGENTS.md an older export left there), `.gitmodules` or not: a gitlink no line of it names is
 * still a repository of its own.
 */
function holdsGit(top: string, rel: string, folders?: Set<string>): boolean {
  if (lstatSync(join(top, rel, '.git'), { throwIfNoEntry: false }) !== undefined) return true;
  return gitlinks(top, folders).has(rel);
}

/**
 * The index's gitlinks, listed once per run when `folders` (the run's cache) is given: read from the index file, so
 * that a folder of files is judged with no git process (a gitlink no line of .gitmodules names is one all the same),
 * and asked of git only when that file cannot tell.
 */
function gitlinks(top: string, folders?: Set<string>): Set<string> {
  let links = folders === undefined ? undefined : GITLINKS.get(folders);
  if (links === undefined) {
    links = indexFileGitlinks(top) ?? indexGitlinks(top);
    if (folders !== undefined) GITLINKS.set(folders, links);
  }
  return links;
}

/** The gitlink of the index that is `missing` (a folder not on disk) or below it on the way to folder `way`, if any. */
function gitlinkOnWay(top: string, way: string, missing: string, folders?: Set<string>): string | undefined {
  const links = gitlinks(top, folders);
  if (links.size === 0) return undefined;
  const parts = way.split('/');
  for (let n = missing.split('/').length; n <= parts.length; n++) {
    const at = parts.slice(0, n).join('/');
    if (links.has(at)) return at;
  }
  return undefined;
}

/**
 * Refuses (exit 2) a file that cannot be written, before any file is. `otherwise`: the way round it the hint offers,
 * after making it writable (an import with --replace has no --target; the library's caller leaves it out of `targets`).
 */
export function checkWritable(
  top: string,
  rel: string,
  exists: boolean,
  otherwise = LIBRARY_OTHERWISE,
  /** What the file is: an export's target (`export-target-refused`), or a client's settings (`write-failed`). */
  what: 'target' | 'settings' = 'target',
): void {
  let dir = dirname(join(top, rel));
  // The hint names what refused: the file itself, or the folder its temporary goes into.
  let blocking = rel;
  try {
    if (exists) accessSync(join(top, rel), constants.W_OK);
    blocking = '';
    // The nearest folder that exists must take a new file (the atomic write's temporary).
    for (;;) {
      try {
        lstatSync(dir);
        break;
      } catch {
        const up = dirname(dir);
        if (up === dir) break;
        dir = up;
      }
    }
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const e = writeFailure(error, rel);
    const hint = `Make ${blocking || relative(top, dir) || '.'} writable, ${otherwise}; nothing was written.`;
    throw what === 'target'
      ? targetRefused(e.message, hint, rel, 'not-writable')
      : new UsageError(e.message, hint, { path: rel }, 'write-failed');
  }
}

/** The text of a target file, or undefined when there is none; exit 2 for anything that is not a regular file. */
export function readExisting(top: string, rel: string, folders?: Set<string>, otherwise = LIBRARY_OTHERWISE): string | undefined {
  checkTargetPath(top, rel, 'file', folders, otherwise);
  // Type first, bytes capped: a FIFO or device in a target's place never blocks or floods the export.
  return targetText(rel, readRegularFile(join(top, rel), MAX_TARGET_BYTES), otherwise);
}

/**
 * The text of target file `rel` as read (from disk, or from git's index for a file a sparse checkout leaves out), or
 * undefined when there is none; exit 2 for bytes the export cannot take as text (not UTF-8, over the limit).
 */
export function targetText(rel: string, read: FileRead, otherwise = LIBRARY_OTHERWISE): string | undefined {
  if (read.ok) {
    // Decoded leniently, a file of another encoding would have its bytes replaced when the block is written around them.
    const text = readUtf8(read.bytes);
    if (text.ok) return text.text;
    throw targetRefused(
      `cannot export to ${rel}: it is not UTF-8 text (${rel}:${text.line}:${text.col})`,
      `Save it as UTF-8, ${otherwise}; nothing was written.`,
      rel,
      'not-utf8',
    );
  }
  if (read.code === 'missing') return undefined;
  // Readable all the same: the way out is a smaller file, not permissions.
  if (read.code === 'too-large')
    throw targetRefused(
      `cannot export to ${rel}: it ${read.message}`,
      `Move text out of it until it is under the limit, ${otherwise}; nothing was written.`,
      rel,
      'too-large',
    );
  throw targetRefused(
    `cannot read ${rel}: it ${read.message}`,
    read.code === 'not-a-file' || read.code === 'symlink'
      ? 'Make it a regular file (or remove it) and run the export again; nothing was written.'
      : 'Make it readable (or remove it) and run the export again; nothing was written.',
    rel,
    'unreadable',
  );
}

/**
 * Refuses a file that is no longer as the plan read it: a plan handed to `apply` after a while (a caller that
 * shows the diff and asks first) would otherwise write over what was added to the file since. A file that now
 * holds what the plan writes (`after`: another export of the same store ran meanwhile, as two at once do) is
 * no conflict: true, so the caller leaves it as it is. `folders`: the run's cache of folders found to be
 * folders, shared by the files checked at once.
 */
export function checkUnchanged(
  top: string,
  rel: string,
  change: { before: string | undefined; after: string | undefined },
  otherwise = LIBRARY_OTHERWISE,
  folders?: Set<string>,
): boolean {
  const now = readExisting(top, rel, folders, otherwise);
  if (now === change.before) return false;
  if (now === change.after) return true;
  throw targetRefused(
    `cannot export to ${rel}: it ${change.before === undefined ? 'was created' : 'changed'} since the export was planned`,
    'Plan the export again (run it again) and apply the new plan; nothing was written.',
    rel,
    'changed',
  );
}

/**
 * A project path a target cannot write (`path-not-expressible`, core/export-front-matter.ts), placed at its
 * file:line:col in project.yaml, as a path the glob rules refuse is; any other error is returned as it is.
 */
export async function placedPathError(source: TreeSource, error: unknown): Promise<unknown> {
  if (!(error instanceof UsageError) || error.code !== 'path-not-expressible') return error;
  const { project, index } = error.detail as { project: string; index: number };
  return placedAt(source, project, index, error);
}

/** `error` about path `index` of `project`'s paths, its message prefixed with where project.yaml holds it. */
export async function placedAt(source: TreeSource, project: string, index: number, error: UsageError): Promise<UsageError> {
  const file = `projects/${project}/project.yaml`;
  const read = (await source.read([file])).get(file);
  if (!read?.ok) return error;
  const { parseYaml, offsetAt } = await import('../core/yaml-file.ts');
  const y = parseYaml(file, read.bytes).value;
  if (!y) return error;
  const { line, col } = y.lines.linePos(offsetAt(y, ['paths', String(index)]));
  return new UsageError(`${file}:${line}:${col}: ${error.message}`, error.hint, error.detail, error.code);
}

/**
 * Which of the files an export creates git ignores, with the rule: never committed, so that `export --check` in a
 * fresh clone (CI) calls them missing. Outside a repository, or without git, none: this only feeds a warning.
 */
export async function ignoredTargets(top: string, paths: readonly string[]): Promise<IgnoredPath[]> {
  try {
    return await ignoredPaths(top, paths);
  } catch {
    return [];
  }
}

/**
 * Which of the files an export creates git would check out with CRLF line ends (core.autocrlf=true, an `eol=crlf`
 * attribute…): written so, `git add` under core.safecrlf takes them as they are (docs/adr/0606). Outside a
 * repository, or without git, none: they are written LF, as everywhere else.
 */
export async function crlfTargets(top: string, paths: readonly string[]): Promise<Set<string>> {
  try {
    return await crlfInCheckout(top, paths);
  } catch {
    return new Set();
  }
}
