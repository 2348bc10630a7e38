/**
 * The number of fast-check runs for a property: `n`, or at most FC_NUM_RUNS when that
 * is set. Mutation testing sets it (vitest.mutate.config.ts) because each mutant runs
 * the properties again, and `npm run test:unit` (vitest.unit.config.ts) for a quick inner
 * loop; `npm test` leaves it unset and runs every case (docs/mutation.md).
 */
export function fcRuns(n: number): number {
  const cap = Number(process.env.FC_NUM_RUNS);
  return Number.isInteger(cap) && cap > 0 ? Math.min(n, cap) : n;
}
