// What resources/list offers is what exists: the same projects and plans the other surfaces find (scopes()).
import { describe, expect, it } from 'vitest';
import type { UsageError } from '../../src/core/errors.ts';
import { listingPage, listTargets, parseUri, readResource } from '../../src/mcp/resources.ts';
import { newToolContext } from '../../src/mcp/tools.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const EMPTY = '01M8KK5920RS6CGAVDFVYYJ0B5';
const NO_FILE = '01M8KK5920RS6CGAVDFVYYJ0B6';

describe('the targets resources/list offers', () => {
  it('leave out a plan folder without its plan.yaml, which reads as no plan, as scopes() leaves it out', async () => {
    const store = testStore({
      'projects/myapp/project.yaml': 'paths: [app/**]\n',
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\n`,
      [`plans/${EMPTY}/`]: null,
      [`plans/${NO_FILE}/01M8KJT9G0XNWEM589ZS7FV0VT.yaml`]: invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Keep logs'),
      [`plans/${NO_FILE}/plan.yaml/`]: null,
    });
    const service = new InvariantService(store);
    expect(await listTargets(service)).toEqual([{ project: 'myapp' }, { plan: PLAN }]);
    expect((await service.scopes()).plans.map((p) => p.id)).toEqual([PLAN]);
  });
});

describe('a resource of a target the store cannot name', () => {
  const service = () =>
    new InvariantService(
      testStore({ 'projects/web/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Keep logs') }),
    );
  const failure = (uri: string) =>
    readResource(newToolContext(service()), uri).then(
      () => undefined,
      (e: UsageError) => ({
        code: e.code,
        exitCode: e.exitCode,
        suggestions: (e.detail as { suggestions?: string[] } | undefined)?.suggestions,
      }),
    );

  it('is refused with the closest project, as the CLI refuses --project Web, not as an unknown resource', async () => {
    expect(await failure('agents://projects/Web/effective.md')).toEqual({ code: 'usage', exitCode: 2, suggestions: ['web'] });
    expect(await failure('agents://projects/wbe/effective.json')).toEqual({ code: 'unknown-project', exitCode: 2, suggestions: ['web'] });
    expect(() => parseUri('agents://plans/01m8kk5920rs6cgavdfvyyj0b4/effective.md')).toThrow(
      /plan id "01m8kk5920rs6cgavdfvyyj0b4" must be upper case/,
    );
    expect(() => parseUri('agents://projects/a/b/effective.md')).toThrow(/unknown resource/);
  });
});

describe('the pages of resources/list', () => {
  const targets = [{ project: 'api' }, { project: 'web' }, { plan: PLAN }];

  it('go on after the target a cursor names, whether it is still there or not', () => {
    expect(listingPage(targets, 'project:api').page).toEqual([{ project: 'web' }, { plan: PLAN }]);
    // A project removed since its page was read: the listing goes on from where it stood.
    expect(listingPage(targets, 'project:app').page).toEqual([{ project: 'web' }, { plan: PLAN }]);
  });

  it("refuse a cursor the server does not give, a tool's among them, as a tool refuses one: invalid-value", () => {
    for (const cursor of ['page 2', 'project:Web', 'plan:01m8kk5920rs6cgavdfvyyj0b4', '12:AAAAAAAAAAAAAAAAAAAAAA:AAAAAAAAAAA']) {
      let code: string | undefined;
      try {
        listingPage(targets, cursor);
      } catch (error) {
        code = (error as UsageError).code;
        expect((error as UsageError).detail).toEqual({ option: 'cursor', value: cursor, suggestions: [] });
      }
      expect(code, cursor).toBe('invalid-value');
    }
  });
});
