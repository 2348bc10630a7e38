// A team whose store is not at .agents (a monorepo's tools/agents) runs every command with --store DIR, and so does
// its CI from the repository's top: each command the tool then says to run must carry that --store, so that, pasted
// in the same folder, it reaches the same store, not another or none.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsHints } from '../../src/core/diagnostics.ts';
import { InvalidStoreError, UsageError } from '../../src/core/errors.ts';
import { errorResult, resourceError } from '../../src/mcp/error-answers.ts';
import { CLI_FLAGS, cliFlags } from '../../src/service/option-words.ts';
import { runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir } from '../helpers/tmp.ts';

/** A store's folder a shell must quote, as `--store` is given it. */
const STORE = "tools/my agents's";

/** A folder holding a new store at STORE. */
async function repository(): Promise<string> {
  const cwd = tempDir();
  const made = await runAgents(['init', '--store', STORE, '--actor', 'none'], { cwd });
  expect(made.code, made.stderr).toBe(0);
  return cwd;
}

/** The words after `agents` of each command `text` names in backticks. */
function commandsIn(text: string | null | undefined): string[][] {
  return [...(text ?? '').matchAll(/`agents ([^`]+)`/g)].map((m) => shellWords(m[1]!));
}

/** The JSON error document of a run given `--store STORE --format json`. */
async function refusal(cwd: string, ...args: string[]) {
  const r = await runAgents(['--store', STORE, '--format', 'json', ...args], { cwd });
  expect(r.code, r.stderr).not.toBe(0);
  return { code: r.code, stderr: r.stderr, error: JSON.parse(r.stdout).error };
}

describe('the commands an invalid store file is refused with', () => {
  it("name the run's --store: the error's validate, and the diagnostic's validate --fix, in text and in JSON", async () => {
    const cwd = await repository();
    writeFileSync(join(cwd, STORE, 'global', 'bad.yaml'), 'id: [\n');
    const { code, stderr, error } = await refusal(cwd, 'invariant', 'list');
    expect([code, error.code]).toEqual([3, 'invalid-store']);
    expect(commandsIn(error.hint)).toEqual([['--store', STORE, 'validate']]);
    const named = error.detail.diagnostics.find((d: { code: string }) => d.code === 'id-invalid');
    expect(commandsIn(named.hint)).toEqual([['--store', STORE, 'validate', '--fix']]);
    expect(commandsIn(stderr)).toEqual([
      ['--store', STORE, 'validate', '--fix'],
      ['--store', STORE, 'validate'],
    ]);
  });

  it("name it in validate's own report, in every format", async () => {
    const cwd = await repository();
    writeFileSync(join(cwd, STORE, 'global', 'bad.yaml'), 'id: [\n');
    const json = await runAgents(['--store', STORE, '--format', 'json', 'validate'], { cwd });
    expect(json.code).toBe(1);
    const named = JSON.parse(json.stdout).diagnostics.find((d: { code: string }) => d.code === 'id-invalid');
    expect(commandsIn(named.hint)).toEqual([['--store', STORE, 'validate', '--fix']]);
    const text = await runAgents(['--store', STORE, 'validate'], { cwd });
    expect(commandsIn(text.stdout)).toEqual([['--store', STORE, 'validate', '--fix']]);
    // Named by AGENTS_STORE, which a pasted command keeps, the store needs no --store: the command is the bare one.
    const env = await runAgents(['--format', 'json', 'validate'], { cwd, env: { AGENTS_STORE: join(cwd, STORE) } });
    const own = JSON.parse(env.stdout).diagnostics.find((d: { code: string }) => d.code === 'id-invalid');
    expect(commandsIn(own.hint)).toEqual([['validate', '--fix']]);
  });

  it('name it for an invalid config.yaml', async () => {
    const cwd = await repository();
    writeFileSync(join(cwd, STORE, 'config.yaml'), 'version: [\n');
    const { code, error } = await refusal(cwd, 'export');
    expect(code).toBe(3);
    expect(commandsIn(error.hint)).toEqual([['--store', STORE, 'validate']]);
  });

  it("name it for a lock that is no writer's (a folder): the fix that removes it", async () => {
    const cwd = await repository();
    mkdirSync(join(cwd, STORE, 'global', '.lock'));
    const { code, error } = await refusal(cwd, 'invariant', 'add', '--global', 'Never push to main');
    expect(code).toBe(3);
    expect(commandsIn(error.hint)).toEqual([['--store', STORE, 'validate', '--fix']]);
    expect(commandsIn(error.detail.diagnostics[0].hint)).toEqual([['--store', STORE, 'validate', '--fix']]);
  });
});

describe('the commands a policy source not pinned yet is said with', () => {
  it("name the run's --store in the notice of a listing", async () => {
    const cwd = await repository();
    appendFileSync(join(cwd, STORE, 'config.yaml'), 'extends:\n  - name: policy\n    url: ../policy\n    ref: main\n');
    const r = await runAgents(['--store', STORE, 'invariant', 'list'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(commandsIn(r.stderr)).toEqual([['--store', STORE, 'extends', 'update']]);
  });
});

describe('the commands the other refusals under --store name', () => {
  it('validate --fix with --staged', async () => {
    const cwd = await repository();
    const { code, error } = await refusal(cwd, 'validate', '--staged', '--fix');
    expect([code, error.code]).toEqual([2, 'conflicting-options']);
    expect(commandsIn(error.hint)).toEqual([['--store', STORE, 'validate', '--fix']]);
  });

  it('project remove of a project whose project.yaml names paths: the export that takes its files away', async () => {
    const cwd = await repository();
    expect((await runAgents(['--store', STORE, 'project', 'add', 'web', '--path', 'src/**'], { cwd })).code).toBe(0);
    const { code, error } = await refusal(cwd, 'project', 'remove', 'web');
    expect([code, error.code]).toEqual([1, 'project-in-use']);
    expect(commandsIn(error.message)).toEqual([['--store', STORE, 'export']]);
  });

  it('init --schemas refused part-way: the rerun that makes the rest', async () => {
    const cwd = await repository();
    // The second copy init writes is refused: the first is already refreshed.
    rmSync(join(cwd, STORE, 'schemas/plan.schema.json'));
    mkdirSync(join(cwd, STORE, 'schemas/plan.schema.json'));
    const { code, error } = await refusal(cwd, 'init', '--schemas');
    expect([code, error.code]).toEqual([2, 'write-failed']);
    expect(shellWords(error.detail.rerun)).toEqual(['agents', '--store', STORE, 'init', '--schemas']);
    expect(commandsIn(error.hint)).toEqual([['--store', STORE, 'init', '--schemas']]);
  });

  it('an empty store: the add of the first invariant', async () => {
    const cwd = await repository();
    const r = await runAgents(['--store', STORE, 'invariant', 'list'], { cwd });
    expect(r.code).toBe(0);
    const add = /Add one: agents (.*)$/m.exec(r.stdout)![1]!;
    expect(shellWords(add)).toEqual(['--store', STORE, 'invariant', 'add', '--global', 'TEXT']);
  });
});

describe("the reruns of a write refused part-way, in the command line's words", () => {
  it("start with the run's agents, and are the library's own calls to a library caller", () => {
    const { calls } = cliFlags("agents --store 'tools/my agents'");
    expect([
      calls.syncPlan('01M8KM00000000000000000000'),
      calls.removeProject('web'),
      calls.exportFiles(),
      calls.exportFiles(['agents-md', 'cursor']),
      calls.importReplace,
      calls.fix,
      calls.extendsUpdate,
      calls.extendsFetch,
    ]).toEqual([
      "agents --store 'tools/my agents' plan sync 01M8KM00000000000000000000",
      "agents --store 'tools/my agents' project remove web",
      "agents --store 'tools/my agents' export",
      "agents --store 'tools/my agents' export --target agents-md,cursor",
      "agents --store 'tools/my agents' import --replace",
      "agents --store 'tools/my agents' validate --fix",
      "agents --store 'tools/my agents' extends update",
      "agents --store 'tools/my agents' extends fetch",
    ]);
    expect(CLI_FLAGS.calls.exportFiles()).toBe('agents export');
  });
});

describe("an MCP server's error answers", () => {
  const agents = "agents --store 'tools/my agents'";
  const many = Array.from({ length: 25 }, (_, i) => ({
    code: 'id-invalid' as const,
    severity: 'error' as const,
    file: `global/bad${i}.yaml`,
    line: 0,
    col: 0,
    message: 'bad',
    hint: 'Run `agents validate --fix`.',
  }));
  const stderr = { write: () => true };

  it("name the server's --store in the more line, the hint and each diagnostic's hint", () => {
    const answer = errorResult(new InvalidStoreError('cannot list invariants', many), stderr, agents);
    const text = answer.content[0]!.type === 'text' ? answer.content[0]!.text : '';
    expect(commandsIn(text).filter((c) => c[2] === 'validate' && c.length === 3)).toEqual([
      ['--store', 'tools/my agents', 'validate'],
      ['--store', 'tools/my agents', 'validate'],
    ]);
    const meta = (answer._meta as Record<string, { hint: string; diagnostics: { hint: string }[] }>)['agents/error']!;
    expect(commandsIn(meta.hint)).toEqual([['--store', 'tools/my agents', 'validate']]);
    expect(commandsIn(meta.diagnostics[0]!.hint)).toEqual([['--store', 'tools/my agents', 'validate', '--fix']]);
    const resource = resourceError(new InvalidStoreError('cannot read', many), agents);
    expect(commandsIn(resource.message).filter((c) => c.length === 3)).toEqual([
      ['--store', 'tools/my agents', 'validate'],
      ['--store', 'tools/my agents', 'validate'],
    ]);
  });
});

describe('agentsHints', () => {
  it("starts each command of a hint with the run's agents, once, and leaves a bare run's and other text alone", () => {
    const d = { hint: 'Run `agents validate --fix`, or `git rm` it; the agents block stays.' };
    expect(agentsHints("agents --store 'a$b'")(d).hint).toBe(
      "Run `agents --store 'a$b' validate --fix`, or `git rm` it; the agents block stays.",
    );
    expect(agentsHints('agents')(d)).toBe(d);
    const given = { hint: "Run `agents --store 'x' plan list`." };
    expect(agentsHints("agents --store 'x'")(given).hint).toBe(given.hint);
  });

  it('is what a UsageError with a command hint says under each agents', () => {
    const error = new UsageError('x', (agents) => `Run \`${agents} plan list\`.`);
    expect(error.hint).toBe('Run `agents plan list`.');
    expect(error.hintFor('agents --store d')).toBe('Run `agents --store d plan list`.');
  });
});

