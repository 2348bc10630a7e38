import { useCallback, useEffect, useState } from 'react';
import type { ScopedInvariant } from '../core/model.ts';
import type { InvariantService, ListedInvariant, ScopeCatalog } from '../service/invariant-service.ts';

export interface StoreData {
  items: ListedInvariant[];
  catalog: ScopeCatalog;
  /** The policy sources' invariants (docs/extends.md): effective sets show them and the copies they hide, and ids are abbreviated among them too. */
  inherited: ScopedInvariant[];
}

/**
 * Reads every invariant (with shadow relations), the inherited ones and the
 * scopes that exist; `reload` after a change. A policy source that cannot be
 * read leaves `inherited` empty here: the effective view, which needs it,
 * reports why when it resolves the set.
 */
export function useStoreData(
  service: InvariantService,
  onError: (error: unknown) => void,
): { data: StoreData | undefined; reload: () => Promise<void> } {
  const [data, setData] = useState<StoreData | undefined>();
  const reload = useCallback(async () => {
    try {
      const [items, catalog, inherited] = await Promise.all([
        service.list({ all: true }),
        service.scopes(),
        service.inherited().catch(() => []),
      ]);
      setData({ items, catalog, inherited });
    } catch (error) {
      onError(error);
    }
  }, [service, onError]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, reload };
}
