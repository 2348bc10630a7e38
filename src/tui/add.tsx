// Entry of the interactive `invariant add` (loaded with `await import`, so only interactive runs load Ink).
import type { Scope } from '../core/model.ts';
import type { AddResult, InvariantService } from '../service/invariant-service.ts';
import { AddForm } from './AddForm.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';

/**
 * Runs the add form; resolves with what was written. Esc or Ctrl-C: CancelledError, nothing written.
 * `scope` skips the scope step; `rationale` starts the rationale step with that text; `commit` is
 * passed to `add` as given (default: the store's config).
 */
export function runAddForm(io: TuiIo, service: InvariantService, options: { scope?: Scope; commit?: boolean; rationale?: string; newProject?: boolean } = {}): Promise<AddResult> {
  return runInk<AddResult>(io, (finish) => (
    <AddForm service={service} {...options} width={Math.min(io.stdout.columns || 80, 100)} onDone={finish.done} onCancel={finish.cancel} onError={finish.fail} />
  ));
}
