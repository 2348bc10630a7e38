// Which project a folder is, one rule for the CLI's inference from the current folder and the MCP tools' `path`, so
// that a folder an agent names is answered as `invariant list --effective` run there answers it; and how a path is
// told to be a folder, for those tools and `agents which` alike.
import { statSync } from 'node:fs';
import { folderHolder } from '../core/globs.ts';
import type { ProjectMeta } from '../core/model.ts';
import { projectsOf, projectsOfPath } from '../store/projects.ts';

/**
 * Whether a path as written names a folder: one ending in "/" is, there or not yet; else one that is a folder on
 * disk (`.`, `apps/web`). Any other, missing or not, is a file.
 */
export function namesFolder(written: string, abs: string): boolean {
  if (written.endsWith('/')) return true;
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** The projects of a repository folder: `whole`, those holding every file of it; `partly`, those holding only some. */
export interface FolderProjects {
  whole: string[];
  partly: string[];
}

/**
 * The projects whose paths hold files of the folder `rel` ('' for the top), split by whether they hold all of them
 * (a `DIR/**` over it) or some (`**\/*.ts`): only the first is the folder's project, since a rule meant for the whole
 * folder would otherwise go to a project that holds some of its files. Without case where git ignores it.
 */
export async function projectsOfFolder(meta: ReadonlyMap<string, ProjectMeta>, top: string, rel: string): Promise<FolderProjects> {
  const some = await projectsOfPath(meta, top, rel, true);
  // projectsOfPath compares without case only when git does and nothing held the folder as written: the same here.
  const caseless = some.length > 0 && projectsOf(meta, rel, true).length === 0;
  const fold = (s: string) => (caseless ? s.toLowerCase() : s);
  const whole = (name: string) => folderHolder((meta.get(name)?.paths ?? []).map(fold))(fold(rel));
  return { whole: some.filter(whole), partly: some.filter((n) => !whole(n)) };
}
