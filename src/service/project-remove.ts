// `agents project remove NAME` (docs/commands.md): removes a project folder
// that nothing needs any more. Refused while it holds invariants or waivers,
// while a plan targets it, or while its project.yaml names paths (exported
// files still stand for it): each of those is a decision to take first.
import { CheckFailedError } from '../core/errors.ts';
import { isLockOf, isTemporaryName } from '../core/layout.ts';
import { readAllPlans, readFolders } from '../store/read.ts';
import { lockedWrite } from './commit.ts';
import { optionWords } from './option-words.ts';
import { type InvariantService, requireValid, toScope } from './invariant-service.ts';

export interface ProjectRemoved {
  project: string;
  folder: string;
  /** The files removed with the folder (project.yaml, .gitkeep). */
  removed: string[];
  commit?: string;
}

export async function removeProject(invariants: InvariantService, input: { project: string; commit?: boolean }): Promise<ProjectRemoved> {
  const scope = toScope({ project: input.project });
  if (scope.kind !== 'project') throw new Error('unreachable');
  const name = scope.project;
  await invariants.requireProject(name, { writing: true });
  const folder = `projects/${name}`;
  const [{ failedPartWay, removeFile }, { removeIfEmpty, removeTakenFolder, takeFolderAway }] = await Promise.all([
    import('../store/atomic-write.ts'),
    import('../store/empty-folder.ts'),
  ]);
  // Checked and removed under the folder's lock, as every writer of the scope: an add racing the removal either lands
  // first (and is refused here) or waits and finds no folder, taken away under the lock and removed once it is
  // released. The lock also clears a stale lock of a writer that died, which is no file of the project.
  return lockedWrite(
    invariants,
    { folders: [folder], commit: input.commit },
    async () => {
      const files = await refuseInUse(invariants, name, folder);
      const removed: string[] = [];
      try {
        for (const f of files) {
          removeFile(invariants.root, f);
          removed.push(f);
        }
      } catch (error) {
        // One file gone and the next refused: said so, and the same command removes the rest.
        failedPartWay(error, removed, optionWords(invariants.optionWords).calls.removeProject(name), files.length);
      }
      return { files, away: takeFolderAway(invariants.root, folder) };
    },
    ({ files, away }) => {
      if (away === undefined) removeIfEmpty(invariants.root, folder);
      else removeTakenFolder(away);
      return { value: { project: name, folder, removed: files }, paths: files, message: `project: remove ${name}\n` };
    },
  );
}

/** The files of the project folder to remove, once nothing needs it; project-in-use (exit 1) otherwise. */
async function refuseInUse(invariants: InvariantService, name: string, folder: string): Promise<string[]> {
  const snap = await readFolders(invariants.source, [folder]);
  requireValid(snap, `remove project ${name}`);
  const plans = await readAllPlans(invariants.source);
  requireValid(plans, `remove project ${name}`);
  const blockers: string[] = [];
  const { calls } = optionWords(invariants.optionWords);
  const held = snap.invariants.length;
  // Each reason names what to look at or do: a count alone leaves a newcomer to find the ids and files it means.
  if (held > 0)
    blockers.push(
      `it holds ${held} invariant${held === 1 ? '' : 's'} (move or remove ${held === 1 ? 'it' : 'them'} first; \`${calls.listScope({ project: name })}\` lists ${held === 1 ? 'it' : 'them'})`,
    );
  // The lock is this command's own, and a try at it is a waiting writer's, which finds the project gone once it goes.
  // Only the folder's own: a file below (in a sub-folder made by hand) is no lock of any scope.
  const files = snap.entries.filter((e) => e.type !== 'dir' && !isLockOf(folder, e.path)).map((e) => e.path);
  // The folder is listed one level deep: its waivers/ is listed on its own, or the project would go with its waivers.
  // Its lock (`validate --fix` rewrites a waiver under it) is no waiver: one a crashed writer left keeps no project.
  const waiverFiles = (await invariants.source.list(`${folder}/waivers`, { recursive: true }))
    .filter((e) => e.type !== 'dir' && !isLockOf(`${folder}/waivers`, e.path))
    .map((e) => e.path);
  const waivers = waiverFiles.length;
  if (waivers > 0)
    blockers.push(
      `it holds ${waivers} waiver${waivers === 1 ? '' : 's'} (${waiverFiles.slice(0, 3).join(', ')}${waivers > 3 ? ', …' : ''}: remove ${waivers === 1 ? 'its file' : 'their files'} once no longer needed)`,
    );
  const targeting = [...plans.plans.values()].filter((p) => p.project === name).map((p) => p.id);
  if (targeting.length > 0)
    blockers.push(`plan${targeting.length === 1 ? '' : 's'} ${targeting.join(', ')} target${targeting.length === 1 ? 's' : ''} it`);
  const paths = snap.projectMeta.get(name)?.paths ?? [];
  if (paths.length > 0)
    blockers.push(
      // What to remove is said by its file: "removing them" read as the project's files, or its invariants.
      `its project.yaml names paths (${paths.join(', ')}): delete ${folder}/project.yaml (or its paths) and run \`${calls.exportFiles()}\`, so the files exported for them go too`,
    );
  const other = files.filter((p) => p !== `${folder}/project.yaml` && p !== `${folder}/.gitkeep` && !p.startsWith(`${folder}/waivers/`));
  // With invariants held, their files are among `other`: only a folder that holds none is judged by its other files.
  const temporaries = held === 0 ? other.filter((p) => isTemporaryName(p.slice(p.lastIndexOf('/') + 1))) : [];
  const foreign = held === 0 ? other.filter((p) => !temporaries.includes(p)) : [];
  if (temporaries.length > 0)
    blockers.push(
      `it holds temporary files of an interrupted write (${temporaries.slice(0, 3).join(', ')}): \`${calls.fix}\` removes them`,
    );
  if (foreign.length > 0)
    blockers.push(`it holds other files (${foreign.slice(0, 3).join(', ')}), which are not the tool's: move or delete them`);
  if (blockers.length > 0)
    throw new CheckFailedError(
      `project ${name} is still in use: ${blockers.join('; ')}`,
      'Nothing was removed. Do what each reason says, then run the command again.',
      // Every reason in the detail too: a folder refused only for a .DS_Store would otherwise read as in use by nothing.
      { project: name, invariants: held, waivers, plans: targeting, paths, temporary_files: temporaries, other_files: foreign },
      'project-in-use',
    );
  return files;
}
