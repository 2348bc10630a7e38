import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitNotice } from '../../src/store/lock.ts';

// The one timing of the notice of a wait, shared by the store's lock and the wait for git's index lock.
describe('waitNotice', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says nothing on the tries of the first second, then says the wait once, with the arguments of the try that says it', () => {
    vi.useFakeTimers({ now: 0 });
    const said: string[] = [];
    const waiting = waitNotice((lock: string) => said.push(lock));
    waiting('a');
    vi.setSystemTime(999);
    waiting('b');
    expect(said).toEqual([]);
    vi.setSystemTime(1_000);
    waiting('c');
    vi.setSystemTime(5_000);
    waiting('d');
    expect(said).toEqual(['c']);
  });
});
