// The library taken from JavaScript, where nothing checks the types: input of the wrong shape is a usage error
// (exit code 2) that says what is missing, never a TypeError from inside, and never a silent choice.
import { describe, expect, it } from 'vitest';
import { AgentsError, EXIT_CODES } from '../../src/core/errors.ts';
import { resolvePrefix } from '../../src/core/id-prefix.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { PlanService } from '../../src/service/plan-service.ts';
import { exampleStore } from '../helpers/plans.ts';

// biome-ignore lint/suspicious/noExplicitAny: the point is input no type allows.
type Loose = any;

async function usageError(call: () => unknown): Promise<AgentsError> {
  const error = await (async () => call())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentsError);
  expect((error as AgentsError).exitCode).toBe(EXIT_CODES.usage);
  return error as AgentsError;
}

describe('the library given input of the wrong shape', () => {
  it('refuses a missing or doubled scope, target or id with a usage error', async () => {
    const store = exampleStore();
    const s = InvariantService.open({ store }) as Loose;
    const p = PlanService.open({ store }) as Loose;
    expect((await usageError(() => s.resolveScope({ global: true, project: 'myapp' }))).detail).toEqual({ scopes: ['global', 'project'] });
    await usageError(() => s.add({ text: 'x' }));
    await usageError(() => s.add({ scope: { project: 7 }, text: 'x' }));
    await usageError(() => s.effective({}));
    await usageError(() => s.effective());
    await usageError(() => s.show(undefined));
    await usageError(() => s.edit({ text: 'x' }));
    await usageError(() => p.addViolation({}));
    expect(resolvePrefix(undefined as Loose, [])).toEqual({ kind: 'invalid', prefix: undefined });
    // Null where options may be left out reads as left out.
    expect((await s.list(null)).length).toBeGreaterThan(0);
  });
});
