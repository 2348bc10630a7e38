/**
 * The library's pure functions and helpers as a caller from JavaScript gets them (src/index.ts exports them under the
 * same names): each refuses an argument of the wrong type with a UsageError naming it (docs/library.md), and a
 * callback's answer of the wrong type likewise, instead of a TypeError deep inside or a wrong result.
 */
import { checkedAnswer, checkedArgs, refuseArgs } from '../core/input-shape.ts';
import type { ScopedInvariant, Target } from '../core/model.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { checkedTreeSource } from '../store/tree-source-check.ts';
import {
  ACTION_INVARIANTS,
  CHANGED,
  COMMIT_OPTIONS,
  CONFIG,
  DECISIONS,
  DIFF_OPTIONS,
  DIGESTED,
  DOCUMENT,
  each,
  ENFORCEMENT,
  ENFORCEMENT_RECORDS,
  ESCAPE_OPTIONS,
  EXPIRING,
  EXPORT_INPUT,
  GATE_FACTS,
  GATE_INVARIANTS,
  GATE_OPTIONS,
  INVARIANT,
  INVARIANTS,
  NEAR_OTHERS,
  NEAR_STATS,
  OUTCOME,
  PLAN,
  PLAN_TARGET,
  PLANS,
  PROJECT_METAS,
  PROJECT_NAMES,
  RECORD_KIND,
  SCOPE,
  SCOPED,
  SCOPED_WAIVERS,
  SECTIONS,
  SIDE,
  SIDE_SHAPE,
  TARGET,
  TARGET_REFS,
  TEXTUAL,
  WRITTEN,
  VIOLATION_STATES,
  WAIVERS,
} from '../core/model-shape.ts';
import { checkNewInvariant as checkNewInvariantUnchecked } from '../core/shadow.ts';
import { resolveEffective as resolveEffectiveUnchecked, appliesTo as appliesToUnchecked } from '../core/resolve.ts';
import { textKey as textKeyUnchecked } from '../core/normalise.ts';
import {
  resolvePrefix as resolvePrefixUnchecked,
  pickId as pickIdUnchecked,
  shortestUniquePrefix as shortestUniquePrefixUnchecked,
} from '../core/id-prefix.ts';
import {
  findNearDuplicates as findNearDuplicatesUnchecked,
  nearDuplicatesOf as nearDuplicatesOfUnchecked,
  nearPairs as nearPairsUnchecked,
  nearKind as nearKindUnchecked,
  looseKey as looseKeyUnchecked,
  canMeet as canMeetUnchecked,
} from '../core/near-duplicates.ts';
import {
  waivedAt as waivedAtUnchecked,
  waiverHolds as waiverHoldsUnchecked,
  waiverExpiry as waiverExpiryUnchecked,
  waiversForPlan as waiversForPlanUnchecked,
} from '../core/waivers.ts';
import {
  parseRecord as parseRecordUnchecked,
  parseDecision as parseDecisionUnchecked,
  parseEnforcement as parseEnforcementUnchecked,
  parseViolation as parseViolationUnchecked,
} from '../core/record-parse.ts';
import {
  parseActorAnswer as parseActorAnswerUnchecked,
  buildActorRequest as buildActorRequestUnchecked,
  buildDecisionTree as buildDecisionTreeUnchecked,
  computeDrift as computeDriftUnchecked,
  planSync as planSyncUnchecked,
  standingViolations as standingViolationsUnchecked,
  reconcile as reconcileUnchecked,
} from '../core/records.ts';
import { chooseTargets as chooseTargetsUnchecked } from '../core/export-choice.ts';
import { planExport as planExportUnchecked, renderSections as renderSectionsUnchecked } from '../core/export.ts';
import { mergeBlock as mergeBlockUnchecked } from '../core/export-merge.ts';
import {
  globMatches as globMatchesUnchecked,
  globHoldsFolder as globHoldsFolderUnchecked,
  globProblem as globProblemUnchecked,
} from '../core/globs.ts';
import {
  readProjects as readProjectsUnchecked,
  projectsHoldingFolder as projectsHoldingFolderUnchecked,
  repositoryTop as repositoryTopUnchecked,
} from '../store/projects.ts';
import {
  diffStores as diffStoresUnchecked,
  diffTarget as diffTargetUnchecked,
  diffInvariantFiles as diffInvariantFilesUnchecked,
  affectedTargets as affectedTargetsUnchecked,
  type DiffSide,
  type DiffTargetOptions,
  type TargetRef,
} from '../core/diff.ts';
import { withCommit as withCommitUnchecked, commitWanted as commitWantedUnchecked, type Written } from './commit.ts';
import {
  judgePlan as judgePlanUnchecked,
  committedRuns as committedRunsUnchecked,
  setDigestInput as setDigestInputUnchecked,
  invariantDigestInput as invariantDigestInputUnchecked,
  setChanges as setChangesUnchecked,
} from '../core/plan-gate.ts';
import {
  escapeUnsafe as escapeUnsafeUnchecked,
  findUnsafeText as findUnsafeTextUnchecked,
  quoteText as quoteTextUnchecked,
} from '../core/plain-text.ts';

