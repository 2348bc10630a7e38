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
  return looseKeyOfKey(textKey(text));
}

/** `looseKey` of a text whose text key is `key` (for a caller that has the key already). */
export function looseKeyOfKey(key: string): string {
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
  // A policy source's global/ applies everywhere, as the store's does.
  if (x.kind === 'global' || y.kind === 'global' || x.kind === 'inherited' || y.kind === 'inherited') return true;
  if (x.kind === 'project' && y.kind === 'project') return x.project === y.project;
  if (x.kind === 'plan' && y.kind === 'plan') return x.plan === y.plan;
  const plan = x.kind === 'plan' ? x.plan : (y as { plan: string }).plan;
  const project = x.kind === 'project' ? x.project : (y as { project: string }).project;
  return plans.get(plan)?.project === project;
}

/** Counts of the work `nearPairs` did (tests hold it linear in the keys; no clock in this module). */
export interface NearStats {
  /** Distinct pairs of different keys compared character by character (`oneEditApart`). */
  examined: number;
  /** Hashes made, sorted and scanned: one per key and one per deletion of a character. */
  hashes: number;
}

/**
 * Base of the string hashes, which are polynomials mod 2^32 (integer
 * multiplications, the fast kind). A hash only proposes keys to compare:
 * a collision costs one comparison, never a wrong pair. Strings built to
 * collide for every base (Thue–Morse blocks) need 256 characters per
 * doubling of a group, and keys longer than NEAR_MAX_LENGTH are not hashed.
 */
const BASE = 0x01000193;
/** BASE^k mod 2^32 for k ≤ NEAR_MAX_LENGTH: every hashed string is at most that long. */
const POW = (() => {
  const out = new Int32Array(NEAR_MAX_LENGTH + 2);
  out[0] = 1;
  for (let k = 1; k < out.length; k++) out[k] = Math.imul(out[k - 1]!, BASE);
  return out;
})();

/**
 * Pairs of indexes of `keys` (the smaller first, sorted) whose keys are equal
 * (and not empty) or one edit apart (`oneEditApart`): exactly those, each once.
 * Linear in the total length of the keys, whatever they share, plus the
 * pairs found. Equal keys are grouped first; of the distinct keys, each one
 * of length n is hashed whole and with each of its characters deleted (a
 * deletion neighbourhood): two keys one insertion apart share the longer's
 * deletion and the shorter whole, and two one substitution apart share the
 * deletion at that place. Only keys sharing a hash are compared, so texts
 * that share a half (templated ones) cost nothing more. A deletion of a
 * digit, or of a letter repeating the one before (the same string), is not
 * hashed: an edit of a digit never counts. Keys are taken by length, the
 * wholes of length n with the deletions of the keys of length n + 1: each
 * batch's hashes are made once, in arrays sized for the largest batch; only
 * those a bitmap says may repeat are radix-sorted and scanned for runs.
 */
