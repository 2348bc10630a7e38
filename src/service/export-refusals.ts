// What `agents export` says of the files it left alone (docs/export.md, "The managed block").
import { CheckFailedError } from '../core/errors.ts';
import type { RefusalReason } from '../core/export-merge.ts';
import type { ExportPlan } from './export-service.ts';

/** The status `--check` gives a file it leaves alone (docs/json-output.md). */
const REFUSED_STATUS: Record<RefusalReason, string> = {
  'hand-edited': 'edited by hand',
  foreign: 'no agents block',
  damaged: 'damaged',
  conflicted: 'merge conflict',
  'text-above-front-matter': 'text above front matter',
  // Its block is the export's to take back, as any obsolete file's: only its removal is git's to stage.
  'out-of-checkout': 'obsolete',
};

/** A file left alone as JSON names it: its path, its status as --check says it, and the line to look at, or null. */
export function refusedEntry(r: ExportPlan['refused'][number]): { path: string; status: string; line: number | null } {
  return { path: r.path, status: REFUSED_STATUS[r.reason], line: r.line ?? null };
}

/** Exit 1 naming each refused file. */
export function refusedError(plan: ExportPlan, written = 0): CheckFailedError {
  // A damaged block's reason names its marker lines itself; a hand edit's line goes after the path, as a place does.
  const at = (r: ExportPlan['refused'][number]) =>
    (r.reason === 'hand-edited' || r.reason === 'text-above-front-matter') && r.line !== undefined ? `:${r.line}` : '';
  const lines = plan.refused.map((r) => `${r.path}${at(r)}: ${r.why}`);
  const reasons = new Set(plan.refused.map((r) => r.reason));
  // The commands it names start with the run's agents, given where the error is reported.
  const hint = (agents: string) =>
    [
      reasons.has('conflicted') ? 'Resolve the merge conflict first (either side of the agents block will do: export writes it anew).' : '',
      reasons.has('hand-edited')
        ? `Move your own text outside the agents block (it is kept there), or run \`${agents} export --force\` to discard the edit.`
        : '',
      reasons.has('text-above-front-matter')
        ? `Move the text above the front matter below it: the client reads front matter only at the file's start (\`${agents} export --force\` moves it there).`
        : '',
      // A file of the export's name without a block holds no text of the export's to keep apart from the person's.
      reasons.has('foreign')
        ? `A file without an agents block is not the export's: rename or move it, or run \`${agents} export --force\` to replace it with the export's.`
        : '',
      reasons.has('out-of-checkout')
        ? `Stage the removal of each file the sparse checkout leaves out with \`git rm --sparse -- PATH\` (or bring its folder into the checkout, \`git sparse-checkout add DIR\`, and run \`${agents} export\` again).`
        : '',
      reasons.has('damaged')
        ? 'Repair the markers by hand (one "<!-- agents:begin … -->" line and one "<!-- agents:end -->" line) or delete them; --force does not touch a damaged block.'
        : '',
      // The refused files are left alone, every other one written: "nothing" only when it is so.
      written === 0 ? 'Nothing was written.' : `The other files were written (${written}).`,
    ]
      .filter((s) => s !== '')
      .join(' ');
  return new CheckFailedError(
    `${plan.refused.length === 1 ? 'a file was' : `${plan.refused.length} files were`} left alone: ${lines.join('; ')}`,
    hint,
    // The texts a hand edit's diff is made of stay out of the error's detail: --check shows that diff.
    { refused: plan.refused.map(({ forced: _, ...r }) => r) },
  );
}
