// `export --project P` and the nested files (AGENTS.md, CLAUDE.md, GEMINI.md) P shares with other projects: a folder
// two projects' paths name gets one file with a section of each, and an AGENTS.md a section of each project whose paths
// hold its folder too, so P's export writes that file whole.
import { folderHolder, nestedFolder } from '../core/globs.ts';
import type { ProjectMeta } from '../core/model.ts';
import { readProjects } from '../store/projects.ts';
import { requireValid } from './invariants/rules.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { wildcardFolders } from './export-folders.ts';

/** The folders whose nested file holds a project's section: each `DIR/**` (or `**`), and what a wildcard DIR names. */
function nestedFolders(meta: ProjectMeta, named: ReadonlyMap<string, readonly string[]>): string[] {
  return (meta.paths ?? []).flatMap((g) => {
    const dir = nestedFolder(g);
    return dir !== undefined ? [dir] : [...(named.get(g) ?? [])];
  });
}

/**
 * What the nested files of an export depend on beyond the projects exported (`withPaths`): the folders each wildcard
 * path names (`named`, as wildcardFolders gives them), and, for one project's export (`only`), the other projects
 * with a nested file in one of its folders (`sharing`), with their project.yaml. A project.yaml that does not read
 * cleanly stops one project's export that writes nested files (exit 3), as it stops a whole export: which folders it
 * names is not known.
 */
export async function nestedFolderInputs(
  source: TreeSource,
  at: { top: string; storeRel: string; nested: boolean },
  meta: ReadonlyMap<string, ProjectMeta>,
  withPaths: readonly string[],
  only: string | undefined,
): Promise<{ sharing: Map<string, ProjectMeta>; named: Map<string, string[]> }> {
  const globs = withPaths.flatMap((n) => meta.get(n)!.paths!);
  if (!at.nested) return { sharing: new Map(), named: new Map() };
  if (only === undefined) return { sharing: new Map(), named: await wildcardFolders(at.top, at.storeRel, globs) };
  const all = await readProjects(source);
  const broken = new Set(all.diagnostics.map((d) => d.file));
  const others = [...all.meta].filter(
    ([name, m]) => name !== only && (m.paths?.length ?? 0) > 0 && !broken.has(`projects/${name}/project.yaml`),
  );
  const named = await wildcardFolders(at.top, at.storeRel, [...globs, ...others.flatMap(([, m]) => m.paths!)]);
  const folders = new Map(others.map(([name, m]) => [name, nestedFolders(m, named)]));
  // P's folders, and the other projects' that P's paths hold, whose AGENTS.md holds P's section (TARGETS' nearestOnly).
  const holds = folderHolder(meta.get(only)!.paths!);
  const mine = new Set([...nestedFolders(meta.get(only)!, named), ...[...folders.values()].flat().filter(holds)]);
  // Whether a project.yaml that cannot be read names one of these folders too cannot be told: P's files, written
  // whole, could lose its section in silence. A project with no nested file shares none, so it goes on.
  const unread = all.diagnostics.filter((d) => d.severity === 'error' && d.file !== `projects/${only}/project.yaml`);
  if (mine.size > 0 && unread.length > 0)
    requireValid({ diagnostics: unread } as never, `write the nested files of project ${only}, which another project may share`);
  // Those with a section in one of the files of these folders: one naming the folder, or whose paths hold it.
  const sharing = new Map(
    others.filter(([name, m]) => {
      if (folders.get(name)!.some((d) => mine.has(d))) return true;
      const held = folderHolder(m.paths!);
      return [...mine].some(held);
    }),
  );
  return { sharing, named };
}
