/**
 * The library API for agent runtimes that embed `agents`: open a store, add,
 * list, resolve and remove invariants, with the same rules as the CLI.
 */
export {
  InvariantService,
  toScope,
  type AddInput,
  type AddResult,
  type EditInput,
  type EditResult,
  type MoveResult,
  type NearMatch,
  type ListOptions,
  type ListedInvariant,
  type EffectiveResult,
  type WaiverState,
  type ShowResult,
  type OpenOptions,
  type ScopeInput,
  type AddContext,
  type ScopeCatalog,
  type KeptProject,
} from './service/invariant-service.ts';
// The types of the options and results above that a caller may want to name: the services' `deps`, a guard, a shadow.
export type { ServiceDeps } from './service/deps.ts';
export { checkNewInvariant, type AddCheck, type ShadowInfo } from './core/shadow.ts';
export { resolveEffective, appliesTo, type EffectiveEntry, type ShadowRef } from './core/resolve.ts';
export { textKey } from './core/normalise.ts';
export { resolvePrefix, pickId, IdAbbreviations, shortestUniquePrefix, type PrefixMatch } from './core/id-prefix.ts';
export {
  findNearDuplicates,
  nearDuplicatesOf,
  nearPairs,
  nearKind,
  looseKey,
  canMeet,
  type NearDuplicate,
  type NearKind,
} from './core/near-duplicates.ts';
export type {
  Invariant,
  ScopedInvariant,
  Scope,
  ScopeKind,
  Severity,
  Plan,
  Target,
  StoreConfig,
  InvariantSource,
  Guard,
} from './core/model.ts';
export type { Diagnostic, DiagnosticCode } from './core/diagnostics.ts';
export { AgentsError, EXIT_CODES, UsageError, CheckFailedError, InvalidStoreError } from './core/errors.ts';
export { WorkingTreeSource, type TreeSource, type TreeEntry, type ReadResult } from './store/tree-source.ts';
export {
  PlanService,
  type UseInput,
  type UseResult,
  type PlanShow,
  type StrategizeResult,
  type PlanStatus,
  type ViolationInput,
  type ListedViolation,
  type SyncResult,
  type WaiveInput,
} from './service/plan-service.ts';
export { ScopeService, type ActionSummary, type ProjectSummary } from './service/scope-service.ts';
export { waivedAt, waiverHolds, waiverExpiry, waiversForPlan, type Waiver, type ScopedWaiver, type WaiverScope } from './core/waivers.ts';
export { commandActor, type Actor, type CommandActorConfig } from './enforce/actors.ts';
export { parseRecord, parseDecision, parseEnforcement, parseViolation } from './core/record-parse.ts';
export {
  parseActorAnswer,
  buildActorRequest,
  buildDecisionTree,
  computeDrift,
  planSync,
  standingViolations,
  reconcile,
  type DecisionNode,
  type DecisionTreeNode,
  type EnforcementRecord,
  type EnforcementRun,
  type Violation,
  type ActorRequest,
  type ActorResponse,
  type ActorOutcome,
  type DriftItem,
  type SyncChange,
  type SyncSkip,
} from './core/records.ts';
export { chooseTargets } from './core/export-choice.ts';
export {
  ExportService,
  type ExportOptions,
  type ExportPlan,
  type FileChange,
  type Refusal,
} from './service/export-service.ts';
export { planExport, renderSections, mergeBlock, TARGETS, type ExportFile, type ExportSection, type TargetSpec } from './core/export.ts';
export { globMatches, globHoldsFolder, globProblem } from './core/globs.ts';
export { readProjects, projectsHoldingFolder, repositoryTop, type ProjectsRead } from './store/projects.ts';
export type { ProjectMeta, ExportTargetName, ExportConfig } from './core/model.ts';
export {
  ReviewService,
  type DiffRequest,
  type DiffResult,
  type SideInfo,
  type LogResult,
  type LogEvent,
} from './service/review-service.ts';
export {
  diffStores,
  diffTarget,
  diffInvariantFiles,
  affectedTargets,
  type StoreDiff,
  type DiffSide,
  type DiffTargetOptions,
  type TargetDiff,
  type TargetRef,
  type InvariantChange,
  type PlanChange,
  type FieldChange,
  type WaiverChange,
  type ProjectPathsChange,
} from './core/diff.ts';
export { withCommit, commitWanted, type Written, type Committed } from './service/commit.ts';
export {
  judgePlan,
  committedRuns,
  setDigestInput,
  invariantDigestInput,
  setChanges,
  RELAXABLE,
  type GateFacts,
  type GateOptions,
  type GateReason,
  type GateReasonCode,
  type RelaxableReason,
  type GateVerdict,
  type CommittedRun,
} from './core/plan-gate.ts';
export { escapeUnsafe, findUnsafeText, quoteText, type UnsafeText, type PlainTextDocument } from './core/plain-text.ts';
