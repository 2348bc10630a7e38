// Entry of the interactive `agents import` review (loaded with `await import`, so only interactive runs load Ink).
import type { ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import { ImportReview } from './ImportReview.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

/** Shows the review; resolves with the candidates kept (as edited), or undefined when the user wrote nothing (n, Esc). */
export function runImportReview(io: TuiIo, plan: ImportPlan): Promise<PlannedCandidate[] | undefined> {
  return runInk<PlannedCandidate[] | undefined>(io, (finish) => (
    <FitWidth>
      {(width, rows) => <ImportReview plan={plan} width={width} rows={rows} onDone={finish.done} onCancel={() => finish.done(undefined)} />}
    </FitWidth>
  ));
}
