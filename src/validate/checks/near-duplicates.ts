import type { Diagnostic } from '../../core/diagnostics.ts';
import type { Plan } from '../../core/model.ts';
import { canMeet, nearPairs, nearPairsTouching, oneEditApart, type NearKind } from '../../core/near-duplicates.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, InvariantJob } from './context.ts';
import type { Located } from './located.ts';

/**
 * Near-duplicates (core/near-duplicates.ts) among active invariants that can
 * meet in one effective set: a warning on the newer of each pair, naming the
 * other. From the facts alone (the punctuation-free key of every invariant):
 * no file is parsed again except the few reported.
 */
export async function checkNearDuplicates(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  plans: ReadonlyMap<string, Plan>,
  located: Located,
  touches?: (path: string) => boolean,
): Promise<Diagnostic[]> {
  const at: number[] = [];
  const keys: string[] = [];
  for (let i = 0; i < jobs.length; i++) {
    // Only an invariant has a near key (an empty one is paired with none).
    const n = facts[i]!.n;
    if (n === undefined) continue;
    at.push(i);
    keys.push(n);
  }
  type Found = { older: InvariantJob; newer: InvariantJob; kind: NearKind };
  /** The near-duplicate pairs among `pairs` (of indexes of `keys`). */
  const judge = (pairs: readonly [number, number][]): Found[] => {
    const out: Found[] = [];
    for (const [x, y] of pairs) {
      const i = at[x]!;
      const j = at[y]!;
      // Equal text keys are duplicates or shadows, reported above.
      if (facts[i]!.k === facts[j]!.k) continue;
      const kind: NearKind | undefined = keys[x] === keys[y] ? 'punctuation' : oneEditApart(keys[x]!, keys[y]!) ? 'one-edit' : undefined;
      // `at` holds invariants only.
      const a = jobs[i] as InvariantJob;
      const b = jobs[j] as InvariantJob;
      if (!kind || !canMeet(a.kind, b.kind, plans)) continue;
      out.push(a.kind.id < b.kind.id ? { older: a, newer: b, kind } : { older: b, newer: a, kind });
    }
    return out;
  };
  let found: Found[];
  if (touches === undefined) found = judge(nearPairs(keys));
  else {
    // Hook mode: a diagnostic sits on the newer of its pairs and names every older one. It is kept when a touched
    // file is among them, so: the pairs of the touched texts, then every pair of each newer file they name.
    const focus = new Set<number>();
    for (let x = 0; x < keys.length; x++) if (touches(jobs[at[x]!]!.entry.path)) focus.add(x);
    const newer = new Set<ContentJob>(judge(nearPairsTouching(keys, focus)).map((f) => f.newer));
    const newerAt = new Set<number>();
    for (let x = 0; x < keys.length; x++) if (newer.has(jobs[at[x]!]!)) newerAt.add(x);
    // No newer file: no focused key, no pair.
    found = judge(nearPairsTouching(keys, newerAt)).filter((f) => newer.has(f.newer));
  }
  const idOf = (j: InvariantJob) => j.kind.id;
  // Each newer file's older copies in the order of their ids (not of the pair search, which differs in hook mode).
  found.sort((p, q) => (idOf(p.older) < idOf(q.older) ? -1 : 1));
  await located.load(found.flatMap((f) => [f.older.entry.path, f.newer.entry.path]));
  const textOf = (path: string) => String((located.yaml(path)?.data as { text?: unknown } | undefined)?.text ?? '').trim();
  // One diagnostic per newer file, naming every older copy it nearly repeats.
  const byNewer = new Map<string, typeof found>();
  for (const f of found) {
    const list = byNewer.get(f.newer.entry.path);
    if (list) list.push(f);
    else byNewer.set(f.newer.entry.path, [f]);
  }
  return [...byNewer.entries()].map(([n, list]) => {
    const newer = list[0]!.newer;
    const others = list.map(
      ({ older, kind }) =>
        `${idOf(older)} ${JSON.stringify(textOf(older.entry.path))} (${older.entry.path}, ${kind === 'punctuation' ? 'the same but for punctuation' : 'one character apart'})`,
    );
    return located.at(
      n,
      ['text'],
      'near-duplicate',
      'warning',
      `${idOf(newer)} ${JSON.stringify(textOf(n))} nearly repeats ${others.join(' and ')}; ${list.length > 1 ? 'all' : 'both'} apply`,
      `Keep one: remove the newer (\`agents invariant remove ${idOf(newer)}\`), or edit a text if they mean different things.`,
      list.map(({ older }) => ({
        file: older.entry.path,
        ...located.where(older.entry.path, ['text']),
        message: `the other copy: ${idOf(older)}`,
      })),
    );
  });
}
