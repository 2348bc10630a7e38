import { COMMIT_FLAG, type CommitOption, LIBRARY_OPTION } from './commit.ts';

/**
 * How a refusal names an option its caller gave: the library by its methods' fields (`reason`, `addTags`,
 * `commit: true`), unless the caller names its own, as the command line names its flags (CLI_FLAGS).
 */
export interface OptionWords {
  /** The option that asks a write to be committed, with the ways around it a commit's refusal names. */
  commit: CommitOption;
  reason: string;
  owner: string;
  expires: string;
  plan: string;
  project: string;
  tags: string;
  addTags: string;
  removeTags: string;
  rationale: string;
  note: string;
  goal: string;
  details: string;
  description: string;
  /** The ways to name a scope. */
  scopes: string;
}

/** The library's own names: its methods' fields. */
const LIBRARY_WORDS: OptionWords = {
  commit: LIBRARY_OPTION,
  reason: 'reason',
  owner: 'owner',
  expires: 'expires',
  plan: 'plan',
  project: 'project',
  tags: 'tags',
  addTags: 'addTags',
  removeTags: 'removeTags',
  rationale: 'rationale',
  note: 'note',
  goal: 'goal',
  details: 'details',
  description: 'description',
  scopes: '{ global: true }, { project }, { action } or { plan }',
};

/** The command line's flags: what its services name in a refusal of a value given with one. */
export const CLI_FLAGS: OptionWords = {
  commit: COMMIT_FLAG,
  reason: '--reason',
  owner: '--owner',
  expires: '--expires',
  plan: '--plan',
  project: '--project',
  tags: '--tag',
  addTags: '--tag',
  removeTags: '--untag',
  rationale: '--rationale',
  note: '--note',
  goal: '--goal',
  details: '--details',
  description: '--description',
  scopes: '--global, --project P, --action NS/NAME or --plan ID',
};

/** The words of `words`, or the library's when the caller named none. */
export function optionWords(words: OptionWords | undefined): OptionWords {
  return words ?? LIBRARY_WORDS;
}
