// Entry of the interactive `invariant add` and `invariant edit` (loaded with `await import`, so only interactive runs load Ink).
import type { Scope } from '../core/model.ts';
import type { AddResult, EditResult, InvariantService } from '../service/invariant-service.ts';
import { AddForm, type FormValues } from './AddForm.tsx';
import { runInk, type TuiIo } from './run-ink.tsx';
import { FitWidth } from './FitWidth.tsx';

/**
 * Runs the add form; resolves with what was written, or undefined when the
 * user cancelled it (Esc, or n at the confirmation): nothing written. Ctrl-C:
 * CancelledError. `scope` skips the scope step; `initial` fills the answers
 * (flags given on the command line); `commit` is passed to `add` as given.
 */
export function runAddForm(
  io: TuiIo,
  service: InvariantService,
  options: { scope?: Scope; commit?: boolean; initial?: FormValues; newProject?: boolean } = {},
): Promise<AddResult | undefined> {
  return runInk<AddResult | undefined>(io, (finish) => (
    <FitWidth>
      {(width, rows) => (
        <AddForm
          service={service}
          {...options}
          width={width}
          rows={rows}
          onDone={finish.done}
          onCancel={() => finish.done(undefined)}
          onError={finish.fail}
        />
      )}
    </FitWidth>
  ));
}

/** Runs the form on invariant `id`, filled with its values; resolves with the change, or undefined when cancelled. */
export async function runEditForm(
  io: TuiIo,
  service: InvariantService,
  id: string,
  options: { commit?: boolean } = {},
): Promise<EditResult | undefined> {
  const { invariant } = await service.show(id);
  return runInk<EditResult | undefined>(io, (finish) => (
    <FitWidth>
      {(width, rows) => (
        <AddForm
          service={service}
          editing={invariant}
          {...(options.commit !== undefined ? { commit: options.commit } : {})}
          width={width}
          rows={rows}
          onDone={() => finish.fail(new Error('the edit form added an invariant'))}
          onEdited={finish.done}
          onCancel={() => finish.done(undefined)}
          onError={finish.fail}
        />
      )}
    </FitWidth>
  ));
}
