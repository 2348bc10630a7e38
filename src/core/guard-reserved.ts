/**
 * The folders and files the guard hook keeps from every agent's file tools by itself, whatever the guards say
 * (docs/guard.md, "What no guard is needed for"), and the reason the agent is shown for a write there.
 */
import { truncateCounted } from './names.ts';
import { escapeUnsafe } from './plain-text.ts';

/**
 * A write into a folder the hook keeps from every agent's file tools: git's
 * folder (its hooks and config, and the guards' own index, active plan and
 * audit log), the invariant store, whose rules and waivers people change
 * through `agents` commands, or a client's hook settings, which could switch
 * the hook off. A guard cannot cover them (a guard's globs are the project's
 * files), so the hook denies such a write by itself.
 */
export interface ReservedWrite {
  /** The file as shown: relative to the repository's top when inside it, else absolute. */
  path: string;
  /**
   * git's folder, the store, a client's hook settings (the file itself, not a folder), the hook's own package, or a
   * `.git` below the repository's top, which would make its folder a repository of its own.
   */
  folder: 'git' | 'store' | 'hooks' | 'program' | 'nested-git';
}

/**
 * The reason the agent is shown for a write into a reserved folder: what it is, why, and what to do instead. `agents`
 * starts the commands it names: the run's, with its --store, so that the person told to run one reaches the same store.
 */
export function reservedReason(write: ReservedWrite, agents = 'agents'): string {
  return `Blocked: ${escapeUnsafe(truncateCounted(write.path))} ${reservedReasons(agents)[write.folder]}`;
}

const reservedReasons = (agents: string): Record<ReservedWrite['folder'], string> => ({
  hooks:
    "holds an agent client's hook settings, from which the client runs the guard hook. An agent's file tools may not write there: " +
    `a changed setting could switch the guard off. Ask the person to make the change (${agents} guard install writes the hook entry).`,
  program:
    "is in the agents package the guard hook runs from. An agent's file tools may not write there: changed code would switch " +
    'the guard off. Ask the person to make the change (npm installs and updates the package).',
  git:
    "is in the repository's git folder, which holds git's own files and hooks and the guards' index, active plan and audit " +
    "log. An agent's file tools may not write there: a changed index or active plan would switch guards off. Use git and " +
    `agents commands (git commit, ${agents} plan activate…), or ask the person to make the change.`,
  'nested-git':
    "is a .git below the repository's top, or in one, which makes the folder holding it a repository of its own: git and " +
    "Codex CLI take that folder for the top, so a Codex CLI session started there reads none of the top's hook settings, " +
    "and git at the top shows the folder as one path, its files hidden from agents guard check. An agent's file tools " +
    'may not write there. Ask the person to make the change (git submodule add, git clone).',
  store:
    `is in the invariant store. Its invariants, waivers and config are changed by people, through agents commands (${agents} ` +
    "invariant add, edit, waive…), not by an agent's file tools: a changed rule or waiver would switch its guard off. Ask " +
    'the person to make the change.',
});
