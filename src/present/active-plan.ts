// The shape `agents plan activate` prints (docs/json-output.md): the plan active in this clone, the one AGENTS_PLAN
// names, and whether the store holds the one in effect, with the warning the guard hook's user needs when it does not.
import { cliFlags } from '../service/option-words.ts';

/** What `plan activate` found: `missing` is why the plan in effect could not be read (null when it could, or none is). */
export interface ActivePlanState {
  plan: string | null;
  env: string | null;
  missing: string | null;
  /** The plans an ambiguous prefix matches, when that is why it is missing. */
  matches: readonly string[];
}

/** The JSON of `plan activate`; `found` is null when no plan is in effect. */
export function activePlanJson(a: ActivePlanState) {
  const named = a.env ?? a.plan;
  return { plan: a.plan, env: a.env, found: named === null ? null : a.missing === null, matches: a.matches };
}

export function activePlanText(a: ActivePlanState, agents: string): string {
  const { plan, env, missing, matches } = a;
  const { calls } = cliFlags(agents);
  const which = env ? `AGENTS_PLAN=${env}` : `the active plan ${plan}`;
  const cannot = 'the guard hook cannot check a call while it is in effect, and guard.on_error answers (deny unless set otherwise)';
  return [
    plan ? `active plan ${plan}` : 'no active plan',
    ...(env && env !== plan ? [`AGENTS_PLAN=${env} in this environment takes precedence`] : []),
    ...(missing === null
      ? []
      : matches.length > 0
        ? [
            `warning: ${which} is ambiguous; it matches ${matches.length} plans of the store (below): ${cannot}`,
            ...matches.map((id) => `  ${id}`),
            env
              ? '  Give AGENTS_PLAN more characters of the id, enough for one plan.'
              : `  Run \`${calls.activatePlan('ID')}\` with more characters of the id, or \`${calls.activatePlan()}\`.`,
          ]
        : [
            `warning: ${which} names no plan of the store (${missing}): ${cannot}`,
            env
              ? `  Unset AGENTS_PLAN, or set it to a plan \`${calls.listPlans}\` shows.`
              : `  Run \`${calls.activatePlan('ID')}\`, or \`${calls.activatePlan()}\`.`,
          ]),
  ].join('\n');
}
