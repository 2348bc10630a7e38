// The options of an export plan as a library caller hands them from JavaScript (docs/library.md).
import { inputObject, optionalBoolean, optionalFunction, optionalString, optionalStrings } from '../core/input-shape.ts';

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
  const options = inputObject(given, 'plan');
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
