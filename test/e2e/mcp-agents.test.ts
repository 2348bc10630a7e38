/**
 * `agents mcp` in the real agent clients (docs/mcp.md, "Configuring clients"), each configured as
 * the docs say (the built binary in place of npx): the client starts the server, offers its tools to
 * the scripted model, and hands the model the answer of `effective_invariants`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentCliName, agentCli } from '../helpers/agent-clis.ts';
import { runAgentClient } from '../helpers/agent-run.ts';
import { BIN } from '../helpers/cli.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { type ModelRequest, type Reply, startModelServer } from '../helpers/model-server.ts';
import { tempDir } from '../helpers/tmp.ts';

const GLOBAL = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';
const BILLING = '01JGGEBWJTQ6P08NTXZQ7TKM2R';
const TOOLS = [
  'check_action',
  'effective_invariants',
  'list_invariants',
  'plan_status',
  'record_reconciliation',
  'record_violation',
  'show_invariant',
];
const server = { command: process.execPath, args: [BIN, 'mcp'] };

function repository(): { dir: string; home: string } {
  const root = tempDir('agents-mcp-e2e-');
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.agents/global'), { recursive: true });
  mkdirSync(join(dir, '.agents/projects/billing'), { recursive: true });
  mkdirSync(home);
  gitInit(dir);
  writeFileSync(join(dir, '.agents/config.yaml'), 'version: 1\n');
  writeFileSync(join(dir, '.agents/global', `${GLOBAL}.yaml`), `id: ${GLOBAL}\ntext: Never delete production data\nseverity: error\n`);
  writeFileSync(join(dir, '.agents/projects/billing/project.yaml'), 'paths:\n  - services/billing/**\n');
  writeFileSync(
    join(dir, '.agents/projects/billing', `${BILLING}.yaml`),
    `id: ${BILLING}\ntext: Amounts are integers of cents\nseverity: error\n`,
  );
  return { dir, home };
}

/** How each client names and calls a tool of the server `agents`, and where its configuration goes. */
const CLIENTS: Record<AgentCliName, { names: (r: ModelRequest) => string[]; call: (tool: string, input: unknown) => Reply }> = {
  claude: {
    names: (r) => r.tools.filter((t) => t.startsWith('mcp__agents__')).map((t) => t.slice('mcp__agents__'.length)),
    call: (tool, input) => ({ tool: `mcp__agents__${tool}`, input }),
  },
  // Codex offers an MCP server's tools as one namespace.
  codex: {
    names: (r) => {
      const tools = (r.body as { tools?: { name?: string; tools?: { name: string }[] }[] }).tools ?? [];
      return (tools.find((t) => t.name === 'mcp__agents')?.tools ?? []).map((t) => t.name);
    },
    call: (tool, input) => ({ tool, input, namespace: 'mcp__agents' }),
  },
  gemini: {
    names: (r) => r.tools.filter((t) => t.startsWith('mcp_agents_')).map((t) => t.slice('mcp_agents_'.length)),
    call: (tool, input) => ({ tool: `mcp_agents_${tool}`, input }),
  },
};

describe('agents mcp in real agent clients', { timeout: 600_000 }, () => {
  it.for(['claude', 'codex', 'gemini'] as const)('%s: offers the tools and hands the model the effective set', async (client) => {
    const bin = await agentCli(client);
    const { dir, home } = repository();
    let codexConfig: string[] = [];
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...GIT_ENV };
    if (client === 'claude') {
      // The project's .mcp.json, approved for the team in its settings; MCP tools listed up front, not behind a search.
      writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { agents: server } }));
      mkdirSync(join(dir, '.claude'));
      writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
      env.ENABLE_TOOL_SEARCH = 'false';
    } else if (client === 'codex') {
      codexConfig = [
        '[mcp_servers.agents]',
        `command = ${JSON.stringify(server.command)}`,
        `args = ${JSON.stringify(server.args)}`,
        `cwd = ${JSON.stringify(dir)}`,
      ];
    } else {
      mkdirSync(join(dir, '.gemini'));
      writeFileSync(join(dir, '.gemini/settings.json'), JSON.stringify({ mcpServers: { agents: server } }));
    }
    const { names, call } = CLIENTS[client];
    const offered: string[][] = [];
    const model = await startModelServer((r) => {
      offered.push(names(r));
      return r.toolResults.length === 0 && names(r).includes('effective_invariants')
        ? call('effective_invariants', { project: 'billing' })
        : { text: 'done' };
    });
    try {
      const r = await runAgentClient(client, bin, dir, env, home, model.url, codexConfig);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(offered[0]?.sort()).toEqual(TOOLS);
      const results = model.generations().flatMap((g) => g.toolResults.map((t) => JSON.stringify(t)));
      expect(results.length).toBeGreaterThan(0);
      expect(results.at(-1)).toContain(BILLING);
      expect(results.at(-1)).toContain(GLOBAL);
    } finally {
      await model.close();
    }
  });
});
