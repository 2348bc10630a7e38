import { sameScope, type Plan, type Scope, type ScopedInvariant } from './model.ts';
import { textKey } from './normalise.ts';

/**
 * Near-duplicates (docs/resolution.md, "Near-duplicates"): two texts whose
 * keys differ, yet that say the same thing — equal once punctuation is
 * dropped ("Never delete production data." and "Never delete production
 * data"), or one typo apart (one letter inserted, deleted or replaced). An
 * edit that touches a digit does not count: "Use Python 3.12" and "Use Python
 * 3.13" are different rules. The de-duplication rule itself is unchanged
 * (docs/resolution.md): near-duplicates both apply, and are only warned about.
 */

const PUNCTUATION = /\p{P}/u;
/** ASCII code → 1 for punctuation: a table built in one expression at load, never written after. */
const ASCII_PUNCTUATION = Uint8Array.from({ length: 128 }, (_, code) =>
  '!"#%&\'()*,-./:;?@[\\]_{}'.includes(String.fromCharCode(code)) ? 1 : 0,
);

/** Shortest key compared by edit distance: shorter texts are too short to call one a typo of the other. */
export const NEAR_MIN_LENGTH = 8;
/** Longest key compared by edit distance (longer ones only by the punctuation-free key), to bound the work per text. */
export const NEAR_MAX_LENGTH = 400;

/** The text key (docs/resolution.md) with punctuation turned into spaces, white space folded again. */
export function looseKey(text: string): string {
  const key = textKey(text);
  // One pass, no regular expression for ASCII (the common case): validate computes this for every invariant.
  let clean = true;
  for (let i = 0; i < key.length && clean; i++) {
    const c = key.charCodeAt(i);
    if (c < 128 ? ASCII_PUNCTUATION[c] === 1 : isWideGap(key, i)) clean = false;
  }
  // Nothing to drop: the key itself (a flat string, as the hashing that follows prefers).
  if (clean) return key;
  let out = '';
  let space = true;
  let from = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const gap = c < 128 ? ASCII_PUNCTUATION[c] === 1 || c === 32 : isWideGap(key, i);
    if (gap) {
      out += key.slice(from, i);
      if (!space) out += ' ';
      space = true;
      from = i + 1;
    } else space = false;
  }
  out += key.slice(from);
  return out.endsWith(' ') ? out.slice(0, -1) : out;
}

/**
 * Non-ASCII punctuation (a surrogate pair is never punctuation here: \p{P}
 * holds none outside the BMP that matter). No white space is left to find:
 * `textKey` has turned every run of it into one ASCII space.
 */
function isWideGap(key: string, i: number): boolean {
  return PUNCTUATION.test(key[i]!);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether two different loose keys are one edit apart, the edit not touching a digit (no strings made: pairs are checked by the hundred thousand). */
export function oneEditApart(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  const la = a.length;
  const lb = b.length;
  if (lb - la > 1 || la < NEAR_MIN_LENGTH || lb > NEAR_MAX_LENGTH) return false;
  let i = 0;
  while (i < la && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    if (i === la) return false;
    if (isDigit(a.charCodeAt(i)) || isDigit(b.charCodeAt(i))) return false;
    for (let k = la - 1; k > i; k--) if (a.charCodeAt(k) !== b.charCodeAt(k)) return false;
    return true;
  }
  if (isDigit(b.charCodeAt(i))) return false;
  for (let k = la - 1; k >= i; k--) if (a.charCodeAt(k) !== b.charCodeAt(k + 1)) return false;
  return true;
}

export type NearKind = 'punctuation' | 'one-edit';

/** How two texts are near-duplicates, or undefined when they are not (equal keys are duplicates, not near ones). */
export function nearKind(a: { text: string; loose?: string }, b: { text: string; loose?: string }): NearKind | undefined {
  if (textKey(a.text) === textKey(b.text)) return undefined;
  const la = a.loose ?? looseKey(a.text);
  const lb = b.loose ?? looseKey(b.text);
  if (la === lb) return la === '' ? undefined : 'punctuation';
  return oneEditApart(la, lb) ? 'one-edit' : undefined;
}

/**
 * Whether two invariants can ever be in one effective set (or, for an action
 * template, be promoted into one plan together): then a near-duplicate pair
 * of them is worth a warning.
 */
export function canMeet(a: { scope: Scope }, b: { scope: Scope }, plans: ReadonlyMap<string, Plan>): boolean {
  const x = a.scope;
  const y = b.scope;
  // An action template meets only the templates of its own action.
  if (x.kind === 'action' || y.kind === 'action') return sameScope(x, y);
  if (x.kind === 'global' || y.kind === 'global') return true;
  if (x.kind === 'project' && y.kind === 'project') return x.project === y.project;
  if (x.kind === 'plan' && y.kind === 'plan') return x.plan === y.plan;
  const plan = x.kind === 'plan' ? x.plan : (y as { plan: string }).plan;
  const project = x.kind === 'project' ? x.project : (y as { project: string }).project;
  return plans.get(plan)?.project === project;
}

const P = 0x01000193;

/** Hash of k[from, to), mixed with a tag (which half, which length class). */
function hashRange(k: string, from: number, to: number, tag: number): number {
  let h = Math.imul(tag + 1, 0x9e3779b1) >>> 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, P) + k.charCodeAt(i) + 1) >>> 0;
  return h;
}

