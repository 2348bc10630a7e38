import type { Diagnostic } from '../../core/diagnostics.ts';
import type { Severity, StoreConfig } from '../../core/model.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, ValidateOptions } from './context.ts';
import type { Located } from './located.ts';

/**
 * Projects' paths (docs/export.md): two projects covering the same files
 * (proved by the globs alone, or by a file of the repository both match),
 * and globs that match no file of the repository.
 */
export async function checkProjectPaths(
  storeConfig: () => Promise<StoreConfig>,
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const projects: { name: string; file: string; paths: string[] }[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind !== 'project-meta') continue;
    // The schema gives `paths` at least one glob.
    const paths = facts[i]!.j?.paths;
    if (paths) projects.push({ name: kind.project, file: entry.path, paths });
  }
  if (projects.length === 0) return [];
  // Hook mode: every finding sits on a project.yaml and names only project.yaml files, so with none of them (nor
  // the overlap setting in config.yaml) touched, none would be kept: the check costs nothing.
  const touches = options.touches;
  if (touches && !touches('config.yaml') && !projects.some((p) => touches(p.file))) return [];
  projects.sort((a, b) => (a.name < b.name ? -1 : 1));
  const { compileGlob, literalFolder } = await import('../../core/globs.ts');
  const { globsByFolder, surelyOverlappingProjects } = await import('../../core/path-overlap.ts');
  const allowOverlap = (await storeConfig()).projects.allow_overlap;
  const severity: Severity = allowOverlap ? 'warning' : 'error';
  const hint = 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.';
  // Each finding with the files its positions are read from (an overlap also names the other project's glob).
  const found: { files: string[]; report: () => Diagnostic }[] = [];
  const reportedPairs = new Set<string>();
  const overlap = (a: (typeof projects)[number], ai: number, b: (typeof projects)[number], bi: number, example?: string) => {
    const pair = `${a.name}\0${b.name}`;
    if (reportedPairs.has(pair)) return;
    reportedPairs.add(pair);
    const why = example ? `both hold ${example}` : 'the globs alone show it';
    found.push({
      files: [b.file, a.file],
      report: () =>
        located.at(
          b.file,
          ['paths', String(bi)],
          'project-paths-overlap',
          severity,
          `paths.${bi} ${b.paths[bi]} of project ${b.name} overlaps paths.${ai} ${a.paths[ai]} of project ${a.name} (${why})`,
          hint,
          [{ file: a.file, ...located.where(a.file, ['paths', String(ai)]), message: `project ${a.name}'s path ${a.paths[ai]}` }],
        ),
    });
  };
  // Only globs whose literal folders can meet are compared (core/path-overlap.ts).
  for (const { a, ai, b, bi } of surelyOverlappingProjects(projects.map((p) => p.paths))) overlap(projects[a]!, ai, projects[b]!, bi);
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  if (files) {
    // Each file is tried only on the globs of its folders.
    const globs = projects.flatMap((p, pi) =>
      p.paths.map((g, gi) => ({ pi, gi, glob: g, matches: compileGlob(g), folder: literalFolder(g), hits: 0 })),
    );
    const matching = globsByFolder(globs);
    for (const f of files) {
      let first: (typeof globs)[number] | undefined;
      for (const i of matching(f)) {
        const g = globs[i]!;
        g.hits++;
        if (!first) first = g;
        else if (first.pi !== g.pi) overlap(projects[first.pi]!, first.gi, projects[g.pi]!, g.gi, f);
      }
    }
    for (const g of globs) {
      if (g.hits > 0) continue;
      const p = projects[g.pi]!;
      found.push({
        files: [p.file],
        report: () =>
          located.at(
            p.file,
            ['paths', String(g.gi)],
            'project-path-unmatched',
            'warning',
            `paths.${g.gi} ${g.glob} of project ${p.name} matches no file of the repository`,
            'Correct the glob (paths are relative to the top of the repository), or remove it.',
          ),
      });
    }
  }
  await located.load(found.flatMap((x) => x.files));
  return found.map((x) => x.report());
}
