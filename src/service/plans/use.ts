// `plan use`: a new plan from an action template.
import { inputObject, optionalString, requiredString } from '../../core/input-shape.ts';
import { type Plan, actionName } from '../../core/model.ts';
import { promotedCopy, selectPromoted } from '../../core/records.ts';
import { addingTo, formatInvariantFile, formatPlanFile } from '../../core/serialize.ts';
import { emptySnapshot, readFolders } from '../../store/read.ts';
import { readProjects } from '../../store/projects.ts';
import { writeFolderAtomic } from '../../store/atomic-write.ts';
import { withFolderLock } from '../../store/lock.ts';
import { withStopsHeld } from '../../store/held-signals.ts';
import { commitOptionFor, commitWanted, withCommit } from '../commit.ts';
import { idMaker } from '../new-ids.ts';
import { optionWords } from '../option-words.ts';
import { actionScope, projectMadeUnderLock, requireAction } from '../invariants/projects.ts';
import { requireValid, toScope } from '../invariants/rules.ts';
import type { PlanContext } from './context.ts';
import { actionTree, timestamp } from './common.ts';
import { USE_FIELDS, type UseInput, type UseResult } from './types.ts';
import { join } from 'node:path';

/**
 * `plan use`: a new plan promoting every active invariant of the action
 * (one per text). The plan folder is built under a temporary name and
 * renamed into place, so readers see the whole plan or none of it.
 */
export async function use(svc: PlanContext, given: UseInput): Promise<UseResult> {
  const input = inputObject(given, 'use', USE_FIELDS, 'input') as UseInput;
  optionalString(input.project, 'project');
  requiredString(input.action, 'action');
  // SOURCE:NS/NAME names a policy source's template (docs/extends.md); its names are checked before any read (only a
  // name of another shape reads the templates' names, for the closest to suggest).
  const scope = await actionScope(svc.invariants, input.action);
  const { tree: actionSource } = await actionTree(svc, input.action);
  const localRef = `${scope.ns}/${scope.name}`;
  const ref = actionName(scope);
  if (input.project !== undefined) toScope({ project: input.project });
  // A linked project or action folder is an invalid store (exit 3), not an unknown name.
  const linked = (
    await readFolders(svc.invariants.source, [...(input.project !== undefined ? [`projects/${input.project}`] : []), `actions/${localRef}`])
  ).diagnostics.filter((d) => d.code === 'symlink');
  if (linked.length > 0) requireValid({ ...emptySnapshot(), diagnostics: linked }, `use ${ref}`);
  // An unknown project is refused with the closest names (never a plan aimed at a typo).
  if (input.project !== undefined) {
    await svc.invariants.requireProject(input.project, { writing: true });
    // Nor a plan every later command refuses: the project's own files must be readable now (exit 3 naming them).
    const [folder, meta] = await Promise.all([
      readFolders(svc.invariants.source, [`projects/${input.project}`]),
      readProjects(svc.invariants.source, [input.project]),
    ]);
    requireValid(
      { ...emptySnapshot(), diagnostics: [...folder.diagnostics, ...meta.diagnostics] },
      `use ${ref} for project ${input.project}`,
    );
  }
  await requireAction(svc.invariants, scope, { tree: actionSource, writing: true });
  const goal = optionalString(input.goal, 'goal')?.trim() || undefined;
  const snap = await readFolders(actionSource, [`actions/${localRef}`]);
  requireValid(snap, `promote the invariants of action ${ref}`);
  const { kept, duplicates } = selectPromoted(snap.invariants);

  const author = await svc.invariants.deps.author(svc.root);
  const now = timestamp(svc.invariants.deps.clock());
  const newId = await idMaker(svc.invariants);
  const id = newId();
  const plan: Plan = { id, action: ref };
  if (input.project !== undefined) plan.project = input.project;
  if (goal !== undefined) plan.goal = goal;
  plan.created_at = now;
  if (author !== undefined) plan.created_by = author;
  const promoted = kept.map((origin) =>
    promotedCopy(origin, {
      id: newId(),
      plan: id,
      ref,
      created_at: now,
      ...(author !== undefined ? { created_by: author } : {}),
    }),
  );

  const final = `plans/${id}`;
  const enabled = await commitWanted(svc.invariants.source, input.commit);
  const written = await withCommit(
    svc.root,
    enabled,
    async () => {
      const write = () =>
        writeFolderAtomic(svc.root, final, [
          ...promoted.map((inv) => ({ name: `${inv.id}.yaml`, content: formatInvariantFile(inv.path, inv) })),
          {
            name: 'plan.yaml',
            content: formatPlanFile(`${final}/plan.yaml`, plan, {
              lead: addingTo('a plan', 'plans'),
              words: optionWords(svc.invariants.optionWords),
            }),
          },
        ]);
      // The project's lock, as `project remove` takes it to check that no plan targets the project: a plan never
      // targets a project removed meanwhile.
      const project = plan.project;
      // Without a project no lock is taken, but a stop is held all the same until the plan is said.
      if (project === undefined) await withStopsHeld(`writing ${final}`, write);
      else
        await withFolderLock(
          svc.root,
          `projects/${project}`,
          (made) => {
            // Made again for the lock: `project remove` took the folder while this waited.
            projectMadeUnderLock(project, undefined, made);
            write();
          },
          { notice: svc.invariants.deps.notice },
        );
      const n = promoted.length;
      return {
        value: { folder: join(svc.root, final) },
        // As a folder (the trailing /), as `plan remove` gives its own: a lock a writer of the new plan takes meanwhile,
        // or its try at it, is left out of the commit.
        paths: [`${final}/`],
        message: `plan: use ${ref} as ${id}${plan.project ? ` for project ${plan.project}` : ''} (${n} invariant${n === 1 ? '' : 's'} promoted)\n${goal ? `\n${goal}\n` : ''}`,
      };
    },
    { notice: svc.invariants.deps.notice, option: commitOptionFor(svc.invariants.optionWords?.commit, input.commit) },
  );
  const result: UseResult = {
    plan,
    promoted,
    duplicates: duplicates.map((d) => ({ origin_id: d.invariant.id, of: d.of, text: d.invariant.text })),
    folder: written.folder,
  };
  if (written.commit !== undefined) result.commit = written.commit;
  return result;
}
