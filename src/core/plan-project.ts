/**
 * What is said of a plan whose `project` names a project with no folder (code `unknown-project`): `validate` and
 * every reader of the plan's set say the same, since the set such a plan resolves to leaves the project's invariants out.
 */
export function unknownPlanProject(
  plan: string,
  project: string,
  /** What creates a project, in the caller's words: the command line's command, the library's method. */
  create = 'agents invariant add --project',
): { message: string; hint: string } {
  return {
    message: `plan ${plan} targets project ${project}, which is not in the store (no projects/${project}/)`,
    hint: `Create the project folder (e.g. with \`${create}\`), or correct the name.`,
  };
}

/** The words a reader of the plan's set adds: what the set lacks. */
export const SET_LEAVES_PROJECT_OUT = "its effective set leaves out that project's invariants";
