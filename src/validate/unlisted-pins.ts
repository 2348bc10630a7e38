// The lock and config.yaml agree (docs/extends.md, "The lock"): a pin of a source config.yaml no longer lists is read by
// nothing, so a config.yaml emptied, truncated or edited without `extends update` would shorten the inherited set in
// silence.
import type { Diagnostic } from '../core/diagnostics.ts';
import { EXTENDS_LOCK_FILE, unlistedPins } from '../core/extends.ts';
import type { ExtendsState } from '../store/extends.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { Located } from './checks/located.ts';
import { RecordingSource } from './recording-source.ts';

/** `extends-pin-unlisted` (error) at each pin of extends.lock.yaml whose source config.yaml's extends does not list. */
export async function unlistedPinDiagnostics(source: TreeSource, state: ExtendsState): Promise<Diagnostic[]> {
  // A broken config.yaml or lock is reported by the file checks: its sources or pins are not known.
  if (state.diagnostics.length > 0) return [];
  const left = unlistedPins(state.sources, state.lock);
  if (left.length === 0) return [];
  const located = new Located(new RecordingSource(source));
  await located.load([EXTENDS_LOCK_FILE]);
  const listed = state.sources.length === 0 ? 'lists no source' : 'does not list it';
  return left.map(({ index, name }) =>
    located.at(
      EXTENDS_LOCK_FILE,
      ['sources', String(index)],
      'extends-pin-unlisted',
      'error',
      `${EXTENDS_LOCK_FILE} pins the policy source ${name}, but config.yaml's extends ${listed}: its invariants are not inherited`,
      `Run \`agents extends update\` to remove the pin, or list ${name} in config.yaml's extends again if it was removed by mistake.`,
    ),
  );
}
