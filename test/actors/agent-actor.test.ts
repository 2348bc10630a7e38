import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMPT_VERSION } from '../../src/core/reconcile-prompt.ts';
import { AGENT_CLI_INSTALL_TIMEOUT_MS, type AgentCliName, agentCli } from '../helpers/agent-clis.ts';
import { BIN, REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { running } from '../helpers/process-gone.ts';
import { type ModelRequest, type Reply, startModelServer } from '../helpers/model-server.ts';
import {
  EXAMPLE_PLAN,
  EXAMPLE_PLAN_GOAL,
  EXAMPLE_PLAN_SET,
  exampleStore,
  fileList,
  records,
  type EnforcementFile,
} from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';

// The `agent` actor with each real agent CLI at its pinned version, headless, talking to a
// scripted model on 127.0.0.1: what the model received, which tools the CLI offered it
// (none that writes or runs commands), the records written, and the key nowhere.

const SET = EXAMPLE_PLAN_SET;
const IDS = SET.map(([id]) => id);
const GOAL = EXAMPLE_PLAN_GOAL;
const CONTEXT = 'Step 1: bump the interpreter in pyproject.toml.\nStep 4: drop the legacy_users table.';
const KEY = 'agent-key-9c1d7e3f5a-SECRET';

const ANSWER = {
  results: IDS.map((id, i) => ({
    invariant_id: id,
    enforced: i !== 3,
    response: i === 3 ? 'Step 4 drops a production table.' : 'The plan honours it.',
  })),
};

/** Tools that write or run commands, by CLI: none may be offered to the model. */
const FORBIDDEN = [
  'Write',
  'Edit',
  'Bash',
  'NotebookEdit',
  'exec_command',
  'shell',
  'apply_patch',
  'write_stdin',
  'write_file',
  'replace',
  'run_shell_command',
  // Gemini CLI's way out of plan mode: it switches the run to YOLO mode, with the user's MCP tools approved.
  'exit_plan_mode',
];

interface Case {
  agent: AgentCliName;
  /** The model's part: how it answers the CLI's requests. */
  script: (r: ModelRequest) => Reply;
  /** The CLI's settings in a private HOME, and its environment. */
  setup: (home: string, url: string) => Record<string, string>;
  /** Found through agent_path (else on PATH). */
  viaPath: boolean;
}

const CASES: Case[] = [
  {
    agent: 'claude',
    // Claude Code's --json-schema offers a StructuredOutput tool; the answer is that call's input.
    script: (r) =>
      r.toolResults.length > 0
        ? { text: 'done' }
        : r.tools.includes('StructuredOutput')
          ? { tool: 'StructuredOutput', input: ANSWER }
          : { text: 'ok' },
    setup: (_home, url) => ({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    }),
    viaPath: false,
  },
  {
    agent: 'codex',
    // Codex asks for the schema through the Responses API's text.format; the answer is the message.
    script: () => ({ text: JSON.stringify(ANSWER) }),
    setup: (home, url) => {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          'model = "judge-model"',
          'model_provider = "judge"',
          'check_for_update_on_startup = false',
          '[model_providers.judge]',
          'name = "judge"',
          `base_url = "${url}/v1"`,
          'wire_api = "responses"',
          'env_key = "JUDGE_KEY"',
          '[analytics]',
          'enabled = false',
          '',
        ].join('\n'),
      );
      return { CODEX_HOME: codexHome, JUDGE_KEY: KEY };
    },
    viaPath: true,
  },
  {
    agent: 'gemini',
    // Gemini CLI has no structured output in headless mode: the answer is a fenced JSON block in prose.
    script: () => ({ text: `Here is my judgement.\n\n\`\`\`json\n${JSON.stringify(ANSWER, null, 2)}\n\`\`\`\n` }),
    setup: (home, url) => {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        }),
      );
      // Gemini CLI runs only in a trusted folder; the team trusts its repository once. NO_RELAUNCH: one Node.js start, not two.
      return { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: KEY, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_CLI_NO_RELAUNCH: 'true' };
    },
    viaPath: false,
  },
];

