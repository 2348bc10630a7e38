import { setFlagsFromString } from 'node:v8';

/**
 * Lets V8's heap grow by at most half of what survived the last full
 * collection, instead of up to four times that (docs/adr/0071-bounded-memory.md): a command that reads 100,000 files makes much short-lived
 * garbage, and V8, seeing little time spent collecting, would otherwise let
 * it pile up to several times the live data before collecting it. Read by
 * V8 at each collection, so it applies from the call on.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
