// A plain listing (`invariant list`, the MCP `list_invariants`) as text: the invariants grouped by scope folder, each
// with its meta line and, listing the whole store, the copies of its text it hides or is hidden by.
import { describeScope, scopeFolder } from '../core/model.ts';
import type { Style } from '../core/style.ts';
import type { ListedInvariant } from '../service/invariant-service.ts';
import { invariantMeta } from './effective.ts';
import { relationWords } from './invariant.ts';

/**
 * The lines of a listing, a line at a time (a long one is streamed: cli/render.ts, emitList); `empty` when it found
 * nothing. `whole`: the listing `items` are a page of (MCP pages), whose scopes' counts and total the lines say, as
 * the data's `count` does, never the page's own for the whole.
 */
export function* listLines(
  s: Style,
  items: ListedInvariant[],
  empty: string,
  whole: readonly ListedInvariant[] = items,
): Generator<string> {
  if (whole.length === 0) {
    yield empty;
    return;
  }
  let folder = '';
  let first = true;
  const counts = new Map<string, number>();
  for (const { invariant } of whole) counts.set(scopeFolder(invariant.scope), (counts.get(scopeFolder(invariant.scope)) ?? 0) + 1);
  for (const { invariant, shadow } of items) {
    const f = scopeFolder(invariant.scope);
    if (f !== folder) {
      folder = f;
      if (!first) yield '';
      yield s.cyan(`${describeScope(invariant.scope)} (${counts.get(f)})`);
    }
    first = false;
    yield `  ${invariant.text}`;
    yield `    ${invariantMeta(s, invariant)}`;
    if (shadow) {
      const { hides, hiddenBy } = relationWords(invariant, shadow);
      for (const [word, o] of [...hiddenBy, ...hides]) yield `    ${s.yellow(word)} ${describeScope(o.scope)} ${o.id}`;
    }
  }
  yield '';
  yield s.dim(`${whole.length} invariant${whole.length === 1 ? '' : 's'}`);
}
