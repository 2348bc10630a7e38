// A listing that finds nothing says why: with no scope or pattern, the store holds no invariant yet (or only
// inactive ones, as a scope or pattern that holds only inactive ones counts them); "match" is said only when a filter
// was given. The CLI and MCP list_invariants say it alike.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
    // A scope or a pattern that holds only inactive ones counts them too, rather than saying nothing matches.
    expect(await cli(INACTIVE, '--global')).toMatch(/1 inactive .*\(--all/);
    expect(await cli(INACTIVE, 'production')).toMatch(/1 inactive .*\(--all/);
    expect(await mcp(INACTIVE, { global: true })).toMatch(/1 inactive .*\(`include_inactive: true`/);
    expect(await cli(INACTIVE, '--global', 'staging')).not.toMatch(/inactive/);
  });
});

describe('an empty listing of a store whose policy source is not fetched yet', () => {
  it('says once that the inherited invariants are not listed, though it also counts the inactive ones', async () => {
    const store = testStore();
    // A repository's git folder as git makes it, by hand: the cache of policy sources lives under it (no git is run).
    const gitDir = join(dirname(store), '.git');
    for (const folder of ['objects', 'refs']) mkdirSync(join(gitDir, folder), { recursive: true });
    writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(store, 'config.yaml'), 'version: 1\nextends:\n  - url: /nonexistent/policy\n    ref: v1\n');
    writeFileSync(
      join(store, 'extends.lock.yaml'),
      'version: 1\nsources:\n  - name: policy\n    url: /nonexistent/policy\n    ref: v1\n    kind: tag\n    commit: 261d9cb8cf0b65aa694623502edcad6481226482\n',
    );
    const r = await runAgents(['--store', store, 'invariant', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('agents invariant add');
    expect(r.stderr.match(/are not listed/g)).toHaveLength(1);
    const notices: string[] = [];
    await LIST.run({}, newToolContext(new InvariantService(store, { notice: (m) => notices.push(m) })));
    expect(notices.filter((m) => m.includes('are not listed'))).toHaveLength(1);
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
