// Which agents' instruction files an export writes: the targets asked for, checked by name.
import { closestNames, didYouMean } from './closest.ts';
import { UsageError } from './errors.ts';
import { EXPORT_TARGETS, type ExportTargetName, type StoreConfig } from './model.ts';
import { truncate } from './names.ts';

/**
 * The targets asked for: --target (each may be a comma list), else config.yaml; none is a usage error, whose hint
 * names the option by `option` (the command line's --target; the library's field when left out).
 */
export function chooseTargets(given: readonly string[] | undefined, config: StoreConfig, option = 'targets'): ExportTargetName[] {
  const asked = given !== undefined && given.length > 0;
  const names = asked
    ? given
        .flatMap((t) => t.split(','))
        .map((t) => t.trim())
        .filter((t) => t !== '')
    : [...(config.export.targets ?? [])];
  if (names.length === 0) {
    throw new UsageError(
      'no export targets chosen',
      // Targets given but blank (standalone's one target, --target ''): config.yaml was not asked, so not named.
      asked
        ? `Give ${option}: one of ${EXPORT_TARGETS.join(', ')}.`
        : `Give ${option} (one of ${EXPORT_TARGETS.join(', ')}), or list them under export.targets in config.yaml.`,
      undefined,
      'no-export-targets',
    );
  }
  for (const n of names) {
    if (!(EXPORT_TARGETS as readonly string[]).includes(n)) {
      const suggestions = closestNames(n, EXPORT_TARGETS);
      const guess = didYouMean(suggestions);
      throw new UsageError(
        `unknown export target "${truncate(n)}"${guess ? `; ${guess}` : ''}`,
        `Targets are ${EXPORT_TARGETS.join(', ')}; nothing was written.`,
        { target: n, suggestions, known: [...EXPORT_TARGETS] },
        'unknown-export-target',
      );
    }
  }
  return [...new Set(names as ExportTargetName[])].sort();
}

/**
 * The targets an export neither writes nor finds in config.yaml's list: a whole export takes their files' blocks back.
 * With no list, each run's --target is all there is, so none is dropped.
 */
export function droppedTargets(targets: readonly ExportTargetName[], listed: readonly ExportTargetName[]): ExportTargetName[] {
  return listed.length === 0 ? [] : EXPORT_TARGETS.filter((t) => !targets.includes(t) && !listed.includes(t));
}
