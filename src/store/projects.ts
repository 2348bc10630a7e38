import { dirname, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.ts';
import { isHiddenName, isTemporaryName } from '../core/layout.ts';
import { globHoldsFolder, globMatches } from '../core/globs.ts';
import { isProjectName, nameProblem } from '../core/names.ts';
import type { ProjectMeta } from '../core/model.ts';
import { parseProjectMeta } from '../core/parse-meta.ts';
import { isCachedProjectMeta } from '../core/parsed-shape.ts';
import { repoTop } from './git-dir.ts';
import { readParsed } from './read-parsed.ts';
import { badName, fileWhereFolderGoes, isRequiredFolder, linkedFolder } from './read-plan.ts';
import { readFailure, standingAt } from './read.ts';
import type { TreeSource } from './tree-source.ts';

/** The projects of a store: every project folder, and the project.yaml of those that have one. */
export interface ProjectsRead {
  /** Names of the folders under projects/ (sorted), whether or not they hold a project.yaml. */
  names: string[];
  /** project.yaml of each project that has one and parses. */
  meta: Map<string, ProjectMeta>;
  /** Problems of the project.yaml files read (invalid YAML, schema, bad globs). */
  diagnostics: Diagnostic[];
}

/**
 * Reads `projects/<name>/project.yaml` of the named projects (all project
 * folders when `names` is absent) without listing the folders' invariants:
 * one batch read of the metadata files. A project without the file has no
 * entry in `meta`; an unreadable or invalid one is a diagnostic. The one
 * reader of project metadata (docs/export.md, "Projects and their paths").
 */
export async function readProjects(source: TreeSource, names?: readonly string[]): Promise<ProjectsRead> {
  const folders = names ? { names: [...names], diagnostics: [] } : await listProjectFolders(source);
  const listed = folders.names.sort();
  const out: ProjectsRead = { names: listed, meta: new Map(), diagnostics: folders.diagnostics };
  const files = listed.map((n) => `projects/${n}/project.yaml`);
  // Every project.yaml in one group of the parse cache: `which` and the guard read them all at once. The folders just
  // listed are folders, not links (a link is a diagnostic, never a name): their stamps need no lstat of each.
  const parsed = await readParsed(source, files, (i, bytes, syntax) => parseProjectMeta(files[i]!, bytes, syntax), {
    parser: 'projects',
    group: () => 'projects',
    fits: isCachedProjectMeta,
    folders: names ? undefined : ['projects', ...listed.map((n) => `projects/${n}`)],
  });
  for (const [i, file] of files.entries()) {
    const p = parsed[i];
    if (p === undefined) continue;
    if ('ok' in p) {
      if (p.code !== 'missing') out.diagnostics.push(readFailure(file, p));
      continue;
    }
    if (p.value) out.meta.set(listed[i]!, p.value);
    out.diagnostics.push(...p.diagnostics);
  }
  return out;
}

/**
 * The names of the project folders under `projects/`, and what stands where a project folder or `projects/` itself
 * goes and is never read: a link (to a folder or not), a file in the place of `projects/` or of a project's folder, a
 * folder of a name no project may have. Each is a diagnostic, never a project left out in silence: every project's invariants, paths
 * and guards would be missing from export, `which` and the guard alike. The one listing of the projects.
 */
export async function listProjectFolders(source: TreeSource): Promise<{ names: string[]; diagnostics: Diagnostic[] }> {
  const names: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const entries = await source.list('projects', { recursive: false });
  // A file where projects/ goes lists as an empty folder: only then is the store's top looked at.
  for (const top of await standingAt(source, 'projects', entries))
    diagnostics.push(top.type === 'symlink' ? linkedFolder('projects') : fileWhereFolderGoes('projects'));
  for (const e of entries) {
    const name = e.path.slice('projects/'.length);
    // projects/ itself a link lists as that one entry.
    if (e.path === 'projects') diagnostics.push(linkedFolder(e.path));
    // A hidden entry is the user's own, as in a scope folder.
    else if (e.type === 'symlink' && !isHiddenName(name)) diagnostics.push(linkedFolder(e.path, 'a symbolic link'));
    // A file of a project's name stands where that project's folder goes: said, never read as a project removed (an
    // export would delete the project's files, the guard drop its guards).
    else if (e.type !== 'dir' && isRequiredFolder(e.path, e.type)) diagnostics.push(fileWhereFolderGoes(e.path));
    if (e.type !== 'dir') continue;
    // A project folder an interrupted `project add`, `import` or `project remove` left under a temporary's name is
    // no project: skipped, as readers skip every temporary (`validate` reports it and `--fix` removes it).
    if (isTemporaryName(name)) continue;
    if (isProjectName(name)) names.push(name);
    // A folder of a name no project may have is never read: its invariants would be left out of every set in silence.
    else diagnostics.push(badName(e.path, nameProblem(name, 'project')!));
  }
  return { names, diagnostics };
}

/**
 * The top of the repository a store's project paths are relative to: the
 * git top level holding the store, else the folder holding the store.
 */
export function repositoryTop(storeRoot: string): string {
  return repoTop(storeRoot) ?? dirname(resolve(storeRoot));
}

/** `abs` relative to the repository top with forward slashes ("" for the top), or undefined when outside it. */
export function repoRelative(top: string, abs: string): string | undefined {
  const rel = relative(top, resolve(abs));
  if (rel === '') return '';
  if (rel.startsWith('..') || resolve(top, rel) !== resolve(abs) || rel.split(sep)[0] === '..') return undefined;
  return rel.split(sep).join('/');
}

/**
 * The projects whose paths hold the repository path `rel`: a file, or a folder (see globHoldsFolder). Sorted.
 * `caseless`: globs and path compared in lower case, as git compares paths where it ignores case.
 */
export function projectsOf(meta: ReadonlyMap<string, ProjectMeta>, rel: string, folder: boolean, caseless = false): string[] {
  const fold = (s: string) => (caseless ? s.toLowerCase() : s);
  const path = fold(rel);
  const out: string[] = [];
  for (const [name, m] of meta)
    if ((m.paths ?? []).some((g) => (folder ? globHoldsFolder(fold(g), path) : globMatches(fold(g), path)))) out.push(name);
  return out.sort();
}

/**
 * `projectsOf`, and where git compares paths without case (`core.ignorecase`, which git sets on the case-insensitive
 * file systems of macOS and Windows), again without case when the path is in no project as written: `Apps/Web/x.ts`
 * is the file `apps/web/x.ts` there, as the guards take it. The setting is asked only on such a miss.
 */
export async function projectsOfPath(meta: ReadonlyMap<string, ProjectMeta>, top: string, rel: string, folder: boolean): Promise<string[]> {
  const names = projectsOf(meta, rel, folder);
  if (names.length > 0 || meta.size === 0) return names;
  // The git client loads only for such a miss.
  const { ignoresCase } = await import('../git/repo.ts');
  return (await ignoresCase(top)) ? projectsOf(meta, rel, folder, true) : names;
}

/** The projects whose paths hold the repository folder `dir` (see globHoldsFolder), sorted. */
export function projectsHoldingFolder(meta: ReadonlyMap<string, ProjectMeta>, dir: string): string[] {
  return projectsOf(meta, dir, true);
}
