import type { Diagnostic } from '../core/diagnostics.ts';
import { badId, inHiddenFolder, isKnownFolder, isTemporaryName, type PathKind, pathClassifier, WAIVERS } from '../core/layout.ts';
import { isName, isProjectName, isUlid } from '../core/names.ts';
import { type EntryType, type ReadResult, type TreeEntry, unreadableFolder } from './tree-source.ts';

/** An error of a whole file or folder of the store (no line in it): what the readers and validate say of its place. */
function pathError(code: Diagnostic['code'], file: string, message: string, hint: string): Diagnostic {
  return { code, severity: 'error', file, line: 0, col: 0, message, hint };
}

/**
 * What a reader says of a folder it could not list (`unreadable`: why): a hidden folder refused hides nothing (the
 * layout check warns of it as of any hidden folder); any other may hide an invariant put there, and is an error of
 * every reader. Undefined for a hidden one.
 */
export function unlistedFolder(path: string, unreadable: string): Diagnostic | undefined {
  return inHiddenFolder(path) ? undefined : unreadableFolder(path, unreadable);
}

/**
 * The findings readFailure made for a read the source answered `missing` (ENOENT, ENOTDIR: the file, or a folder of
 * its path, gone since it was listed), known by what they are, never by their wording. A WeakSet: it holds no
 * finding longer than its reader does, and adds nothing a surface would show.
 */
const vanishedReads = new WeakSet<Diagnostic>();

/**
 * Whether `d` says a file vanished between its listing and its read (settled-read.ts reads the store again then): a
 * file listed, or a plan's plan.yaml asked for once its folder was listed (a plan removed meanwhile is then no plan).
 * Only readFailure's own findings are: a plan folder listed without its plan.yaml, or a file the system refused, is
 * the store's state, which a read made again would find again.
 */
export function isVanished(d: Diagnostic): boolean {
  return vanishedReads.has(d);
}

/** `d`, marked as a vanished file's (isVanished). */
function vanished(d: Diagnostic): Diagnostic {
  vanishedReads.add(d);
  return d;
}

/** Diagnostic for a file the source could not give us. */
export function readFailure(file: string, r: Exclude<ReadResult, { ok: true }>): Diagnostic {
  if (r.code === 'missing') {
    if (file.endsWith('/plan.yaml')) {
      return vanished(
        pathError(
          'plan-missing',
          file,
          `plan folder ${file.slice(0, -'plan.yaml'.length)} has no plan.yaml when it is read`,
          'Restore plan.yaml, or remove the folder if the plan is gone.',
        ),
      );
    }
    // A name that is not UTF-8 is listed with U+FFFD in place of its bytes, a name no file has: it never opens.
    if (file.includes('\uFFFD')) {
      return pathError(
        'file-name-not-utf8',
        file,
        `${file} has a name that is not UTF-8 (shown with \uFFFD for the bytes), so it cannot be read by its name`,
        'Rename the file to a UTF-8 name (an invariant file is named <its id>.yaml).',
      );
    }
    return vanished(pathError('file-unreadable', file, `${file} vanished while it was read`, 'Run the command again.'));
  }
  const hint =
    r.hint ??
    (r.code === 'symlink'
      ? 'Replace the link with the file itself; a store never follows links.'
      : r.code === 'file-too-large'
        ? 'A store file holds one short document; shorten it.'
        : r.code === 'not-a-file'
          ? 'Only files may have a .yaml name in a store; rename or move it.'
          : r.code === 'merge-conflict'
            ? 'Resolve the conflict in the file, then `git add` it.'
            : 'Check its permissions.');
  return pathError(r.code, file, `${file} ${r.message}`, hint);
}

/** A folder whose name breaks the name rules (`problem`, core/names.ts), or a file in one: what every reader and `validate` say of it. */
export function badName(path: string, problem: string): Diagnostic {
  return pathError(
    'bad-name',
    path,
    `${problem}; files under it are never read`,
    path.startsWith('plans/')
      ? "Rename the folder to its plan's id: a ULID, in upper case (plan.yaml holds it)."
      : 'Rename the folder: names are lower case a-z, 0-9, ".", "_" and "-".',
  );
}

