// Entry of the interactive `agents import` review (loaded with `await import`, so only interactive runs load Ink).
import type { ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import { ImportReview } from './ImportReview.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';

/** Shows the review; resolves with the candidates kept (as edited), or undefined when the user wrote nothing (n, Esc). */
export function runImportReview(io: TuiIo, plan: ImportPlan): Promise<PlannedCandidate[] | undefined> {
  return runInk<PlannedCandidate[] | undefined>(io, (finish) => (
    <ImportReview
      plan={plan}
      width={Math.min(io.stdout.columns || 80, 100)}
      rows={Math.max(3, Math.floor(((io.stdout as { rows?: number }).rows ?? 24) / 2) - 3)}
      onDone={finish.done}
      onCancel={() => finish.done(undefined)}
    />
  ));
}
