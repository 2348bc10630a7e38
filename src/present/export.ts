// The shapes `agents export` prints (docs/json-output.md, docs/export.md): the files it wrote, the diff --dry-run
// shows, what --check found, and --stdout's file wrapped in a document. The command computes and writes; these say it.
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';
import { refusedEntry } from '../service/export-refusals.ts';
import type { ExportPlan } from '../service/export-plan.ts';
import type { FileChange } from '../service/export-targets.ts';

/** The JSON of `export --stdout` under --format json or yaml: the target's file as it is, with what it was made from. */
export function standaloneJson(target: string, from: { plan: string } | { project: string }, content: string) {
  return {
    target,
    plan: 'plan' in from ? from.plan : null,
    project: 'project' in from ? from.project : null,
    content,
  };
}

/** The JSON of `export --dry-run`: the files it would change, the diff, and the files it would leave alone. */
export function dryRunJson(plan: ExportPlan, diff: string) {
  return {
    changes: plan.changes.filter((c) => c.action !== 'unchanged').map((c) => ({ path: c.path, target: c.target, action: c.action })),
    diff,
    refused: plan.refused.map(refusedEntry),
  };
}

/** The text of `export --dry-run` when it would write nothing (else the diff itself is the text). */
export function dryRunNothingText(): string {
  return 'Every file is up to date; nothing to write.';
}

/** The JSON of `agents export`: the files written, how many were up to date, and the files left alone. */
export function writtenJson(plan: ExportPlan, written: readonly FileChange[]) {
  return {
    changes: written.map((c) => ({ path: c.path, target: c.target, action: c.action })),
    unchanged: plan.changes.length - written.length,
    refused: plan.refused.map(refusedEntry),
  };
}

export function writtenText(s: Style, plan: ExportPlan, written: readonly FileChange[]): string {
  const unchanged = plan.changes.length - written.length;
  const verb = { create: s.green('created'), update: s.green('updated'), delete: s.yellow('removed'), unchanged: 'unchanged' } as const;
  // A newline in a folder's name is shown as `\n`: each file stays one line.
  const lines = written.map((c) => `${verb[c.action]} ${escapeUnsafe(c.path)}`);
  lines.push(
    s.dim(`${written.length} file${written.length === 1 ? '' : 's'} written, ${unchanged} up to date (${plan.targets.join(', ')})`),
  );
  return lines.join('\n');
}

/** The JSON of `export --check` with nothing to check (no store, no targets), `why` saying which. */
export function nothingToCheckJson() {
  return { ok: true, files: [], up_to_date: 0 };
}

export function nothingToCheckText(why: string): string {
  return `${why}: nothing to check`;
}

/** A file `export --check` finds not up to date, and why (missing, out of date, obsolete, or a refusal's status). */
export interface CheckProblem {
  path: string;
  status: string;
  line: number | null;
  /** A block edited by hand: the unified diff `export --force` would apply to the file; else null. */
  diff: string | null;
}

/** The most lines of one file's diff --check prints as text; JSON holds it whole. */
export const CHECK_DIFF_LINES = 40;

/**
 * The files --check finds not up to date, sorted by path: the stale ones and the ones export would leave alone.
 * `diffOf` makes the unified diff of a hand-edited file's text now and what --force would write (the command's
 * module, which present does not import).
 */
export function checkProblems(
  plan: ExportPlan,
  diffOf?: (path: string, before: string, after: string | undefined) => string,
): CheckProblem[] {
  const stale = plan.changes.filter((c) => c.action !== 'unchanged');
  return [
    ...stale.map((c) => ({
      path: c.path,
      status: c.action === 'create' ? 'missing' : c.action === 'delete' || c.obsolete ? 'obsolete' : 'out of date',
      line: null,
      diff: null,
    })),
    ...plan.refused.map((r) => ({
      ...refusedEntry(r),
      diff: r.forced === undefined || diffOf === undefined ? null : diffOf(r.path, r.forced.before, r.forced.after) || null,
    })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The JSON of `export --check`. */
export function checkJson(plan: ExportPlan, problems: readonly CheckProblem[]) {
  const stale = plan.changes.filter((c) => c.action !== 'unchanged');
  return { ok: problems.length === 0, files: problems, up_to_date: plan.changes.length - stale.length };
}

/**
 * Each file as `PATH[:LINE]: STATUS`, a hand edit's diff indented below it, cut to CHECK_DIFF_LINES lines; `rerun`
 * is the export command as it was given its targets and project, which the cut line names with --dry-run --force.
 */
export function checkText(plan: ExportPlan, problems: readonly CheckProblem[], rerun = 'agents export'): string {
  if (problems.length === 0)
    return `${plan.changes.length} exported file${plan.changes.length === 1 ? '' : 's'} up to date (${plan.targets.join(', ')})`;
  return problems
    .flatMap((p) => [
      `${escapeUnsafe(p.path)}${p.line === null ? '' : `:${p.line}`}: ${p.status}`,
      ...(p.diff === null ? [] : diffLines(p.diff, rerun)),
    ])
    .join('\n');
}

/** A diff shown to eyes under its file's line: indented, line ends aside (no edit), and cut with the count left out. */
function diffLines(diff: string, rerun: string): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, CHECK_DIFF_LINES).map((l) => `  ${l.replace(/\r$/, '')}`);
  const left = lines.length - shown.length;
  if (left > 0) shown.push(`  … ${left} more line${left === 1 ? '' : 's'} of the diff (\`${rerun} --dry-run --force\` prints it whole)`);
  return shown;
}