/** A folder that holds (or leads to) invariants, plans or records. */
export function isScopeFolder(path: string): boolean {
  return !path.endsWith('.yaml') && isKnownFolder(path) && !path.startsWith('schemas') && !path.startsWith('actors');
}

/** Whether `path` names an entry of a scope folder (`projects/web/sub`) that is not hidden (the user's own `.notes`). */
function inScopeFolder(path: string): boolean {
  const cut = path.lastIndexOf('/');
  return cut > 0 && !path.slice(cut + 1).startsWith('.') && isScopeFolder(path.slice(0, cut));
}

/** The store's own scope folders, at its top: a file in the place of one hides the whole scope. */
export const TOP_SCOPE_FOLDERS: ReadonlySet<string> = new Set(['global', 'projects', 'actions', 'plans']);

const RECORD_FOLDERS: ReadonlySet<string> = new Set(['decisions', 'enforcement', 'violations', WAIVERS]);

/**
 * A folder whose place a file must never take, as it would be read as empty: a top scope folder, a project's folder
 * (`projects/web`: read as no project, its invariants, paths and exported files would go), an action namespace's or
 * template's folder, a plan's folder, a plan's records and
 * waivers (`plans/<id>/violations`: the open violations would vanish from the plan gate), a project's waivers.
 */
export function isRequiredFolder(path: string, type?: EntryType): boolean {
  // Asked of every file a reader lists: an invariant's name (the usual answer) is turned away before anything is cut.
  if (path.endsWith('.yaml')) return false;
  if (TOP_SCOPE_FOLDERS.has(path)) return true;
  // A project's folder, an action namespace's or a template's: read as none, the project's files would go from the
  // export, the templates from `action list` and `plan use`. Only a regular file there (`type`, when the caller knows
  // it): a submodule at such a place stays one unknown path, as anywhere in the store.
  const first = path.indexOf('/');
  const second = first < 0 ? -1 : path.indexOf('/', first + 1);
  if (path.startsWith('actions/')) {
    const names = path.split('/').slice(1);
    return (type === undefined || type === 'file') && names.length <= 2 && names.every(isName);
  }
  // A file of another name (README.md, a hidden or temporary one) can be no project's or plan's folder: the layout
  // check warns of it. A plan's, read as none, would leave `plan list` and its gate without the plan.
  if (first >= 0 && second < 0) {
    const scope = path.slice(0, first);
    const name = path.slice(first + 1);
    return (type === undefined || type === 'file') && (scope === 'projects' ? isProjectName(name) : scope === 'plans' && isUlid(name));
  }
  if (second < 0 || path.includes('/', second + 1)) return false;
  const last = path.slice(second + 1);
  if (!RECORD_FOLDERS.has(last)) return false;
  const top = path.slice(0, first);
  return top === 'plans' || (top === 'projects' && last === WAIVERS);
}

/** The finding of a file in the place of a folder {@link isRequiredFolder} names: an error, never an empty folder. */
export function fileWhereFolderGoes(path: string): Diagnostic {
  const project = /^projects\/([^/]+)$/.exec(path)?.[1];
  return pathError(
    'unknown-path',
    path,
    project !== undefined
      ? `${path} is a file, where the folder of project ${project} goes: none of its invariants, paths or waivers can be read`
      : `${path} is a file, where the store's ${path}/ folder goes: nothing of that ${path.includes('/') ? 'folder' : 'scope'} can be read`,
    `Move it out of the store, and restore the folder ${path}/ (git checkout).`,
  );
}

/** The files of the store's top whose name is fixed: a reader looks for that name alone. */
const TOP_FILES: ReadonlySet<string> = new Set(['config.yaml', 'extends.lock.yaml']);

/**
 * The `.yaml` name a file with another YAML ending (`.yml`, `.YAML`) stands for, or one whose name goes on past its
 * ending with characters that cannot be seen (`<ULID>.yaml `, a zero-width space or a direction mark after it), or a
 * top file's name written in other case (`Config.yaml` for config.yaml, which no reader opens); undefined for any
 * other file.
 */
