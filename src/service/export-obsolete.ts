// What a whole export takes back: the blocks it wrote into files that no
// project names any more (a project removed, or its paths moved), in the
// targets' rule folders and in nested AGENTS.md, CLAUDE.md and GEMINI.md, and
// every block of a target config.yaml no longer lists.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { BEGIN_PREFIX, holdsBlock, TARGETS } from '../core/export.ts';
import { removeBlock } from '../core/export-merge.ts';
import { shellPath } from '../core/shell-word.ts';
import type { ExportTargetName } from '../core/model.ts';
import { checkTargetPath, type FileChange, readExisting, type Refusal, refusalOf, targetText } from './export-targets.ts';
import { type FileRead, fileHolds, pathBytes } from '../store/read-file.ts';
import { nestedTargetFiles, sparseTargets } from './export-listed.ts';

/**
 * The changes that clear the tool's blocks from the files of `targets` that
 * this export does not write (`planned`), and from every file of the `dropped`
 * targets, root files too: each block is removed, and a file that held nothing
 * else is deleted; a block edited by hand (unless forced) or damaged is
 * refused, as any file's is.
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
  /**
   * Targets neither exported now nor listed in config.yaml: every block of theirs is taken back, so that leaving a
   * target out of the list leaves no rules behind that nothing keeps current. What is not a file the export could
   * have written (a link, a folder, a file not UTF-8) is none of its business there, and left alone.
   */
  dropped: readonly ExportTargetName[] = [],
  /** The way round a refused file the hint offers, as the caller's options name it (checkTargetPath). */
  otherwise?: string,
): Promise<{ changes: FileChange[]; refused: Refusal[] }> {
  const changes: FileChange[] = [];
  const refused: Refusal[] = [];
  // Files a sparse checkout leaves out are judged by the text git holds for them, as the files the export writes are
  // (those planned, read so by the plan already, are not asked again).
  const ruleFolders = targets.flatMap((t) => (TARGETS[t].projectDir ? [TARGETS[t].projectDir!] : []));
  const nestedName = new Map(
    [...targets, ...dropped].flatMap((t) => (TARGETS[t].nestedName ? [[TARGETS[t].nestedName!, t] as const] : [])),
  );
  const nestedFiles = await nestedTargetFiles(top, storeRel, [...nestedName.keys()]);
  const held = await sparseTargets(
    top,
    nestedFiles.filter((f) => !planned.has(f)),
    ruleFolders,
  );
  const clear = (rel: string, target: ExportTargetName, before: string, frontMatter: boolean) => {
    const r = removeBlock(before, hash, frontMatter, force);
    const onDisk = !held.has(rel);
    if (r.kind === 'refuse') refused.push(refusalOf(rel, r, before, () => removeBlock(before, hash, frontMatter, true)));
    else if (r.kind === 'delete' && !onDisk)
      // Not on disk, it can be removed from git alone: the export does not stage, so the owner does.
      refused.push({
        path: rel,
        reason: 'out-of-checkout',
        why: `no project names it any more, and the sparse checkout leaves it out of the working tree, so there is no file to delete; stage its removal with \`git rm --sparse -- ${shellPath(rel)}\``,
      });
    else if (r.kind === 'delete') changes.push({ path: rel, target, action: 'delete', before, after: undefined });
    // Not on disk, the owner's text git holds is written into the working tree without the block, as a stale file is.
    else if (r.kind === 'write')
      changes.push({ path: rel, target, action: 'update', before: onDisk ? before : undefined, after: r.text, obsolete: true });
  };
  // Nested files below the top, as git lists them.
  for (const rel of nestedFiles) {
    if (planned.has(rel)) continue;
    const t = nestedName.get(rel.slice(rel.lastIndexOf('/') + 1))!;
    // A file the export could not write (a linked folder on the way, not UTF-8) holds no block of its own.
    // One of a dropped target that the sparse checkout leaves out is not looked at: that target's files are not read
    // from git.
    const before =
      held.has(rel) && dropped.includes(t) ? undefined : readQuietly(top, rel, folders, !dropped.includes(t), otherwise, held.get(rel));
    if (!(before !== undefined && holdsBlock(before))) continue;
    clear(rel, t, before, false);
  }
  // The files of the targets' own folders (.cursor/rules/agents-<project>.mdc, …).
  for (const t of [...targets, ...dropped]) {
    const spec = TARGETS[t];
    if (dropped.includes(t)) {
      // The root file holds the global set, which no export of a dropped target writes any more.
      const root = readQuietly(top, spec.root, folders);
      if (root !== undefined && holdsBlock(root)) clear(spec.root, t, root, spec.rootFrontMatter !== undefined);
    }
    if (!spec.projectDir || !spec.projectFilePattern) continue;
    const dir = spec.projectDir;
    let names: string[];
    // The files of the folder git holds that a sparse checkout leaves out.
    const absent = [...held.keys()].filter((p) => p.startsWith(`${dir}/`) && !p.includes('/', dir.length + 1));
    try {
      checkTargetPath(top, dir, 'folder', folders, otherwise);
      names = existsSync(join(top, dir)) ? readdirSync(join(top, dir)) : [];
    } catch (error) {
      // A target not exported names no folder this export must write: a link or a file there is none of its business.
      if (error instanceof UsageError && !dropped.includes(t)) throw error;
      continue;
    }
    names.push(...(dropped.includes(t) ? [] : absent.map((p) => p.slice(dir.length + 1))));
    for (const name of names.sort()) {
      const rel = `${dir}/${name}`;
      if (planned.has(rel) || !spec.projectFilePattern.test(name) || rel === spec.root) continue;
      // A link (the team's rules kept elsewhere) or a folder of such a name is none the export wrote: left alone, as below
      // the top, never a reason to refuse the whole export.
      const before =
        held.has(rel) || lstatSync(join(top, rel), { throwIfNoEntry: false })?.isFile()
          ? readQuietly(top, rel, folders, !dropped.includes(t), otherwise, held.get(rel))
          : undefined;
      if (!(before !== undefined && holdsBlock(before))) continue;
      clear(rel, t, before, spec.projectFrontMatter !== undefined);
    }
  }
  return { changes, refused };
}

