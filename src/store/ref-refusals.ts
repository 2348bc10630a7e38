// The refusals of a `ref:` the policy source does not hold (docs/extends.md): one never there (a typo, a tag not pushed
// yet) and one deleted at the source since it was pinned. Both name what the source holds and the closest of it, and
// the `ref:` line of config.yaml to change, which is the one fix: `extends update` cannot pin a ref that is not there.
import { closestNames, hintWithGuess, someNames } from '../core/closest.ts';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import { isCommitId, sourcePlace, type LockEntry } from '../core/extends.ts';
import type { ExtendsSource } from '../core/model.ts';
import { remoteRefNames } from '../git/extends.ts';

/** What the source holds, for the hint and the detail; nulls when it could not be listed, which never hides the refusal. */
async function heldRefs(cwd: string, url: string, ref: string, signal?: AbortSignal) {
  const names = await remoteRefNames(cwd, url, signal);
  return {
    suggestions: names ? closestNames(ref, [...names.branches, ...names.tags]) : [],
    holds: names ? ` Its branches: ${someNames(names.branches)}; its tags: ${someNames(names.tags)}.` : '',
    detail: { branches: names?.branches ?? null, tags: names?.tags ?? null },
  };
}

/** The `ref:` of the source in config.yaml, for the message (` (config.yaml:5:10)`) and the detail; empty when unplaced. */
function refPlace(source: ExtendsSource) {
  const place = sourcePlace(source, 'ref');
  return {
    where: place ? ` (${place.where})` : '',
    at: place ? ` at ${place.where}` : '',
    detail: place?.detail ?? { file: null, line: null, col: null },
  };
}

/**
 * A tag, branch or commit id the source has never held, as far as this clone knows (exit 2, `extends-unknown-ref`): a
 * commit id `ref:` names that a remote answering the fetch does not have is refused here too.
 */
export async function unknownRef(cwd: string, url: string, source: ExtendsSource, signal?: AbortSignal): Promise<AgentsError> {
  const held = await heldRefs(cwd, url, source.ref, signal);
  const place = refPlace(source);
  const what = isCommitId(source.ref) ? 'commit' : 'tag or branch';
  return new AgentsError(`the policy source ${source.name} has no ${what} ${source.ref}${place.where}`, EXIT_CODES.usage, {
    hint: hintWithGuess(
      held.suggestions,
      `Correct \`ref:\` of ${source.name} in config.yaml (a tag, a branch or a full commit id); nothing was written.${held.holds}`,
    ),
    code: 'extends-unknown-ref',
    detail: { source: source.name, ref: source.ref, ...held.detail, suggestions: held.suggestions, ...place.detail },
  });
}

/**
 * The tag or branch a pin was taken from, deleted at the source since (exit 2, `extends-ref-deleted`). Not a moved ref:
 * `extends update` cannot follow it, so the hint says to change `ref:` first, to what the source holds or to the pinned
 * commit itself (which keeps the inherited set as it is, while the source still holds that commit).
 */
export async function deletedRef(
  cwd: string,
  url: string,
  source: ExtendsSource,
  pin: LockEntry,
  signal?: AbortSignal,
): Promise<AgentsError> {
  const held = await heldRefs(cwd, url, pin.ref, signal);
  const place = refPlace(source);
  return new AgentsError(
    `the policy source ${source.name} no longer has the ${pin.kind} ${pin.ref} its pin was taken from (at ${pin.commit.slice(0, 12)}): it was deleted there${place.where}`,
    EXIT_CODES.usage,
    {
      hint: (agents) =>
        hintWithGuess(
          held.suggestions,
          `Change \`ref:\` of ${source.name}${place.at} to a tag or branch the source holds, or to the pinned commit ${pin.commit} to keep what is inherited now, then run \`${agents} extends update\`; nothing was written.${held.holds}`,
        ),
      code: 'extends-ref-deleted',
      detail: {
        source: source.name,
        ref: pin.ref,
        kind: pin.kind,
        pinned: pin.commit,
        ...held.detail,
        suggestions: held.suggestions,
        ...place.detail,
      },
    },
  );
}
