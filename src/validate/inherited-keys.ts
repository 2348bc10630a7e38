// The invariants this store inherits (docs/extends.md), as the whole-store checks need them: an `overrides`
// or a waiver may name an inherited id, which is no file of the store but is an invariant it knows, and a text
// of the store may nearly repeat an inherited one, as `invariant add` warns.
import { describeScope } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { pinsFor, readExtendsState, readInherited } from '../store/extends.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { keyDigest } from './content-hash.ts';

/** Inherited ids with the digest of their text key (as `FileFacts.k`); read on first ask. */
export type InheritedKeys = () => Promise<ReadonlyMap<string, string>>;

/** An active inherited invariant as the near-duplicate check names it: its id, text and scope's words ("inherited policy"). */
export interface InheritedText {
  id: string;
  text: string;
  /** The digest of its text key (as `FileFacts.k`). */
  k: string;
  scope: string;
}

/** Inherited invariants: ids with their key digests, and the active ones' texts. */
export interface InheritedFacts {
  keys: InheritedKeys;
  texts: () => Promise<readonly InheritedText[]>;
}

/**
 * Reads the inherited invariants from the cache at the pins `tree`'s lock names, once, for both answers. A source
 * that is not pinned, not fetched or invalid answers none: `validate` reports it through its own checks.
 */
export function inheritedFacts(storeRoot: string, tree: TreeSource): InheritedFacts {
  let read: Promise<{ keys: ReadonlyMap<string, string>; texts: InheritedText[] }> | undefined;
  const once = () =>
    (read ??= (async () => {
      try {
        const { invariants } = await readInherited(storeRoot, pinsFor(await readExtendsState(tree)));
        const texts = invariants.map((i) => ({
          id: i.id,
          text: i.text,
          k: keyDigest(textKey(i.text)),
          scope: describeScope(i.scope),
          active: i.active,
        }));
        return { keys: new Map(texts.map((t) => [t.id, t.k])), texts: texts.filter((t) => t.active).map(({ active: _, ...t }) => t) };
      } catch {
        return { keys: new Map(), texts: [] };
      }
    })());
  return { keys: async () => (await once()).keys, texts: async () => (await once()).texts };
}
