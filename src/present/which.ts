// The shape `agents which` prints (docs/json-output.md): each path asked about with the projects whose paths hold it.
import { escapeUnsafe } from '../core/plain-text.ts';
import type { Style } from '../core/style.ts';

/** One path of `agents which`: repository-relative (`.` for the top) and the projects it is in, none or more. */
export interface WhichRow {
  path: string;
  projects: string[];
}

/** The JSON of `agents which`: the rows as they are. */
export function whichJson(rows: readonly WhichRow[]): readonly WhichRow[] {
  return rows;
}

/** One line a path: a newline in a file's name is shown as `\n`, or the rest of it would read as a path of its own. */
export function whichText(s: Style, rows: readonly WhichRow[]): string {
  return rows.map((r) => `${escapeUnsafe(r.path)}  ${r.projects.length > 0 ? r.projects.join(', ') : s.dim('(no project)')}`).join('\n');
}