export const checkNewInvariant = checkedArgs(
  'checkNewInvariant',
  checkNewInvariantUnchecked,
  ['scope: object', 'text: string', 'others: objects', 'plans: map'],
  { scope: SCOPE, others: INVARIANTS, plans: PLANS },
);
export const resolveEffective = checkedArgs(
  'resolveEffective',
  function resolveEffective(target: Target, invariants: readonly ScopedInvariant[], keyOf?: (inv: ScopedInvariant) => string) {
    return resolveEffectiveUnchecked(target, invariants, keyOf && checkedAnswer('resolveEffective', 'keyOf', 'string', keyOf));
  },
  ['target: object', 'invariants: objects', 'keyOf: function?'],
  { target: TARGET, invariants: INVARIANTS },
);
export const appliesTo = checkedArgs('appliesTo', appliesToUnchecked, ['invariant: object', 'target: object'], {
  invariant: INVARIANT,
  target: TARGET,
});
export const textKey = checkedArgs('textKey', textKeyUnchecked, ['text: string']);
export const resolvePrefix = checkedArgs('resolvePrefix', resolvePrefixUnchecked, ['prefix: string', 'ids: iterable']);
export const pickId = checkedArgs(
  'pickId',
  function pickId(prefix: string, ids: Iterable<string>, what: string, hint: string, describe?: (id: string) => string) {
    return pickIdUnchecked(prefix, ids, what, hint, describe && checkedAnswer('pickId', 'describe', 'string', describe));
  },
  ['prefix: string', 'ids: iterable', 'what: string', 'hint: string', 'describe: function?'],
);
export const shortestUniquePrefix = checkedArgs('shortestUniquePrefix', shortestUniquePrefixUnchecked, [
  'id: string',
  'ids: iterable',
  'min: integer?',
]);
export const findNearDuplicates = checkedArgs('findNearDuplicates', findNearDuplicatesUnchecked, ['invariants: objects', 'plans: map'], {
  invariants: INVARIANTS,
  plans: PLANS,
});
export const nearDuplicatesOf = checkedArgs('nearDuplicatesOf', nearDuplicatesOfUnchecked, ['text: string', 'others: objects'], {
  others: NEAR_OTHERS,
});
export const nearPairs = checkedArgs('nearPairs', nearPairsUnchecked, ['keys: strings', 'stats: object?'], { stats: NEAR_STATS });
export const nearKind = checkedArgs('nearKind', nearKindUnchecked, ['a: object', 'b: object'], { a: TEXTUAL, b: TEXTUAL });
export const looseKey = checkedArgs('looseKey', looseKeyUnchecked, ['text: string']);
export const canMeet = checkedArgs('canMeet', canMeetUnchecked, ['a: object', 'b: object', 'plans: map'], {
  a: SCOPED,
  b: SCOPED,
  plans: PLANS,
});
export const waivedAt = checkedArgs('waivedAt', waivedAtUnchecked, ['waivers: objects', 'now: date'], { waivers: WAIVERS });
export const waiverHolds = checkedArgs('waiverHolds', waiverHoldsUnchecked, ['waiver: object', 'now: date'], { waiver: EXPIRING });
export const waiverExpiry = checkedArgs('waiverExpiry', waiverExpiryUnchecked, ['expires: string']);
export const waiversForPlan = checkedArgs('waiversForPlan', waiversForPlanUnchecked, ['waivers: objects', 'plan: object'], {
  waivers: SCOPED_WAIVERS,
  plan: PLAN_TARGET,
});
export const parseRecord = checkedArgs(
  'parseRecord',
  parseRecordUnchecked,
  ['kind: string', 'file: string', 'bytes: bytes', 'id: string'],
  { kind: RECORD_KIND },
);
export const parseDecision = checkedArgs('parseDecision', parseDecisionUnchecked, ['file: string', 'bytes: bytes', 'id: string']);
export const parseEnforcement = checkedArgs('parseEnforcement', parseEnforcementUnchecked, ['file: string', 'bytes: bytes', 'id: string']);
export const parseViolation = checkedArgs('parseViolation', parseViolationUnchecked, ['file: string', 'bytes: bytes', 'id: string']);
export const parseActorAnswer = checkedArgs('parseActorAnswer', parseActorAnswerUnchecked, ['stdout: string']);
export const buildActorRequest = checkedArgs(
  'buildActorRequest',
  buildActorRequestUnchecked,
  ['plan: object', 'context: string-or-null', 'invariants: objects'],
  { plan: PLAN, invariants: INVARIANTS },
);
export const buildDecisionTree = checkedArgs('buildDecisionTree', buildDecisionTreeUnchecked, ['nodes: objects'], { nodes: DECISIONS });
export const computeDrift = checkedArgs(
  'computeDrift',
  computeDriftUnchecked,
  ['plan: object', 'planInvariants: objects', 'actionInvariants: map'],
  { plan: PLAN, planInvariants: INVARIANTS, actionInvariants: ACTION_INVARIANTS },
);
export const planSync = checkedArgs('planSync', planSyncUnchecked, ['plan: object', 'planInvariants: objects', 'actionInvariants: map'], {
  plan: PLAN,
  planInvariants: INVARIANTS,
  actionInvariants: ACTION_INVARIANTS,
});
export const standingViolations = checkedArgs('standingViolations', standingViolationsUnchecked, ['violations: objects', 'waived: map'], {
  violations: VIOLATION_STATES,
});
export const reconcile = checkedArgs('reconcile', reconcileUnchecked, ['invariantIds: strings', 'outcome: object', 'decisionId: string'], {
  outcome: OUTCOME,
});
export const chooseTargets = checkedArgs('chooseTargets', chooseTargetsUnchecked, ['given: strings?', 'config: object'], {
  config: CONFIG,
});
export const planExport = checkedArgs('planExport', planExportUnchecked, ['input: object'], { input: EXPORT_INPUT });
export const renderSections = checkedArgs(
  'renderSections',
  renderSectionsUnchecked,
  ['sections: objects', 'storeRel: string', 'rendered: map?'],
  { sections: SECTIONS },
);
export const mergeBlock = checkedArgs(
  'mergeBlock',
  function mergeBlock(
    current: string | undefined,
    frontMatter: string | undefined,
    inner: string,
    hash: (s: string) => string,
    force: boolean,
  ) {
    return mergeBlockUnchecked(current, frontMatter, inner, checkedAnswer('mergeBlock', 'hash', 'string', hash), force);
  },
  ['current: string?', 'frontMatter: string?', 'inner: string', 'hash: function', 'force: boolean'],
);
export const globMatches = checkedArgs('globMatches', globMatchesUnchecked, ['glob: string', 'path: string']);
export const globHoldsFolder = checkedArgs('globHoldsFolder', globHoldsFolderUnchecked, ['glob: string', 'dir: string']);
export const globProblem = checkedArgs('globProblem', globProblemUnchecked, ['glob: string']);
export const readProjects = checkedArgs(
  'readProjects',
  async function readProjects(source: TreeSource, names?: readonly string[]) {
    return readProjectsUnchecked(checkedTreeSource('readProjects', source), names);
  },
  ['source: tree-source', 'names: strings?'],
  {
    names: PROJECT_NAMES,
  },
);
export const projectsHoldingFolder = checkedArgs('projectsHoldingFolder', projectsHoldingFolderUnchecked, ['meta: map', 'dir: string'], {
  meta: PROJECT_METAS,
});
export const repositoryTop = checkedArgs('repositoryTop', repositoryTopUnchecked, ['storeRoot: string']);
export const diffStores = checkedArgs(
  'diffStores',
  diffStoresUnchecked,
  ['changed: object', 'before: object', 'after: object', 'targets: objects'],
  { changed: CHANGED, before: SIDE, after: SIDE, targets: TARGET_REFS },
);
export const diffTarget = checkedArgs(
  'diffTarget',
  function diffTarget(target: TargetRef, before: DiffSide, after: DiffSide, options: DiffTargetOptions = {}) {
    const keyOf = options.keyOf && checkedAnswer('diffTarget', 'options.keyOf', 'string', options.keyOf);
    return diffTargetUnchecked(target, before, after, keyOf ? { ...options, keyOf } : options);
  },
  ['target: object', 'before: object', 'after: object', 'options: object?'],
  { target: TARGET, before: SIDE, after: SIDE, options: DIFF_OPTIONS },
);
export const diffInvariantFiles = checkedArgs('diffInvariantFiles', diffInvariantFilesUnchecked, ['before: objects', 'after: objects'], {
  before: INVARIANTS,
  after: INVARIANTS,
});
export const affectedTargets = checkedArgs(
  'affectedTargets',
  affectedTargetsUnchecked,
  ['changedPaths: iterable', 'before: object', 'after: object'],
  { before: SIDE_SHAPE, after: SIDE_SHAPE },
);
export const withCommit = checkedArgs(
  'withCommit',
  // What a caller's write answers is checked before it is committed: its files are written, nothing is committed yet.
  async function withCommit<T extends object>(
    root: string,
    enabled: boolean,
    // A caller's write may answer at once: it is awaited either way.
    write: () => Written<T> | PromiseLike<Written<T>>,
    options?: { notice?: (message: string) => void },
  ) {
    const checkedWrite = async () => {
      const done = await write();
      refuseArgs('withCommit', ['write(): object'], [done], { 'write()': WRITTEN });
      return done;
    };
    return withCommitUnchecked<T>(root, enabled, checkedWrite, options);
  },
  ['root: string', 'enabled: boolean', 'write: function', 'options: object?'],
  { options: COMMIT_OPTIONS },
);
export const commitWanted = checkedArgs(
  'commitWanted',
  async function commitWanted(source: TreeSource, flag: boolean | undefined) {
    return commitWantedUnchecked(checkedTreeSource('commitWanted', source), flag);
  },
  ['source: tree-source'],
);
export const judgePlan = checkedArgs('judgePlan', judgePlanUnchecked, ['facts: object', 'options: object?'], {
  facts: GATE_FACTS,
  options: GATE_OPTIONS,
});
export const committedRuns = checkedArgs('committedRuns', committedRunsUnchecked, ['decisions: objects', 'enforcement: objects'], {
  decisions: DECISIONS,
  enforcement: ENFORCEMENT,
});
export const setDigestInput = checkedArgs('setDigestInput', setDigestInputUnchecked, ['effective: objects'], { effective: each(DIGESTED) });
export const invariantDigestInput = checkedArgs('invariantDigestInput', invariantDigestInputUnchecked, ['invariant: object'], {
  invariant: DIGESTED,
});
export const setChanges = checkedArgs('setChanges', setChangesUnchecked, ['effective: objects', 'records: objects'], {
  effective: GATE_INVARIANTS,
  records: ENFORCEMENT_RECORDS,
});
export const escapeUnsafe = checkedArgs('escapeUnsafe', escapeUnsafeUnchecked, ['text: string', 'options: object?'], {
  options: ESCAPE_OPTIONS,
});
export const findUnsafeText = checkedArgs('findUnsafeText', findUnsafeTextUnchecked, ['document: string'], { document: DOCUMENT });
export const quoteText = checkedArgs('quoteText', quoteTextUnchecked, ['text: string']);