export function yamlNameMeant(path: string): string | undefined {
  // Spaces, controls and format characters (zero-width, bidi marks, the byte order mark) after the ending.
  const m = /\.(ya?ml)[\s\p{Cc}\p{Cf}]*$/iu.exec(path);
  if (m === null) return undefined;
  const lower = `${path.slice(0, m.index)}.yaml`.toLowerCase();
  if (!path.includes('/') && lower !== path && TOP_FILES.has(lower)) return lower;
  if (m[0] === '.yaml') return undefined;
  return `${path.slice(0, m.index)}.yaml`;
}

/** The finding of such a file where its `.yaml` name would be read, and is not there: what it holds is left out, an error. */
export function misnamedYaml(path: string, meant: string): Diagnostic {
  const why = path.endsWith('.yaml') ? `the store reads ${meant}, in lower case` : 'only files ending in .yaml are';
  return pathError(
    'unknown-path',
    path,
    `${path} is never read: ${why}, so what it holds is left out`,
    `Rename it to ${meant.slice(meant.lastIndexOf('/') + 1)}.`,
  );
}

/**
 * The place a `.yaml` file below a folder that fits no place in a scope (`global/sub/<ULID>.yaml`) would be read at:
 * the same name in the nearest scope folder above it (`global/<ULID>.yaml`). Undefined for a file directly in a
 * folder the store knows, one outside the scopes, or one below a hidden folder or a folder named like a file.
 */
export function nestedYamlMeant(path: string): string | undefined {
  if (!path.endsWith('.yaml')) return undefined;
  const parts = path.split('/');
  const name = parts[parts.length - 1]!;
  if (name.startsWith('.')) return undefined;
  for (let n = parts.length - 1; n >= 1; n--) {
    const folder = parts.slice(0, n).join('/');
    if (!isKnownFolder(folder)) continue;
    const between = parts.slice(n, -1);
    if (between.length === 0 || between.some((p) => p.startsWith('.') || p.endsWith('.yaml'))) return undefined;
    return isScopeFolder(folder) ? `${folder}/${name}` : undefined;
  }
  return undefined;
}

/** The finding of such a file where its name would be read one folder up, and is not there: what it holds is left out, an error. */
export function nestedYaml(path: string, meant: string): Diagnostic {
  const folder = path.slice(0, path.lastIndexOf('/'));
  return pathError(
    'unknown-path',
    path,
    `${path} is never read: ${folder}/ fits no place in the store, so what it holds is left out`,
    `Move it to ${meant}, or out of the store.`,
  );
}

/**
 * The finding of a file that holds what the store would read under another name, and is never read: a `.yml` where
 * its `.yaml` name is read, or a `.yaml` in a sub-folder of a scope; undefined when it is neither, when the name meant
 * is of a kind `want` does not take, or when `listed` holds that name (the file is then a stray copy, warned of by
 * validate). Every reader of a folder says it, as validate does, rather than leave what it holds out in silence.
 */
export function strayFinding(
  entry: TreeEntry,
  classify: (path: string) => PathKind,
  want: (kind: PathKind) => boolean,
  listed: () => ReadonlySet<string>,
): Diagnostic | undefined {
  if (entry.type !== 'file') return undefined;
  const nested = entry.path.endsWith('.yaml') ? nestedYamlMeant(entry.path) : undefined;
  const meant = nested ?? yamlNameMeant(entry.path);
  if (meant === undefined) return undefined;
  const kind = classify(meant);
  if (kind.kind === 'unknown' || kind.kind === 'bad-id' || kind.kind === 'bad-name' || !want(kind) || listed().has(meant)) return undefined;
  return nested !== undefined ? nestedYaml(entry.path, meant) : misnamedYaml(entry.path, meant);
}

/** The finding of a symbolic link (or, in a git tree, a submodule) in the place of a store folder: never followed. */
export function linkedFolder(path: string, what = 'a symbolic link to a folder'): Diagnostic {
  return pathError(
    'symlink',
    path,
    `${path} is ${what}; links are never followed inside a store`,
    'Replace the link with the folder itself.',
  );
}

