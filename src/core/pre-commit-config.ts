// Which of this tool's hooks a pre-commit framework config (`.pre-commit-config.yaml`) runs at each commit, read as
// pre-commit reads it (https://pre-commit.com/#pre-commit-configyaml---top-level), so that `init --hooks` asks a
// person to add only what is not there. Pure: the caller reads the file.
import { parse } from 'yaml';
import { isObject } from './parsed-shape.ts';

/** The hook ids of this repository's `.pre-commit-hooks.yaml` that `init --hooks` stands for. */
export type PreCommitHookId = 'agents-validate' | 'agents-export-check';

/** Every hook id `PreCommitHookId` names, which a config is read for. */
const HOOK_IDS: readonly string[] = ['agents-validate', 'agents-export-check'] satisfies PreCommitHookId[];

/** The stages pre-commit runs for a commit: its own name, and the name before pre-commit 3.2. */
const COMMIT_STAGES: readonly string[] = ['pre-commit', 'commit'];

/**
 * The hooks of this tool that the config `text` runs at each commit on the store `storeArg` (its path from the
 * repository's top, as a hook's `args: [--store, PATH]` gives it; undefined for `.agents`, which a hook finds unnamed).
 * A hook that runs at other stages only, or on another store, is none; so is every hook of a config that is not YAML or
 * not pre-commit's shape (pre-commit itself would refuse it).
 */
export function preCommitRuns(text: string, storeArg: string | undefined): Set<PreCommitHookId> {
  const found = new Set<PreCommitHookId>();
  let config: unknown;
  try {
    // A config is a few kilobytes; aliases are pre-commit's YAML too, but a bound keeps a crafted file from blowing up.
    config = parse(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch {
    return found;
  }
  if (!isObject(config) || !Array.isArray(config.repos)) return found;
  const defaults = config.default_stages;
  for (const repo of config.repos) {
    if (!isObject(repo) || !Array.isArray(repo.hooks)) continue;
    for (const hook of repo.hooks) {
      if (!isObject(hook) || !HOOK_IDS.includes(String(hook.id))) continue;
      const stages = hook.stages ?? defaults;
      if (Array.isArray(stages) && !stages.some((s) => COMMIT_STAGES.includes(String(s)))) continue;
      if (sameStore(storeOfArgs(hook.args), storeArg)) found.add(hook.id as PreCommitHookId);
    }
  }
  return found;
}

/** The store a hook's `args` name (`--store PATH` or `--store=PATH`, the last one given), or undefined. */
function storeOfArgs(args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  let store: string | undefined;
  for (const [i, a] of args.entries()) {
    const word = String(a);
    if (word === '--store' && i + 1 < args.length) store = String(args[i + 1]);
    else if (word.startsWith('--store=')) store = word.slice('--store='.length);
  }
  return store;
}

/** Whether a hook's store (its `--store`, or none) is the store `storeArg` names, a trailing `/` or leading `./` aside. */
function sameStore(given: string | undefined, storeArg: string | undefined): boolean {
  const plain = (p: string | undefined) => (p ?? '.agents').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return plain(given) === plain(storeArg);
}
