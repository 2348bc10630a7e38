import type { Diagnostic } from '../../core/diagnostics.ts';
import { filesAsMatched, mayNameFolder, writeGlobNamesFolder } from '../../core/globs.ts';
import { quoteText } from '../../core/plain-text.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, ValidateOptions } from './context.ts';
import type { Located } from './located.ts';

/**
 * Guards' write globs that name a folder (`secrets`) and so match no file of the repository (docs/guard.md): such a
 * guard denies nothing below the folder, which its author meant it to keep.
 */
export async function checkGuardWrites(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  located: Located,
  options: ValidateOptions,
): Promise<Diagnostic[]> {
  const globs: { file: string; index: number; glob: string }[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const { entry, kind } = jobs[i]!;
    const write = facts[i]!.g;
    // Hook mode: a finding sits on the invariant's own file, kept only when the change touches it.
    if (kind.kind !== 'invariant' || write === undefined || (options.touches && !options.touches(entry.path))) continue;
    // Only a glob that may name a folder has the repository's files listed (`**/*.pem` never does).
    for (const [index, glob] of write.entries()) if (mayNameFolder(glob)) globs.push({ file: entry.path, index, glob });
  }
  if (globs.length === 0) return [];
  const files = options.repoFiles ? await options.repoFiles() : undefined;
  if (files === undefined) return [];
  const caseless = (await options.repoIgnoresCase?.()) ?? false;
  const matched = filesAsMatched(files, caseless);
  const found: typeof globs = [];
  for (const g of globs) if (await writeGlobNamesFolder(g.glob, matched, options.repoFolder, caseless)) found.push(g);
  await located.load(found.map((g) => g.file));
  return found.map((g) =>
    located.at(
      g.file,
      ['guard', 'write', String(g.index)],
      'guard-write-folder',
      'warning',
      `guard.write.${g.index} ${quoteText(g.glob)} names a folder and matches no file: it guards nothing below it`,
      `A write glob matches files: write ${g.glob}/** for every file below it.`,
    ),
  );
}
