/**
 * The targets an effective-set diff compares (docs/review.md): the one project or plan asked for, refused when
 * neither side has it, else every target the changes reach.
 */
import { closestNames, didYouMean } from '../../core/closest.ts';
import { affectedTargets, allTargets, type SideShape, targetKey, type TargetRef } from '../../core/diff.ts';
import { UsageError } from '../../core/errors.ts';
import { normalisePrefix, pickId, resolvePrefix, unknownId } from '../../core/id-prefix.ts';
import { truncate } from '../../core/names.ts';
import { idsAmong } from '../../store/listing.ts';
import { otherKindError } from '../invariants/lookup.ts';
import type { OptionWords } from '../option-words.ts';
import type { DiffRequest } from './ranges.ts';
import type { RevisionTrees } from './revision-trees.ts';
import type { Side } from './side.ts';

export interface TargetsAsked {
  request: DiffRequest;
  /** The store paths whose content differs. */
  changed: readonly string[];
  shapes: [before: SideShape, after: SideShape];
  sides: [before: Side, after: Side];
  /** Two revisions read folder by folder: listed further to name what an unknown plan id is. */
  walk: RevisionTrees | undefined;
  words: OptionWords;
  /** A policy source moved or their order changed: every target can change. */
  policyMoved: boolean;
}

/** The targets to compare; a project or plan asked for that neither side has is refused (exit 2). */
export async function diffTargets({
  request,
  changed,
  shapes: [bShape, aShape],
  sides: [before, after],
  walk,
  words,
  policyMoved,
}: TargetsAsked): Promise<TargetRef[]> {
  const everything = allTargets(bShape, aShape);
  if (request.project !== undefined) {
    if (!everything.some((t) => t.kind === 'project' && t.project === request.project)) {
      const known = [...new Set(everything.flatMap((t) => (t.kind === 'project' ? [t.project] : [])))].sort();
      const suggestions = closestNames(request.project, known);
      const guess = didYouMean(suggestions);
      throw new UsageError(
        `unknown project ${request.project}: it has no folder and no plan targets it on either side (${before.info.label}; ${after.info.label})${guess ? `; ${guess}` : ''}`,
        // The caller's words: the library's ScopeService.listProjects(), the command line's agents project list.
        `Check the name; \`${words.calls.listProjects}\` shows the projects.`,
        { project: request.project, suggestions, known },
        'unknown-project',
      );
    }
    return [{ kind: 'project', project: request.project }];
  } else if (request.plan !== undefined) {
    const plans = everything.flatMap((t) => (t.kind === 'plan' ? [t.plan] : []));
    const match = resolvePrefix(request.plan, plans);
    // A prefix too short (or no id at all) is said so, as every other command says it (pickId).
    if (match.kind === 'unknown') {
      const hint = `Give the plan id (or a unique prefix of 4+ characters); \`${words.calls.listPlans}\` shows them.`;
      // An invariant's or a record's id given for a plan's is said so, with its plan, as every other command says it.
      const wanted = normalisePrefix(request.plan);
      // Two revisions are read folder by folder: the projects' and plans' folders are listed to find it.
      if (walk && wanted !== undefined) {
        await walk.listAllProjects();
        await walk.list(everything.flatMap((t) => (t.kind === 'plan' ? [`plans/${t.plan}`] : [])));
      }
      const files = new Set([...before.files.keys(), ...after.files.keys()]);
      const found =
        wanted === undefined
          ? []
          : idsAmong(
              [...files].map((path) => ({ path, type: 'file' as const })),
              wanted,
            );
      throw (
        otherKindError(wanted ?? '', 'plan', found, hint) ??
        unknownId(`unknown plan ${truncate(request.plan)} in ${before.info.label} and ${after.info.label}`, hint, match.prefix, plans)
      );
    }
    return [{ kind: 'plan', plan: pickId(request.plan, plans, 'plan', '') }];
  } else {
    const targets = affectedTargets(changed, bShape, aShape);
    // A policy source that moved can change every project's and every plan's set, as a global file does.
    if (request.allProjects || policyMoved) {
      const keys = new Set(targets.map(targetKey));
      for (const t of everything) if ((policyMoved || t.kind === 'project') && !keys.has(targetKey(t))) targets.push(t);
    }
    return targets;
  }
}
