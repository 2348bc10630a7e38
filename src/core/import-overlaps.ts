/**
 * The files of an import whose rules would make a project that overlaps another (docs/import.md, "Where each rule
 * goes"): skipped with the reason and the way out, or, where `projects.allow_overlap` allows it, said. Pure.
 */

import { folderHolder, singleFolder } from './globs.ts';
import { type ImportFile, type PlannedProject, placeProjects } from './import-plan.ts';
import type { ProjectMeta } from './model.ts';
import { keptOverlaps } from './path-overlap.ts';
import { shellPath } from './shell-word.ts';

/**
 * Projects' paths must be disjoint unless `projects.allow_overlap` (as
 * `validate` checks): a file whose rules would make a new project that
 * overlaps another (by the globs alone, or by a file of the repository both
 * hold) is skipped with the reason, so an import never leaves the store
 * invalid. When `allowed`, the file is kept, its `overlaps` naming every project it
 * shares files with, so that no second project over the same files is made unsaid.
 * Returns the files, those skipped (or overlapping) marked. `agents` starts the
 * command a reason names (the run's, with its --store); `here` writes its path (from the top) as pasted in the
 * current folder. A file whose rules the other project holds (`importedInto`) had other globs when it was imported:
 * its reason says to change that project's paths, where a second project would cover the same files.
 */
export function refuseOverlaps(
  files: readonly ImportFile[],
  existing: ReadonlyMap<string, ProjectMeta>,
  names: readonly string[],
  repoFiles: readonly string[],
  allowed = false,
  agents = 'agents',
  here: (rel: string) => string = (rel) => rel,
  /** For each project of the store, the files its invariants were imported from. */
  importedInto: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): ImportFile[] {
  const { projects, projectOf } = placeProjects(files, existing, names);
  const taken: { name: string; paths: readonly string[] }[] = [...existing].map(([name, m]) => ({ name, paths: m.paths ?? [] }));
  // Projects that are one folder each (DIR/**, the nested files' case) overlap only when one folder holds the other:
  // found through the folders above and an index of those below, not by trying every pair (a monorepo may have a thousand).
  const folders = new Map<string, string>();
  // For each folder, the first of those folders that lies below it: the lookup that replaces a scan of them all.
  const firstBelow = new Map<string, string>();
  const addFolder = (dir: string, name: string) => {
    if (!folders.has(dir)) {
      for (let at = dir.indexOf('/'); at >= 0; at = dir.indexOf('/', at + 1)) {
        const above = dir.slice(0, at);
        if (!firstBelow.has(above)) firstBelow.set(above, dir);
      }
    }
    folders.set(dir, name);
  };
  for (const t of taken) {
    const dir = singleFolder(t.paths);
    if (dir !== undefined) addFolder(dir, t.name);
  }
  const refused = new Map<string, { why: (file: string) => string }>();
  // Allowed, each new project that overlaps others: all of them, the one the refusal would name first.
  const shared = new Map<string, { project: string; paths: readonly string[] }[]>();
  // The way out names the file: `--project` alone would put every file of the import into that project. Only a
  // project that holds every file of the folder is one: `**/*.py` would carry a folder's rules to no file but its .py.
  // Every project it overlaps is named, as `overlaps` names them where allowed: the first alone would hide the rest.
  const say = (p: PlannedProject, others: readonly { project: string; paths: readonly string[] }[]) => {
    const dir = singleFolder(p.paths);
    const holder = dir === undefined ? undefined : others.find((o) => folderHolder(o.paths)(dir));
    const listed = others.map((o) => `${o.project} (${o.paths.join(', ')})`);
    const named = `project${others.length > 1 ? 's' : ''} ${listed.length > 1 ? `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}` : listed[0]}`;
    refused.set(p.name, {
      why: (file) => {
        // The file's globs changed since the import made that project of them: the project's paths are what to change.
        const own = others.find((o) => importedInto.get(o.project)?.has(file));
        if (own !== undefined)
          return `its globs (${p.paths.join(', ')}) are no longer the paths of project ${own.project} (${own.paths.join(', ')}), which its rules were imported into: write them as the paths of projects/${own.project}/project.yaml in the store, and import it again`;
        return `its project ${p.name} (${p.paths.join(', ')}) would overlap ${named}; projects' paths must be disjoint: ${
          holder !== undefined
            ? `import the file alone into that project (\`${agents} import ${shellPath(here(file))} --project ${holder.project}\`), or set`
            : `set`
        } projects.allow_overlap: true in config.yaml`;
      },
    });
  };
  const pathsOf = (name: string) => taken.find((t) => t.name === name)?.paths ?? [];
  // A project only files without rules land in is never made: it takes no paths from the files after it.
  const holding = new Set<string>();
  for (const f of files) if (f.candidates.length > 0 && projectOf.has(f)) holding.add(projectOf.get(f)!);
  const fresh = projects.filter((p) => !p.exists && holding.has(p.name));
  // The store's projects, then the new ones: their overlaps found at once, then asked of those kept so far.
  const everyone = [...taken, ...fresh];
  const at = new Map(everyone.map((t, i) => [t.name, i]));
  const kept = keptOverlaps(
    everyone.map((t) => t.paths),
    repoFiles,
  );
  const general = new Set<number>();
  for (const t of taken) {
    kept.keep(at.get(t.name)!);
    if (singleFolder(t.paths) === undefined) general.add(at.get(t.name)!);
  }
  for (const p of fresh) {
    const dir = singleFolder(p.paths);
    const i = at.get(p.name)!;
    let hit: string | undefined;
    const first = (among: (j: number) => boolean) => {
      const j = kept.firstKept(i, among);
      return j === undefined ? undefined : everyone[j]!.name;
    };
    if (dir !== undefined) {
      // A folder above it, or below it, that a project holds already.
      for (let d = dir; hit === undefined && d !== ''; d = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '') hit = folders.get(d);
      const below = firstBelow.get(dir);
      if (below !== undefined) hit ??= folders.get(below);
      // Only a project of other globs than one folder's can overlap it now: none kept, none to look for.
      if (general.size > 0) hit ??= first((j) => general.has(j));
    } else hit = first(() => true);
    if (hit !== undefined && hit !== p.name) {
      // Every project it overlaps, the one found first leading: a project after it may overlap it too.
      const names = new Set([hit, ...kept.allKept(i, () => true).map((j) => everyone[j]!.name)]);
      names.delete(p.name);
      const others = [...names].map((project) => ({ project, paths: pathsOf(project) }));
      say(p, others);
      // Allowed, it is made all the same, and said with every project it overlaps.
      if (!allowed) continue;
      shared.set(p.name, others);
    }
    taken.push(p);
    kept.keep(i);
    if (dir !== undefined) addFolder(dir, p.name);
    else general.add(i);
  }
  return files.map((f) => {
    const hit = refused.get(projectOf.get(f) ?? '');
    if (hit === undefined) return f;
    return allowed ? { ...f, overlaps: shared.get(projectOf.get(f)!)! } : { ...f, skipped: hit.why(f.file) };
  });
}
