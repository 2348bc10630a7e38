// The shapes `agents project add`, `list` and `remove` print (docs/json-output.md): their JSON and their text, built
// here so that the command only gathers what the service did.
import { cliFlags } from '../service/option-words.ts';
import type { Style } from '../core/style.ts';
import type { ProjectRemoved } from '../service/project-remove.ts';
import type { ProjectSummary } from '../service/scope-service.ts';

/** What `addProject` did, as the service answers it. */
export interface ProjectAdded {
  project: string;
  folder: string;
  path: string;
  adopted: boolean;
  commit?: string;
}

/** The JSON of `project add`. */
export function projectAddedJson(r: ProjectAdded) {
  return { project: r.project, folder: r.folder, path: r.path, adopted: r.adopted, commit: r.commit ?? null };
}

export function projectAddedText(s: Style, r: ProjectAdded, agents: string): string {
  return [
    r.adopted ? `${s.green('gave')} project ${s.bold(r.project)} its project.yaml` : `${s.green('created')} project ${s.bold(r.project)}`,
    `  ${r.path}`,
    ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
    '',
    `Next: ${cliFlags(agents).calls.addToProject(r.project, false)}`,
  ].join('\n');
}

/** The JSON of `project list`: each project as the service summarises it. */
export function projectListJson(projects: readonly ProjectSummary[]): readonly ProjectSummary[] {
  return projects;
}

export function projectListText(s: Style, projects: readonly ProjectSummary[], agents: string): string {
  if (projects.length === 0) return `No projects. Create one with \`${cliFlags(agents).calls.addProject()}\`.`;
  const width = Math.max(...projects.map((p) => p.project.length));
  const lines = projects.map(
    (p) =>
      `${s.bold(p.project.padEnd(width))}  ${p.active} active of ${p.invariants} invariant${p.invariants === 1 ? '' : 's'} · ${p.plans} plan${p.plans === 1 ? '' : 's'}`,
  );
  lines.push('', s.dim(`${projects.length} project${projects.length === 1 ? '' : 's'}`));
  return lines.join('\n');
}

/** The JSON of `project remove`. */
export function projectRemovedJson(r: ProjectRemoved) {
  return { project: r.project, folder: r.folder, removed: r.removed, commit: r.commit ?? null };
}

export function projectRemovedText(s: Style, r: ProjectRemoved): string {
  return [
    `${s.yellow('removed')} project ${s.bold(r.project)} (${r.folder}/)`,
    ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
  ].join('\n');
}
