/**
 * The library API for agent runtimes that embed `agents`: open a store, add,
 * list, resolve and remove invariants, with the same rules as the CLI.
 */
import { refuseArgs } from './core/input-shape.ts';
import {
  WorkingTreeSource as WorkingTreeSourceUnchecked,
  type ReadResult,
  type TreeEntry,
  type WorkingTreeOptions,
} from './store/tree-source.ts';
import { leavesStore, LIST_OPTIONS, WORKING_TREE_OPTIONS } from './core/model-shape.ts';

export {
  InvariantService,
  toScope,
  type AddInput,
  type AddResult,
  type EditInput,
  type EditResult,
  type MoveResult,
  type RemoveResult,
  type NearMatch,
  type ListOptions,
  type ListedInvariant,
  type ListResult,
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
export type { ServiceDeps, ServiceDepsInput } from './service/deps.ts';
// The types the fields of the public types name, so that a caller's code can name what it reads (an error's
// exitCode, a config's extends), and a declaration file inferred from it names no path inside the package (TS2883).
export type { ExitCode, CommandHint } from './core/errors.ts';
export type { Parsed, RelatedLocation } from './core/diagnostics.ts';
export type { ExtendsSource, ImportedFrom, ModelActorConfig } from './core/model.ts';
export type { EntryType } from './store/tree-source.ts';
export type { WorkingTreeOptions };
export type { RecordKind } from './core/layout.ts';
export type { ActorKind, ActorResult, RecordValue } from './core/record-types.ts';
export type { ActorRequestInvariant, DriftKind, Reconciliation } from './core/records.ts';
export type { NearStats } from './core/near-duplicates.ts';
export type { ChangedMeta, EntryEdit, InvariantField, ShadowChange, SideShape } from './core/diff.ts';
export type { IdFileChange } from './core/id-files.ts';
export type { WaiverField, WaiverFieldChange } from './core/diff-meta.ts';
export type { PolicyMove } from './service/review-extends.ts';
export type { ExportInput, ExportProject, RenderedEntries } from './core/export.ts';
export type { Merge, RefusalReason } from './core/export-merge.ts';
export type { Digested, ExpiredWaiver, GateInvariant } from './core/plan-gate.ts';
export type { AddCheck, ShadowInfo } from './core/shadow.ts';
export type { EffectiveEntry, ShadowRef } from './core/resolve.ts';
// IdAbbreviations checks its own arguments: InvariantService.abbreviations() answers it, under this one name.
export { IdAbbreviations, type PrefixMatch } from './core/id-prefix.ts';
import { IdAbbreviations } from './core/id-prefix.ts';
export type { NearDuplicate, NearKind } from './core/near-duplicates.ts';
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
export { AgentsError, CancelledError, EXIT_CODES, UsageError, CheckFailedError, InvalidStoreError } from './core/errors.ts';
import { AgentsError, UsageError } from './core/errors.ts';
import { InvariantService } from './service/invariant-service.ts';
import { PlanService } from './service/plan-service.ts';
export type { TreeSource, TreeEntry, ReadResult } from './store/tree-source.ts';
export {
  PlanService,
  type UseInput,
  type UseResult,
  type PlanShow,
  type StrategizeResult,
  type PlanStatus,
  type ViolationInput,
  type ListedViolation,
  type SyncOptions,
  type SyncResult,
  type WaiveInput,
} from './service/plan-service.ts';
export { ScopeService, type ActionList, type ActionSummary, type ProjectSummary } from './service/scope-service.ts';
export type { Waiver, ScopedWaiver, WaiverScope } from './core/waivers.ts';
export { commandActor, type Actor, type CommandActorConfig } from './enforce/actors.ts';
export type {
  DecisionNode,
  DecisionTreeNode,
  EnforcementRecord,
  EnforcementRun,
  Violation,
  ActorRequest,
  ActorResponse,
  ActorOutcome,
  DriftItem,
  SyncChange,
  SyncSkip,
} from './core/records.ts';
export {
  ExportService,
  type ExportOptions,
  type ExportPlan,
  type FileChange,
  type Refusal,
} from './service/export-service.ts';
export { TARGETS, type ExportFile, type ExportSection, type TargetSpec } from './core/export.ts';
export type { ProjectsRead } from './store/projects.ts';
export type { ProjectMeta, ExportTargetName, ExportConfig } from './core/model.ts';
export {
  ReviewService,
  type DiffRequest,
  type DiffResult,
  type SideInfo,
  type LogResult,
  type LogEvent,
} from './service/review-service.ts';
export type {
  StoreDiff,
  DiffSide,
  DiffTargetOptions,
  TargetDiff,
  TargetRef,
  InvariantChange,
  PlanChange,
  FieldChange,
  WaiverChange,
  ProjectPathsChange,
} from './core/diff.ts';
export type { Written, Committed } from './service/commit.ts';
export {
  RELAXABLE,
  type GateFacts,
  type GateOptions,
  type GateReason,
  type GateReasonCode,
  type RelaxableReason,
  type GateVerdict,
  type CommittedRun,
} from './core/plan-gate.ts';
export type { UnsafeText, PlainTextDocument } from './core/plain-text.ts';

// Each public function refuses an argument of the wrong type from JavaScript with a UsageError naming it (docs/library.md).
export {
  checkNewInvariant,
  resolveEffective,
  appliesTo,
  textKey,
  resolvePrefix,
  pickId,
  shortestUniquePrefix,
  findNearDuplicates,
  nearDuplicatesOf,
  nearPairs,
  nearKind,
  looseKey,
  canMeet,
  waivedAt,
  waiverHolds,
  waiverExpiry,
  waiversForPlan,
  parseRecord,
  parseDecision,
  parseEnforcement,
  parseViolation,
  parseActorAnswer,
  buildActorRequest,
  buildDecisionTree,
  computeDrift,
  planSync,
  standingViolations,
  reconcile,
  chooseTargets,
  planExport,
  renderSections,
  mergeBlock,
  globMatches,
  globHoldsFolder,
  globProblem,
  readProjects,
  projectsHoldingFolder,
  repositoryTop,
  diffStores,
  diffTarget,
  diffInvariantFiles,
  affectedTargets,
  withCommit,
  commitWanted,
  judgePlan,
  committedRuns,
  setDigestInput,
  invariantDigestInput,
  setChanges,
  escapeUnsafe,
  findUnsafeText,
  quoteText,
} from './service/checked-functions.ts';

/**
 * The tree source a library caller builds, its arguments checked as the functions' are (docs/library.md): refused by
 * name, never a TypeError from the walk, nor a path read as its characters. The tool's own code builds the unchecked
 * class, which this extends.
 */
export class WorkingTreeSource extends WorkingTreeSourceUnchecked {
  constructor(root: string, options?: WorkingTreeOptions) {
    refuseArgs('WorkingTreeSource', ['root: string', 'options: object?'], [root, options], { options: WORKING_TREE_OPTIONS });
    super(root, options ?? {});
  }

  // async: a refusal is the promise's, as the unchecked methods' failures are.
  override async list(dir: string, options?: { recursive?: boolean }): Promise<TreeEntry[]> {
    refuseArgs('WorkingTreeSource.list', ['dir: string', 'options: object?'], [dir, options], { options: LIST_OPTIONS });
    refuseOutside('list', 'dir', [dir]);
    return super.list(dir, options ?? {});
  }

  override async read(paths: readonly string[]): Promise<Map<string, ReadResult>> {
    // One path given bare would be read as its characters, each a path.
    refuseArgs('WorkingTreeSource.read', ['paths: strings'], [paths]);
    refuseOutside('read', 'paths', paths);
    return super.read(paths);
  }
}

/** A source reads its store only: a path that climbs out of it (`..`) or starts elsewhere (`/etc`) is refused. */
function refuseOutside(method: string, argument: 'dir' | 'paths', paths: readonly string[]): void {
  const at = paths.findIndex(leavesStore);
  if (at < 0) return;
  const hint = 'Name paths relative to the store folder, without "..".';
  // The argument by name, as every other refusal of an argument gives it: the item of a list by its index.
  const field = argument === 'dir' ? 'dir' : `paths[${at}]`;
  throw new UsageError(`WorkingTreeSource.${method}: ${field} "${paths[at]}" is outside the store`, hint, { field });
}

// The names a caller sees (a class's name, console.log of a service or of an error): the bundler renames a class named
// in its own body (`_PlanService`) or defined twice in one bundle (`IdAbbreviations2`).
for (const [cls, name] of [
  [AgentsError, 'AgentsError'],
  [InvariantService, 'InvariantService'],
  [PlanService, 'PlanService'],
  [IdAbbreviations, 'IdAbbreviations'],
  [WorkingTreeSource, 'WorkingTreeSource'],
] as const)
  Object.defineProperty(cls, 'name', { value: name });
