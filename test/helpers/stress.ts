/**
 * Scale of the stress tests (racing writers, kill campaigns, fuzzing). `npm test`
 * runs them at a scale that still races and still kills at random points;
 * `npm run test:stress` sets AGENTS_STRESS=1 and runs them at full scale (see CONTRIBUTING.md).
 */
export const STRESS = process.env.AGENTS_STRESS === '1';

/** `full` under `npm run test:stress`, `quick` in `npm test`. */
export function scale(full: number, quick: number): number {
  return STRESS ? full : quick;
}
