// Entry of the interactive `invariant remove` confirmation (loaded with `await import`).
import type { ShowResult } from '../service/invariant-service.ts';
import { ConfirmRemove } from './ConfirmRemove.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

/** Asks whether to remove the invariant `info` describes; true only for `y`. */
export function runConfirmRemove(io: TuiIo, info: ShowResult): Promise<boolean> {
  return runInk<boolean>(io, (finish) => (
    <FitWidth>{(width, rows) => <ConfirmRemove info={info} width={width} rows={rows} onAnswer={finish.done} />}</FitWidth>
  ));
}