/** Whether `path` lies in a project or plan folder of a temporary's name (`projects/.web.<writer>.<pid>.<hex>.tmp/…`). */
function inTemporaryFolder(path: string): boolean {
  const parts = path.split('/', 3);
  return parts.length === 3 && (parts[0] === 'projects' || parts[0] === 'plans') && isTemporaryName(parts[1]!);
}

/** A file to read and parse, with its kind. */
export interface ReadJob {
  entry: TreeEntry;
  kind: PathKind;
}

/**
 * The files among `entries` whose kind `want` accepts, to read and parse;
 * what cannot be read is reported into `diagnostics` instead: a linked scope
 * folder (its files would be silently missing), an invariant name that is not
 * a ULID, a link or folder where a file must be.
 */
export function planReads(
  entries: readonly TreeEntry[],
  want: (kind: PathKind) => boolean,
  diagnostics: Diagnostic[],
  kinds?: readonly PathKind[],
): ReadJob[] {
  const jobs: ReadJob[] = [];
  // Without the caller's kinds, one classifier for the listing: a folder's invariants share one scope object.
  const classify = pathClassifier();
  // The listed paths, made at the first file with another YAML ending (few stores have one).
  let listed: Set<string> | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.unreadable !== undefined) {
      const refused = unlistedFolder(entry.path, entry.unreadable);
      if (refused) diagnostics.push(refused);
      continue;
    }
    if (entry.type === 'symlink' && isScopeFolder(entry.path)) {
      diagnostics.push(linkedFolder(entry.path));
      continue;
    }
    // A link in a scope folder may lead to a folder of invariants (`projects/web/sub -> ../billing`): never followed,
    // and said as validate says it, never left out of the set in silence.
    if (entry.type === 'symlink' && !entry.path.endsWith('.yaml') && inScopeFolder(entry.path)) {
      diagnostics.push(linkedFolder(entry.path, 'a symbolic link'));
      continue;
    }
    if (entry.type !== 'dir' && entry.type !== 'symlink' && isRequiredFolder(entry.path, entry.type)) {
      // Read as an empty scope, every invariant of it would be silently missing from each set (and from an export).
      diagnostics.push(fileWhereFolderGoes(entry.path));
      continue;
    }
    if (!entry.path.endsWith('.yaml')) {
      // An invariant or record written by hand as `.yml` would be left out of every set in silence: said, as validate says it.
      const stray = strayFinding(entry, classify, want, () => (listed ??= new Set(entries.map((e) => e.path))));
      if (stray) diagnostics.push(stray);
      continue;
    }
    const kind = kinds?.[i] ?? classify(entry.path);
    // A project or plan folder an interrupted (or running) `project add`, `import` or `plan use` is making under a
    // temporary's name is no scope yet: skipped, as every temporary is (validate warns of it, `--fix` removes it), never
    // an error of another writer's moment.
    if (kind.kind === 'bad-name' && inTemporaryFolder(entry.path)) continue;
    if (kind.kind === 'unknown') {
      // So would one put in a sub-folder of its scope.
      const stray = strayFinding(entry, classify, want, () => (listed ??= new Set(entries.map((e) => e.path))));
      if (stray) diagnostics.push(stray);
      continue;
    }
    if (!want(kind)) continue;
    // What stands there first: a folder named like a file is a folder, whatever its name says.
    if (entry.type !== 'file') {
      const r: ReadResult =
        entry.type === 'symlink'
          ? { ok: false, code: 'symlink', message: 'is a symbolic link; links are never followed inside a store' }
          : { ok: false, code: 'not-a-file', message: entry.type === 'dir' ? 'is a folder, not a file' : 'is not a regular file' };
      diagnostics.push(readFailure(entry.path, r));
      continue;
    }
    if (kind.kind === 'bad-id') {
      diagnostics.push(badId(entry.path, kind));
      continue;
    }
    if (kind.kind === 'bad-name') {
      // Its files would be left out of every set and export in silence; `validate` names the folder the same way.
      diagnostics.push(badName(entry.path, kind.problem));
      continue;
    }
    jobs.push({ entry, kind });
  }
  return jobs;
}
