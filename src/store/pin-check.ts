// A pin is what its ref named (docs/extends.md, "A pin is checked"): a
// hand-edited extends.lock.yaml could name another commit (an older one
// without a locked invariant, or one no branch holds) under the same ref.
// `extends fetch` asks the source what the ref names before it fetches, and
// remembers the pins it checked, so a checked pin costs no network again.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import type { LockEntry } from '../core/extends.ts';
import type { ExtendsSource } from '../core/model.ts';
import { branchHolds, lsRemote, reachSettings } from '../git/extends.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { deletedRef } from './ref-refusals.ts';

/** The file in a source's cache listing the pins already checked, one `url TAB ref TAB kind TAB commit` a line. */
const CHECKED = 'agents-checked-pins';

const line = (pin: LockEntry) => [pin.url, pin.ref, pin.kind, pin.commit].join('\t');

function checked(dir: string): string[] {
  try {
    return readFileSync(join(dir, CHECKED), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Whether `pin` (its url, ref, kind and commit) is remembered as checked in the cache `dir`. */
export function isChecked(dir: string, pin: LockEntry): boolean {
  return checked(dir).includes(line(pin));
}

/**
 * Remembers `pin` as checked in the cache `dir` (a bare repository). A tag names one commit: the pin seen last
 * replaces the one remembered for the same tag, so a lock edited back to an earlier pin of a tag that moved on is
 * checked again (and refused), not taken as checked because it once was.
 */
export function rememberChecked(dir: string, pin: LockEntry): void {
  const known = checked(dir);
  if (known.includes(line(pin))) return;
  const same = `${[pin.url, pin.ref, pin.kind].join('\t')}\t`;
  const kept = pin.kind === 'tag' ? known.filter((l) => !l.startsWith(same)) : known;
  writeFileAtomic(dir, CHECKED, `${[...kept, line(pin)].join('\n')}\n`, 'replace');
}

function mismatch(pin: LockEntry, named: string | undefined, why: string): AgentsError {
  return new AgentsError(`the pin of the policy source ${pin.name} names the commit ${pin.commit}, but ${why}`, EXIT_CODES.checkFailed, {
    hint: (agents) =>
      'The lock was edited by hand, or the source moved its ref since the pin was taken; nothing was fetched. ' +
      `See who changed it (\`git log -p -- extends.lock.yaml\` in the store), and run \`${agents} extends update\` to pin what the ref names now (a moved tag needs --accept-moved-tag).`,
    code: 'extends-pin-mismatch',
    detail: { source: pin.name, ref: pin.ref, kind: pin.kind, pinned: pin.commit, named: named ?? null },
  });
}

/**
 * Refuses (exit 1, `extends-pin-mismatch`) a tag pin whose commit is not the
 * one the tag names at `url`, and a branch pin whose commit the branch does
 * not hold (neither its tip nor an ancestor); a pin whose tag or branch the
 * source no longer has at all is `extends-ref-deleted` (exit 2). A pin by commit id names
 * itself. `dir` is the source's cache; `scratch` a folder it may use and
 * removes.
 */
export async function checkPin(
  cwd: string,
  dir: string,
  scratch: string,
  url: string,
  pin: LockEntry,
  /** The source as config.yaml names it: a ref deleted at the source is refused at its `ref:` there. */
  source: ExtendsSource,
  signal?: AbortSignal,
): Promise<void> {
  // A lock's parser refuses `kind: commit` under another ref; checked here too, as this is the gate of the fetch.
  if ((pin.kind === 'commit' && pin.ref === pin.commit) || isChecked(dir, pin)) return;
  let found: Awaited<ReturnType<typeof lsRemote>>;
  try {
    found = await lsRemote(cwd, url, pin.ref, signal);
  } catch (error) {
    if (signal?.aborted || error instanceof AgentsError) throw error;
    throw new AgentsError(
      `cannot reach the policy source ${pin.name}: ${error instanceof Error ? error.message : String(error)}`,
      EXIT_CODES.usage,
      {
        hint: 'Check its URL in config.yaml and the network; the pin is checked against its ref before it is fetched.',
        code: 'extends-unreachable',
      },
    );
  }
  // Deleted, not moved: no update follows it until `ref:` names what the source holds.
  if (found === undefined) throw await deletedRef(cwd, url, source, pin, signal);
  // The kind is part of the pin, at the same commit too: a tag pin edited to `kind: branch` would let
  // `extends update` follow the tag when it moves, which it refuses for a tag.
  if (found.kind !== pin.kind)
    throw mismatch(pin, found.commit, `${pin.ref} now names the ${found.kind} at ${found.commit}, not a ${pin.kind}`);
  // A lock written before annotated tags were peeled holds the tag object as its commit: the same pin.
  if (found.commit === pin.commit || (found.tagObject !== undefined && found.tagObject === pin.commit)) return;
  if (pin.kind === 'tag') throw mismatch(pin, found.commit, `the tag ${pin.ref} names ${found.commit}`);
  try {
    // The scratch path is this check's alone: whatever a run killed before its cleanup left there goes first.
    rmSync(scratch, { recursive: true, force: true });
    const reach = await reachSettings(cwd);
    const holds = await branchHolds(scratch, url, pin.ref.replace(/^refs\/heads\//, ''), pin.commit, signal, reach);
    if (!holds) throw mismatch(pin, found.commit, `the branch ${pin.ref} (at ${found.commit}) does not hold it`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
