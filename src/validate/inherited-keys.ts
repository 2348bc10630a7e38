// The invariants this store inherits (docs/extends.md), as the whole-store checks need them: an `overrides`
// or a waiver may name an inherited id, which is no file of the store but is an invariant it knows, and a text
// of the store may nearly repeat an inherited one, as `invariant add` warns.
import { createHash } from 'node:crypto';
import { describeScope } from '../core/model.ts';
import { textKey } from '../core/normalise.ts';
import { type ExtendsState, pinsFor, readExtendsState, readInherited, requireChecked } from '../store/extends.ts';
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
  /**
   * A digest of all the two answers hold: the whole-store checks that read them keep their findings under it, so a
   * pin moved, a source fetched or gone from the cache, is a miss, and a warm run stays warm.
   */
  digest: () => Promise<string>;
}

/**
 * Reads the inherited invariants from the cache at the pins `tree`'s lock names, once, for both answers. A source
 * that is not pinned, not fetched, not checked against its ref in this clone (requireChecked) or invalid answers none:
 * `validate` reports it through its own checks, and never reads a pin edited by hand as it says. `state`: config.yaml's
 * extends and the lock, as `validate` reads them once for all its policy-source checks.
 */
export function inheritedFacts(
  storeRoot: string,
  tree: TreeSource,
  state: () => Promise<ExtendsState> = () => readExtendsState(tree),
): InheritedFacts {
  let read: Promise<{ keys: ReadonlyMap<string, string>; texts: InheritedText[]; digest: string }> | undefined;
  const once = () =>
    (read ??= (async () => {
      try {
        const { invariants } = await readInherited(storeRoot, requireChecked(storeRoot, tree, pinsFor(await state())));
        const texts = invariants.map((i) => ({
          id: i.id,
          text: i.text,
          k: keyDigest(textKey(i.text)),
          scope: describeScope(i.scope),
          active: i.active,
        }));
        const h = createHash('sha1');
        for (const t of texts) h.update(`${t.id}\0${t.k}\0${t.active}\0${t.scope}\0${t.text}\0`);
        return {
          keys: new Map(texts.map((t) => [t.id, t.k])),
          texts: texts.filter((t) => t.active).map(({ active: _, ...t }) => t),
          digest: h.digest('base64'),
        };
      } catch {
        return { keys: new Map(), texts: [], digest: '' };
      }
    })());
  return {
    keys: async () => (await once()).keys,
    texts: async () => (await once()).texts,
    digest: async () => (await once()).digest,
  };
}