describe('the next commands a report under --store names', () => {
  /** The words after `agents` of a text's `Next: agents …` line. */
  const next = (text: string) => shellWords(/Next: agents (.*)$/m.exec(text)![1]!);

  it('the lists with nothing in them, and the Next of what project add and action add made', async () => {
    const cwd = await repository();
    const run = async (...args: string[]) => (await runAgents(['--store', STORE, ...args], { cwd })).stdout;
    expect(commandsIn(await run('project', 'list'))).toEqual([['--store', STORE, 'project', 'add', 'NAME']]);
    expect(commandsIn(await run('action', 'list'))).toEqual([['--store', STORE, 'action', 'add', 'NS/NAME']]);
    expect(commandsIn(await run('plan', 'list'))).toEqual([['--store', STORE, 'plan', 'use', 'NS/NAME']]);
    expect(next(await run('project', 'add', 'web'))).toEqual(['--store', STORE, 'invariant', 'add', '--project', 'web', '…']);
    expect(next(await run('action', 'add', 'ops/deploy'))).toEqual(['--store', STORE, 'invariant', 'add', '--action', 'ops/deploy', '…']);
  });

  it("a plan's: plan use's Next, plan status's reason, plan decisions and plan show before any run", async () => {
    const cwd = await repository();
    const run = async (...args: string[]) => runAgents(['--store', STORE, ...args], { cwd });
    expect((await run('action', 'add', 'ops/deploy')).code).toBe(0);
    expect((await run('invariant', 'add', '--action', 'ops/deploy', 'Never deploy on Fridays')).code).toBe(0);
    const used = await run('--format', 'json', 'plan', 'use', 'ops/deploy');
    const id = JSON.parse(used.stdout).plan.id as string;
    const strategize = ['--store', STORE, 'plan', 'strategize', id];
    // The store's actor is none: the Next line says to choose one, then names the run, and the interactive one.
    const said = (await run('plan', 'use', 'ops/deploy')).stdout;
    const again = /plan ([0-9A-Z]{26}) from action/.exec(said)![1]!;
    expect([...said.matchAll(/(agents [^;\n]*?)(?:;|$)/gm)].map((m) => shellWords(m[1]!).slice(1))).toEqual([
      ['--store', STORE, 'plan', 'strategize', again],
      ['--store', STORE, 'plan', 'strategize', again, '--actor', 'interactive'],
    ]);
    const status = JSON.parse((await run('--format', 'json', 'plan', 'status', id)).stdout);
    const notRun = status.reasons.find((r: { code: string }) => r.code === 'not-run');
    expect(commandsIn(notRun.message)).toEqual([strategize]);
    expect(commandsIn((await run('plan', 'decisions', id)).stdout)).toEqual([strategize]);
    expect(commandsIn((await run('plan', 'show', id)).stdout)).toEqual([strategize, strategize]);
  });

  it('the refusal of an empty scope name, which the parse finds before the store is known', async () => {
    const cwd = await repository();
    const empty = await refusal(cwd, 'invariant', 'list', '--project', '');
    expect([empty.code, empty.error.code]).toEqual([2, 'missing-value']);
    expect(commandsIn(empty.error.hint)).toEqual([['--store', STORE, 'project', 'list']]);
    const equals = await runAgents([`--store=${STORE}`, '--format', 'json', 'invariant', 'list', '--plan='], { cwd });
    expect(commandsIn(JSON.parse(equals.stdout).error.hint)).toEqual([['--store', STORE, 'plan', 'list']]);
  });
});

