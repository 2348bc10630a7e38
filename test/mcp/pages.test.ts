// The cursors of a paged answer (src/mcp/pages.ts): one the server gave for a set that changed since is
// `store-changed`; one it never gives, whatever digest it carries, is `invalid-value`.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/mcp/pages.ts';

const ids = ['A1', 'B2', 'C3'];
/** A page that is the entries it holds, so that any cursor read gives an answer. */
const render = (page: { from: number; to: number; next: string | null }) => ({
  data: { from: page.from, to: page.to },
  text: ids.slice(page.from, page.to).join(','),
});
const digest = (before: readonly string[]) => createHash('sha256').update(before.join('\n')).digest('base64url').slice(0, 22);

/** The code of the error a cursor is refused with, or undefined when it is taken. */
function refusal(cursor: string, of: readonly string[] = ids): string | undefined {
  try {
    pageOf(of, cursor, 'list_invariants', render);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('pageOf: each cursor refused with the right code', () => {
  it('takes a cursor of the form it gives, for the set it gave it for', () => {
    expect(pageOf(ids, `1:${digest(ids.slice(0, 1))}`, 'list_invariants', render).data).toEqual({ from: 1, to: 3 });
  });

  it('a cursor at 0 entries, or a number written with a leading 0, is none the server gives: invalid-value', () => {
    expect(refusal(`0:${digest([])}`)).toBe('invalid-value');
    expect(refusal(`01:${digest(ids.slice(0, 1))}`)).toBe('invalid-value');
    expect(refusal(`00:${digest([])}`)).toBe('invalid-value');
    expect(refusal('')).toBe('invalid-value');
    expect(refusal('page 2')).toBe('invalid-value');
  });

  it('a cursor of the right form whose entries before it are not those of the set now is store-changed', () => {
    expect(refusal(`1:${digest(['Z9'])}`)).toBe('store-changed');
    // Given after two entries of a set that has fewer now.
    expect(refusal(`2:${digest(ids.slice(0, 2))}`, ['A1'])).toBe('store-changed');
  });
});