/**
 * Pairs of indexes of `keys` that may be equal or one edit apart (the
 * caller checks each with `nearKind`). Not quadratic. Of two such strings,
 * the shorter (length L, or either when their lengths are equal) and the
 * longer agree on their first ⌊L/2⌋ characters when the edit is in the
 * second half, and on their last L − ⌊L/2⌋ characters when it is in the
 * first. So each key gives four hashes — its halves as the shorter of a
 * pair (length class L) and as the longer (class L − 1) — and only keys
 * sharing a hash are paired: about four numbers per key, sorted in linear
 * time. Keys sharing a half by chance are paired too and dropped by the
 * check; a store where very many texts share a half pays for those checks.
 */
export function nearPairs(keys: readonly string[]): [number, number][] {
  const hashes = new Uint32Array(keys.length * 4);
  const owners = new Uint32Array(keys.length * 4);
  let n = 0;
  for (let idx = 0; idx < keys.length; idx++) {
    const k = keys[idx]!;
    const M = k.length;
    if (M === 0) continue;
    // As the shorter (or equal) string: class M. Tags keep halves and classes apart.
    const m = M >> 1;
    hashes[n] = hashRange(k, 0, m, M * 4);
    owners[n++] = idx;
    hashes[n] = hashRange(k, m, M, M * 4 + 1);
    owners[n++] = idx;
    if (M - 1 < NEAR_MIN_LENGTH || M > NEAR_MAX_LENGTH) continue;
    // As the longer of a pair whose shorter has length L = M - 1: its first ⌊L/2⌋ characters, its last L - ⌊L/2⌋.
    const L = M - 1;
    const h = L >> 1;
    hashes[n] = hashRange(k, 0, h, L * 4);
    owners[n++] = idx;
    hashes[n] = hashRange(k, M - (L - h), M, L * 4 + 1);
    owners[n++] = idx;
  }
  const [h, o] = radixSort(hashes.subarray(0, n), owners.subarray(0, n));
  const pairs: [number, number][] = [];
  const seen = new Set<number>();
  for (let start = 0; start < n; ) {
    const hash = h[start]!;
    let end = start + 1;
    while (end < n && h[end] === hash) end++;
    for (let i = start; i < end; i++) {
      const a = o[i]!;
      for (let j = i + 1; j < end; j++) {
        const b = o[j]!;
        if (a === b) continue;
        const ka = keys[a]!;
        const kb = keys[b]!;
        // Equal, or one edit apart (which refuses lengths more than one apart, as a hash collision could pair).
        if (ka !== kb && !oneEditApart(ka, kb)) continue;
        // The sort is stable and owners were added in index order: a < b.
        const key = a * 2 ** 21 + b;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([a, b]);
      }
    }
    start = end;
  }
  return pairs;
}

/**
 * The pairs of `nearPairs(keys)` that hold at least one index of `focus`
 * (each once, the smaller index first), found without hashing every key: two
 * keys `nearPairs` pairs are at most one character apart in length, and keys
 * equal or one edit apart always share a half (see `nearPairs`), so the pairs
 * are exactly the focused keys against every key of a length one off or
 * equal that passes the same cheap checks. A check of what a few changed
 * texts take part in (`validate` in hook mode) then costs one pass over the
 * keys' lengths and a few comparisons per key of a near length; a large
 * focus falls back to `nearPairs`.
 */
