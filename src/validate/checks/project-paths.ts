import type { Diagnostic, DiagnosticCode } from '../../core/diagnostics.ts';
import type { Severity, StoreConfig } from '../../core/model.ts';
import { intoStore, namesFolderOfFiles, type SortedFiles, sortFiles } from '../../core/globs.ts';
import { quoteText } from '../../core/plain-text.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, ValidateOptions } from './context.ts';
import type { Located } from './located.ts';

/**
 * Projects' paths (docs/export.md): two projects covering the same files
 * (proved by the globs alone, or by a file of the repository both match),
 * and globs that match no file of the repository.
 */
export async function checkProjectPaths(
  storeConfig: () => Promise<StoreConfig | undefined>,
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
  const { projectOverlaps } = await import('../../core/path-overlap.ts');
  // A broken config.yaml does not say whether overlaps are allowed: they are judged once it is fixed.
  const config = await storeConfig();
  const allowOverlap = config?.projects.allow_overlap;
  const severity: Severity = allowOverlap ? 'warning' : 'error';
  // With the setting on, the warning says what an overlap costs instead of naming the setting that is already set.
  const hint = allowOverlap
    ? 'Overlaps are allowed here (projects.allow_overlap): a file in both projects gets no project inferred from its path (which, invariant add); make the paths disjoint to have one.'
    : 'Make the paths disjoint (a file belongs to one project), or set projects.allow_overlap: true in config.yaml.';
  // Each finding with the files its positions are read from (an overlap also names the other project's glob).
  const found: { files: string[]; report: () => Diagnostic }[] = [];
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  // Sorted for the folder check only when a glob matches no file (namesFolderOfFiles).
  let sorted: SortedFiles | undefined;
  const { overlaps, hits } = projectOverlaps(
    projects.map((p) => p.paths),
    files,
  );
  for (const { a: ai0, ai, b: bi0, bi, example } of config ? overlaps : []) {
    // Reported on the later project (by name), naming the earlier one's glob.
    const [a, b] = [projects[ai0]!, projects[bi0]!];
    const why = example ? `both hold ${example}` : 'the globs alone show it';
    found.push({
      files: [b.file, a.file],
      report: () =>
        located.at(
          b.file,
          ['paths', String(bi)],
          'project-paths-overlap',
          severity,
          `paths.${bi} ${quoteText(b.paths[bi]!)} of project ${b.name} overlaps paths.${ai} ${quoteText(a.paths[ai]!)} of project ${a.name} (${why})`,
          hint,
          [
            {
              file: a.file,
              ...located.where(a.file, ['paths', String(ai)]),
              message: `project ${a.name}'s path ${quoteText(a.paths[ai]!)}`,
            },
          ],
        ),
    });
  }
  const onGlob = (p: (typeof projects)[number], gi: number, code: DiagnosticCode, severity: Severity, words: string, hint: string) =>
    found.push({
      files: [p.file],
      report: () =>
        located.at(
          p.file,
          ['paths', String(gi)],
          code,
          severity,
          `paths.${gi} ${quoteText(p.paths[gi]!)} of project ${p.name} ${words}`,
          hint,
        ),
    });
  for (const [pi, p] of projects.entries()) {
    for (const [gi, glob] of p.paths.entries()) {
      // A store kept elsewhere than .agents/ (whose globs the parser refuses) is no folder of a project's files either.
      const into = options.storeFolder ? intoStore(glob, options.storeFolder) : undefined;
      if (into)
        onGlob(
          p,
          gi,
          'project-path-invalid',
          'error',
          into,
          'Paths are globs relative to the top of the repository, e.g. services/billing/**.',
        );
      if (hits && hits[pi]![gi]! === 0)
        onGlob(
          p,
          gi,
          'project-path-unmatched',
          'warning',
          'matches no file of the repository',
          files !== undefined && namesFolderOfFiles(glob, (sorted ??= sortFiles(files)))
            ? `${glob} names a folder, and a path is a glob of files: write ${glob}/** for every file below it.`
            : 'Correct the glob (paths are relative to the top of the repository), or remove it.',
        );
    }
  }
  await located.load(found.flatMap((x) => x.files));
  return found.map((x) => x.report());
}