describe('the commands export, import and the examples of a refusal name under --store', () => {
  it('the import of a file an instruction file has its agent read', async () => {
    const cwd = await repository();
    // Outside git the store's parent folder is the repository's top, whose files import reads.
    const top = join(cwd, STORE, '..');
    writeFileSync(join(top, 'CLAUDE.md'), '# Rules\n\n- Never push to main.\n\n@docs/more.md\n');
    mkdirSync(join(top, 'docs'));
    writeFileSync(join(top, 'docs/more.md'), '- Always run the tests.\n');
    const r = await runAgents(['--store', STORE, '--format', 'json', 'import', '--dry-run', join(top, 'CLAUDE.md')], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const imports = JSON.parse(r.stdout).files.flatMap((f: { references: { import: string }[] }) => f.references.map((x) => x.import));
    // The file's path from the current folder, where the command is pasted: from the top it would name no file here.
    const path = relative(cwd, join(top, 'docs/more.md'));
    expect(imports.map(shellWords)).toEqual([['agents', '--store', STORE, 'import', path, '--from', 'claude-md', '--global']]);
    const pasted = await runAgents([...shellWords(imports[0]).slice(1), '--dry-run'], { cwd });
    expect(pasted.code, pasted.stderr).toBe(0);
  });

  it("the example a refusal of a missing value gives: invariant add's, export --stdout's", async () => {
    const cwd = await repository();
    const example = (hint: string) => shellWords(/agents (.*?)\.?$/.exec(hint)![1]!);
    const add = await refusal(cwd, 'invariant', 'add');
    expect(example(add.error.hint)).toEqual(['--store', STORE, 'invariant', 'add', '--global', 'Never delete production data']);
    const stdout = await refusal(cwd, 'export', '--stdout');
    expect(example(stdout.error.hint).slice(0, 3)).toEqual(['--store', STORE, 'export']);
  });
});

describe("the parse's refusals under --store", () => {
  it("name the run's --store in the --help, the suggestion and the usage they give", async () => {
    const cwd = tempDir();
    const hint = async (...args: string[]) => (await refusal(cwd, ...args)).error.hint as string;
    expect(commandsIn(await hint('init', '--bogus'))).toEqual([['--store', STORE, 'init', '--help']]);
    expect(commandsIn(await hint('init', '--hook'))).toEqual([['--store', STORE, 'init', '--help']]);
    expect(commandsIn(await hint('init', '--project', 'web'))).toEqual([['--store', STORE, 'init', '--help']]);
    expect(commandsIn(await hint('invariant', 'lst'))).toEqual([
      ['--store', STORE, 'invariant', 'list'],
      ['--store', STORE, 'invariant', 'ls'],
    ]);
    expect(commandsIn(await hint('plan'))).toEqual([['--store', STORE, 'plan', '--help']]);
    expect(commandsIn(await hint('invariant', 'show'))).toEqual([
      ['--store', STORE, 'invariant', 'list'],
      ['--store', STORE, 'invariant', 'show', '--help'],
    ]);
    expect(commandsIn(await hint('invariant', 'list', '--format', 'jsn'))).toEqual([['--store', STORE, 'invariant', 'list', '--help']]);
    expect(commandsIn(await hint('plan', 'use', '--action', 'x/y'))).toEqual([['--store', STORE, 'plan', 'use', '--help']]);
    expect(commandsIn(await hint('--bogus', 'invariant', 'list'))).toEqual([
      ['--store', STORE, '--help'],
      ['--store', STORE, 'COMMAND', '--help'],
    ]);
    expect(commandsIn(await hint('invariant', 'add', '-effective'))).toEqual([['--store', STORE, 'invariant', 'add', '--help']]);
    expect(commandsIn(await hint('--', 'invariant', 'list'))).toEqual([
      ['--store', STORE, '--help'],
      ['--store', STORE, 'COMMAND', '--help'],
    ]);
    // An actor's flag without its actor, which init checks itself.
    expect(commandsIn(await hint('init', '--model', 'x'))).toEqual([['--store', STORE, 'init', '--help']]);
    // Run as the hint says, it answers.
    const help = await runAgents(['--store', STORE, 'init', '--help'], { cwd });
    expect(help.code).toBe(0);
  });
});
