// Entry of the interactive `invariant remove` confirmation (loaded with `await import`).
import type { ShowResult } from '../service/invariant-service.ts';
import { ConfirmRemove } from './ConfirmRemove.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';

/** Asks whether to remove the invariant `info` describes; true only for `y`. */
export function runConfirmRemove(io: TuiIo, info: ShowResult): Promise<boolean> {
  return runInk<boolean>(io, (finish) => (
    <ConfirmRemove info={info} width={Math.min(io.stdout.columns || 80, 100)} onAnswer={finish.done} />
  ));
}
