import type { Diagnostic } from '../../core/diagnostics.ts';
import type { Plan } from '../../core/model.ts';
import { canMeet, looseKey, nearPairs, nearPairsTouching, oneEditApart, type NearKind } from '../../core/near-duplicates.ts';
import type { FileFacts } from '../file-facts.ts';
import type { InheritedText } from '../inherited-keys.ts';
import type { ContentJob, InvariantJob } from './context.ts';
import type { Located } from './located.ts';

/**
 * Near-duplicates (core/near-duplicates.ts) among active invariants that can
 * meet in one effective set: a warning on the newer of each pair, naming the
 * other. From the facts alone (the punctuation-free key of every invariant):
 * no file is parsed again except the few reported. An inherited invariant
 * (`inherited`, docs/extends.md) meets every scope but an action template's,
 * as `invariant add` judges it: the store's copy is warned of, naming it; two
 * inherited ones (of one source or of two) are the sources' to judge, not this store's, which can change neither.
 */
export async function checkNearDuplicates(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  plans: ReadonlyMap<string, Plan>,
  located: Located,
  touches?: (path: string) => boolean,
  inherited?: () => Promise<readonly InheritedText[]>,
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
  // The inherited texts follow the store's keys: an index of `keys` from `own` on is `outside[x - own]`.
  const own = keys.length;
  const outside = own === 0 || inherited === undefined ? [] : await inherited();
  for (const t of outside) keys.push(looseKey(t.text));
  type Found = { older: InvariantJob | InheritedText; newer: InvariantJob; kind: NearKind };
  /** The near-duplicate pairs among `pairs` (of indexes of `keys`). */
  const judge = (pairs: readonly [number, number][]): Found[] => {
    const out: Found[] = [];
    for (const [x, y] of pairs) {
      // Pairs come ordered (x < y): an inherited text is y's, and two are not this store's to judge.
      if (x >= own) continue;
      const i = at[x]!;
      const other = y >= own ? outside[y - own]! : undefined;
      const j = other === undefined ? at[y]! : -1;
      // Equal text keys are duplicates or shadows, reported above.
      if (facts[i]!.k === (other?.k ?? facts[j]!.k)) continue;
      const kind: NearKind | undefined = keys[x] === keys[y] ? 'punctuation' : oneEditApart(keys[x]!, keys[y]!) ? 'one-edit' : undefined;
      if (!kind) continue;
      // `at` holds invariants only.
      const a = jobs[i] as InvariantJob;
      if (other !== undefined) {
        // An inherited invariant applies below every scope but an action template's.
        if (a.kind.scope.kind !== 'action') out.push({ older: other, newer: a, kind });
        continue;
      }
      const b = jobs[j] as InvariantJob;
      if (!canMeet(a.kind, b.kind, plans)) continue;
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
    for (let x = 0; x < own; x++) if (touches(jobs[at[x]!]!.entry.path)) focus.add(x);
    const newer = new Set<ContentJob>(judge(nearPairsTouching(keys, focus)).map((f) => f.newer));
    const newerAt = new Set<number>();
    for (let x = 0; x < own; x++) if (newer.has(jobs[at[x]!]!)) newerAt.add(x);
    // No newer file: no focused key, no pair.
    found = judge(nearPairsTouching(keys, newerAt)).filter((f) => newer.has(f.newer));
  }
  const idOf = (j: InvariantJob | InheritedText) => ('kind' in j ? j.kind.id : j.id);
  // Each newer file's older copies in the order of their ids (not of the pair search, which differs in hook mode).
  found.sort((p, q) => (idOf(p.older) < idOf(q.older) ? -1 : 1));
  await located.load(found.flatMap((f) => ('entry' in f.older ? [f.older.entry.path] : []).concat(f.newer.entry.path)));
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
    const others = list.map(({ older, kind }) => {
      const how = kind === 'punctuation' ? 'the same but for punctuation' : 'one character apart';
      return 'entry' in older
        ? `${idOf(older)} ${JSON.stringify(textOf(older.entry.path))} (${older.entry.path}, ${how})`
        : `${older.scope} ${older.id} ${JSON.stringify(older.text.trim())} (${how})`;
    });
    // An inherited copy is in no file of this repository: the message names it.
    const related = list.flatMap(({ older }) =>
      'entry' in older
        ? [{ file: older.entry.path, ...located.where(older.entry.path, ['text']), message: `the other copy: ${idOf(older)}` }]
        : [],
    );
    return located.at(
      n,
      ['text'],
      'near-duplicate',
      'warning',
      `${idOf(newer)} ${JSON.stringify(textOf(n))} nearly repeats ${others.join(' and ')}; ${list.length > 1 ? 'all' : 'both'} apply`,
      `Keep one: remove the newer (\`agents invariant remove ${idOf(newer)}\`), or edit a text if they mean different things.`,
      related.length > 0 ? related : undefined,
    );
  });
}
