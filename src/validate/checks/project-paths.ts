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
  projects.sort((a, b) => (a.name < b.name ? -1 : 1));
  const { compileGlob, globsSurelyOverlap, literalFolder } = await import('../../core/globs.ts');
  const allowOverlap = (await storeConfig()).projects.allow_overlap;
  const severity: Severity = allowOverlap ? 'warning' : 'error';
  const hint = 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.';
  const found: { file: string; report: () => Diagnostic }[] = [];
  const reportedPairs = new Set<string>();
  const overlap = (a: (typeof projects)[number], ai: number, b: (typeof projects)[number], bi: number, example?: string) => {
    const pair = `${a.name}\0${b.name}`;
    if (reportedPairs.has(pair)) return;
    reportedPairs.add(pair);
    const why = example ? `both hold ${example}` : 'the globs alone show it';
    found.push({
      file: b.file,
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
  for (let x = 0; x < projects.length; x++) {
    for (let y = x + 1; y < projects.length; y++) {
      const a = projects[x]!;
      const b = projects[y]!;
      for (const [ai, ga] of a.paths.entries())
        for (const [bi, gb] of b.paths.entries()) if (globsSurelyOverlap(ga, gb)) overlap(a, ai, b, bi);
    }
  }
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  if (files) {
    // Each glob is tried only on the files below its literal folder.
    const globs = projects.flatMap((p, pi) =>
      p.paths.map((g, gi) => ({
        pi,
        gi,
        glob: g,
        matches: compileGlob(g),
        prefix: literalFolder(g) === '' ? '' : `${literalFolder(g)}/`,
        hits: 0,
      })),
    );
    for (const f of files) {
      let first: (typeof globs)[number] | undefined;
      for (const g of globs) {
        if (!f.startsWith(g.prefix) || !g.matches(f)) continue;
        g.hits++;
        if (!first) first = g;
        else if (first.pi !== g.pi) overlap(projects[first.pi]!, first.gi, projects[g.pi]!, g.gi, f);
      }
    }
    for (const g of globs) {
      if (g.hits > 0) continue;
      const p = projects[g.pi]!;
      found.push({
        file: p.file,
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
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}
