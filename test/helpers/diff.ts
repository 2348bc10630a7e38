import type { TargetDiff } from '../../src/core/diff.ts';

/** A target diff with nothing in it, `extra` set over it: for toEqual on whole results and for reports built by hand. */
export function emptyTargetDiff(target: TargetDiff['target'], extra: Partial<TargetDiff> = {}): TargetDiff {
  return {
    target,
    existsBefore: true,
    existsAfter: true,
    countBefore: 0,
    countAfter: 0,
    entered: [],
    left: [],
    newlyShadowed: [],
    noLongerShadowed: [],
    changed: [],
    ...extra,
  };
}
