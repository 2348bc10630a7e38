// The invariants this store inherits (docs/extends.md), as the whole-store checks need them: an `overrides`
// or a waiver may name an inherited id, which is no file of the store but is an invariant it knows.
import { textKey } from '../core/normalise.ts';
import { pinsFor, readExtendsState, readInherited } from '../store/extends.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { keyDigest } from './content-hash.ts';

/** Inherited ids with the digest of their text key (as `FileFacts.k`); read on first ask. */
export type InheritedKeys = () => Promise<ReadonlyMap<string, string>>;

/**
 * Reads the inherited invariants from the cache at the pins `tree`'s lock names, once. A source that is not
 * pinned, not fetched or invalid answers no ids: `validate` reports it through its own checks.
 */
export function inheritedKeys(storeRoot: string, tree: TreeSource): InheritedKeys {
  let keys: Promise<ReadonlyMap<string, string>> | undefined;
  return () => {
    keys ??= (async () => {
      try {
        const read = await readInherited(storeRoot, pinsFor(await readExtendsState(tree)));
        return new Map(read.invariants.map((i) => [i.id, keyDigest(textKey(i.text))]));
      } catch {
        return new Map();
      }
    })();
    return keys;
  };
}