/**
 * A file, if it is one the export could have written; else undefined (none of its business). `clearing`: a file not
 * UTF-8, or over the size limit, that holds a begin marker all the same (the owner's text added in another encoding, or
 * grown past the limit, after the block was written) is refused, exit 2, as a file the export writes is: else its
 * block would stand for ever, unseen, and `export --check` say the files are up to date.
 */
function readQuietly(
  top: string,
  rel: string,
  folders: Set<string>,
  clearing = false,
  otherwise?: string,
  /** What git's index holds for it, when a sparse checkout leaves it out of the working tree. */
  held?: FileRead,
): string | undefined {
  try {
    return held === undefined ? readExisting(top, rel, folders, otherwise) : targetText(rel, held, otherwise);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const bytes = () => (held === undefined ? readFileSync(join(top, rel)) : held.ok ? held.bytes : Buffer.alloc(0));
    if (clearing && error.detail?.reason === 'not-utf8' && bytes().includes(BEGIN_PREFIX)) throw error;
    // Searched in pieces: a file over the limit is never read whole.
    if (clearing && error.detail?.reason === 'too-large' && held === undefined && fileHolds(join(top, rel), BEGIN_PREFIX)) throw error;
    // In a folder whose name is not UTF-8, a block it holds could be neither written nor cleared by that name: refused,
    // never left to stand unseen; looked for under the name's own bytes.
    if (clearing && error.detail?.reason === 'name-not-utf8' && held === undefined) {
      const real = pathBytes(top, rel);
      if (real !== undefined && fileHolds(real, BEGIN_PREFIX)) throw error;
    }
    return undefined;
  }
}
