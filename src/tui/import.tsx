// Entry of the interactive `agents import` review (loaded with `await import`, so only interactive runs load Ink).
import type { ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import { ImportReview, type ReviewState } from './ImportReview.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

export type { ReviewState };

/**
 * Shows the review (`resume`: again as it was left, with why its write was refused); resolves with the candidates
 * kept (as edited) and the review's state, or undefined when the user wrote nothing (n, Esc).
 */
export function runImportReview(
  io: TuiIo,
  plan: ImportPlan,
  resume?: ReviewState & { refusal: string },
): Promise<{ chosen: PlannedCandidate[]; state: ReviewState } | undefined> {
  return runInk<{ chosen: PlannedCandidate[]; state: ReviewState } | undefined>(io, (finish) => (
    <FitWidth>
      {(width, rows) => (
        <ImportReview
          plan={plan}
          width={width}
          rows={rows}
          {...(resume ? { resume } : {})}
          onDone={(chosen, state) => finish.done({ chosen, state })}
          onCancel={() => finish.done(undefined)}
        />
      )}
    </FitWidth>
  ));
}
