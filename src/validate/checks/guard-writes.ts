import type { Diagnostic } from '../../core/diagnostics.ts';
import { filesAsMatched, folderWords, mayNameFolder, writeGlobNamesFolder } from '../../core/globs.ts';
import { quoteText } from '../../core/plain-text.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, ValidateOptions } from './context.ts';
import type { Located } from './located.ts';

/**
 * Guards' write globs that can never deny a write (docs/guard.md): one that names a folder (`secrets`) or folders (`config/*`) and so matches
 * no file of the repository, and one of a project's guard that no file of the project's paths can match (`secrets/**`
 * in a project of `web/**`), as that guard judges only the project's files. Such a guard denies nothing its author
 * meant it to keep.
 */
export async function checkGuardWrites(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const globs: { file: string; index: number; glob: string }[] = [];
  const projectWrites: { file: string; project: string; write: string[] }[] = [];
  const projectPaths = new Map<string, { file: string; paths: string[] }>();
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    if (kind.kind === 'project-meta') {
      const paths = facts[i]!.j?.paths;
      if (paths) projectPaths.set(kind.project, { file: entry.path, paths });
    }
    const write = facts[i]!.g;
    if (kind.kind !== 'invariant' || write === undefined) continue;
    // Hook mode: a finding sits on the invariant's own file, kept only when the change touches it (or, for one outside
    // its project, names its project.yaml, which a change of the paths touches).
    const touched = !options.touches || options.touches(entry.path);
    const scope = kind.scope;
    if (scope.kind === 'project' && (touched || options.touches!(`projects/${scope.project}/project.yaml`)))
      projectWrites.push({ file: entry.path, project: scope.project, write });
    if (!touched) continue;
    // Only a glob that may name a folder has the repository's files listed (`**/*.pem` never does).
    for (const [index, glob] of write.entries()) if (mayNameFolder(glob)) globs.push({ file: entry.path, index, glob });
  }
  return [...(await outsideProjects(projectWrites, projectPaths, located, options)), ...(await namingFolders(globs, located, options))];
}

async function namingFolders(
  globs: readonly { file: string; index: number; glob: string }[],
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  if (globs.length === 0) return [];
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  if (files === undefined) return [];
  const caseless = (await options.repoIgnoresCase?.()) ?? false;
  const matched = filesAsMatched(files, caseless);
  const found: (typeof globs)[number][] = [];
  for (const g of globs) if (await writeGlobNamesFolder(g.glob, matched, options.repoFolder, caseless)) found.push(g);
  await located.load(found.map((g) => g.file));
  return found.map((g) => {
    const { folders, them } = folderWords(g.glob);
    return located.at(
      g.file,
      ['guard', 'write', String(g.index)],
      'guard-write-folder',
      'warning',
      `guard.write.${g.index} ${quoteText(g.glob)} names ${folders} and matches no file: it guards nothing below ${them}`,
      `A write glob matches files: write ${g.glob}/** for every file below ${them}.`,
    );
  });
}

/** The write globs of projects' guards that meet none of their project's paths (judged without git: globs alone). */
async function outsideProjects(
  writes: readonly { file: string; project: string; write: string[] }[],
  projects: ReadonlyMap<string, { file: string; paths: string[] }>,
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const judged = writes.flatMap((w) => {
    const p = projects.get(w.project);
    return p ? [{ ...w, paths: p.paths, meta: p.file }] : [];
  });
  if (judged.length === 0) return [];
  const { neverFiringWrites, writeWithinPaths } = await import('../../core/path-overlap.ts');
  let caseless: Promise<boolean> | undefined;
  const ignoresCase = () => (caseless ??= options.repoIgnoresCase?.() ?? Promise.resolve(false));
  const found: ((typeof judged)[number] & { glob: string; index: number })[] = [];
  for (const w of judged)
    for (const glob of await neverFiringWrites(w.write, w.paths, ignoresCase)) found.push({ ...w, glob, index: w.write.indexOf(glob) });
  await located.load([...new Set(found.flatMap((f) => [f.file, f.meta]))]);
  return found.map((f) => {
    const within = writeWithinPaths(f.glob, f.paths);
    return located.at(
      f.file,
      ['guard', 'write', String(f.index)],
      'guard-write-outside-project',
      'warning',
      `guard.write.${f.index} ${quoteText(f.glob)} matches no file of project ${f.project}'s paths (${f.paths.map(quoteText).join(', ')}): its guard judges only the project's files, so it never fires`,
      `A write glob is a path from the repository's top, as project.yaml's paths are: write one within them${within === undefined ? '' : ` (${within})`}, or make the invariant a global one to guard the whole repository.`,
      [{ file: f.meta, ...located.where(f.meta, ['paths']), message: `project ${f.project}'s paths` }],
    );
  });
}
