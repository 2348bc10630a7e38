// The shapes `agents init` prints (docs/json-output.md): the store it made or refreshed, the hook it installed and
// what the next step is, built here so that the command only gathers what it did.
import type { ActorChoice } from '../core/actor-choice.ts';
import type { Style } from '../core/style.ts';
import type { IgnoredPath } from '../git/commit.ts';
import type { HookInstall } from '../store/hooks.ts';

/** The JSON of `init --schemas`: the schema files written into the store. */
export function schemasRefreshedJson(store: string, schemas: readonly string[]) {
  return { store, schemas };
}

export function schemasRefreshedText(s: Style, store: string, schemas: readonly string[]): string {
  return [`${s.green('refreshed')} schemas in ${store}`, ...schemas.map((w) => `  ${w}`)].join('\n');
}

/** What `agents init` did and found, gathered by the command. */
export interface InitDone {
  store: string;
  /** The files made (none when only the hook was installed in an existing store). */
  made: readonly string[];
  /** Whether a store was being made (false: --hooks on an existing store). */
  creating: boolean;
  actor: ActorChoice | undefined;
  hook: HookInstall | undefined;
  /** Whether the hook runs `agents export --check` too. */
  exportCheck: boolean;
  /** Whether to offer --export-check: the store exports files and the hook was installed without it. */
  offer: boolean;
  ignored: (IgnoredPath & { more: number }) | undefined;
  /** The repository's instruction files, whose rules the next step imports. */
  instructions: readonly string[];
  /** The start of the commands it says to run next (the next step, the hook's export check): the run's, with its --store. */
  agents: string;
}

/** The JSON of `agents init`. */
export function initJson(d: InitDone) {
  const { hook } = d;
  return {
    store: d.store,
    created: d.made,
    actor: d.creating ? (d.actor ?? null) : null,
    hook: hook
      ? { path: hook.path, action: hook.action, export_check: d.exportCheck, merge_hook: hook.merge, attributes: hook.attributes }
      : null,
    ignored_by_git: d.ignored ? { path: d.ignored.path, rule: d.ignored.rule } : null,
  };
}

export function initText(s: Style, d: InitDone): string {
  const { made, hook, actor, instructions } = d;
  const lines: string[] = [];
  if (made.length > 0) lines.push(`${s.green('created')} store ${d.store}`, ...made.map((m) => `  ${m}`));
  if (hook?.merge === null)
    // Kept: the pre-commit framework's hook, whose config already runs the check.
    lines.push(
      `${s.green('kept')} pre-commit hook ${hook.path}, which the pre-commit framework writes from ${hook.config}`,
      `  it runs ${hook.runs.map((c) => `\`${c}\``).join(' and ')} before each commit (${hook.runs.length > 1 ? 'the hooks agents-validate and agents-export-check' : 'the hook agents-validate'} there)`,
    );
  else if (hook)
    lines.push(
      `${s.green(hook.action)} pre-commit hook ${hook.path}`,
      // As the hook runs them, from the repository's top: with the store's --store when it is not .agents.
      `  it runs ${hook.runs.map((c) => `\`${c}\``).join(' and ')} before each commit`,
      hook.merge.action === 'kept'
        ? `  ${s.yellow('kept')} the pre-merge-commit hook ${hook.merge.path}, which agents did not install: a merge git commits itself (git merge, git pull) runs no pre-commit hook; add \`${hook.runs[0]}\` to it to check merges too`
        : `${s.green(hook.merge.action)} pre-merge-commit hook ${hook.merge.path}`,
      ...(hook.merge.action === 'kept' ? [] : ['  it runs the pre-commit hook for a merge git commits itself (git merge, git pull)']),
      ...(hook.attributes === null
        ? []
        : [`${s.green('wrote')} ${hook.attributes}`, '  git keeps the hooks LF in every checkout (core.autocrlf would break them)']),
    );
  if (d.offer)
    lines.push(
      hook?.merge === null
        ? `  this store exports instruction files (export.targets in config.yaml): the hook agents-export-check in ${hook.config} also checks they are up to date (\`${d.agents} init --hooks --export-check\` says how to add it)`
        : `  this store exports instruction files (export.targets in config.yaml): \`${d.agents} init --hooks --export-check\` also checks they are up to date`,
    );
  if (made.length > 0) {
    if (actor) lines.push(`  plans are judged by the ${actorLabel(actor)} (reconciliation in config.yaml)`);
    // A repository with instruction files already holds its rules: importing them is the first step, not a new one.
    if (instructions.length > 0)
      lines.push(
        '',
        `the repository has ${instructions.length === 1 ? `an instruction file, ${instructions[0]}` : `${instructions.length} instruction files (${instructions[0]}, …)`}: import its rules as invariants`,
        `Next: ${d.agents} import`,
      );
    else lines.push('', `Next: ${d.agents} invariant add --global "Never delete production data"`);
  }
  return lines.join('\n');
}

function actorLabel(a: ActorChoice): string {
  if (a.actor === 'agent') return `agent actor (${a.agent})`;
  if (a.actor === 'llm') return `llm actor (${a.provider} ${a.model})`;
  return a.actor === 'command' ? 'example actor (actors/example-actor.mjs: fixed rules, replace it)' : 'interactive actor (a person)';
}
