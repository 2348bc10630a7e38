// The shapes `agents action add` and `action list` print (docs/json-output.md): their JSON and their text, built here
// so that the command only gathers what the service did.
import { cliFlags } from '../service/option-words.ts';
import type { Style } from '../core/style.ts';
import type { ActionSummary } from '../service/scope-service.ts';

/** What `addAction` did, as the service answers it. */
export interface ActionAdded {
  action: string;
  path: string;
  description: string | null;
  commit?: string;
}

/** The JSON of `action add`. */
export function actionAddedJson(r: ActionAdded) {
  return { action: r.action, path: r.path, description: r.description, commit: r.commit ?? null };
}

export function actionAddedText(s: Style, r: ActionAdded, agents: string): string {
  return [
    `${s.green('created')} action ${s.bold(r.action)}`,
    `  ${r.path}`,
    ...(r.commit ? [`  committed ${r.commit.slice(0, 12)}`] : []),
    '',
    `Next: ${cliFlags(agents).calls.addToAction(r.action)}`,
  ].join('\n');
}

/** The JSON of `action list`: each template as the service summarises it. */
export function actionListJson(actions: readonly ActionSummary[]): readonly ActionSummary[] {
  return actions;
}

export function actionListText(s: Style, actions: readonly ActionSummary[], agents: string): string {
  if (actions.length === 0) return `No action templates. Create one with \`${cliFlags(agents).calls.addAction('NS/NAME')}\`.`;
  const lines: string[] = [];
  for (const a of actions) {
    const from = a.source === null ? '' : ` · from policy source ${a.source}`;
    lines.push(
      `${s.bold(a.action)}  ${s.dim(`${a.active} active of ${a.invariants} invariant${a.invariants === 1 ? '' : 's'} · ${a.plans} plan${a.plans === 1 ? '' : 's'}${from}`)}`,
    );
    if (a.description) lines.push(`  ${a.description}`);
  }
  lines.push('', s.dim(`${actions.length} action template${actions.length === 1 ? '' : 's'}`));
  return lines.join('\n');
}
