// MCP's plan_status takes `allow` as the CLI's `plan status` takes --allow: the same reasons, checked alike
// (the service's one reading of them), so that an agent and a pipeline judge a plan the same way.
import { describe, expect, it } from 'vitest';
import { AgentsError, InvariantService } from '../../src/index.ts';
import { callTool, newToolContext, TOOLS } from '../../src/mcp/tools.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { runAgents } from '../helpers/main.ts';

const tool = TOOLS.find((t) => t.name === 'plan_status')!;

async function both(root: string, allow: string[]) {
  const cli = await runAgents([
    '--store',
    root,
    'plan',
    'status',
    EXAMPLE_PLAN,
    ...allow.flatMap((a) => ['--allow', a]),
    '--format',
    'json',
  ]);
  const mcp = await callTool(tool, { plan: EXAMPLE_PLAN, allow }, newToolContext(new InvariantService(root))).then(
    (answer) => ({ answer, error: undefined }),
    (error: unknown) => ({ answer: undefined, error: error as AgentsError }),
  );
  return { cli, mcp };
}

/** The commands an answer names start as the run names its store (the CLI's --store here); the rest is the same. */
const sameStore = (root: string, data: unknown) => JSON.parse(JSON.stringify(data).replaceAll(`agents --store ${root} `, 'agents '));

describe('MCP plan_status allow', () => {
  it('lists the reasons --allow takes in its input schema', () => {
    expect(tool.inputSchema.properties.allow).toMatchObject({
      type: 'array',
      items: { enum: ['not-run', 'run-failed', 'run-incomplete', 'stale', 'unenforced', 'unknown-project'] },
    });
  });

  it('answers as plan status --allow does: the same gate, the same allowed reasons, each once', async () => {
    const root = exampleStore();
    const { cli, mcp } = await both(root, ['unenforced', 'not-run', 'unenforced']);
    const data = mcp.answer!.data as { failing: boolean; allowed: string[]; reasons: { code: string; allowed: boolean }[] };
    expect(data.allowed).toEqual(['unenforced', 'not-run']);
    expect(data.reasons.some((r) => r.allowed)).toBe(true);
    // The tool's answer is the CLI's object, with the cursor of its next page of reasons (none: they fit in one).
    const { next_cursor, ...status } = data as typeof data & { next_cursor: string | null };
    expect(next_cursor).toBeNull();
    expect(sameStore(root, status)).toEqual(sameStore(root, JSON.parse(cli.stdout)));
    expect(cli.code).toBe(data.failing ? 1 : 0);
    // Without it, the reasons it relaxed fail again.
    const plain = (await callTool(tool, { plan: EXAMPLE_PLAN }, newToolContext(new InvariantService(root)))).data as typeof data;
    expect(plain.allowed).toEqual([]);
    expect(plain.reasons.some((r) => r.allowed)).toBe(false);
  });

  it('refuses a reason --allow does not take, as the CLI does (invalid-value, exit 2)', async () => {
    const root = exampleStore();
    const { cli, mcp } = await both(root, ['not-run', 'error-violation']);
    expect(cli.code).toBe(2);
    const refused = JSON.parse(cli.stdout) as { error: { code: string; detail: { value: string } } };
    expect(mcp.error).toBeInstanceOf(AgentsError);
    expect([mcp.error!.exitCode, mcp.error!.code, (mcp.error!.detail as { value: string }).value]).toEqual([
      2,
      refused.error.code,
      refused.error.detail.value,
    ]);
  });

  it('refuses one reason given as a string, not a list of them', async () => {
    const root = exampleStore();
    const error = await callTool(tool, { plan: EXAMPLE_PLAN, allow: 'not-run' }, newToolContext(new InvariantService(root))).then(
      () => undefined,
      (e: unknown) => e as AgentsError,
    );
    expect(error?.exitCode).toBe(2);
  });
});
