/**
 * One side of a diff (a revision, the index, the working tree): the store files it holds, their kinds and blob ids,
 * and what stands where a store file or folder should be, as the diff reads them (docs/review.md).
 */
import { type Diagnostic, invalidFilesMessage } from '../../core/diagnostics.ts';
import { InvalidStoreError } from '../../core/errors.ts';
import { type PathKind, pathClassifier } from '../../core/layout.ts';
import {
  fileWhereFolderGoes,
  isRequiredFolder,
  isScopeFolder,
  linkedFolder,
  misnamedYaml,
  nestedYaml,
  nestedYamlMeant,
  yamlNameMeant,
} from '../../store/read-plan.ts';
import type { ReadResult } from '../../store/tree-source.ts';
import { type IdUse, reusedInvariantIds } from '../../validate/checks/ids.ts';
import { type SideInfo, short } from './ranges.ts';

/** A file of a git side: its mode and blob id. */
export interface GitBlob {
  mode: string;
  sha: string;
}

export interface Side {
  info: SideInfo;
  /** Relevant store files: path → blob id (mode folded in, so a file turned into a link differs). */
  files: Map<string, string>;
  kinds: Map<string, PathKind>;
  /** path → "path NUL blob id": the key of a parse, shared by both sides when the file did not change. */
  keys: Map<string, string>;
  /** The working tree: the bytes of every relevant file, read while listing it. */
  bytes?: Map<string, ReadResult>;
  /** A git side (revision or index): mode and blob id of every file in `files`. */
  blobs?: Map<string, GitBlob>;
  /** A working-tree or index side holds `extends.lock.yaml` (not a relevant file, but its pins are compared). */
  holdsLock?: boolean;
  /**
   * A working-tree or index side's `config.yaml` blob id, when it holds one: a side that names a source with no pin
   * (a first `extends:` committed without its lock) holds no lock, and the diff must still read its sources.
   */
  configId?: string;
  /** The side's path classifier: the files of one folder share their scope object, as in every whole-store read. */
  classify: (rel: string) => PathKind;
  /** The projects whose folder holds a file on this side, whatever the file (of the folders listed). */
  projects?: Set<string>;
  /** Store folders that are not folders on this side (a link, a submodule, a file), by path: the diff stops there. */
  notFolders?: Map<string, Diagnostic>;
  /** Files with another YAML ending (`.yml`) where a `.yaml` store file would be read: path → the name meant. */
  misnamed?: Map<string, string>;
}

/**
 * Notes a `.yml` (or `.YAML`) file standing where a store file of the diff would be read, or a `.yaml` in a sub-folder
 * of a scope whose name the scope would read (store/read-plan.ts).
 */
export function noteMisnamed(side: Pick<Side, 'misnamed' | 'classify'>, path: string): void {
  const meant = (path.endsWith('.yaml') ? nestedYamlMeant(path) : undefined) ?? yamlNameMeant(path);
  if (meant === undefined) return;
  const kind = side.classify(meant);
  if (kind.kind === 'bad-id' || kind.kind === 'bad-name' || !relevant(kind)) return;
  (side.misnamed ??= new Map()).set(path, meant);
}

/** The findings of a side's misnamed files whose `.yaml` name it does not hold: left out, they are an error. */
export function misnamedFindings(side: Side): Diagnostic[] {
  return [...(side.misnamed ?? [])]
    .filter(([, meant]) => !side.files.has(meant))
    .map(([path, meant]) =>
      path.endsWith('.yaml') && nestedYamlMeant(path) !== undefined ? nestedYaml(path, meant) : misnamedYaml(path, meant),
    );
}

/**
 * Notes a store folder that is a link, a submodule or a file on this side: every reader of the store refuses it,
 * so the diff does too, never reading its scope as empty and its invariants as removed.
 */
export function noteNotAFolder(side: Pick<Side, 'notFolders'>, path: string, mode: string): void {
  const link = mode === '120000' ? 'a symbolic link' : mode === '160000' ? 'a submodule' : undefined;
  const d = link
    ? isScopeFolder(path)
      ? linkedFolder(path, link)
      : undefined
    : isRequiredFolder(path)
      ? fileWhereFolderGoes(path)
      : undefined;
  if (d) (side.notFolders ??= new Map()).set(path, d);
}

/** The project whose folder holds `path`, if any. */
export const projectOf = (path: string): string | undefined => /^projects\/([^/]+)\//.exec(path)?.[1];

/** Records the project whose folder holds `path`, if any. */
export function noteProject(side: Side, path: string): void {
  const project = projectOf(path);
  if (project !== undefined) (side.projects ??= new Set()).add(project);
}