export function nearPairs(keys: readonly string[], stats?: NearStats): [number, number][] {
  // Distinct non-empty keys, and the indexes holding each (a chain through `next`, in index order).
  const ids = new Map<string, number>();
  const distinct: string[] = [];
  const first: number[] = [];
  const last: number[] = [];
  const next = new Int32Array(keys.length).fill(-1);
  for (let idx = 0; idx < keys.length; idx++) {
    const k = keys[idx]!;
    if (k === '') continue;
    const c = ids.get(k);
    if (c === undefined) {
      ids.set(k, distinct.length);
      distinct.push(k);
      first.push(idx);
      last.push(idx);
    } else {
      next[last[c]!] = idx;
      last[c] = idx;
    }
  }
  const pairs: [number, number][] = [];
  const add = (a: number, b: number) => pairs.push(a < b ? [a, b] : [b, a]);
  // Equal keys: every pair of a group (those are found, so this is paid for by what it finds).
  for (let c = 0; c < distinct.length; c++)
    for (let a = first[c]!; a >= 0; a = next[a]!) for (let b = next[a]!; b >= 0; b = next[b]!) add(a, b);
  const members = (c: number, d: number) => {
    for (let a = first[c]!; a >= 0; a = next[a]!) for (let b = first[d]!; b >= 0; b = next[b]!) add(a, b);
  };
  // Distinct keys by length, only those short enough to be compared by edit distance.
  const byLength: number[][] = Array.from({ length: NEAR_MAX_LENGTH + 1 }, () => []);
  for (let c = 0; c < distinct.length; c++) {
    const n = distinct[c]!.length;
    if (n >= NEAR_MIN_LENGTH && n <= NEAR_MAX_LENGTH) byLength[n]!.push(c);
  }
  const seen = new Set<number>();
  const compare = (c: number, d: number) => {
    const pair = c < d ? c * distinct.length + d : d * distinct.length + c;
    if (seen.has(pair)) return;
    seen.add(pair);
    if (stats) stats.examined++;
    if (oneEditApart(distinct[c]!, distinct[d]!)) members(c, d);
  };
  // Each batch's hashes and their owners (a distinct key, times 2, plus 1 for a deletion), in arrays sized once
  // for the largest batch, and the radix sort's second pair.
  let most = 0;
  for (let n = NEAR_MIN_LENGTH - 1; n < NEAR_MAX_LENGTH; n++) {
    const longer = byLength[n + 1]!.length;
    if (longer > 0) most = Math.max(most, (n >= NEAR_MIN_LENGTH ? byLength[n]!.length : 0) + longer * (n + 1));
  }
  const scratch: Scratch = {
    pre: new Int32Array(NEAR_MAX_LENGTH + 2),
    hashes: new Uint32Array(most),
    owners: new Uint32Array(most),
    hashes2: new Uint32Array(most),
    owners2: new Uint32Array(most),
  };
  // Batch n: the wholes of length n and the deletions of the keys of length n + 1 (strings of length n).
  for (let n = NEAR_MIN_LENGTH - 1; n < NEAR_MAX_LENGTH; n++) {
    const longer = byLength[n + 1]!;
    // Two wholes of one length are distinct keys: with no deletion to meet, a batch pairs nothing.
    if (longer.length === 0) continue;
    // A whole shorter than NEAR_MIN_LENGTH is too short to be a typo of anything.
    const wholes = n >= NEAR_MIN_LENGTH ? byLength[n]! : [];
    let count = 0;
    for (const c of wholes) count = hashKey(distinct[c]!, true, c * 2, count, scratch);
    for (const c of longer) count = hashKey(distinct[c]!, false, c * 2 + 1, count, scratch);
    if (stats) stats.hashes += count;
    // Only the hashes a bitmap says may repeat (about one in eight more than those that do) are sorted.
    const kept = repeating(count, scratch);
    const [h, o] = radixSort(kept, scratch);
    for (let start = 0; start < kept; ) {
      let end = start + 1;
      while (end < kept && h[end] === h[start]) end++;
      // Keys sharing a hash: compared pair by pair (two wholes of one length are distinct keys: never a pair).
      for (let i = start; i < end; i++)
        for (let j = i + 1; j < end; j++) {
          const x = o[i]!;
          const y = o[j]!;
          if ((x & 1) === 0 && (y & 1) === 0) continue;
          if (x >> 1 !== y >> 1) compare(x >> 1, y >> 1);
        }
      start = end;
    }
  }
  // In the order of the indexes, whatever order the batches found them in (a sort of what was found, not of the keys).
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
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

/** The arrays one `nearPairs` call hashes and sorts in. */
interface Scratch {
  /** Hashes of each prefix of a key (an Int32Array wraps sums mod 2^32); pre[0] stays 0. */
  pre: Int32Array;
  hashes: Uint32Array;
  owners: Uint32Array;
  hashes2: Uint32Array;
  owners2: Uint32Array;
}

/**
 * Writes the hashes of key `k` from `at` on: the whole key's, or one per
 * deletion of a character (not of a digit, nor of a letter repeating the
 * one before: the same string), each with `owner`. Returns the new end.
 */
function hashKey(k: string, whole: boolean, owner: number, at: number, scratch: Scratch): number {
  const { pre, hashes, owners } = scratch;
  const m = k.length;
  for (let i = 0; i < m; i++) pre[i + 1] = Math.imul(pre[i]!, BASE) + k.charCodeAt(i);
  const all = pre[m]!;
  if (whole) {
    hashes[at] = all >>> 0;
    owners[at] = owner;
    return at + 1;
  }
  let before = -1;
  for (let i = 0; i < m; i++) {
    const code = k.charCodeAt(i);
    const same = code === before;
    before = code;
    if (same || isDigit(code)) continue;
    // With the whole hash W = pre[i + 1]·B^(m-1-i) + (hash of what follows i), deleting i gives
    // pre[i]·B^(m-1-i) + (the same): W + (pre[i] − pre[i + 1])·B^(m-1-i).
    hashes[at] = (all + Math.imul(pre[i]! - pre[i + 1]!, POW[m - 1 - i]!)) >>> 0;
    owners[at++] = owner;
  }
  return at;
}

/**
 * Moves to the front of `scratch` the first `n` hashes (with their owners)
 * whose slot in a bitmap of about 8 bits a hash is met twice or more — every
 * hash that repeats, and a few that do not — and returns how many.
 */
function repeating(n: number, scratch: Scratch): number {
  const { hashes, owners } = scratch;
  const bits = Math.max(1024, 2 ** Math.ceil(Math.log2(n * 8)));
  const shift = 32 - Math.log2(bits);
  const once = new Int32Array(bits >>> 5);
  const twice = new Int32Array(bits >>> 5);
  for (let i = 0; i < n; i++) {
    const slot = hashes[i]! >>> shift;
    const bit = 1 << (slot & 31);
    const word = slot >>> 5;
    if ((once[word]! & bit) !== 0) twice[word]! |= bit;
    else once[word]! |= bit;
  }
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const slot = hashes[i]! >>> shift;
    if ((twice[slot >>> 5]! & (1 << (slot & 31))) === 0) continue;
    hashes[kept] = hashes[i]!;
    owners[kept++] = owners[i]!;
  }
  return kept;
}

/**
 * Sorts the first `n` hashes of `scratch` (and their owners alongside) in two
 * counting passes of 16 bits: linear, no comparisons. Returns the sorted
 * arrays (views of the scratch arrays).
 */
function radixSort(n: number, scratch: Scratch): [Uint32Array, Uint32Array] {
  let h = scratch.hashes.subarray(0, n);
  let o = scratch.owners.subarray(0, n);
  let h2 = scratch.hashes2.subarray(0, n);
  let o2 = scratch.owners2.subarray(0, n);
  if (n < 4096) {
    // Few hashes (a small store, one length): a sort costs less than two passes over 65,536 counters. Each hash and
    // its place are one exact number (32 + 12 bits), so the typed array's own numeric sort orders them as the radix
    // sort would, ties by place, with no comparison function to call.
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = h[i]! * 4096 + i;
    packed.sort();
    for (let i = 0; i < n; i++) {
      const at = packed[i]! % 4096;
      h2[i] = h[at]!;
      o2[i] = o[at]!;
    }
    return [h2, o2];
  }
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
