import { checkDuplicates } from './duplicates.ts';
import type { Check } from './context.ts';
import { checkGuardWrites } from './guard-writes.ts';
import { checkLayout } from './layout.ts';
import { checkLocks } from './locks.ts';
import { checkModelines } from './modelines.ts';
import { checkNearDuplicates } from './near-duplicates.ts';
import { checkOverrideReach, checkOverrides } from './overrides.ts';
import { checkProjectPaths } from './project-paths.ts';
import { checkReferences } from './references.ts';
import { checkSchemaCopies } from './schema-copies.ts';
import { checkShadows } from './shadows.ts';
import { checkWaivers } from './waivers.ts';

/**
 * The whole-store checks of `agents validate`, in the order they run, each
 * with the diagnostic codes it can emit. The checks of one file on its own
 * (reading, YAML, schema, ids in the file) run before these, file by file
 * (check-file.ts), and the locked-invariant checks after (locked.ts).
 * Listing checks need only the paths of the tree; content checks need the
 * files' facts.
 */
export const CHECKS: readonly Check[] = [
  {
    name: 'layout',
    codes: ['unknown-path', 'bad-name', 'plan-missing', 'temporary-file', 'symlink'],
    stage: 'listing',
    run: (c) => checkLayout(c.entries, c.kinds, c.options.touches, c.options.temporaryWriter),
  },
  { name: 'locks', codes: ['bad-lock', 'stale-lock'], stage: 'listing', run: (c) => checkLocks(c.source, c.entries, c.kinds, c.options) },
  {
    name: 'schema-copies',
    // A copy that cannot be read is said as the reader says it.
    codes: ['schema-outdated', 'symlink', 'not-a-file', 'file-too-large', 'file-unreadable'],
    stage: 'content',
    run: (c) => checkSchemaCopies(c.source, c.tree, c.entries, c.cache),
  },
  // checkIds (ids.ts) also finds the ids in use, which later checks and the report need: it runs once, through the context.
  { name: 'ids', codes: ['id-reused'], stage: 'content', pure: true, run: (c) => c.ids().diagnostics },
  {
    name: 'duplicates',
    codes: ['duplicate-text'],
    stage: 'content',
    pure: true,
    run: async (c) => checkDuplicates(await c.shared(), c.located),
  },
  {
    name: 'shadows',
    codes: ['shadowed'],
    stage: 'content',
    pure: true,
    run: async (c) => checkShadows(await c.shared(), c.plans, c.located),
  },
  {
    name: 'overrides',
    codes: ['overrides-unknown', 'overrides-text'],
    stage: 'content',
    // An override of an inherited invariant names a copy outside the store: memoized under its digest.
    pure: (c) => c.options.inheritedKeys === undefined || c.options.inheritedDigest !== undefined,
    run: (c) => checkOverrides(c.jobs, c.facts, c.located, c.options.inheritedKeys),
  },
  {
    name: 'override-reach',
    codes: ['overrides-unmet'],
    stage: 'content',
    pure: true,
    run: async (c) => checkOverrideReach(await c.shared(), c.plans, c.located, c.jobs),
  },
  {
    name: 'near-duplicates',
    codes: ['near-duplicate'],
    stage: 'content',
    // A text of the store may nearly repeat an inherited one, which lives outside the store: memoized under its digest.
    pure: (c) => c.options.inheritedTexts === undefined || c.options.inheritedDigest !== undefined,
    run: (c) => checkNearDuplicates(c.jobs, c.facts, c.plans, c.located, c.options.touches, c.options.inheritedTexts),
  },
  {
    name: 'references',
    codes: ['unknown-action', 'unknown-project', 'unknown-origin'],
    stage: 'content',
    // A plan promoted from a policy source's template names an origin that lives in the source's fetched copy, outside
    // the store: only a store that extends none has findings that depend on its own files alone.
    pure: (c) => c.options.sourceActionIds === undefined,
    run: (c) =>
      checkReferences(c.storeConfig, c.jobs, c.facts, c.plans, c.entries, () => c.ids().invariantIds, c.located, c.options.sourceActionIds),
  },
  {
    name: 'waivers',
    codes: ['waiver-expired', 'waiver-permanent', 'unknown-invariant', 'waiver-not-applicable'],
    stage: 'content',
    run: (c) => checkWaivers(c.jobs, c.facts, c.entries, () => c.ids(), c.located, c.options.now, c.options.inheritedKeys),
  },
  {
    name: 'modelines',
    codes: ['modeline-missing'],
    stage: 'content',
    run: (c) => checkModelines(c.jobs, c.facts, c.found, c.options.touches),
  },
  {
    name: 'project-paths',
    codes: ['project-paths-overlap', 'project-path-unmatched'],
    stage: 'content',
    run: (c) => checkProjectPaths(c.storeConfig, c.jobs, c.facts, c.located, c.options),
  },
  {
    name: 'guard-writes',
    codes: ['guard-write-folder', 'guard-write-outside-project'],
    stage: 'content',
    run: (c) => checkGuardWrites(c.jobs, c.facts, c.located, c.options),
  },
];