export function emptySide(info: SideInfo): Side {
  return { info, files: new Map(), kinds: new Map(), keys: new Map(), classify: pathClassifier() };
}

/** A git entry's identity for the diff: its blob id, with the mode when it is not a regular file. */
/**
 * The mode an index side gives a path a merge left unresolved (none of its stages is what is staged), followed by
 * `:` and the stages git holds (GitEntry.stages).
 */
export const UNMERGED = 'unmerged';

/** The mode of a git tree: a folder where a store file belongs. */
export const FOLDER = '040000';

export function foldedId(mode: string, sha: string): string {
  return mode.startsWith('100') ? sha : `${mode}:${sha}`;
}

/** Records one store file of a git side, if the diff looks at it. */
export function addGitFile(side: Side, path: string, mode: string, sha: string): void {
  noteProject(side, path);
  if (!path.endsWith('.yaml')) {
    noteNotAFolder(side, path, mode);
    if (mode.startsWith('100')) noteMisnamed(side, path);
    // A file inside a folder named as a store file (an index's global/X.yaml/f): the folder stands where the
    // file was, and is refused (not-a-file) as every reader of the store refuses it, never read as removed.
    const folder = /^(.*?\.yaml)\//.exec(path)?.[1];
    if (folder !== undefined && !side.files.has(folder)) addGitFile(side, folder, FOLDER, '');
    return;
  }
  const kind = side.classify(path);
  if (kind.kind === 'unknown' && mode.startsWith('100')) noteMisnamed(side, path);
  if (!relevant(kind)) return;
  const id = foldedId(mode, sha);
  side.kinds.set(path, kind);
  side.files.set(path, id);
  side.keys.set(path, `${path}\0${id}`);
  (side.blobs ??= new Map()).set(path, { mode, sha });
}

/** Code point order, i.e. the byte order of UTF-8 paths: the order git lists a tree in. */
export function gitOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return x < 0xd800 && y < 0xd800 ? x - y : a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

/** Puts a side read folder by folder in the order one listing of the whole tree gives. */
export function sortKinds(side: Side): void {
  side.kinds = new Map([...side.kinds].sort(([a], [b]) => gitOrder(a, b)));
}

export function keysOf(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, id] of files) out.set(p, `${p}\0${id}`);
  return out;
}

/** Paths the diff looks at: invariants (and misnamed ones in scope folders), plan files, waivers, project.yaml, files of misnamed folders. */
export function relevant(kind: PathKind): boolean {
  return (
    kind.kind === 'invariant' ||
    kind.kind === 'plan' ||
    kind.kind === 'waiver' ||
    kind.kind === 'project-meta' ||
    (kind.kind === 'bad-id' && kind.scope !== undefined) ||
    // A file in a folder whose name breaks the rules is refused as every reader of the store refuses it, never left out.
    kind.kind === 'bad-name'
  );
}

/** The invariant files a side lists, with their ids: not one both sides of an unresolved merge deleted, in neither. */
function* ownInvariantFiles(side: Side): Generator<IdUse> {
  for (const [path, kind] of side.kinds) {
    if (kind.kind !== 'invariant') continue;
    const blob = side.blobs?.get(path);
    if (blob?.mode !== `${UNMERGED}:1`) yield blob === undefined ? { id: kind.id, path } : { id: kind.id, path, blob: blob.sha };
  }
}

/**
 * Stops the diff (exit 3, naming the side) when a file it needs of `side` is unreadable or invalid, or what stands in
 * the side's folders would misread it. `diagnosticsOf` gives a parsed file's findings by its key.
 */
export function refuseInvalid(
  side: Side,
  paths: readonly string[],
  diagnosticsOf: (key: string) => readonly Diagnostic[] | undefined,
): void {
  const errors = [
    ...(side.notFolders?.values() ?? []),
    ...misnamedFindings(side),
    // One id in two of the folders listed (validate's id-reused) would read as a change of scope.
    ...reusedInvariantIds(ownInvariantFiles(side)),
    ...paths.flatMap((p) => diagnosticsOf(side.keys.get(p)!) ?? []).filter((d) => d.severity === 'error'),
  ];
  if (errors.length > 0) {
    const at =
      side.info.kind === 'revision'
        ? `revision ${side.info.label}${side.info.commit ? ` (${short(side.info.commit)})` : ''}`
        : `the ${side.info.label}`;
    throw new InvalidStoreError(
      invalidFilesMessage('diff', errors, at),
      errors,
      side.info.kind === 'revision'
        ? 'The file is broken in that revision; compare other revisions, or fix it in a new commit.'
        : undefined,
    );
  }
}
