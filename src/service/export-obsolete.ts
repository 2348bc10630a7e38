// What a whole export takes back: the blocks it wrote into files that no
// project names any more (a project removed, or its paths moved), in the
// targets' rule folders and in nested AGENTS.md, CLAUDE.md and GEMINI.md.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { BEGIN_PREFIX, holdsBlock, TARGETS } from '../core/export.ts';
import { removeBlock } from '../core/export-merge.ts';
import type { ExportTargetName } from '../core/model.ts';
import { checkTargetPath, type FileChange, nestedTargetFiles, readExisting, type Refusal, refusalOf } from './export-targets.ts';
import type { WatchedFile } from './export-plan.ts';
import { watched } from './export-remembered.ts';

/**
 * The changes that clear the tool's blocks from the files of `targets` that
 * this export does not write (`planned`): each block is removed, and a file
 * that held nothing else is deleted; a block edited by hand (unless forced) or
 * damaged is refused, as any file's is.
 */
export async function obsoleteFiles(
  top: string,
  storeRel: string,
  targets: readonly ExportTargetName[],
  planned: ReadonlySet<string>,
  folders: Set<string>,
  hash: (text: string) => string,
  /** `--force`: a block edited by hand goes too, as one is replaced in the files the export writes. */
  force: boolean,
  /** Targets neither exported now nor listed in config.yaml: their files' blocks are said, not touched. */
  dropped: readonly ExportTargetName[] = [],
  /** The way round a refused file the hint offers, as the caller's options name it (checkTargetPath). */
  otherwise?: string,
): Promise<{ changes: FileChange[]; refused: Refusal[]; warnings: string[]; watched: WatchedFile[] }> {
  const changes: FileChange[] = [];
  const refused: Refusal[] = [];
  const left = new Map<ExportTargetName, string[]>();
  // The files the warnings name: a run the cache answers says them again only while these are as they were.
  const watch: WatchedFile[] = [];
  const leave = (rel: string, target: ExportTargetName, text: string) => {
    left.set(target, [...(left.get(target) ?? []), rel]);
    watch.push(watched(rel, text));
  };
  const clear = (rel: string, target: ExportTargetName, before: string, frontMatter: boolean) => {
    const r = removeBlock(before, hash, frontMatter, force);
    if (r.kind === 'refuse') refused.push(refusalOf(rel, r));
    else if (r.kind === 'delete') changes.push({ path: rel, target, action: 'delete', before, after: undefined });
    else if (r.kind === 'write') changes.push({ path: rel, target, action: 'update', before, after: r.text, obsolete: true });
  };
  // Nested files below the top, as git lists them.
  const nestedOf = new Map([...targets, ...dropped].flatMap((t) => (TARGETS[t].nestedName ? [[TARGETS[t].nestedName!, t] as const] : [])));
  for (const rel of await nestedTargetFiles(top, storeRel, [...nestedOf.keys()])) {
    if (planned.has(rel)) continue;
    const t = nestedOf.get(rel.slice(rel.lastIndexOf('/') + 1))!;
    // A file the export could not write (a linked folder on the way, not UTF-8) holds no block of its own.
    const before = readQuietly(top, rel, folders, !dropped.includes(t), otherwise);
    if (!(before !== undefined && holdsBlock(before))) continue;
    if (dropped.includes(t)) leave(rel, t, before);
    else clear(rel, t, before, false);
  }
  // The files of the targets' own folders (.cursor/rules/agents-<project>.mdc, …).
  for (const t of [...targets, ...dropped]) {
    const spec = TARGETS[t];
    if (dropped.includes(t)) {
      const root = readQuietly(top, spec.root, folders);
      if (root !== undefined && holdsBlock(root)) leave(spec.root, t, root);
    }
    if (!spec.projectDir || !spec.projectFilePattern) continue;
    let names: string[];
    try {
      checkTargetPath(top, spec.projectDir, 'folder', undefined, otherwise);
      names = readdirSync(join(top, spec.projectDir)).sort();
    } catch (error) {
      // A target not exported names no folder this export must write: a link or a file there is none of its business.
      if (error instanceof UsageError && !dropped.includes(t)) throw error;
      continue;
    }
    for (const name of names) {
      const rel = `${spec.projectDir}/${name}`;
      if (planned.has(rel) || !spec.projectFilePattern.test(name) || rel === spec.root) continue;
      // A link (the team's rules kept elsewhere) or a folder of such a name is none the export wrote: left alone, as below
      // the top, never a reason to refuse the whole export.
      if (!lstatSync(join(top, rel), { throwIfNoEntry: false })?.isFile()) continue;
      const before = readQuietly(top, rel, folders, !dropped.includes(t), otherwise);
      if (!(before !== undefined && holdsBlock(before))) continue;
      if (dropped.includes(t)) leave(rel, t, before);
      else clear(rel, t, before, spec.projectFrontMatter !== undefined);
    }
  }
  const warnings = [...left].map(([t, files]) => {
    const more = files.length > 1 ? ` and ${files.length - 1} more file${files.length > 2 ? 's' : ''}` : '';
    return `${files[0]}${more} hold${files.length > 1 ? '' : 's'} a block of \`agents export\` for ${t}, which is no longer exported (config.yaml does not list it): its rules are no longer kept current; list ${t} in export.targets again, or remove the block`;
  });
  return { changes, refused, warnings, watched: watch };
}

/**
 * A file, if it is one the export could have written; else undefined (none of its business). `clearing`: a file not
 * UTF-8 that holds a begin marker all the same (the owner's text added in another encoding after the block was
 * written) is refused, exit 2, as a file the export writes is: else its block would stand for ever, unseen.
 */
function readQuietly(top: string, rel: string, folders: Set<string>, clearing = false, otherwise?: string): string | undefined {
  try {
    return readExisting(top, rel, folders, otherwise);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (clearing && error.detail?.reason === 'not-utf8' && readFileSync(join(top, rel)).includes(BEGIN_PREFIX)) throw error;
    return undefined;
  }
}
