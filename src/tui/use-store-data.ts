import { useCallback, useEffect, useState } from 'react';
import type { InvariantService, ListedInvariant, ScopeCatalog } from '../service/invariant-service.ts';

export interface StoreData {
  items: ListedInvariant[];
  catalog: ScopeCatalog;
}

/** Reads every invariant (with shadow relations) and the scopes that exist; `reload` after a change. */
export function useStoreData(
  service: InvariantService,
  onError: (error: unknown) => void,
): { data: StoreData | undefined; reload: () => Promise<void> } {
  const [data, setData] = useState<StoreData | undefined>();
  const reload = useCallback(async () => {
    try {
      const [items, catalog] = await Promise.all([service.list({ all: true }), service.scopes()]);
      setData({ items, catalog });
    } catch (error) {
      onError(error);
    }
  }, [service, onError]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, reload };
}
