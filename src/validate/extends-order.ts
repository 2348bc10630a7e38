// The order of config.yaml's extends (docs/extends.md, "A source that extends another"): of two sources holding one
// text, the one listed first is kept, so a source listed before a source that extends it wins over the nearer policy.
import type { Diagnostic } from '../core/diagnostics.ts';
import { listedIndex } from '../core/extends.ts';
import { type ExtendsState, pinsFor, requireChecked, sourceCacheDir } from '../store/extends.ts';
import { type SourceOfSource, sourcesOfSource } from '../store/source-extends.ts';
import type { TreeSource } from '../store/tree-source.ts';
import { Located } from './checks/located.ts';
import { RecordingSource } from './recording-source.ts';

/**
 * `extends-order` (warning) on each source of config.yaml listed before a source that extends it (as the latter's own
 * extends.lock.yaml pins it, by name or URL): the nested source's copy of a text both hold would shadow the nearer
 * policy's. Two sources that extend each other have no right order and are left alone. None when fewer than two
 * sources are pinned and readable: the other checks say why a source is not.
 */
export async function orderDiagnostics(storeRoot: string, source: TreeSource, state: ExtendsState): Promise<Diagnostic[]> {
  if (state.sources.length < 2 || state.diagnostics.length > 0) return [];
  let pins: ReturnType<typeof pinsFor>;
  try {
    pins = requireChecked(storeRoot, source, pinsFor(state));
  } catch {
    return [];
  }
  const own = new Map<string, SourceOfSource[]>();
  for (const { source: s, pin } of pins) {
    try {
      own.set(s.name, await sourcesOfSource(sourceCacheDir(storeRoot, s.name), pin.commit, s.path));
    } catch {
      // A source the cache cannot give is said by the readers, as not fetched.
    }
  }
  const extendsOf = (i: number) => new Set((own.get(state.sources[i]!.name) ?? []).map((p) => listedIndex(state.sources, p)));
  const found: { nested: number; outer: number }[] = [];
  for (let outer = 1; outer < state.sources.length; outer++)
    for (const nested of extendsOf(outer))
      if (nested >= 0 && nested < outer && !extendsOf(nested).has(outer)) found.push({ nested, outer });
  if (found.length === 0) return [];
  const located = new Located(new RecordingSource(source));
  await located.load(['config.yaml']);
  return found.map(({ nested, outer }) => {
    const n = state.sources[nested]!.name;
    const o = state.sources[outer]!.name;
    return located.at(
      'config.yaml',
      ['extends', String(nested)],
      'extends-order',
      'warning',
      `the policy source ${n} is listed before ${o}, which extends it: of a text both hold, ${n}'s copy is kept and ${o}'s is shadowed`,
      `List ${o} before ${n} in config.yaml's extends, so that the nearer policy's copy of a text is the one kept.`,
      [{ file: 'config.yaml', ...located.where('config.yaml', ['extends', String(outer)]), message: `${o}, which extends ${n}` }],
    );
  });
}
