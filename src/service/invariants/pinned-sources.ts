// The policy sources a store extends, with their pins: read by the resolver, the floors check and the action listing.
import { EXTENDS_LOCK_FILE, mayExtend, type LockEntry } from '../../core/extends.ts';
import type { ExtendsSource } from '../../core/model.ts';
import { emptySnapshot } from '../../store/read.ts';
import type { InvariantContext } from './context.ts';
import { requireValid } from './rules.ts';

/**
 * The policy sources the store extends, each with its pin (none when config.yaml extends none). A look at
 * config.yaml's text first: a store whose config.yaml never says `extends` loads and parses nothing more. A
 * config.yaml or lock that is invalid is exit 3 naming file:line:col, and a source without a pin is exit 2 naming
 * `agents extends update`: never an empty inherited set.
 */
export async function pinnedSources(svc: Pick<InvariantContext, 'source'>): Promise<{ source: ExtendsSource; pin: LockEntry }[]> {
  const files = await svc.source.read(['config.yaml', EXTENDS_LOCK_FILE]);
  const config = files.get('config.yaml');
  const lock = files.get(EXTENDS_LOCK_FILE);
  // A store with a lock has extended sources: its config.yaml is read whole, so that a mistyped key (`extend:`)
  // is the error it is, not a store that extends nothing.
  const pinned = lock !== undefined && (lock.ok || lock.code !== 'missing');
  if (!pinned && (config === undefined || (config.ok ? !mayExtend(new TextDecoder().decode(config.bytes)) : config.code === 'missing')))
    return [];
  const { readExtendsState, pinsFor } = await import('../../store/extends.ts');
  const state = await readExtendsState(svc.source);
  // Checked before the sources are counted: an invalid config.yaml reads as the defaults, which extend nothing.
  requireValid({ ...emptySnapshot(), diagnostics: state.diagnostics }, 'read the policy sources');
  if (state.sources.length === 0) return [];
  return pinsFor(state);
}
