import type { Diagnostic } from '../../core/diagnostics.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob } from './context.ts';
import type { Located } from './located.ts';

/** Each `overrides` names another invariant of the store, or one it inherits, with the same text key. */
export async function checkOverrides(
  jobs: readonly ContentJob[],
  facts: readonly FileFacts[],
  located: Located,
  inheritedKeys?: () => Promise<ReadonlyMap<string, string>>,
): Promise<Diagnostic[]> {
  const naming: number[] = [];
  for (let i = 0; i < jobs.length; i++) if (facts[i]!.v !== undefined) naming.push(i);
  if (naming.length === 0) return [];
  const invariantAt = new Map<string, number>();
  for (let i = 0; i < jobs.length; i++) {
    const kind = jobs[i]!.kind;
    if (kind.kind === 'invariant' && facts[i]!.k !== undefined && !invariantAt.has(kind.id)) invariantAt.set(kind.id, i);
  }
  const found: { files: string[]; report: () => Diagnostic }[] = [];
  for (const i of naming) {
    const file = jobs[i]!.entry.path;
    const target = facts[i]!.v!;
    const at = invariantAt.get(target);
    const inherited = at === undefined ? (await inheritedKeys?.())?.get(target) : undefined;
    // The override and what it names must hold one text: a different one is a rule of its own, not a copy.
    const textDiffers = (named: string, related?: { file: string; line: number; col: number; message: string }[]) =>
      located.at(
        file,
        ['overrides'],
        'overrides-text',
        'error',
        `overrides names ${named}, whose text differs: an override is a copy of the same text`,
        'Make the texts equal (an override changes severity, tags or rationale, not the text), or remove the overrides key.',
        related,
      );
    const kind = jobs[i]!.kind;
    // An id that names no other invariant: the override would replace nothing.
    const unknown = (message: string, hint: string) =>
      found.push({ files: [file], report: () => located.at(file, ['overrides'], 'overrides-unknown', 'error', message, hint) });
    if (kind.kind === 'invariant' && kind.id === target) {
      // Its own id names no lower copy (`edit --overrides` refuses it).
      unknown(
        `overrides names ${target}, this invariant's own id: an invariant cannot override itself`,
        'Name the lower-precedence copy of the same text it replaces, or remove the overrides key.',
      );
    } else if (inherited !== undefined) {
      if (inherited !== facts[i]!.k) found.push({ files: [file], report: () => textDiffers(`the inherited invariant ${target}`) });
    } else if (at === undefined) {
      unknown(
        `overrides names ${target}, which is no invariant in the store`,
        'Correct the id (`agents invariant list --all` shows them), or remove the overrides key.',
      );
    } else if (facts[at]!.k !== facts[i]!.k) {
      const other = jobs[at]!.entry.path;
      found.push({
        files: [file, other],
        report: () =>
          textDiffers(`${target} (${other})`, [
            { file: other, ...located.where(other, ['text']), message: `the invariant named: ${target}` },
          ]),
      });
    }
  }
  await located.load(found.flatMap((x) => x.files));
  return found.map((x) => x.report());
}
