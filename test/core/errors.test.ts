import { describe, expect, it } from 'vitest';
import { AgentsError, CancelledError, UsageError } from '../../src/core/errors.ts';

describe('AgentsError across copies of its module', () => {
  it('an error made by another copy (the CLI bundle and the terminal UI build each hold one) is an AgentsError', async () => {
    // A second instance of the module, as a second bundle holds.
    const second: string = '../../src/core/errors.ts?copy';
    const copy = (await import(second)) as typeof import('../../src/core/errors.ts');
    expect(copy.AgentsError).not.toBe(AgentsError);
    const cancelled = new copy.CancelledError();
    expect(cancelled instanceof AgentsError).toBe(true);
    expect(new copy.UsageError('bad', 'hint') instanceof AgentsError).toBe(true);
    expect((cancelled as AgentsError).exitCode).toBe(130);
    // Subclasses keep the ordinary check.
    expect(cancelled instanceof CancelledError).toBe(false);
    expect(new CancelledError() instanceof CancelledError).toBe(true);
    expect(new UsageError('bad') instanceof CancelledError).toBe(false);
  });

  it('nothing else is an AgentsError', () => {
    for (const value of [new Error('x'), { exitCode: 2, message: 'x' }, null, undefined, 'AgentsError', 7]) {
      expect(value instanceof AgentsError).toBe(false);
    }
  });
});
