// A plan whose project has no folder: its set resolves without the project's invariants, which every reader says.
import { type Diagnostic, warningLine } from '../../core/diagnostics.ts';
import type { Plan } from '../../core/model.ts';
import { SET_LEAVES_PROJECT_OUT, unknownPlanProject } from '../../core/plan-project.ts';
import type { TreeEntry } from '../../store/tree-source.ts';
import type { InvariantContext } from './context.ts';
import { optionWords } from '../option-words.ts';

/**
 * The warning (code `unknown-project`, at the `project` of the plan's plan.yaml) for a plan whose project is not
 * in the store, said as the service's notice too, so that no surface hands out the shortened set in silence
 * (docs/adr/0118-a-plan-whose-project-is-gone-says-so.md). None for a plan whose project exists or that names none.
 * `listed`: the folders the set was read from, as listed; the store's projects are listed only when they do not say.
 */
export async function planProjectWarnings(svc: InvariantContext, plan: Plan, listed: readonly TreeEntry[]): Promise<Diagnostic[]> {
  const project = plan.project;
  if (project === undefined) return [];
  const folder = `projects/${project}/`;
  if (listed.some((e) => e.path.startsWith(folder)) || (await svc.projectNames()).includes(project)) return [];
  const file = `plans/${plan.id}/plan.yaml`;
  const words = unknownPlanProject(plan.id, project, optionWords(svc.optionWords).calls.createProject);
  const message = `${words.message}: ${SET_LEAVES_PROJECT_OUT}`;
  let warning: Diagnostic = { code: 'unknown-project', severity: 'warning', file, line: 0, col: 0, message, hint: words.hint };
  const read = (await svc.source.read([file])).get(file);
  if (read?.ok) {
    const { parseYaml, offsetAt, diagAt } = await import('../../core/yaml-file.ts');
    const y = parseYaml(file, read.bytes).value;
    if (y) warning = { ...diagAt(y, offsetAt(y, ['project']), 'unknown-project', message, words.hint), severity: 'warning' };
  }
  svc.deps.notice(warningLine(warning));
  return [warning];
}
