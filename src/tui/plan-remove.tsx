// Entry of the interactive `plan remove` confirmation (loaded with `await import`).
import type { Plan } from '../core/model.ts';
import { ConfirmPlanRemove } from './ConfirmPlanRemove.tsx';
import { FitWidth } from './FitWidth.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';

/** Asks whether to remove `plan`; true only for `y`. */
export function runConfirmPlanRemove(io: TuiIo, plan: Plan): Promise<boolean> {
  return runInk<boolean>(io, (finish) => (
    <FitWidth>{(width) => <ConfirmPlanRemove plan={plan} width={width} onAnswer={finish.done} />}</FitWidth>
  ));
}
