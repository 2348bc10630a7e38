// The action templates of policy sources (docs/extends.md), as `validate`
// needs them: a plan promoted from `SOURCE:NS/NAME` keeps origin ids that
// live in the source at its pinned commit, never in this store.
import { splitSourceRef } from '../core/extends.ts';
import { classifyPath } from '../core/layout.ts';
import type { ExtendsSource } from '../core/model.ts';
import type { LockEntry } from '../core/extends.ts';
import { type ExtendsState, pinsFor, readExtendsState, requireChecked, sourceTree } from '../store/extends.ts';
import type { TreeSource } from '../store/tree-source.ts';

/**
 * The ids of an action template's invariants, given its ref; null when the source does not hold the template at
 * its pin; undefined for a template of this store, or one that cannot be read.
 */
export type SourceActionIds = (ref: string) => Promise<ReadonlySet<string> | null | undefined>;

/**
 * Reads, on first ask for each template, the invariant ids of a policy
 * source's action template at the commit `tree`'s lock pins, from the cache
 * (no network). A source that is not pinned, not fetched or not checked
 * against its ref in this clone (requireChecked) answers undefined:
 * `validate` reports the pin through its own checks. `state`: config.yaml's extends and the lock, as `validate`
 * reads them once for all its policy-source checks.
 */
export function sourceActionIds(
  storeRoot: string,
  tree: TreeSource,
  state: () => Promise<ExtendsState> = () => readExtendsState(tree),
): SourceActionIds {
  let pins: Promise<Map<string, { source: ExtendsSource; pin: LockEntry }>> | undefined;
  const asked = new Map<string, Promise<ReadonlySet<string> | null | undefined>>();
  const read = async (name: string, local: string): Promise<ReadonlySet<string> | null | undefined> => {
    pins ??= state().then((state) => {
      try {
        return new Map(requireChecked(storeRoot, tree, pinsFor(state)).map((p) => [p.source.name, p]));
      } catch {
        return new Map();
      }
    });
    const pinned = (await pins).get(name);
    if (!pinned) return undefined;
    const folder = `actions/${local}`;
    const entries = await (await sourceTree(storeRoot, pinned.source, pinned.pin.commit)).list(folder, { recursive: false });
    // git keeps no empty folder: a template that is there lists at least one file.
    if (entries.length === 0) return null;
    const ids = new Set<string>();
    for (const e of entries) {
      const kind = e.type === 'file' ? classifyPath(e.path) : undefined;
      if (kind?.kind === 'invariant') ids.add(kind.id);
    }
    return ids;
  };
  return (ref) => {
    const { source, local } = splitSourceRef(ref);
    if (source === undefined) return Promise.resolve(undefined);
    let answer = asked.get(ref);
    if (!answer) {
      answer = read(source, local).catch(() => undefined);
      asked.set(ref, answer);
    }
    return answer;
  };
}
