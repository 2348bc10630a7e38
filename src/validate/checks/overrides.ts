import type { Diagnostic } from '../../core/diagnostics.ts';
import { describeScope, type Plan, precedence, type ScopedInvariant } from '../../core/model.ts';
import { shadowInfo } from '../../core/shadow.ts';
import type { FileFacts } from '../file-facts.ts';
import type { ContentJob, SharedText } from './context.ts';
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

/**
 * An `overrides` that replaces nothing, which `invariant edit --overrides` refuses: it names a copy of the same text
 * that comes before it (that copy is the one that applies), or one that is in no effective set with it (another
 * project's, another plan's). Copies in actions apply nowhere until a plan takes them, as in `edit`; an inherited
 * copy always comes after the store's.
 */
export function checkOverrideReach(
  shared: SharedText,
  plans: ReadonlyMap<string, Plan>,
  located: Located,
  jobs: readonly ContentJob[],
): Diagnostic[] {
  const at = new Map<string, number>();
  shared.invariants.forEach((inv, i) => {
    if (!at.has(inv.id)) at.set(inv.id, i);
  });
  // Unknown ids, the invariant's own and other texts are checkOverrides' to report.
  const named = shared.invariants.flatMap((inv, i) => {
    const j = inv.overrides === undefined || inv.overrides === inv.id ? undefined : at.get(inv.overrides);
    return j === undefined || shared.keys[j] !== shared.keys[i] ? [] : [[inv, shared.invariants[j]!] as const];
  });
  if (named.length === 0) return [];
  // An id names the first file that holds it (a later one is `id-reused`), as in checkOverrides.
  const first = new Map<string, string>();
  for (const job of jobs) if (job.kind.kind === 'invariant' && !first.has(job.kind.id)) first.set(job.kind.id, job.entry.path);
  // Where each copy lives decides, not whether it is active or locked now.
  const bare = (i: ScopedInvariant): ScopedInvariant => ({ ...i, active: true, locked: false });
  const out: Diagnostic[] = [];
  for (const [inv, target] of named) {
    if (first.get(target.id) !== target.path) continue;
    if (inv.scope.kind === 'action' || target.scope.kind === 'action') continue;
    if (shadowInfo(bare(inv), [bare(target)], plans).shadows.length > 0) continue;
    const [own, other] = [describeScope(inv.scope), describeScope(target.scope)];
    const before = precedence(target.scope.kind) < precedence(inv.scope.kind);
    out.push(
      located.at(
        inv.path,
        ['overrides'],
        'overrides-unmet',
        'warning',
        before
          ? `overrides names ${target.id} (${other}), which comes before ${own}: ${target.id} is the copy that applies, and this one replaces nothing`
          : `overrides names ${target.id} (${other}), which is in no effective set with ${own}: this copy replaces it nowhere`,
        before
          ? `An override names a copy of lower precedence (plan > project > global > inherited): to replace ${inv.id}, run \`agents invariant edit ${target.id} --overrides ${inv.id}\` and remove this key.`
          : 'An override names a lower copy that applies where this one does (a global or inherited one, or, from a plan, its project’s); remove the overrides key.',
        [{ file: target.path, ...located.where(target.path, ['text']), message: `the copy named: ${target.id}` }],
      ),
    );
  }
  return out;
}