export function nearPairsTouching(keys: readonly string[], focus: ReadonlySet<number>): [number, number][] {
  if (focus.size * 8 > keys.length) return nearPairs(keys).filter(([a, b]) => focus.has(a) || focus.has(b));
  const pairs: [number, number][] = [];
  if (focus.size === 0) return pairs;
  const byLength = new Map<number, number[]>();
  for (let idx = 0; idx < keys.length; idx++) {
    const length = keys[idx]!.length;
    if (length === 0) continue;
    const list = byLength.get(length);
    if (list) list.push(idx);
    else byLength.set(length, [idx]);
  }
  const seen = new Set<number>();
  for (const f of focus) {
    // An empty focused key meets no key: none of length 0 is listed, and one of length 1 is too short to be one edit away.
    const kf = keys[f]!;
    for (const length of [kf.length - 1, kf.length, kf.length + 1]) {
      for (const idx of byLength.get(length) ?? []) {
        if (idx === f) continue;
        const k = keys[idx]!;
        if (k !== kf && !oneEditApart(kf, k)) continue;
        const [a, b] = f < idx ? [f, idx] : [idx, f];
        const key = a * 2 ** 21 + b;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([a, b]);
      }
    }
  }
  return pairs;
}

/** Sorts 32-bit hashes (and their owners alongside) in two counting passes of 16 bits: linear, no comparisons. */
function radixSort(hashes: Uint32Array, owners: Uint32Array): [Uint32Array, Uint32Array] {
  const n = hashes.length;
  let h: Uint32Array = hashes;
  let o: Uint32Array = owners;
  let h2: Uint32Array = new Uint32Array(n);
  let o2: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (const shift of [0, 16]) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(h[i]! >>> shift) & 0xffff]!++;
    let sum = 0;
    for (let b = 0; b < 65536; b++) {
      const c = count[b]!;
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const b = (h[i]! >>> shift) & 0xffff;
      const at = count[b]!++;
      h2[at] = h[i]!;
      o2[at] = o[i]!;
    }
    [h, h2] = [h2, h];
    [o, o2] = [o2, o];
  }
  return [h, o];
}

/** A pair of near-duplicate invariants; `a` is the older (smaller id). */
export interface NearDuplicate {
  a: ScopedInvariant;
  b: ScopedInvariant;
  kind: NearKind;
}

/** Every near-duplicate pair among active invariants that can meet in one effective set. */
export function findNearDuplicates(invariants: readonly ScopedInvariant[], plans: ReadonlyMap<string, Plan>): NearDuplicate[] {
  const active = invariants.filter((i) => i.active);
  const loose = active.map((i) => looseKey(i.text));
  const out: NearDuplicate[] = [];
  for (const [i, j] of nearPairs(loose)) {
    const x = active[i]!;
    const y = active[j]!;
    const kind = nearKind({ text: x.text, loose: loose[i]! }, { text: y.text, loose: loose[j]! });
    if (!kind || !canMeet(x, y, plans)) continue;
    out.push(x.id < y.id ? { a: x, b: y, kind } : { a: y, b: x, kind });
  }
  return out.sort((p, q) => (p.a.id < q.a.id ? -1 : p.a.id > q.a.id ? 1 : p.b.id < q.b.id ? -1 : p.b.id > q.b.id ? 1 : 0));
}

/** A text's near-duplicates among `others` (one text: a linear scan, no index). */
export function nearDuplicatesOf(
  text: string,
  others: readonly { invariant: ScopedInvariant; loose: string }[],
): { invariant: ScopedInvariant; kind: NearKind }[] {
  const loose = looseKey(text);
  const out: { invariant: ScopedInvariant; kind: NearKind }[] = [];
  for (const o of others) {
    // Cheap filter first: a near-duplicate's loose key is at most one character longer or shorter.
    if (Math.abs(o.loose.length - loose.length) > 1) continue;
    const kind = nearKind({ text, loose }, { text: o.invariant.text, loose: o.loose });
    if (kind) out.push({ invariant: o.invariant, kind });
  }
  return out;
}
