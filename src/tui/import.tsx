// Entry of the interactive `agents import` review (loaded with `await import`, so only interactive runs load Ink).
import type { ImportPlan, PlannedCandidate } from '../core/import-plan.ts';
import type { StaleImport } from '../core/import-stale.ts';
import { ImportReview, type ReviewState } from './ImportReview.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

export type { ReviewState };

/** What the user chose in the review: the candidates kept (as edited), its state, and the invariants to remove. */
export interface Reviewed {
  chosen: PlannedCandidate[];
  state: ReviewState;
  removed: StaleImport[];
}

/**
 * Shows the review (`resume`: again as it was left, with why its write was refused; `prune`: with the invariants gone
 * from their files, to remove); resolves with what the user chose, or undefined when the user wrote nothing (n, Esc).
 */
export function runImportReview(
  io: TuiIo,
  plan: ImportPlan,
  resume?: ReviewState & { refusal: string },
  prune = false,
): Promise<Reviewed | undefined> {
  return runInk<Reviewed | undefined>(io, (finish) => (
    <FitWidth>
      {(width, rows) => (
        <ImportReview
          plan={plan}
          prune={prune}
          width={width}
          rows={rows}
          {...(resume ? { resume } : {})}
          onDone={(chosen, state, removed) => finish.done({ chosen, state, removed })}
          onCancel={() => finish.done(undefined)}
        />
      )}
    </FitWidth>
  ));
}
