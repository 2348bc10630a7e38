/**
 * Running the real agent clients (test/helpers/agent-clis.ts) headless against the scripted model
 * server (test/helpers/model-server.ts), as a user runs them in a repository.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCliName } from './agent-clis.ts';

/** A process's exit code and output; killed after 80 s, so a client that hangs fails its test instead of the run. */
export function runProcess(
  bin: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * Runs a client headless in `dir` ("Please do the task.") against the model server at `modelUrl`,
 * with `env` (a private HOME, …) and its settings written into `home` (`codexConfig`: more lines of
 * Codex's config.toml). Claude Code as root needs IS_SANDBOX=1; Codex reads the project's
 * .codex/hooks.json only with --trust, and offers apply_patch only with the model's metadata;
 * Gemini CLI needs a trusted folder and --yolo to offer its write and shell tools.
 */
export function runAgentClient(
  client: AgentCliName,
  bin: string,
  dir: string,
  env: Record<string, string>,
  home: string,
  modelUrl: string,
  codexConfig: readonly string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (client === 'claude') {
    return runProcess(
      bin,
      ['-p', 'Please do the task.', '--output-format', 'json', '--dangerously-skip-permissions', '--model', 'claude-sonnet-4-5'],
      dir,
      {
        ...env,
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'dummy',
        IS_SANDBOX: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    );
  }
  if (client === 'codex') {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const catalog = join(home, 'models.json');
    writeFileSync(catalog, JSON.stringify({ models: [codexModel()] }));
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "stub-model"',
        'model_provider = "stub"',
        'check_for_update_on_startup = false',
        '[model_providers.stub]',
        'name = "stub"',
        `base_url = "${modelUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "STUB_API_KEY"',
        '[analytics]',
        'enabled = false',
        '[otel]',
        'exporter = "none"',
        ...codexConfig,
        '',
      ].join('\n'),
    );
    return runProcess(
      bin,
      [
        'exec',
        '--json',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '--dangerously-bypass-hook-trust',
        // The project's .codex/hooks.json is read only in a trusted project.
        '--trust',
        '-c',
        `model_catalog_json="${catalog}"`,
        'Please do the task.',
      ],
      dir,
      { ...env, CODEX_HOME: codexHome, STUB_API_KEY: 'dummy' },
    );
  }
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    }),
  );
  return runProcess(bin, ['-p', 'Please do the task.', '--output-format', 'json', '--yolo'], dir, {
    ...env,
    GEMINI_API_KEY: 'dummy',
    GOOGLE_GEMINI_BASE_URL: modelUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_MODEL: 'gemini-2.5-flash',
  });
}

/** The model's metadata Codex needs to offer apply_patch as a freeform tool. */
export function codexModel(): Record<string, unknown> {
  return {
    slug: 'stub-model',
    display_name: 'stub-model',
    description: 'a scripted model for tests',
    apply_patch_tool_type: 'freeform',
    shell_type: 'shell_command',
    visibility: 'list',
    supported_in_api: true,
    priority: 1,
    upgrade: null,
    base_instructions: 'You are a test agent.',
    supports_reasoning_summaries: false,
    default_reasoning_summary: 'none',
    support_verbosity: false,
    default_verbosity: null,
    default_reasoning_level: 'low',
    supported_reasoning_levels: [{ effort: 'low', description: 'low' }],
    truncation_policy: { mode: 'tokens', limit: 10000 },
    supports_parallel_tool_calls: false,
    context_window: 200000,
    experimental_supported_tools: [],
    input_modalities: ['text'],
  };
}
