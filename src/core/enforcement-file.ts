// An enforcement file's text, made to fit the size every reader of the store takes (docs/plans.md, "Record files").
import { AgentsError, UsageError } from './errors.ts';
import { MAX_FILE_BYTES } from './limits.ts';
import { MAX_RECORD_RESPONSE, cutText } from './records.ts';
import type { EnforcementRun } from './record-types.ts';
import { formatEnforcementFile } from './serialize.ts';

/** The most a record of a run takes with its response cut to one character (its ids, digest and keys), rounded up. */
const LEAST_RECORD_BYTES = 256;

/**
 * The enforcement file of `run`, and the run as it holds it. A large set answered at length (responses of up to
 * MAX_RECORD_RESPONSE characters each) can be over the 1 MiB a store file holds: then the longest responses are cut
 * to one shorter length, about the longest that fits, so the run is recorded whole, every verdict kept, rather than
 * refused once the actor has done its work. A run that fits at no length is refused (`file-too-large`).
 */
export function enforcementFile(rel: string, run: EnforcementRun): { text: string; run: EnforcementRun } {
  const whole = fitting(rel, run);
  if ('text' in whole) return { text: whole.text, run };
  const at = (max: number) => {
    const cut = { ...run, records: run.records.map((r) => ({ ...r, actor_response: cutText(r.actor_response, max) })) };
    const got = fitting(rel, cut);
    return 'text' in got ? { text: got.text, run: cut } : got;
  };
  const least = at(1);
  if (!('text' in least)) throw tooLarge(rel, run.records.length, least.bytes);
  // The size grows with the characters the responses keep: the longest cut that the line through the sizes known
  // allows, a hundredth short of the limit (line folds and the `…` of each cut are not on the line), is tried first,
  // the line drawn again through each cut still too large; only after a few such tries are the lengths searched.
  const lengths = run.records.map((r) => [...r.actor_response].length);
  const kept = (max: number) => lengths.reduce((n, l) => n + Math.min(l, max), 0);
  const low = new TextEncoder().encode(least.text).byteLength;
  let over = { max: MAX_RECORD_RESPONSE, bytes: whole.bytes };
  for (let tries = 0; tries < 3; tries++) {
    const perChar = (over.bytes - low) / Math.max(1, kept(over.max) - kept(1));
    let max = over.max - 1;
    while (max > 1 && low + (kept(max) - kept(1)) * perChar > MAX_FILE_BYTES * 0.99) max--;
    if (max <= 1) break;
    const got = at(max);
    if ('text' in got) return got;
    over = { max, bytes: got.bytes };
  }
  let best = least;
  let lo = 1;
  let hi = over.max - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const got = at(mid);
    if (!('text' in got)) hi = mid - 1;
    else {
      best = got;
      lo = mid;
    }
  }
  return best;
}

/**
 * Refuses, before an actor is asked, a run that no cut of its responses would fit in one file: the actor's work
 * would be lost. Only a set of thousands comes near; a smaller one is not formatted to know it.
 */
export function assertRunFits(rel: string, run: EnforcementRun): void {
  if (run.records.length * LEAST_RECORD_BYTES + 16 * 1024 <= MAX_FILE_BYTES) return;
  const least = fitting(rel, { ...run, records: run.records.map((r) => ({ ...r, actor_response: cutText(r.actor_response, 1) })) });
  if (!('text' in least)) throw tooLarge(rel, run.records.length, least.bytes);
}

/** The file's text, or its size when that is over the limit. */
function fitting(rel: string, run: EnforcementRun): { text: string } | { bytes: number } {
  try {
    return { text: formatEnforcementFile(rel, run) };
  } catch (error) {
    if (error instanceof AgentsError && error.code === 'file-too-large') return { bytes: error.detail!.bytes as number };
    throw error;
  }
}

function tooLarge(rel: string, count: number, bytes: number): UsageError {
  return new UsageError(
    `a run of ${count} invariants would not fit in one enforcement file (${rel}), even with each actor response cut to one character: it would be ${bytes} bytes; a store file holds at most ${MAX_FILE_BYTES} (1 MiB), and every reader refuses a larger one`,
    "Nothing was written. A run is recorded in one file: make the plan's effective set smaller (deactivate or remove the invariants that do not apply to it).",
    { file: rel, bytes, limit: MAX_FILE_BYTES },
    'file-too-large',
  );
}
