import { useCallback, useEffect, useRef, useState } from 'react';
import { AgentsError, EXIT_CODES } from '../core/errors.ts';
import type { ScopedInvariant } from '../core/model.ts';
import { errorSummary } from '../present/diagnostics.ts';
import type { InvariantService, ListedInvariant, ScopeCatalog } from '../service/invariant-service.ts';
import { inheritedIfReadable, inheritedNotListed } from '../service/invariant-service.ts';
import { requireStore } from '../store/discover.ts';

export interface StoreData {
  items: ListedInvariant[];
  catalog: ScopeCatalog;
  /** The policy sources' invariants (docs/extends.md): effective sets show them and the copies they hide, and ids are abbreviated among them too. */
  inherited: ScopedInvariant[];
  /** Why they are not listed (a source not pinned or not fetched yet), as `invariant list` says it. */
  inheritedMissing?: string;
}

/**
 * The store the screen was opened on, still a store (as the MCP server asks it): a folder removed or moved away
 * meanwhile is neither read as a store that holds nothing nor written into, which would make a fragment of one there.
 */
export function requireOpenedStore(service: InvariantService): void {
  requireStore(service.root, 'the screen opened', 'then try again');
}

/** Whether the store folder the screen opened on was removed or moved away since. */
export function storeGone(service: InvariantService): boolean {
  try {
    requireOpenedStore(service);
    return false;
  } catch {
    return true;
  }
}

/**
 * Reads every invariant (with shadow relations), the inherited ones and the
 * scopes that exist; `reload` after a change. A policy source not pinned or
 * not fetched yet leaves `inherited` empty here, and `inheritedMissing` says
 * why: the effective view, which needs it, refuses when it resolves the set. The first read failing ends the
 * screen (`onError`); a later one (a file another process broke) leaves the
 * store as last read on screen and says why in `problem`, until a read works:
 * ending the screen then would hide what the change just made did. `reload`
 * resolves to whether it read the store.
 */
export function useStoreData(
  service: InvariantService,
  onError: (error: unknown) => void,
): { data: StoreData | undefined; reload: () => Promise<boolean>; problem: string | undefined } {
  const [data, setData] = useState<StoreData | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const read = useRef(false);
  const reload = useCallback(async () => {
    try {
      requireOpenedStore(service);
      let inheritedMissing: string | undefined;
      const [items, catalog, inherited] = await Promise.all([
        service.list({ all: true }),
        service.scopes(),
        inheritedIfReadable(service, (error) => {
          inheritedMissing = inheritedNotListed(error, service.optionWords);
        }),
      ]);
      read.current = true;
      setData({ items, catalog, inherited, ...(inheritedMissing !== undefined ? { inheritedMissing } : {}) });
      setProblem(undefined);
      return true;
    } catch (error) {
      if (read.current && error instanceof AgentsError && error.exitCode !== EXIT_CODES.internal) setProblem(errorSummary(error));
      else onError(error);
      return false;
    }
  }, [service, onError]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, reload, problem };
}
