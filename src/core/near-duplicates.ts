import type { Plan, Scope, ScopedInvariant } from './model.ts';
import { textKey } from './normalise.ts';

/**
 * Near-duplicates (docs/resolution.md, "Near-duplicates"): two texts whose
 * keys differ, yet that say the same thing — equal once punctuation is
 * dropped ("Never delete production data." and "Never delete production
 * data"), or one typo apart (one letter inserted, deleted or replaced). An
 * edit that touches a digit does not count: "Use Python 3.12" and "Use Python
 * 3.13" are different rules. The de-duplication rule itself is unchanged
 * (SPEC 5): near-duplicates both apply, and are only warned about.
 */

const PUNCTUATION = /\p{P}+/gu;

/** Shortest key compared by edit distance: shorter texts are too short to call one a typo of the other. */
export const NEAR_MIN_LENGTH = 8;
/** Longest key compared by edit distance (longer ones only by the punctuation-free key), to bound the work per text. */
export const NEAR_MAX_LENGTH = 400;

/** The text key (SPEC 5) with punctuation turned into spaces, white space folded again. */
export function looseKey(text: string): string {
  return textKey(text).replace(PUNCTUATION, ' ').replace(/\s+/g, ' ').trim();
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether two different loose keys are one edit apart, the edit not touching a digit. */
export function oneEditApart(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  if (b.length - a.length > 1 || a.length < NEAR_MIN_LENGTH || b.length > NEAR_MAX_LENGTH) return false;
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) {
    if (i === a.length) return false;
    if (isDigit(a.charCodeAt(i)) || isDigit(b.charCodeAt(i))) return false;
    return a.slice(i + 1) === b.slice(i + 1);
  }
  if (isDigit(b.charCodeAt(i))) return false;
  return a.slice(i) === b.slice(i + 1);
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
  if (x.kind === 'action' || y.kind === 'action') return x.kind === 'action' && y.kind === 'action' && x.ns === y.ns && x.name === y.name;
  if (x.kind === 'global' || y.kind === 'global') return true;
  if (x.kind === 'project' && y.kind === 'project') return x.project === y.project;
  if (x.kind === 'plan' && y.kind === 'plan') return x.plan === y.plan;
  const plan = x.kind === 'plan' ? x.plan : (y as { plan: string }).plan;
  const project = x.kind === 'project' ? x.project : (y as { project: string }).project;
  return plans.get(plan)?.project === project;
}

const P = 0x01000193;

/**
 * Pairs of indexes of `keys` that are equal or one edit apart (candidates:
 * the caller checks each with `nearKind`). Not quadratic: two strings one
 * edit apart share a string made by deleting one character from each (or
 * from the longer only), so each key gives its own hash and the hashes of
 * its one-character deletions (none at a digit: such edits do not count),
 * and only keys sharing a hash are paired. The hashes are sorted in one
 * typed array: about (length + 1) numbers per key, no map of strings.
 */
export function nearPairs(keys: readonly string[]): [number, number][] {
  let total = 0;
  for (const k of keys) total += k.length >= NEAR_MIN_LENGTH - 1 && k.length <= NEAR_MAX_LENGTH ? k.length + 1 : 1;
  // hash (32 bits) * 2^21 + index: exact in a double for up to 2 million keys.
  const SHIFT = 2 ** 21;
  if (keys.length >= SHIFT) throw new Error('nearPairs: too many keys');
  const packed = new Float64Array(total);
  let n = 0;
  let prefix = new Uint32Array(64);
  let suffix = new Uint32Array(64);
  let power = new Uint32Array(64);
  for (let idx = 0; idx < keys.length; idx++) {
    const k = keys[idx]!;
    const L = k.length;
    if (L === 0) continue;
    const variants = L >= NEAR_MIN_LENGTH - 1 && L <= NEAR_MAX_LENGTH;
    if (L + 1 > prefix.length) {
      prefix = new Uint32Array(2 * (L + 1));
      suffix = new Uint32Array(2 * (L + 1));
      power = new Uint32Array(2 * (L + 1));
    }
    prefix[0] = 0;
    for (let i = 0; i < L; i++) prefix[i + 1] = (Math.imul(prefix[i]!, P) + k.charCodeAt(i) + 1) >>> 0;
    packed[n++] = prefix[L]! * SHIFT + idx;
    if (!variants) continue;
    // suffix[i]: hash of k[i..]; power[j] = P^j.
    power[0] = 1;
    for (let j = 1; j <= L; j++) power[j] = Math.imul(power[j - 1]!, P) >>> 0;
    suffix[L] = 0;
    for (let i = L - 1; i >= 0; i--) suffix[i] = (Math.imul(k.charCodeAt(i) + 1, power[L - 1 - i]!) + suffix[i + 1]!) >>> 0;
    for (let i = 0; i < L; i++) {
      if (isDigit(k.charCodeAt(i))) continue;
      // Hash of k without character i: prefix k[..i) shifted past the L-1-i characters that follow it.
      const h = (Math.imul(prefix[i]!, power[L - 1 - i]!) + suffix[i + 1]!) >>> 0;
      packed[n++] = h * SHIFT + idx;
    }
  }
  const sorted = packed.subarray(0, n).sort();
  const pairs: [number, number][] = [];
  const seen = new Set<number>();
  for (let start = 0; start < n; ) {
    const hash = Math.floor(sorted[start]! / SHIFT);
    let end = start + 1;
    while (end < n && Math.floor(sorted[end]! / SHIFT) === hash) end++;
    if (end - start > 1) {
      for (let i = start; i < end; i++) {
        const a = sorted[i]! - hash * SHIFT;
        for (let j = i + 1; j < end; j++) {
          const b = sorted[j]! - hash * SHIFT;
          if (a === b) continue;
          const key = a * SHIFT + b;
          if (seen.has(key)) continue;
          seen.add(key);
          pairs.push([a, b]);
        }
      }
    }
    start = end;
  }
  return pairs;
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
export function nearDuplicatesOf(text: string, others: readonly { invariant: ScopedInvariant; loose: string }[]): { invariant: ScopedInvariant; kind: NearKind }[] {
  const loose = looseKey(text);
  if (loose === '') return [];
  const out: { invariant: ScopedInvariant; kind: NearKind }[] = [];
  for (const o of others) {
    // Cheap filter first: a near-duplicate's loose key is at most one character longer or shorter.
    if (Math.abs(o.loose.length - loose.length) > 1) continue;
    const kind = nearKind({ text, loose }, { text: o.invariant.text, loose: o.loose });
    if (kind) out.push({ invariant: o.invariant, kind });
  }
  return out;
}
