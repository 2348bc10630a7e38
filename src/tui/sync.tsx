// Entry of the interactive `plan sync` confirmation (loaded with `await import`).
import type { SyncResult } from '../service/plan-service.ts';
import { ConfirmSync } from './ConfirmSync.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

/** Asks whether to apply the sync `preview` describes; true only for `y`. */
export function runConfirmSync(io: TuiIo, preview: SyncResult): Promise<boolean> {
  return runInk<boolean>(io, (finish) => (
    <FitWidth>{(width, rows) => <ConfirmSync preview={preview} width={width} rows={rows} onAnswer={finish.done} />}</FitWidth>
  ));
}
