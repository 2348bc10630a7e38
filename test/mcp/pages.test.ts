// The cursors of a paged answer (src/mcp/pages.ts): one the server gave for a set that changed since is
// `store-changed`; one it never gives, whatever digest it carries, or gave for another call, is `invalid-value`.
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
const SET = { tool: 'list_invariants', of: '["global"]' };
/** The cursor the server gives after `to` entries of `of` (its own call's set unless another is given). */
const cursorAfter = (to: number, of: readonly string[] = ids, set = SET) => {
  const key = createHash('sha256').update(`${set.tool}\n${set.of}`).digest('base64url').slice(0, 11);
  return `${to}:${digest(of.slice(0, to))}:${key}`;
};

/** The code of the error a cursor is refused with, or undefined when it is taken. */
function refusal(cursor: string, of: readonly string[] = ids): string | undefined {
  try {
    pageOf(of, cursor, SET, render);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('pageOf: each cursor refused with the right code', () => {
  it('takes a cursor of the form it gives, for the set it gave it for', () => {
    expect(pageOf(ids, cursorAfter(1), SET, render).data).toEqual({ from: 1, to: 3 });
  });

  it('a cursor at 0 entries, or a number written with a leading 0, is none the server gives: invalid-value', () => {
    expect(refusal(cursorAfter(0))).toBe('invalid-value');
    expect(refusal(`0${cursorAfter(1)}`)).toBe('invalid-value');
    expect(refusal(`0${cursorAfter(0)}`)).toBe('invalid-value');
    // The form of an older server's cursor, without the digest of its call.
    expect(refusal(`1:${digest(ids.slice(0, 1))}`)).toBe('invalid-value');
    expect(refusal('')).toBe('invalid-value');
    expect(refusal('page 2')).toBe('invalid-value');
  });

  it('a cursor of the right form whose entries before it are not those of the set now is store-changed', () => {
    expect(refusal(cursorAfter(1, ['Z9']))).toBe('store-changed');
    // Given after two entries of a set that has fewer now.
    expect(refusal(cursorAfter(2), ['A1'])).toBe('store-changed');
  });

  it('a cursor given for another call (another tool, target or filter) is invalid-value, not store-changed', () => {
    expect(refusal(cursorAfter(1, ['P1'], { tool: 'list_invariants', of: '["project","web"]' }))).toBe('invalid-value');
    expect(refusal(cursorAfter(1, ids, { tool: 'effective_invariants', of: SET.of }))).toBe('invalid-value');
    // Even when its entries before it are those of this set (two targets whose first entries are the same).
    expect(refusal(cursorAfter(1, ids, { tool: 'list_invariants', of: '["global","pattern"]' }))).toBe('invalid-value');
  });
});
