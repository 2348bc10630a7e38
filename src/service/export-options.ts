// The options of an export plan as a library caller hands them from JavaScript (docs/library.md).
import {
  inputObject,
  optionalBoolean,
  optionalFunction,
  optionalString,
  optionalStrings,
  requiredArray,
  requiredString,
} from '../core/input-shape.ts';
import { UsageError } from '../core/errors.ts';
import { leavesStore } from '../core/model-shape.ts';
import { classifyPath } from '../core/layout.ts';
import { quoteText } from '../core/plain-text.ts';
import { relative, sep } from 'node:path';
import { within } from './guard-paths.ts';
import { physicalPath } from './link-paths.ts';
import type { FileChange } from './export-targets.ts';

export interface ExportOptions {
  /** --target: overrides `export.targets` of config.yaml. */
  targets?: readonly string[];
  /** --project P: only P's files (reading only the scopes P needs). */
  project?: string;
  /** --force: replace blocks edited by hand. */
  force?: boolean;
  /** Told as each file is computed and compared, then as each is written (a progress display). */
  onProgress?: (phase: 'compute' | 'write', done: number, total: number) => void;
}

/** The options checked: one target given as a string, or `force: "no"`, is refused, never read by its truthiness. */
export function checkedExportOptions(given: ExportOptions | undefined): ExportOptions {
  const options = inputObject(given, 'plan', { targets: true, project: true, force: true, onProgress: true });
  const targets = optionalStrings(options.targets, 'targets');
  const project = optionalString(options.project, 'project');
  const force = optionalBoolean(options.force, 'force');
  const onProgress = optionalFunction(options.onProgress, 'onProgress');
  return {
    ...(targets !== undefined ? { targets } : {}),
    ...(project !== undefined ? { project } : {}),
    ...(force !== undefined ? { force } : {}),
    ...(onProgress !== undefined ? { onProgress } : {}),
  };
}

/**
 * A plan handed to `apply` as `plan()` returned it: another object, whose missing fields would fail deep inside
 * the writes, is refused by the field at fault before anything is written.
 */
export function checkPlanShape(
  plan: { top: string; changes: readonly FileChange[] },
  onProgress: ExportOptions['onProgress'],
  /** The store's folder (absolute): no instruction file goes into it. */
  store: string,
): void {
  optionalFunction(onProgress, 'onProgress');
  const given = inputObject(plan, 'apply', undefined, 'plan');
  const top = requiredString(given.top, 'top');
  // Where the store and the top really are, found once: each change's path is then followed alone.
  let inStore: string | undefined;
  let atTop: string | undefined;
  for (const change of requiredArray(given.changes, 'changes', 'of file changes')) {
    const c = inputObject(change as FileChange, 'each of changes', undefined, 'changes[]');
    // A path that climbs out of the repository (`../x`) or starts elsewhere (`/etc/x`), in a plan a caller rebuilt or
    // edited, was written there: `plan()` gives only paths below the top.
    // A path into git's own folder (`.git/hooks/pre-commit`) is no instruction file either: git would run what it holds.
    const path = requiredString(c.path, 'changes[].path');
    if (leavesStore(path) || path.split(/[\\/]/).some((part) => part.toLowerCase() === '.git')) throw outsideFiles(path);
    const action = requiredString(c.action, 'changes[].action');
    optionalString(c.before, 'changes[].before');
    const after = optionalString(c.after, 'changes[].after');
    // The writes go by `after` (none: the file is deleted): an action of another name, or a delete that holds a text,
    // would be written as a plan() never gives it.
    if (!(CHANGE_ACTIONS as readonly string[]).includes(action))
      throw notAsPlanned(`changes[].action must be one of ${CHANGE_ACTIONS.join(', ')}, not ${quoteText(action)}`, 'changes[].action', {
        allowed: [...CHANGE_ACTIONS],
      });
    // An unchanged file is not written: a plan the cache answered gives it no text.
    if (action !== 'unchanged' && (action === 'delete') !== (after === undefined))
      throw notAsPlanned(
        `changes[].after of ${quoteText(path)} ${action === 'delete' ? 'is a text, for a delete' : `is missing, for ${action}`}`,
        'changes[].after',
      );
    // Nor is one into the store, whose every file is read as the store's (an invariant of the caller's choosing): where
    // the write would land, through a link to the top or the store, or the store's name in capitals a forgiving file
    // system takes for it.
    // A store kept at the repository's top holds the instruction files of the top too: there only a path the store
    // reads as its own (config.yaml, global/…) is refused.
    inStore ??= physicalPath(store);
    const at = physicalPath(`${top}${sep}${path}`);
    if (
      within(inStore, at) &&
      (inStore !== (atTop ??= physicalPath(top)) || classifyPath(relative(inStore, at).split(sep).join('/')).kind !== 'unknown')
    )
      throw outsideFiles(path);
  }
}

/** What a change of `plan()` may do to its file. */
const CHANGE_ACTIONS = ['create', 'update', 'unchanged', 'delete'] as const satisfies readonly FileChange['action'][];

/** A change no plan() gives: refused by the field at fault, nothing written. */
function notAsPlanned(problem: string, field: string, more: Record<string, unknown> = {}): UsageError {
  return new UsageError(`apply: ${problem}`, 'Nothing was written. Apply a plan as plan() returned it.', { field, ...more });
}

function outsideFiles(path: string): UsageError {
  return new UsageError(
    `apply: changes[].path ${quoteText(path)} is outside the repository's files`,
    'Nothing was written. Apply a plan as plan() returned it: its paths are relative to its top, without "..".',
    { field: 'changes[].path', path },
  );
}
