// Moving an invariant to another scope, and removing one.
import { UsageError } from '../../core/errors.ts';
import { inputObject, optionalBoolean, optionalSignal } from '../../core/input-shape.ts';
import { type Scope, type ScopedInvariant, describeScope, invariantPath, scopeFolder } from '../../core/model.ts';
import { textKey } from '../../core/normalise.ts';
import { readAllPlans, readEntries, readFolders } from '../../store/read.ts';
import { lockedWrite } from '../commit.ts';
import { optionWords } from '../option-words.ts';
import type { InvariantContext } from './context.ts';
import { checkOverride } from './edit.ts';
import { gone, readOne } from './lookup.ts';
import { checkNewAction, projectMadeUnderLock } from './projects.ts';
import { inheritedIfReadable, refuseOverridden, relations } from './related.ts';
import { duplicateRefusal, refuseWritesOutsideProject, requireOwnScope, requirePlanHeld, requireValid } from './rules.ts';
import { strandedWaivers } from './stranded.ts';
import type { KeptProject, MoveResult, RemoveResult, ScopeInput } from './types.ts';

/**
 * Moves an invariant to another scope (`invariant move`), keeping its id
 * (so `invariant log` follows it) and its fields. A duplicate in the
 * destination is refused (exit 1), and so is the move of an invariant
 * another copy names in `overrides` (exit 1, `overridden`), or of one whose
 * own `overrides` the destination would break (exit 2). Both scopes are
 * locked; the new file is written before the old one is removed, so a crash
 * never loses it, and a crash between the two leaves the old one marked, for
 * `validate --fix` to remove.
 */
export async function move(
  svc: InvariantContext,
  idOrPrefix: string,
  to: ScopeInput | Scope,
  given: { commit?: boolean; newProject?: boolean } = {},
): Promise<MoveResult> {
  const options = inputObject(given, 'move', { commit: true, newProject: true });
  const found = await svc.resolveId(idOrPrefix);
  const dest = await svc.resolveScope(to);
  requireOwnScope(dest, svc.optionWords);
  if (scopeFolder(dest) === scopeFolder(found.scope)) {
    throw new UsageError(`${found.id} is already in ${describeScope(dest)}`, `Name another scope: ${optionWords(svc.optionWords).scopes}.`);
  }
  if (dest.kind === 'plan') await svc.readPlan(dest.plan);
  // As for add: a new project is created (and said), but a name close to an existing project's is a likely typo.
  const creates =
    dest.kind === 'project'
      ? await svc.checkNewProject(dest.project, optionalBoolean(options.newProject, 'newProject') ?? false, 'move it to')
      : undefined;
  if (dest.kind === 'action') await checkNewAction(svc, `${dest.ns}/${dest.name}`, 'move it to');
  const moving = await readOne(svc, found, 'move');
  // Into a project, its guard judges only the project's files: a write glob none of them can match would never fire.
  await refuseWritesOutsideProject(svc.source, svc.root, dest, moving.guard);
  // The notes after the move read the policy sources (below every scope but templates'): one that cannot be read
  // (an invalid lock, exit 3) stops the move before it is written, not once it is.
  if (dest.kind !== 'action') await inheritedIfReadable(svc);
  const from = scopeFolder(found.scope);
  const toFolder = scopeFolder(dest);
  const { formatInvariantFile } = await import('../../core/serialize.ts');
  const { createInStyleOf, linkAsTemporary, removeFile, undoWrites } = await import('../../store/atomic-write.ts');
  let before: ScopedInvariant | undefined;
  let created: string | undefined;
  const done = await lockedWrite(
    svc,
    // Both folders' locks, taken in one order by every writer, so two moves in opposite directions never wait on each other.
    { folders: [from, toFolder], commit: options.commit },
    async (made) => {
      if (dest.kind === 'plan') await requirePlanHeld(svc.source, dest.plan, 'this command ran', svc.optionWords);
      if (dest.kind === 'project') created = projectMadeUnderLock(dest.project, creates, made.has(toFolder));
      const here = await readFolders(svc.source, [from, toFolder]);
      requireValid(here, `move ${found.id} to ${describeScope(dest)}`);
      const old = here.invariants.find((i) => i.id === found.id && i.path === found.path);
      if (!old) throw await gone(svc, found);
      before = old;
      const dup = here.invariants.find((i) => scopeFolder(i.scope) === toFolder && textKey(i.text) === textKey(old.text));
      if (dup) {
        throw duplicateRefusal(dest, dup, svc.optionWords, 'moved');
      }
      const next: ScopedInvariant = { ...old, tags: [...old.tags], scope: dest, path: invariantPath(dest, old.id) };
      // Provenance belongs to plan scope only: kept between plans, added on the way in, dropped on the way out.
      if (dest.kind === 'plan') next.source = old.source ?? { kind: 'plan' };
      else delete next.source;
      // A copy naming this one in overrides named it where it was: elsewhere, it may outrank that copy or never meet
      // it. As for edit --text, the override is taken away first, on purpose.
      await refuseOverridden(svc, old, 'move');
      // Its own overrides must still name a lower copy it meets, by edit --overrides' rule.
      if (next.overrides !== undefined) await checkOverride(svc, next);
      // Until the old file is removed the store holds the id twice: a link to it under a temporary's name says, should
      // the move be cut short (killed, a crash), which copy it leaves, so that `validate --fix` finishes it.
      const marker = linkAsTemporary(svc.root, old.path);
      try {
        // Written as edit writes: the byte order mark, CRLF line ends and permissions of the file it came from.
        createInStyleOf(svc.root, next.path, formatInvariantFile(next.path, next), old.path);
      } catch (error) {
        undoWrites(svc.root, [marker], error, `a link to ${old.path} that marks it as moving`);
      }
      try {
        removeFile(svc.root, old.path);
      } catch (error) {
        // The old file stays (read-only, say): the new copy goes again, or the store would hold the id twice.
        undoWrites(svc.root, [marker, next.path], error, `a second copy of ${old.id}`);
      }
      try {
        removeFile(svc.root, marker);
      } catch {
        // The move is done; the link left is a temporary of a process gone, which `validate --fix` removes.
      }
      return { moved: next, left: await leaveEmptiedProject(svc, from) };
    },
    ({ moved, left: { kept, release } }) => {
      release();
      return {
        value: { invariant: moved, ...(kept ? { keptProject: kept } : {}) },
        paths: [found.path, moved.path, ...(kept ? [kept.path] : [])],
        message: `invariant: move ${found.id} from ${describeScope(found.scope)} to ${describeScope(dest)}\n\n${moved.text}\n`,
      };
    },
  );
  const rel = await relations(svc, done.invariant);
  return {
    before: before!,
    invariant: done.invariant,
    file: `${svc.root}/${done.invariant.path}`,
    ...rel,
    strandedWaivers: await strandedWaivers(svc, [{ before: before!, after: done.invariant }]),
    ...(done.keptProject ? { keptProject: done.keptProject } : {}),
    ...(created !== undefined ? { createdProject: created } : {}),
    ...(done.commit ? { commit: done.commit } : {}),
  };
}

