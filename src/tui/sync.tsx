// Entry of the interactive `plan sync` confirmation (loaded with `await import`).
import type { SyncResult } from '../service/plan-service.ts';
import { ConfirmSync } from './ConfirmSync.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';

/** Asks whether to apply the sync `preview` describes; true only for `y`. */
export function runConfirmSync(io: TuiIo, preview: SyncResult): Promise<boolean> {
  return runInk<boolean>(io, (finish) => (
    <ConfirmSync preview={preview} width={Math.min(io.stdout.columns || 80, 100)} onAnswer={finish.done} />
  ));
}
