import type { Diagnostic } from '../../core/diagnostics.ts';
import { splitSourceRef } from '../../core/extends.ts';
import type { Plan, StoreConfig } from '../../core/model.ts';
import { unknownPlanProject } from '../../core/plan-project.ts';
import type { TreeEntry } from '../../store/tree-source.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, ValidateOptions } from './context.ts';
import type { Located } from './located.ts';

/** A plan's action and project must exist; a promoted invariant's origin may be gone (info). */
export async function checkReferences(
  storeConfig: () => Promise<StoreConfig | undefined>,
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  plans: ReadonlyMap<string, Plan>,
  entries: readonly TreeEntry[],
  /** The ids of the store's invariant files, found on first call (most stores' invariants name no origin). */
  invariantIds: () => ReadonlySet<string>,
  located: Located,
  sourceActionIds?: ValidateOptions['sourceActionIds'],
): Promise<Diagnostic[]> {
  const projects = new Set<string>();
  const actions = new Set<string>();
  // A project or action exists when its folder does (every listing holds the folders of its files).
  for (const e of entries) {
    if (e.type !== 'dir') continue;
    if (e.path.startsWith('projects/')) {
      const name = e.path.slice('projects/'.length);
      if (!name.includes('/')) projects.add(name);
    } else if (e.path.startsWith('actions/')) {
      const rest = e.path.slice('actions/'.length);
      const slash = rest.indexOf('/');
      if (slash > 0 && !rest.includes('/', slash + 1)) actions.add(rest);
    }
  }
  // What to report, then the positions of each in one read.
  const found: { file: string; report: () => Diagnostic }[] = [];
  // A source's template (`SOURCE:NS/NAME`, docs/extends.md) lives in the source, not in actions/:
  // it is known when config.yaml's extends declares the source (plan sync compares it at the pin).
  // A broken config.yaml declares nothing we can read: its templates are judged once it is fixed.
  let sources: Promise<Set<string> | undefined> | undefined;
  const sourcesDeclared = () => (sources ??= storeConfig().then((c) => c && new Set(c.extends.map((s) => s.name))));
  // Why a plan's action is unknown (the end of the message, and the hint), or undefined when it is known.
  const actionProblem = async (action: string): Promise<{ why: string; hint: string } | undefined> => {
    const { source: name, local } = splitSourceRef(action);
    if (name) {
      const declared = await sourcesDeclared();
      if (declared === undefined) return undefined;
      if (declared.has(name)) {
        // Declared, but gone from the source at its pin: as unknown as a template of the store's own that was removed.
        if ((await sourceActionIds?.(action)) !== null) return undefined;
        return {
          why: `, which the policy source ${name} does not hold at its pinned commit (no actions/${local}/)`,
          hint: 'The source removed or renamed the template: pin a ref that holds it, or correct the name.',
        };
      }
      return {
        why: ` of the policy source ${name}, which config.yaml's extends does not declare`,
        hint: 'Declare the source in config.yaml (extends), or correct the name.',
      };
    }
    if (actions.has(action)) return undefined;
    return { why: `, which is not in the store (no actions/${action}/)`, hint: 'Restore the action template, or correct the name.' };
  };
  for (const plan of plans.values()) {
    const file = `plans/${plan.id}/plan.yaml`;
    const action = plan.action;
    const unknown = action === undefined ? undefined : await actionProblem(action);
    if (unknown !== undefined) {
      found.push({
        file,
        report: () =>
          located.at(file, ['action'], 'unknown-action', 'warning', `plan ${plan.id} names action ${action}${unknown.why}`, unknown.hint),
      });
    }
    if (plan.project !== undefined && !projects.has(plan.project)) {
      const { message, hint } = unknownPlanProject(plan.id, plan.project);
      found.push({ file, report: () => located.at(file, ['project'], 'unknown-project', 'warning', message, hint) });
    }
  }
  for (const [i, { entry, kind }] of jobs.entries()) {
    if (kind.kind !== 'invariant') continue;
    const f = facts[i]!;
    const origin = f.o;
    if (origin === undefined || invariantIds().has(origin)) continue;
    // Promoted from a policy source's template: the origin lives in the source, at its pinned commit.
    if (f.r !== undefined && (await sourceActionIds?.(f.r))?.has(origin)) continue;
    if (f.r !== undefined && splitSourceRef(f.r).source && (await sourcesDeclared()) === undefined) continue;
    const id = kind.id;
    found.push({
      file: entry.path,
      report: () =>
        located.at(
          entry.path,
          ['source', 'origin_id'],
          'unknown-origin',
          'info',
          `${id} was promoted from ${origin}${f.r ? ` (action ${f.r})` : ''}, which no longer exists`,
          'Nothing to do unless the plan should follow the action again; the plan keeps its own copy.',
        ),
    });
  }
  await located.load(found.map((x) => x.file));
  return found.map((x) => x.report());
}