/** Deletes an invariant's file. Callers confirm first (see `show` for what it shadows). */
export async function remove(
  svc: InvariantContext,
  idOrPrefix: string,
  given: { commit?: boolean; signal?: AbortSignal } = {},
): Promise<RemoveResult> {
  // Null reads as no options; a string in their place is refused, not taken for none.
  const options = inputObject(given, 'remove', { commit: true, signal: true });
  const signal = optionalSignal(options.signal, 'signal');
  const found = await svc.resolveId(idOrPrefix);
  const { removeFile } = await import('../../store/atomic-write.ts');
  const folder = scopeFolder(found.scope);
  let was: ScopedInvariant | undefined;
  const done = await lockedWrite(
    svc,
    { folders: [folder], commit: options.commit, signal },
    async () => {
      // Found before the lock was taken: a writer it waited for may have moved or removed it meanwhile.
      const here = await svc.source.list(folder, { recursive: false });
      const entry = here.find((e) => e.path === found.path && e.type === 'file');
      if (entry === undefined) throw await gone(svc, found);
      await refuseOverridden(svc, found, 'remove');
      // The invariant as it was, for the waivers it leaves waiving nothing; none known of an invalid file.
      was = (await readEntries(svc.source, [entry])).invariants[0];
      removeFile(svc.root, found.path);
      return leaveEmptiedProject(svc, folder);
    },
    ({ kept, release }) => {
      release();
      return {
        value: { ...found, ...(kept ? { keptProject: kept } : {}) },
        paths: [found.path, ...(kept ? [kept.path] : [])],
        message: `invariant: remove ${found.id} from ${describeScope(found.scope)}\n`,
      };
    },
  );
  return { ...done, strandedWaivers: await strandedWaivers(svc, was ? [{ before: was, after: undefined }] : []) };
}

/**
 * A project folder that a move or a removal left empty. A project exists while its folder does, so the folder goes,
 * unless a plan targets the project: then it keeps a `.gitkeep`, as `project add` writes, so that the plan's project
 * stays in the store and in git. Removing a project a plan targets is `project remove`'s decision, which it refuses.
 * Decided under the folder's lock, as `project remove` decides it: `plan use` writes a plan for the project under that
 * lock, so its plan either lands first and keeps the project, or finds the project gone; decided after the lock, a
 * plan made meanwhile was left targeting a folder removed, or left empty, which git does not keep. The folder is taken
 * out of its place under the lock; `release`, once the lock is released, removes it.
 */
async function leaveEmptiedProject(svc: InvariantContext, folder: string): Promise<{ kept?: KeptProject; release: () => void }> {
  const stays = { release: () => {} };
  if (!folder.startsWith('projects/')) return stays;
  const { holdsOnlyLock, removeIfEmpty, removeTakenFolder, takeFolderAway } = await import('../../store/empty-folder.ts');
  if (!holdsOnlyLock(svc.root, folder)) return stays;
  const project = folder.slice('projects/'.length);
  const plans = await readAllPlans(svc.source);
  const targeting = [...plans.plans.values()].filter((p) => p.project === project).map((p) => p.id);
  // A plan file that cannot be read may target it too: the project is kept rather than lost.
  if (targeting.length === 0 && plans.diagnostics.every((d) => d.severity !== 'error')) {
    const away = takeFolderAway(svc.root, folder);
    return { release: () => (away === undefined ? removeIfEmpty(svc.root, folder) : removeTakenFolder(away)) };
  }
  const path = `${folder}/.gitkeep`;
  (await import('../../store/atomic-write.ts')).writeFileAtomic(svc.root, path, '');
  return { kept: { project, path, plans: targeting }, release: stays.release };
}
