// The policy sources a store extends, with their pins and trees: read by the resolver, the floors check and the action readers.
import { UsageError } from '../../core/errors.ts';
import { EXTENDS_LOCK_FILE, mayExtend, type LockEntry } from '../../core/extends.ts';
import type { ExtendsSource } from '../../core/model.ts';
import { emptySnapshot } from '../../store/read.ts';
import type { TreeSource } from '../../store/tree-source.ts';
import type { InvariantContext } from './context.ts';
import { requireValid } from './rules.ts';

/**
 * The policy sources the store extends, each with its pin (none when config.yaml extends none). A look at
 * config.yaml's text first: a store whose config.yaml never says `extends` loads and parses nothing more. A
 * config.yaml or lock that is invalid is exit 3 naming file:line:col, and a source without a pin is exit 2 naming
 * `agents extends update`: never an empty inherited set.
 */
export async function pinnedSources(svc: Pick<InvariantContext, 'root' | 'source'>): Promise<{ source: ExtendsSource; pin: LockEntry }[]> {
  const files = await svc.source.read(['config.yaml', EXTENDS_LOCK_FILE]);
  const config = files.get('config.yaml');
  const lock = files.get(EXTENDS_LOCK_FILE);
  // A store with a lock has extended sources: its config.yaml is read whole, so that a mistyped key (`extend:`)
  // is the error it is, not a store that extends nothing.
  const pinned = lock !== undefined && (lock.ok || lock.code !== 'missing');
  if (!pinned && (config === undefined || (config.ok ? !mayExtend(new TextDecoder().decode(config.bytes)) : config.code === 'missing')))
    return [];
  const { readExtendsState, pinsFor, requireChecked } = await import('../../store/extends.ts');
  const state = await readExtendsState(svc.source);
  // Checked before the sources are counted: an invalid config.yaml reads as the defaults, which extend nothing.
  requireValid({ ...emptySnapshot(), diagnostics: state.diagnostics }, 'read the policy sources');
  if (state.sources.length === 0) return [];
  return requireChecked(svc.root, svc.source, pinsFor(state));
}

/** The names of the policy sources config.yaml extends, as `extends fetch` and `update` take them; none when invalid. */
export async function sourceNames(svc: Pick<InvariantContext, 'source'>): Promise<string[]> {
  const { readExtendsState } = await import('../../store/extends.ts');
  return (await readExtendsState(svc.source)).sources.map((s) => s.name);
}

/**
 * The store of the policy source `name` at its pin, read from the cache (docs/extends.md): where its action
 * templates (`SOURCE:NS/NAME`) are read. A name config.yaml's extends does not declare answers the names it
 * does. Only this source needs a pin.
 */
export async function findPinnedTree(
  svc: Pick<InvariantContext, 'root' | 'source'>,
  name: string,
): Promise<{ tree: TreeSource } | { sources: string[] }> {
  const { readExtendsState, pinsFor, requireChecked, sourceTree } = await import('../../store/extends.ts');
  const state = await readExtendsState(svc.source);
  requireValid({ ...emptySnapshot(), diagnostics: state.diagnostics }, 'read the policy sources');
  if (!state.sources.some((s) => s.name === name)) return { sources: state.sources.map((s) => s.name) };
  const { source, pin } = requireChecked(svc.root, svc.source, pinsFor(state, [name]))[0]!;
  return { tree: await sourceTree(svc.root, source, pin.commit) };
}

/** As findPinnedTree, with a name config.yaml does not declare exit 2; `ref` is what the caller gave, for the message. */
export async function pinnedTree(svc: Pick<InvariantContext, 'root' | 'source'>, name: string, ref: string): Promise<TreeSource> {
  const found = await findPinnedTree(svc, name);
  if ('sources' in found)
    throw new UsageError(
      `unknown policy source ${name} in ${ref}`,
      `Sources in config.yaml's extends: ${found.sources.join(', ') || '(none)'}.`,
    );
  return found.tree;
}

/** The trees of the policy sources at their pins; none read when config.yaml extends none. */
export async function pinnedTrees(svc: Pick<InvariantContext, 'root' | 'source'>): Promise<{ name: string; tree: TreeSource }[]> {
  const pins = await pinnedSources(svc);
  if (pins.length === 0) return [];
  const { sourceTree } = await import('../../store/extends.ts');
  return Promise.all(pins.map(async ({ source, pin }) => ({ name: source.name, tree: await sourceTree(svc.root, source, pin.commit) })));
}