/** A wrapper that logs its arguments, one a line, then runs the real CLI: to prove no argument holds the key. */
function wrapper(dir: string, name: string, real: string, log: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A copy of the example store in a fresh folder, removed when this test finishes. The
 * tests here run at once (each CLI takes seconds to start): the shared helpers tie their
 * clean-up to "the current test", which is not this one when tests run concurrently.
 */
function privateStore(onTestFinished: (fn: () => void) => void): { root: string; work: string } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'agents-actor-test-')));
  onTestFinished(() => rmSync(work, { recursive: true, force: true }));
  const root = join(work, '.agents');
  cpSync(join(REPO, '.agents.example'), root, { recursive: true });
  return { root, work };
}

/** Writes the store's config.yaml for the agent actor: `agent`, at `path` (none: found on PATH), bounded by `timeoutMs`. */
function agentConfig(root: string, agent: string, path: string | undefined, timeoutMs = 120_000): void {
  const lines = ['version: 1', 'reconciliation:', '  actor: agent', `  agent: ${agent}`];
  if (path !== undefined) lines.push(`  agent_path: ${path}`);
  writeFileSync(join(root, 'config.yaml'), [...lines, `  timeout_ms: ${timeoutMs}`, ''].join('\n'));
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

describe('the agent actor with the real CLIs', () => {
  it.for(CASES)(
    '$agent: judges the plan read-only, the records come from its answer, the key stays out',
    { concurrent: true, timeout: AGENT_CLI_INSTALL_TIMEOUT_MS },
    async ({ agent, script, setup, viaPath }, { onTestFinished }) => {
      const real = await agentCli(agent);
      const server = await startModelServer(script);
      try {
        const { root, work } = privateStore(onTestFinished);
        const home = join(work, 'home');
        const argvLog = join(work, 'argv.log');
        const bin = wrapper(join(work, 'bin'), agent, real, argvLog);
        const context = join(work, 'context.md');
        writeFileSync(context, CONTEXT);
        agentConfig(root, agent, viaPath ? undefined : bin);
        const env = {
          HOME: home,
          PATH: viaPath ? `${dirname(bin)}${delimiter}${process.env.PATH}` : process.env.PATH,
          ...setup(home, server.url),
        };
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--context', context], { env });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(1); // the fourth invariant is not enforced

        // The model got the prompt: every invariant's id and text, the goal and the context.
        const prompted = server.generations().filter((g) => g.text.includes(GOAL));
        expect(prompted.length).toBeGreaterThanOrEqual(1);
        const req = prompted[0]!;
        for (const [id, text] of SET) {
          expect(req.text).toContain(id);
          expect(req.text).toContain(text);
        }
        expect(req.text).toContain(CONTEXT.split('\n')[1]);
        expect(req.text).toContain('Invariant Reconciliation Actor');
        // Read-only: no tool that writes or runs a command was offered to the model.
        for (const g of server.generations()) for (const tool of FORBIDDEN) expect(g.tools, `${agent} offered ${tool}`).not.toContain(tool);

        const runs = records<EnforcementFile & { model?: string; prompt_version?: string }>(root, EXAMPLE_PLAN, 'enforcement');
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ actor: 'agent', model: agent, prompt_version: PROMPT_VERSION });
        expect(runs[0]!.error).toBeUndefined();
        expect(runs[0]!.records.map((x) => [x.invariant_id, x.enforced, x.actor_response])).toEqual(
          ANSWER.results.map((x) => [x.invariant_id, x.enforced, x.response]),
        );

        // The preview sends nothing and names the read-only command line.
        const before = server.requests.length;
        const shown = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--show-prompt'], { env });
        expect(shown.stderr).toBe('');
        expect(shown.code).toBe(0);
        expect(shown.stdout).toContain(GOAL);
        const shownJson = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--show-prompt', '--format', 'json'], {
          env,
        });
        expect(JSON.parse(shownJson.stdout).problem).toBeNull();
        expect(server.requests.length).toBe(before);

        // The key: only in the CLI's environment, never in its arguments, a file the run wrote or anything printed.
        const argv = readFileSync(argvLog, 'utf8');
        expect(argv.length).toBeGreaterThan(0);
        const written = [...allFiles(root), argvLog].map((f) => readFileSync(f, 'utf8'));
        for (const text of [r.stdout, r.stderr, shown.stdout, shown.stderr, ...written]) expect(text).not.toContain(KEY);
      } finally {
        await server.close();
      }
    },
  );

  it.concurrent(
    'codex: a malformed answer is asked for once more, saying what was wrong, and the second answer is recorded',
    async ({ onTestFinished }) => {
      const real = await agentCli('codex');
      let n = 0;
      const server = await startModelServer(() => ({ text: ++n === 1 ? 'Everything looks fine to me.' : JSON.stringify(ANSWER) }));
      try {
        const { root, work } = privateStore(onTestFinished);
        const home = join(work, 'home');
        agentConfig(root, 'codex', real);
        const env = { HOME: home, ...CASES[1]!.setup(home, server.url) };
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1); // the fourth invariant is not enforced: the second answer was used
        const prompted = server.generations().filter((g) => g.text.includes(GOAL));
        expect(prompted).toHaveLength(2);
        expect(prompted[0]!.text).not.toContain('Your previous answer could not be used');
        expect(prompted[1]!.text).toContain('Your previous answer could not be used: the answer is not one JSON object');
        const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
        expect(run!.error).toBeUndefined();
        expect(run!.records.map((x) => x.enforced)).toEqual([true, true, true, false]);
      } finally {
        await server.close();
      }
    },
    AGENT_CLI_INSTALL_TIMEOUT_MS,
  );

  it.concurrent(
    "codex: the user's MCP servers are not offered to the judge, so their writing tools cannot change the store",
    async ({ onTestFinished }) => {
      const real = await agentCli('codex');
      // The model calls a writing tool of the user's MCP server (this tool's own, with --allow-write) when offered one.
      const server = await startModelServer((r) =>
        r.tools.includes('mcp__judges_store') && r.toolResults.length === 0
          ? {
              tool: 'record_violation',
              namespace: 'mcp__judges_store',
              input: { plan: EXAMPLE_PLAN, invariant: IDS[0], details: 'written by the read-only judge' },
            }
          : { text: JSON.stringify(ANSWER) },
      );
      try {
        const { root, work } = privateStore(onTestFinished);
        const home = join(work, 'home');
        agentConfig(root, 'codex', real);
        const env = { HOME: home, ...CASES[1]!.setup(home, server.url) };
        const config = join(home, '.codex', 'config.toml');
        writeFileSync(
          config,
          `${readFileSync(config, 'utf8')}[mcp_servers.judges_store]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([BIN, '--store', root, 'mcp', '--allow-write'])}\n`,
        );
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1); // the fourth invariant is not enforced
        for (const g of server.generations()) expect(g.tools.filter((t) => t.startsWith('mcp__'))).toEqual([]);
        expect(records(root, EXAMPLE_PLAN, 'violations')).toEqual([]);
        const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
        expect(run!.error).toBeUndefined();
      } finally {
        await server.close();
      }
    },
    AGENT_CLI_INSTALL_TIMEOUT_MS,
  );

  it.concurrent(
    "gemini: the judge cannot leave plan mode, so the user's MCP servers' writing tools stay out of its reach",
    async ({ onTestFinished }) => {
      const real = await agentCli('gemini');
      // The model leaves plan mode when it may, then calls a writing tool of the user's MCP server (this tool's own).
      const server = await startModelServer((r) => {
        const write = r.tools.find((t) => /^mcp_.*record_violation$/.test(t));
        if (write && !JSON.stringify(r.toolResults).includes('record_violation'))
          return { tool: write, input: { plan: EXAMPLE_PLAN, invariant: IDS[0], details: 'written by the read-only judge' } };
        if (r.tools.includes('exit_plan_mode') && r.toolResults.length === 0)
          return { tool: 'exit_plan_mode', input: { plan_filename: 'plan.md' } };
        return { text: `\`\`\`json\n${JSON.stringify(ANSWER)}\n\`\`\`\n` };
      });
      try {
        const { root, work } = privateStore(onTestFinished);
        const home = join(work, 'home');
        agentConfig(root, 'gemini', real);
        const env = { HOME: home, ...CASES[2]!.setup(home, server.url) };
        const settings = join(home, '.gemini', 'settings.json');
        writeFileSync(
          settings,
          JSON.stringify({
            ...JSON.parse(readFileSync(settings, 'utf8')),
            mcpServers: { judges_store: { command: process.execPath, args: [BIN, '--store', root, 'mcp', '--allow-write'] } },
          }),
        );
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1); // the fourth invariant is not enforced
        for (const g of server.generations()) {
          expect(g.tools).not.toContain('exit_plan_mode');
          expect(g.tools.filter((t) => t.startsWith('mcp_judges_store'))).toEqual([]);
        }
        expect(records(root, EXAMPLE_PLAN, 'violations')).toEqual([]);
      } finally {
        await server.close();
      }
    },
    AGENT_CLI_INSTALL_TIMEOUT_MS,
  );

  it.for(['claude', 'gemini'] as const)(
    '%s: an endpoint that refuses the request fails the run with the error the CLI reported, not its bare exit status',
    { concurrent: true, timeout: AGENT_CLI_INSTALL_TIMEOUT_MS },
    async (agent, { onTestFinished }) => {
      const real = await agentCli(agent);
      const refusal = 'model judge-9f2c is not available to this project';
      const server = await startModelServer(() => ({ status: 400, message: refusal }));
      try {
        const { root, work } = privateStore(onTestFinished);
        const home = join(work, 'home');
        agentConfig(root, agent, real);
        const env = { HOME: home, ...CASES.find((c) => c.agent === agent)!.setup(home, server.url) };
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1);
        const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
        expect(run!.error).toContain(refusal);
        expect(run!.records.every((x) => !x.enforced)).toBe(true);
      } finally {
        await server.close();
      }
    },
  );

  it.concurrent(
    "claude: in a repository with the guard hook installed, the judge's answer is not held to the content guards (its reasoning may quote guarded text)",
    async ({ onTestFinished }) => {
      const real = await agentCli('claude');
      const guarded = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';
      const answer = {
        results: [
          ...ANSWER.results.map((x, i) => (i === 3 ? { ...x, response: 'Step 4 runs DROP TABLE legacy_users on production.' } : x)),
          { invariant_id: guarded, enforced: true, response: 'The plan drops no table by itself.' },
        ],
      };
      const server = await startModelServer((r) =>
        r.toolResults.length > 0
          ? { text: 'done' }
          : r.tools.includes('StructuredOutput')
            ? { tool: 'StructuredOutput', input: answer }
            : { text: 'ok' },
      );
      try {
        const { root, work } = privateStore(onTestFinished);
        gitInit(work);
        writeFileSync(
          join(root, 'global', `${guarded}.yaml`),
          `id: ${guarded}\ntext: Agents never drop tables\nseverity: error\nguard:\n  content: ['(?i)drop\\s+table']\n`,
        );
        agentConfig(root, 'claude', real);
        const install = await runAgents(['guard', 'install', '--client', 'claude', '--program', `${process.execPath} ${BIN}`], {
          cwd: work,
        });
        expect(install.code).toBe(0);
        const home = join(work, 'home');
        // The plan being judged is the active one: a deny would be recorded as its violation.
        const env = { HOME: home, AGENTS_PLAN: EXAMPLE_PLAN, ...CASES[0]!.setup(home, server.url) };
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1); // the fourth invariant is not enforced
        const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
        expect(run!.error).toBeUndefined();
        const byId = (list: { invariant_id: string; enforced: boolean }[]) =>
          Object.fromEntries(list.map((x) => [x.invariant_id, x.enforced]));
        expect(byId(run!.records)).toEqual(byId(answer.results));
        expect(records(root, EXAMPLE_PLAN, 'violations')).toEqual([]);
        // The hook did run for the judge's tool call, and let it be.
        const audit = readFileSync(join(work, '.git/agents/guard-audit.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(audit.filter((a) => a.tool === 'StructuredOutput').map((a) => a.decision)).toEqual(['none']);
      } finally {
        await server.close();
      }
    },
    AGENT_CLI_INSTALL_TIMEOUT_MS,
  );

  it.concurrent(
    'a model that never answers (or a CLI slower than timeout_ms): the CLI is stopped and the run fails',
    async ({ onTestFinished }) => {
      const real = await agentCli('claude');
      const server = await startModelServer((r) => (r.tools.includes('StructuredOutput') ? { hang: true } : { text: 'ok' }));
      try {
        const { root, work } = privateStore(onTestFinished);
        const pidFile = join(work, 'pid');
        const bin = join(work, 'claude');
        // exec keeps the process id: the file names the CLI's own process.
        writeFileSync(bin, `#!/bin/sh\necho $$ > '${pidFile}'\nexec '${real}' "$@"\n`);
        chmodSync(bin, 0o755);
        agentConfig(root, 'claude', bin, 6000);
        const env = { HOME: join(work, 'home'), ...CASES[0]!.setup(join(work, 'home'), server.url) };
        const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env });
        expect(r.code).toBe(1);
        const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
        expect(run!.error).toBe('the agent actor (claude) did not answer within 6000 ms (timeout_ms) and was stopped');
        expect(run!.records.every((x) => !x.enforced)).toBe(true);
        const pid = Number(readFileSync(pidFile, 'utf8'));
        expect(running(pid)).toBe(false);
      } finally {
        await server.close();
      }
    },
    AGENT_CLI_INSTALL_TIMEOUT_MS,
  );

  it.for(['claude', 'gemini'] as const)(
    '%s: a CLI whose output is JSON but no object (null) fails the run, recorded, instead of an internal error',
    async (agent, { onTestFinished }) => {
      const { root, work } = privateStore(onTestFinished);
      const bin = join(work, agent);
      writeFileSync(bin, '#!/bin/sh\ncat > /dev/null\necho null\n');
      chmodSync(bin, 0o755);
      agentConfig(root, agent, bin, 20_000);
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN]);
      expect(r.code).toBe(1);
      const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
      expect(run!.error).toMatch(/output is no JSON object; it begins "null"/);
      expect(run!.records.every((x) => !x.enforced)).toBe(true);
    },
  );

  it.for(['claude', 'gemini'] as const)(
    '%s: a CLI that exits 0 having printed nothing, saying why on standard error alone: the run records what it said, without the key',
    async (agent, { onTestFinished }) => {
      const { root, work } = privateStore(onTestFinished);
      const bin = join(work, agent);
      const variable = agent === 'claude' ? 'ANTHROPIC_API_KEY' : 'GEMINI_API_KEY';
      writeFileSync(bin, `#!/bin/sh\ncat > /dev/null\necho "Invalid API key $${variable} · Please run /login" >&2\n`);
      chmodSync(bin, 0o755);
      agentConfig(root, agent, bin, 20_000);
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env: { [variable]: KEY } });
      expect(r.code).toBe(1);
      const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
      expect(run!.error).toMatch(
        /output is not JSON; it begins ""; its standard error ends: Invalid API key \[key\] · Please run \/login$/,
      );
      expect(run!.records.every((x) => !x.enforced)).toBe(true);
      for (const text of [r.stdout, r.stderr, ...allFiles(root).map((f) => readFileSync(f, 'utf8'))]) expect(text).not.toContain(KEY);
    },
  );

  it.for([
    [
      'claude',
      'ANTHROPIC_API_KEY',
      `echo '{"type":"result","is_error":true,"result":"API Error: 401 invalid key '"$ANTHROPIC_API_KEY"'"}'`,
    ],
    ['gemini', 'GEMINI_API_KEY', `echo '{"error":{"code":401,"message":"invalid key '"$GEMINI_API_KEY"'"}}' >&2`],
  ] as const)(
    '%s: an error the CLI reports that says its key back is recorded and printed without the key',
    async ([agent, variable, report], { onTestFinished }) => {
      const { root, work } = privateStore(onTestFinished);
      const bin = join(work, agent);
      writeFileSync(bin, `#!/bin/sh\ncat > /dev/null\n${report}\nexit 1\n`);
      chmodSync(bin, 0o755);
      agentConfig(root, agent, bin, 20_000);
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], { env: { [variable]: KEY } });
      expect(r.code).toBe(1);
      const [run] = records<EnforcementFile>(root, EXAMPLE_PLAN, 'enforcement');
      expect(run!.error).toMatch(/reported an error: .*401 invalid key \[key\]/);
      const written = allFiles(root).map((f) => readFileSync(f, 'utf8'));
      for (const text of [r.stdout, r.stderr, ...written]) expect(text).not.toContain(KEY);
    },
  );

  it('an agent_path that names no program: exit 2 saying what is there, from the store folder, nothing written', async () => {
    const root = exampleStore();
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin', 'claude'), '#!/bin/sh\n', { mode: 0o644 });
    const before = fileList(root);
    for (const [given, problem] of [
      ['bin/claude', 'not-executable'],
      ['bin', 'folder'],
      ['bin/gone', 'missing'],
    ] as const) {
      writeFileSync(join(root, 'config.yaml'), `version: 1\nreconciliation:\n  actor: agent\n  agent: claude\n  agent_path: ${given}\n`);
      const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'agent-not-found',
        detail: { agent_path: given, path: join(root, given), problem },
      });
      // The preview still shows what would be sent, and says what the run would stop on (on stderr, and as data).
      const shown = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--show-prompt', '--format', 'json']);
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout).problem).toMatchObject({
        code: 'agent-not-found',
        detail: { agent_path: given, path: join(root, given), problem },
      });
      expect(shown.stderr).toContain('agent-not-found');
      expect(fileList(root)).toEqual([...before]);
    }
  });

  // ADR 0703: a CLI found but not startable is refused as the command actor's program is, not recorded as a failed run.
  it('an agent_path that cannot be started (its #! interpreter missing): exit 2, actor-not-started, nothing written', async () => {
    const root = exampleStore();
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin', 'claude'), '#!/no/such/interpreter\n', { mode: 0o755 });
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  actor: agent\n  agent: claude\n  agent_path: bin/claude\n');
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'actor-not-started',
      detail: { setting: 'reconciliation.agent_path', errno: 'ENOENT' },
    });
    expect(fileList(root)).toEqual(before);
  });

  it('a CLI that is not installed: exit 2 naming what to install, nothing written', async () => {
    const root = exampleStore();
    writeFileSync(join(root, 'config.yaml'), 'version: 1\nreconciliation:\n  actor: agent\n  agent: codex\n');
    const before = fileList(root);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json'], { env: { PATH: tempDir() } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exit_code: 2, error: { code: 'agent-not-found' } });
    expect(r.stderr + r.stdout).toContain('npm install -g @openai/codex');
    expect(fileList(root)).toEqual(before);
  });
});
