// The invariants of the policy sources' action templates (`SOURCE:NS/NAME`, docs/extends.md): read from the cache
// at the pins for `list --action` and `show`, never written here.
import { inheritedPath, type LockEntry } from '../../core/extends.ts';
import type { ExtendsSource, Scope, ScopedInvariant } from '../../core/model.ts';
import { emptySnapshot, readFolders } from '../../store/read.ts';
import type { TreeSource } from '../../store/tree-source.ts';
import type { InvariantContext } from './context.ts';
import { pinnedTree, pinnedTrees } from './pinned-sources.ts';
import { templateRefs } from './projects.ts';
import { requireValid } from './rules.ts';

type SourceAction = Extract<Scope, { kind: 'action' }> & { source: string };

/** The invariants of one source's template, each with its SOURCE:NS/NAME scope and `extends/<source>/…` path. */
async function readTemplate(tree: TreeSource, scope: SourceAction): Promise<ScopedInvariant[]> {
  const snap = await readFolders(tree, [`actions/${scope.ns}/${scope.name}`]);
  const { SOURCE_FILE_HINT, sourceDiagnostic } = await import('../../store/extends.ts');
  // An invalid file is named where it is, in the source, never as a file of this store.
  const diagnostics = snap.diagnostics.map((d) => sourceDiagnostic(d, scope.source));
  requireValid({ ...emptySnapshot(), diagnostics }, `read action ${scope.source}:${scope.ns}/${scope.name}`, SOURCE_FILE_HINT);
  const frozen = Object.freeze({ ...scope });
  return snap.invariants.map((inv) => Object.assign({}, inv, { scope: frozen, path: inheritedPath(scope.source, inv.path) }));
}

/** The invariants of the template `scope` names; none when the source holds no such template. */
export async function sourceTemplate(svc: InvariantContext, scope: SourceAction): Promise<ScopedInvariant[]> {
  return readTemplate(await pinnedTree(svc, scope.source, `${scope.source}:${scope.ns}/${scope.name}`), scope);
}

/** The invariants of every template of every policy source, for an id the store does not hold. */
export async function sourceTemplates(svc: InvariantContext): Promise<ScopedInvariant[]> {
  const out: ScopedInvariant[] = [];
  for (const { name, tree } of await pinnedTrees(svc)) out.push(...(await templatesOf(tree, name)));
  return out;
}

/** The invariants of every template of the source `name`, whose store at one commit is `tree`. */
export async function templatesOf(tree: TreeSource, name: string): Promise<ScopedInvariant[]> {
  const out: ScopedInvariant[] = [];
  for (const ref of await templateRefs(tree, name)) {
    const [ns, local] = ref.split('/') as [string, string];
    out.push(...(await readTemplate(tree, { kind: 'action', ns, name: local, source: name })));
  }
  return out;
}

/**
 * The templates of the source `name` at the commit `pins` gives it (none when they pin it nowhere), for a review of a
 * moved pin: a template changed or removed there is what `plan sync` and `plan show` drift will meet.
 */
export async function pinnedTemplates(
  storeRoot: string,
  pins: readonly { source: ExtendsSource; pin: LockEntry }[],
  name: string,
): Promise<ScopedInvariant[]> {
  const at = pins.find((p) => p.source.name === name);
  if (at === undefined) return [];
  const { sourceTree } = await import('../../store/extends.ts');
  return templatesOf(await sourceTree(storeRoot, at.source, at.pin.commit), name);
}
