// A listing that finds nothing says why: with no scope or pattern, the store holds no invariant yet (or only
// inactive ones); "match" is said only when a filter was given. The CLI and MCP list_invariants say it alike.
import { describe, expect, it } from 'vitest';
import { InvariantService } from '../../src/index.ts';
import { newToolContext, TOOLS } from '../../src/mcp/tools.ts';
import { runAgents } from '../helpers/main.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const LIST = TOOLS.find((t) => t.name === 'list_invariants')!;

async function cli(store: string, ...args: string[]): Promise<string> {
  const r = await runAgents(['--store', store, 'invariant', 'list', ...args]);
  expect(r.code).toBe(0);
  return r.stdout;
}

async function mcp(store: string, args: Record<string, string | boolean> = {}): Promise<string> {
  return (await LIST.run(args, newToolContext(new InvariantService(store)))).text;
}

describe('an empty listing', () => {
  it('an empty store is said to hold none yet, with how to add one; a filter still matches nothing', async () => {
    const EMPTY = testStore();
    for (const text of [await cli(EMPTY), await mcp(EMPTY)]) {
      expect(text).not.toMatch(/match/);
      expect(text).toContain('agents invariant add');
    }
    for (const text of [await cli(EMPTY, 'deploy'), await cli(EMPTY, '--global'), await mcp(EMPTY, { pattern: 'deploy' })])
      expect(text).toMatch(/match/);
  });

  it('a store of inactive invariants only counts them and says how to list them', async () => {
    const INACTIVE = testStore({ [`global/${ID}.yaml`]: invariantYaml(ID, 'Never delete production data', { active: 'false' }) });
    expect(await cli(INACTIVE)).toMatch(/1 inactive \(--all/);
    expect(await mcp(INACTIVE)).toMatch(/1 inactive \(`include_inactive: true`/);
    expect(await cli(INACTIVE, '--all')).toContain('Never delete production data');
  });
});

describe('two scopes given to invariant list', () => {
  it('are refused as conflicting-options asking for at most one, since list takes none too, as MCP list_invariants asks', async () => {
    const store = testStore();
    const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list', '--global', '--project', 'x']);
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error).toMatchObject({ code: 'conflicting-options', detail: { options: ['global', 'project'] } });
    expect(error.message).toMatch(/^give at most one scope/);
  });
});
