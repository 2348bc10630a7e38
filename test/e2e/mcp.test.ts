import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setMaxListeners } from 'node:events';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { commitAll, git, GIT_ENV, gitInit } from '../helpers/git.ts';
import { errorOf, type McpSession, startMcp, textOf } from '../helpers/mcp.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records } from '../helpers/plans.ts';
import { guardedYaml, invariantYaml } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';
import { lastingDir, tempDir } from '../helpers/tmp.ts';
import { LOCKED, consumer, policyRepo, run } from '../extends/repos.ts';

const NEVER_DELETE = '01M8KJT9G0XNWEM589ZS7FV0VT';
const GLOBAL_LOG = '01M8KJW430VF8WCABSB8RTQ8RY';
const API_TESTS = '01M8KJXYP0GVPRF8KRRE9G8474';
const PROJECT_LOG = '01M8KJZS90J6DRJJ8E264B9DFX';
const PLAN_OWN = '01M8KK3EF09G9ET4TAJAHQWPMN';
const NEW_ID = '01M9AAAAAAAAAAAAAAAAAAAAAA';

const call = async (s: Awaited<ReturnType<typeof startMcp>>, name: string, args: Record<string, unknown>) =>
  (await s.client.callTool({ name, arguments: args })) as CallToolResult;

/** The CLI's report of the same mistake, as `main` prints it on stderr. */
async function cliError(root: string, ...args: string[]): Promise<{ code: number; text: string }> {
  const r = await runAgents(['--store', root, ...args]);
  return { code: r.code, text: r.stderr.trimEnd() };
}

/**
 * One server for the tests that need no option of their own and leave the store as they found it (each undoes its
 * changes as it ends): started by the first of them, on the example store in a git repository, and closed once the
 * file's tests are done. A server of its own costs a test a start of the CLI and of the SDK's client.
 */
let sharedServer: Promise<{ root: string; s: McpSession }> | undefined;
function shared(): Promise<{ root: string; s: McpSession }> {
  sharedServer ??= (async () => {
    // In a folder of the worker's, not of the first test's, which is removed as that test ends.
    const root = join(lastingDir('agents-mcp-shared-'), '.agents');
    cpSync(join(REPO, '.agents.example'), root, { recursive: true });
    gitInit(dirname(root));
    return { root, s: await startMcp(root, [], {}, 'caller') };
  })();
  return sharedServer;
}
afterAll(async () => {
  if (sharedServer) await (await sharedServer).s.client.close();
});

/** Puts `file` back as it is now when the test ends. */
function restoredAfter(file: string): void {
  const before = readFileSync(file);
  onTestFinished(() => writeFileSync(file, before));
}

describe('agents mcp: initialize, tools and resources', () => {
  it('initializes, lists its tools (writing ones marked off) and the effective sets as resources', async () => {
    const { root, s } = await shared();
    // A folder of a reserved name holds no project: no resource is listed for it (none could be read).
    mkdirSync(join(root, 'projects', 'global'));
    onTestFinished(() => rmSync(join(root, 'projects', 'global'), { recursive: true, force: true }));
    writeFileSync(join(root, 'projects', 'global', '.gitkeep'), '');
    expect(s.client.getServerVersion()).toMatchObject({ name: 'agents' });
    expect(s.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true, listChanged: true } });
    expect(s.client.getInstructions()).toContain('effective_invariants');

    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'effective_invariants',
      'list_invariants',
      'show_invariant',
      'record_violation',
      'plan_status',
      'record_reconciliation',
      'check_action',
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(80);
    }
    expect(byName.get('record_violation')!._meta).toEqual({ 'agents/enabled': false });
    expect(byName.get('record_violation')!.description).toMatch(/^OFF in this server/);
    expect(byName.get('record_violation')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('effective_invariants')!._meta).toEqual({ 'agents/enabled': true });
    expect(byName.get('effective_invariants')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('record_violation')!.inputSchema.required).toEqual(['plan', 'invariant', 'details']);

    const { resources } = await s.client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['agents://projects/myapp/effective.md', 'text/markdown'],
      ['agents://projects/myapp/effective.json', 'application/json'],
      [`agents://plans/${EXAMPLE_PLAN}/effective.md`, 'text/markdown'],
      [`agents://plans/${EXAMPLE_PLAN}/effective.json`, 'application/json'],
    ]);
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('agents://projects/{project}/effective.json');

    const json = await s.client.readResource({ uri: `agents://plans/${EXAMPLE_PLAN}/effective.json` });
    const data = JSON.parse((json.contents[0] as { text: string }).text);
    expect(json.contents[0]!.mimeType).toBe('application/json');
    expect(data.target).toEqual({ kind: 'plan', project: 'myapp', plan: EXAMPLE_PLAN });
    // The same entries as the CLI's --format json.
    const cli = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN, '--format', 'json']);
    expect(data.invariants).toEqual(JSON.parse(cli.stdout));
    const md = await s.client.readResource({ uri: 'agents://projects/myapp/effective.md' });
    const text = (md.contents[0] as { text: string }).text;
    expect(text).toContain('# Invariants of project myapp');
    expect(text).toContain(`All API changes need tests (\`${API_TESTS}\` · error)`);
    expect(text).toContain(`Shadows global ${GLOBAL_LOG}.`);

    // Unknown and outside-the-store URIs are errors, not empty sets.
    await expect(s.client.readResource({ uri: 'agents://projects/../../etc/effective.md' })).rejects.toThrow(/unknown resource/);
    await expect(s.client.readResource({ uri: 'agents://plans/01M8ZZZZZZZZZZZZZZZZZZZZZZ/effective.json' })).rejects.toMatchObject({
      code: -32002,
    });
    // A project name of the template with no folder is as unknown: not found, with the CLI's message.
    await expect(s.client.readResource({ uri: 'agents://projects/myap/effective.json' })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining('unknown project myap'),
    });
    // A name the store cannot hold is no resource either (not invalid params), read or subscribed to, said with the CLI's words.
    await expect(s.client.readResource({ uri: 'agents://projects/MyApp/effective.json' })).rejects.toMatchObject({
      code: -32002,
      data: { code: 'usage', detail: { suggestions: ['myapp'] } },
    });
    await expect(s.client.readResource({ uri: `agents://plans/${EXAMPLE_PLAN.toLowerCase()}/effective.md` })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(s.client.subscribeResource({ uri: 'agents://projects/MyApp/effective.md' })).rejects.toMatchObject({ code: -32002 });
  });

  it('answers every read tool, with structured content and text', async () => {
    const { root, s } = await shared();

    const eff = await call(s, 'effective_invariants', { project: 'myapp' });
    expect(eff.isError).toBeFalsy();
    const cli = JSON.parse(
      (await runAgents(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'])).stdout,
    );
    expect(eff.structuredContent).toEqual({
      target: { kind: 'project', project: 'myapp', plan: null },
      count: 3,
      invariants: cli,
      warnings: [],
      next_cursor: null,
    });
    expect(textOf(eff)).toContain('3 invariants apply');

    const byPrefix = await call(s, 'effective_invariants', { plan: EXAMPLE_PLAN.slice(0, 8), pattern: 'log' });
    expect((byPrefix.structuredContent as { invariants: { id: string }[] }).invariants.map((i) => i.id)).toEqual([PROJECT_LOG]);
    // What a pattern matched is never given to the agent as all that applies, nor an empty match as an empty set.
    expect(textOf(byPrefix)).not.toContain('1 invariant applies');
    expect(textOf(byPrefix)).toContain('"log"');
    const none = await call(s, 'effective_invariants', { project: 'myapp', pattern: 'nothing like this' });
    expect((none.structuredContent as { count: number }).count).toBe(0);
    expect(textOf(none)).not.toContain('the set is empty');

    // An unknown project is refused as the CLI refuses it, naming the close one.
    const typo = await call(s, 'effective_invariants', { project: 'myap' });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toBe((await cliError(root, 'invariant', 'list', '--effective', '--project', 'myap')).text);
    // The failure's stable name, as the CLI's JSON error document gives it.
    const typoJson = await runAgents(['--store', root, '--format', 'json', 'invariant', 'list', '--effective', '--project', 'myap']);
    expect((JSON.parse(typoJson.stdout) as { error: { code: string } }).error.code).toBe('unknown-project');
    expect(errorOf(typo).code).toBe('unknown-project');

    const list = await call(s, 'list_invariants', {});
    expect((list.structuredContent as { count: number }).count).toBe(6);
    const global = await call(s, 'list_invariants', { global: true });
    expect((global.structuredContent as { invariants: { id: string }[] }).invariants.map((i) => i.id)).toEqual([NEVER_DELETE, GLOBAL_LOG]);
    const action = await call(s, 'list_invariants', { action: 'local/code-coverage' });
    expect((action.structuredContent as { count: number }).count).toBe(1);
    const plan = await call(s, 'list_invariants', { plan: EXAMPLE_PLAN.slice(0, 6) });
    expect((plan.structuredContent as { invariants: { id: string }[] }).invariants.map((i) => i.id)).toEqual([PLAN_OWN]);

    const show = await call(s, 'show_invariant', { id: GLOBAL_LOG.slice(0, 8) });
    expect(show.structuredContent).toMatchObject({
      invariant: { id: GLOBAL_LOG, scope: 'global' },
      applies_to: 'every project and every plan',
      shadowed_by: [{ id: PROJECT_LOG, scope: 'project', path: `projects/myapp/${PROJECT_LOG}.yaml` }],
    });

    const status = await call(s, 'plan_status', { plan: EXAMPLE_PLAN.slice(0, 8) });
    expect(status.structuredContent).toMatchObject({
      plan: { id: EXAMPLE_PLAN, project: 'myapp' },
      effective_count: 4,
      latest_enforcement: null,
      violations: { error: 0, warning: 0, info: 0 },
      failing: true,
    });
    // Never reconciled: the plan gate fails it (docs/plans.md), as `agents plan status` does with exit 1.
    expect((status.structuredContent as { reasons: { code: string; level: string }[] }).reasons.map((x) => [x.code, x.level])).toEqual([
      ['not-run', 'fail'],
    ]);
    // One shape and one text for both surfaces (src/present/plan-status.ts): the CLI's JSON and text are the tool's.
    const cliStatus = await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json']);
    expect(cliStatus.code).toBe(1);
    // The tool's adds the cursor of its next page of reasons: none, they fit in one.
    expect(status.structuredContent).toEqual({ ...JSON.parse(cliStatus.stdout), next_cursor: null });
    expect(textOf(status)).toBe((await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN])).stdout.trimEnd());

    // The plan's project gone (renamed in a merge): the set without it is said to be short, never given in silence.
    renameSync(join(root, 'projects/myapp'), join(root, 'projects/web'));
    onTestFinished(() => renameSync(join(root, 'projects/web'), join(root, 'projects/myapp')));
    const at = [`plans/${EXAMPLE_PLAN}/plan.yaml`, 3, 10];
    const short = await call(s, 'effective_invariants', { plan: EXAMPLE_PLAN });
    const warned = (data: unknown) =>
      (data as { warnings: { code: string; file: string; line: number; col: number }[] }).warnings.map((w) => [
        w.code,
        w.file,
        w.line,
        w.col,
      ]);
    expect(warned(short.structuredContent)).toEqual([['unknown-project', ...at]]);
    // Said once in the text, though the service's notice says it too.
    expect(textOf(short).split(`warning: ${at.join(':')} unknown-project:`).length).toBe(2);
    const gone = await call(s, 'plan_status', { plan: EXAMPLE_PLAN });
    expect(warned(gone.structuredContent)).toEqual([['unknown-project', ...at]]);
    expect((gone.structuredContent as { reasons: { code: string; level: string }[] }).reasons[0]).toMatchObject({
      code: 'unknown-project',
      level: 'fail',
    });
    expect(gone.structuredContent).toEqual({
      ...JSON.parse((await runAgents(['--store', root, 'plan', 'status', EXAMPLE_PLAN, '--format', 'json'])).stdout),
      next_cursor: null,
    });
    // Said once: the reason is the read's warning, not repeated as a note in other words.
    expect(textOf(gone).match(/unknown-project/g)).toHaveLength(1);
    expect(gone._meta?.['agents/notices']).toBeUndefined();
    for (const form of ['md', 'json']) {
      const read = await s.client.readResource({ uri: `agents://plans/${EXAMPLE_PLAN}/effective.${form}` });
      const text = (read.contents[0] as { text: string }).text;
      if (form === 'json') expect(warned(JSON.parse(text))).toEqual([['unknown-project', ...at]]);
      else expect(text).toContain(`warning: ${at.join(':')} unknown-project:`);
    }
    // The prompt that hands the set to the agent to judge says it too.
    const prompt = await s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(`Note: warning: ${at.join(':')} unknown-project:`);
  });

  it('effective_invariants for a file path: the project whose paths hold it; in no project, or outside the repository, an error', async () => {
    const { root, s } = await shared();
    restoredAfter(join(root, 'projects', 'myapp', 'project.yaml'));
    writeFileSync(join(root, 'projects', 'myapp', 'project.yaml'), 'paths: [services/myapp/**]\n');
    const r = await call(s, 'effective_invariants', { path: 'services/myapp/api/handler.ts' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      target: { kind: 'project', project: 'myapp', plan: null, path: 'services/myapp/api/handler.ts' },
      count: 3,
    });
    const folder = await call(s, 'effective_invariants', { path: 'services/myapp/' });
    expect(folder.structuredContent).toMatchObject({ target: { project: 'myapp' }, count: 3 });
    const none = await call(s, 'effective_invariants', { path: 'docs/readme.md' });
    expect(none.isError).toBe(true);
    expect(errorOf(none)).toMatchObject({ exit_code: 2, message: "docs/readme.md is in no project's paths" });
    // The server was started with --store: the command its hint names reaches that store, not one found from the client's folder.
    expect(errorOf(none).hint).toContain(`\`agents --store ${root} which PATH\``);
    const outside = await call(s, 'effective_invariants', { path: '../../etc/passwd' });
    expect(outside.isError).toBe(true);
    expect(errorOf(outside).message).toMatch(/is outside the repository/);
    // An absolute path through a link to the repository (macOS's /tmp) leads into it, as check_action takes it.
    const link = join(tempDir(), 'repository');
    symlinkSync(dirname(root), link);
    const linked = await call(s, 'effective_invariants', { path: `${link}/services/myapp/api/handler.ts` });
    expect(linked.isError).toBeFalsy();
    expect(linked.structuredContent).toMatchObject({ target: { kind: 'project', project: 'myapp' }, count: 3 });
    expect(errorOf(await call(s, 'effective_invariants', { path: `${link}/../etc/passwd` })).exit_code).toBe(2);
  });

  it("effective_invariants for a folder: the project holding every file of it, as the CLI infers it there; a file's by its globs", async () => {
    const { root, s } = await shared();
    const top = dirname(root);
    restoredAfter(join(root, 'projects', 'myapp', 'project.yaml'));
    writeFileSync(join(root, 'projects', 'myapp', 'project.yaml'), 'paths: [services/myapp/**]\n');
    // A project of file globs holds some files of every folder, all of none.
    mkdirSync(join(root, 'projects', 'typed'));
    onTestFinished(() => rmSync(join(root, 'projects', 'typed'), { recursive: true, force: true }));
    writeFileSync(join(root, 'projects', 'typed', 'project.yaml'), "paths: ['**/*.ts']\n");
    mkdirSync(join(top, 'services', 'myapp', 'api'), { recursive: true });
    onTestFinished(() => rmSync(join(top, 'services'), { recursive: true, force: true }));
    const cli = async (cwd: string) => runAgents(['--store', root, 'invariant', 'list', '--effective', '--format', 'json'], { cwd });

    // The top: typed holds only its .ts files, so no project is the top's, for the CLI run there as for the tool.
    for (const path of ['./', '.', top]) {
      const r = await call(s, 'effective_invariants', { path });
      expect(r.isError, path).toBe(true);
      expect(errorOf(r)).toMatchObject({ code: 'usage', exit_code: 2, detail: { partly: ['typed'] } });
    }
    expect((await cli(top)).code).toBe(2);

    // A folder inside myapp's, with "/" or without (a folder on disk): myapp, which holds all of it; the CLI says the same.
    const inCli = (JSON.parse((await cli(join(top, 'services', 'myapp', 'api'))).stdout) as { id: string }[]).map((i) => i.id);
    for (const path of ['services/myapp/', 'services/myapp/api', `${top}/services/myapp/api/`]) {
      const r = await call(s, 'effective_invariants', { path });
      expect(r.isError, path).toBeFalsy();
      expect(r.structuredContent, path).toMatchObject({ target: { kind: 'project', project: 'myapp', path }, count: 3 });
      expect((r.structuredContent as { invariants: { id: string }[] }).invariants.map((i) => i.id)).toEqual(inCli);
    }
    // A folder not there yet, said so by its "/", by the same rule.
    expect((await call(s, 'effective_invariants', { path: 'services/myapp/later/' })).structuredContent).toMatchObject({
      target: { project: 'myapp' },
    });

    // A file keeps `agents which`' rule: the projects whose globs match it.
    expect((await call(s, 'effective_invariants', { path: 'web/index.ts' })).structuredContent).toMatchObject({
      target: { project: 'typed' },
    });
    expect(errorOf(await call(s, 'effective_invariants', { path: 'services/myapp/api/handler.ts' }))).toMatchObject({
      exit_code: 2,
      detail: { projects: ['myapp', 'typed'] },
    });
  });

  it('effective_invariants for a path written in another case: its project where git ignores case, none elsewhere', async () => {
    const { root, s } = await shared();
    restoredAfter(join(root, 'projects', 'myapp', 'project.yaml'));
    writeFileSync(join(root, 'projects', 'myapp', 'project.yaml'), 'paths: [services/myapp/**]\n');
    restoredAfter(join(dirname(root), '.git', 'config'));
    const path = 'Services/MyApp/api/handler.ts';
    expect(errorOf(await call(s, 'effective_invariants', { path })).message).toBe(`${path} is in no project's paths`);
    git(dirname(root), 'config', 'core.ignorecase', 'true');
    const r = await call(s, 'effective_invariants', { path });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ target: { kind: 'project', project: 'myapp', path }, count: 3 });
  });

  it("reports bad input as tool errors with the CLI's message and hint, and keeps serving", async () => {
    const { root, s } = await shared();
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['effective_invariants', { plan: '01M8ZZZZ' }, ['invariant', 'list', '--effective', '--plan', '01M8ZZZZ']],
      ['effective_invariants', { project: '../etc' }, ['invariant', 'list', '--effective', '--project', '../etc']],
      ['effective_invariants', { project: 'myapp', pattern: '(' }, ['invariant', 'list', '--effective', '--project', 'myapp', '(']],
      ['list_invariants', { action: 'no-slash' }, ['invariant', 'list', '--action', 'no-slash']],
      ['show_invariant', { id: '01M9ZZZZ' }, ['invariant', 'show', '01M9ZZZZ']],
      ['show_invariant', { id: '01M8' }, ['invariant', 'show', '01M8']],
      ['show_invariant', { id: 'x/../../etc' }, ['invariant', 'show', 'x/../../etc']],
      ['plan_status', { plan: '01M8ZZZZ' }, ['plan', 'status', '01M8ZZZZ']],
    ];
    for (const [tool, args, cliArgs] of cases) {
      const r = await call(s, tool, args);
      const cli = await cliError(root, ...cliArgs);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(errorOf(r).exit_code).toBe(cli.code);
      expect(textOf(r)).toBe(cli.text);
    }
    expect(errorOf(await call(s, 'show_invariant', { id: '01M8' })).detail).toMatchObject({
      matches: expect.arrayContaining([NEVER_DELETE, API_TESTS]),
    });
    // The message as the CLI's JSON has it: its lines are lines.
    const json = await runAgents(['--store', root, '--format', 'json', 'invariant', 'show', '01M8']);
    const cliMessage = (JSON.parse(json.stdout) as { error: { message: string } }).error.message;
    expect(cliMessage).toContain('\n');
    expect(errorOf(await call(s, 'show_invariant', { id: '01M8' })).message).toBe(cliMessage);

    // Arguments that do not fit the schema: usage errors naming the argument.
    const schemaCases: [string, Record<string, unknown>, RegExp][] = [
      ['effective_invariants', {}, /give one of project, plan, path/],
      ['effective_invariants', { project: 'myapp', plan: EXAMPLE_PLAN }, /exactly one of project, plan, path/],
      ['effective_invariants', { project: 7 }, /argument "project" must be a string, not a number/],
      ['effective_invariants', { projet: 'myapp' }, /unknown argument "projet"/],
      ['show_invariant', {}, /missing required argument "id"/],
      ['list_invariants', { global: true, project: 'myapp' }, /at most one of global, project, plan, action/],
      ['plan_status', { plan: '' }, /argument "plan" is empty/],
    ];
    for (const [tool, args, message] of schemaCases) {
      const r = await call(s, tool, args);
      expect(r.isError).toBe(true);
      expect(errorOf(r).exit_code).toBe(2);
      expect(errorOf(r).message).toMatch(message);
    }
    await expect(s.client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/unknown tool/);
    // A name the request brings is said on one line: a raw line break in it would start a forged line of the message.
    await expect(s.client.callTool({ name: 'x\nhint: y', arguments: {} })).rejects.toThrow('unknown tool x\\nhint: y;');
    await expect(s.client.getPrompt({ name: 'x\nhint: y' })).rejects.toThrow('unknown prompt x\\nhint: y;');
    // Still serving.
    expect((await call(s, 'effective_invariants', { project: 'myapp' })).isError).toBeFalsy();
    expect(s.stderr()).not.toContain('internal error');
  });

  it('a broken store file is a tool error naming file, line and column; other tools still answer; fixed, it answers again', async () => {
    const { root, s } = await shared();
    const file = join(root, 'global', `${NEW_ID}.yaml`);
    onTestFinished(() => rmSync(file, { force: true }));
    writeFileSync(file, `id: ${NEW_ID}\ntext: Keep backups\nseverity: fatal\n`);

    const r = await call(s, 'effective_invariants', { project: 'myapp' });
    expect(r.isError).toBe(true);
    const e = errorOf(r);
    expect(e.exit_code).toBe(3);
    expect(e.diagnostics.map((d) => [d.code, d.file, d.line, d.col])).toEqual([['schema', `global/${NEW_ID}.yaml`, 3, 11]]);
    expect(textOf(r)).toBe((await cliError(root, 'invariant', 'list', '--effective', '--project', 'myapp')).text);
    // The plan resource needs global/ too: a JSON-RPC error, not a shorter set.
    await expect(s.client.readResource({ uri: `agents://plans/${EXAMPLE_PLAN}/effective.md` })).rejects.toThrow(/is invalid/);

    // Tools that do not need global/ answer.
    const own = await call(s, 'list_invariants', { project: 'myapp' });
    expect(own.isError).toBeFalsy();
    expect((own.structuredContent as { count: number }).count).toBe(2);
    expect((await call(s, 'show_invariant', { id: API_TESTS })).isError).toBeFalsy();

    writeFileSync(file, invariantYaml(NEW_ID, 'Keep backups'));
    const fixed = await call(s, 'effective_invariants', { project: 'myapp' });
    expect(fixed.isError).toBeFalsy();
    expect((fixed.structuredContent as { count: number }).count).toBe(4);
  });

  it('lists the resources in pages, each after the target the cursor names, and refuses a cursor it did not give', async () => {
    const root = exampleStore();
    // 600 projects, beside the example's project and plan: two pages of 500 targets (1,000 resources) at most.
    for (let i = 0; i < 600; i++) {
      mkdirSync(join(root, 'projects', `p${String(i).padStart(3, '0')}`));
      writeFileSync(join(root, 'projects', `p${String(i).padStart(3, '0')}`, '.gitkeep'), '');
    }
    const s = await startMcp(root);
    const first = await s.client.listResources();
    expect(first.resources).toHaveLength(1000);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await s.client.listResources({ cursor: first.nextCursor! });
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toHaveLength(2 * 602);
    expect(uris).toContain(`agents://plans/${EXAMPLE_PLAN}/effective.json`);
    expect(uris).toContain('agents://projects/p599/effective.md');
    // Refused as a tool refuses a cursor it did not give: the same code, naming the cursor.
    await expect(s.client.listResources({ cursor: 'page 2' })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'invalid-value', detail: { option: 'cursor', value: 'page 2' } },
    });
  });

  it('a resource over the 4 MiB of a message is refused (answer-too-large), and the session goes on', async () => {
    const root = exampleStore();
    // 450 invariants of the longest rationale: over 4 MiB (the SDK's client closes on 10 MiB). The tools answer such a
    // set in pages (mcp-pages.test.ts); a resource is read whole or not at all.
    const rationale = 'r'.repeat(10_000);
    for (let i = 0; i < 450; i++) {
      const id = `01M9B${String(i).padStart(21, '0')}`;
      writeFileSync(join(root, 'global', `${id}.yaml`), invariantYaml(id, `Rule number ${i}`, { rationale }));
    }
    const s = await startMcp(root);
    await expect(s.client.readResource({ uri: 'agents://projects/myapp/effective.json' })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'answer-too-large' },
    });
    // Asked for less, it answers on the same connection.
    const some = await call(s, 'list_invariants', { global: true, pattern: '^Rule number 7$' });
    expect(some.isError, textOf(some)).toBeFalsy();
    expect((some.structuredContent as { count: number }).count).toBe(1);
  });
});

describe('agents mcp: the output schemas', () => {
  // The SDK's client checks only the tools whose schemas it has cached; this holds each answer to the listed schema
  // across the kinds of arguments each tool takes, writing ones included, and fails for a tool added without a case.
  it("every tool's answers, across the kinds of arguments each takes, fit the outputSchema tools/list gives", async () => {
    const root = exampleStore();
    gitInit(dirname(root));
    writeFileSync(
      join(root, 'global', `${NEW_ID}.yaml`),
      guardedYaml(NEW_ID, 'Agents never touch production credentials', { write: ['secrets/**'] }),
    );
    const s = await startMcp(root, ['--allow-write']);
    const { tools } = await s.client.listTools();
    const ajv = new Ajv({ strict: false });
    // The plan's effective set, the guarded invariant with it, as a reconciliation answer names it.
    const results = [PLAN_OWN, API_TESTS, PROJECT_LOG, NEVER_DELETE, NEW_ID].map((id) => ({
      invariant_id: id,
      enforced: true,
      response: 'checked',
    }));
    const cases: [string, Record<string, unknown>][] = [
      ['effective_invariants', { project: 'myapp' }],
      ['effective_invariants', { plan: EXAMPLE_PLAN, pattern: 'log' }],
      ['effective_invariants', { path: 'src/index.ts' }],
      ['list_invariants', {}],
      ['list_invariants', { global: true }],
      ['list_invariants', { project: 'myapp', include_inactive: true }],
      ['list_invariants', { action: 'local/code-coverage' }],
      ['list_invariants', { plan: EXAMPLE_PLAN, pattern: 'zzz' }],
      ['show_invariant', { id: NEVER_DELETE.slice(0, 8) }],
      ['show_invariant', { id: PLAN_OWN }],
      ['plan_status', { plan: EXAMPLE_PLAN }],
      ['check_action', { path: 'secrets/prod.env', content: 'KEY=1' }],
      ['check_action', { command: 'ls -la', cwd: dirname(root) }],
      ['check_action', { tool: 'Bash', command: 'cat secrets/prod.env', client: 'claude' }],
      ['record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table', severity: 'warning' }],
      ['record_reconciliation', { plan: EXAMPLE_PLAN, answer: JSON.stringify({ results }) }],
    ];
    for (const [name, args] of cases) {
      const r = await call(s, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}: ${textOf(r)}`).toBeFalsy();
      const valid = ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
      expect(valid(r.structuredContent), `${name} ${JSON.stringify(args)}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
    expect(new Set(cases.map(([name]) => name))).toEqual(new Set(tools.map((t) => t.name)));
  }, 60_000);
});

describe('agents mcp: writing', () => {
  it('refuses record_violation without --allow-write and writes nothing', async () => {
    const { root, s } = await shared();
    const before = fileList(root);
    const r = await call(s, 'record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatchObject({ exit_code: 2, detail: { reason: 'write-off', by: 'config' } });
    expect(textOf(r)).toContain('--allow-write');
    // Started with --store: the restart it names serves that store, not one found from the client's folder.
    expect(errorOf(r).hint).toContain(`\`agents --store ${root} mcp --allow-write\``);
    // And the config.yaml that turns writing on is that store's, wherever it is.
    expect(errorOf(r).hint).toContain(`\`mcp: {allow_write: true}\` in ${join(root, 'config.yaml')} (`);
    expect(fileList(root)).toEqual(before);
  });

  it('records a violation with --allow-write, as the CLI does, and refuses bad ones as the CLI does', async () => {
    const root = exampleStore();
    const s = await startMcp(root, ['--allow-write']);
    expect((await s.client.listTools()).tools.find((t) => t.name === 'record_violation')!._meta).toEqual({ 'agents/enabled': true });
    const r = await call(s, 'record_violation', {
      plan: EXAMPLE_PLAN.slice(0, 8),
      invariant: API_TESTS.slice(0, 8),
      severity: 'warning',
      details: 'the new endpoint has no test',
    });
    expect(r.isError).toBeFalsy();
    const v = r.structuredContent as { id: string; path: string };
    expect(v).toMatchObject({
      plan: EXAMPLE_PLAN,
      invariant_id: API_TESTS,
      violated_text: 'All API changes need tests',
      severity: 'warning',
      details: 'the new endpoint has no test',
    });
    expect(v.path).toBe(`plans/${EXAMPLE_PLAN}/violations/${v.id}.yaml`);
    const listed = JSON.parse((await runAgents(['--store', root, 'invariant', 'violation', 'list', '--format', 'json'])).stdout);
    expect(listed.map((x: { id: string }) => x.id)).toEqual([v.id]);
    expect((await runAgents(['--store', root, 'validate'])).code).toBe(0);

    const before = fileList(root);
    // GLOBAL_LOG is shadowed by the project's copy: not in the plan's effective set.
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { plan: EXAMPLE_PLAN, invariant: GLOBAL_LOG, details: 'x' },
        ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', GLOBAL_LOG, '--details', 'x'],
      ],
      [
        { plan: '01M8ZZZZ', invariant: NEVER_DELETE, details: 'x' },
        ['invariant', 'violation', 'add', '--plan', '01M8ZZZZ', '--invariant', NEVER_DELETE, '--details', 'x'],
      ],
      [
        { plan: EXAMPLE_PLAN, invariant: 'zz', details: 'x' },
        ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', 'zz', '--details', 'x'],
      ],
    ];
    for (const [args, cliArgs] of cases) {
      const bad = await call(s, 'record_violation', args);
      const cli = await cliError(root, ...cliArgs);
      expect(bad.isError).toBe(true);
      expect(errorOf(bad).exit_code).toBe(cli.code);
      expect(textOf(bad)).toBe(cli.text);
    }
    const sev = await call(s, 'record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'x', severity: 'fatal' });
    expect(errorOf(sev).message).toMatch(/argument "severity" must be one of error, warning, info/);
    expect(fileList(root)).toEqual(before);
  });

  it('a record_violation the client cancels while it waits for a lock gives up and writes nothing, behind 16 others too', async () => {
    const root = exampleStore();
    const folder = join(root, 'plans', EXAMPLE_PLAN, 'violations');
    mkdirSync(folder, { recursive: true });
    // Held by a live process (this one): the call waits for it.
    writeFileSync(join(folder, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const s = await startMcp(root, ['--allow-write']);
    const args = { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' };
    const cancel = new AbortController();
    // The SDK's client listens on the signal once for each of the 17 calls: more than Node's warning threshold.
    setMaxListeners(32, cancel.signal);
    // More calls than the server works on at once (16): the cancellations come after one it holds unread.
    const cancelled = Array.from({ length: 17 }, () =>
      s.client.callTool({ name: 'record_violation', arguments: args }, undefined, { signal: cancel.signal }),
    );
    setTimeout(() => cancel.abort(), 300);
    for (const call of cancelled) await expect(call).rejects.toThrow();
    // Answered after the cancellations, which the server reads first: the lock goes once the calls have been told.
    await s.client.ping({ timeout: 5000 });
    rmSync(join(folder, '.lock'));
    // The next call takes the lock and writes; the cancelled one, had it gone on waiting, would have written too.
    expect((await call(s, 'record_violation', args)).isError).toBeFalsy();
    await new Promise((r) => setTimeout(r, 300));
    expect(records(root, EXAMPLE_PLAN, 'violations')).toHaveLength(1);
  });

  it('mcp.allow_write in config.yaml turns writing on as --allow-write does', async () => {
    const other = exampleStore();
    writeFileSync(join(other, 'config.yaml'), 'version: 1\nmcp:\n  allow_write: true\n');
    const c = await startMcp(other);
    expect(
      (await call(c, 'record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' })).isError,
    ).toBeFalsy();
    expect(records(other, EXAMPLE_PLAN, 'violations')).toHaveLength(1);
    // An explicit off wins over config.yaml, as --no-commit does.
    for (const off of ['--no-allow-write', '--allow-write=false']) {
      const o = await startMcp(other, [off]);
      const r = await call(o, 'record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' });
      expect(r.isError, off).toBe(true);
      // Said to be the option's doing, not config.yaml's, which says allow_write: true already.
      expect(errorOf(r).detail).toEqual({ reason: 'write-off', by: 'option' });
      expect(errorOf(r).hint).toContain(`\`mcp: {allow_write: true}\` in ${join(other, 'config.yaml')} decides`);
    }
    expect(records(other, EXAMPLE_PLAN, 'violations')).toHaveLength(1);
    // A value config.yaml does not take leaves writing off, and a writing call says where (exit 3), as a reader would.
    writeFileSync(join(other, 'config.yaml'), 'version: 1\nmcp:\n  allow_write: yes\n');
    const invalid = await startMcp(other);
    const r = await call(invalid, 'record_violation', { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' });
    expect(errorOf(r)).toMatchObject({ code: 'invalid-store', exit_code: 3 });
    expect(errorOf(r).diagnostics.map((d) => [d.file, d.line, d.col])).toEqual([['config.yaml', 3, 16]]);
    expect(records(other, EXAMPLE_PLAN, 'violations')).toHaveLength(1);
  });

  it('50 concurrent record_violation calls: every one recorded, none lost', async () => {
    const root = exampleStore();
    const s = await startMcp(root, ['--allow-write']);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(s, 'record_violation', { plan: EXAMPLE_PLAN, invariant: i % 2 ? NEVER_DELETE : API_TESTS, details: `violation ${i}` }),
      ),
    );
    expect(results.filter((r) => r.isError).map(textOf)).toEqual([]);
    const ids = results.map((r) => (r.structuredContent as { id: string }).id);
    expect(new Set(ids).size).toBe(50);
    const onDisk = records<{ id: string; details: string }>(root, EXAMPLE_PLAN, 'violations');
    expect(onDisk.map((v) => v.id).sort()).toEqual([...ids].sort());
    expect(onDisk.map((v) => v.details).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `violation ${i}`).sort());
    const status = await call(s, 'plan_status', { plan: EXAMPLE_PLAN });
    expect(status.structuredContent).toMatchObject({ violations: { error: 50 }, failing: true });
  });
});

describe('agents mcp: a client that does not read its answers', () => {
  it('is read no further while its answers wait: the requests after them are not worked on until it reads, then all are answered', async () => {
    const root = exampleStore();
    const { child, exited } = mcpProcess(root, ['--allow-write'], 'ignore');
    child.stdout.pause();
    const line = mcpLine;
    const CALLS = 80;
    // Each answer holds its 10,000 characters of details: a few fill the pipe the client does not read.
    const details = 'd'.repeat(10_000);
    child.stdin.write(
      line({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) +
        line({ method: 'notifications/initialized' }) +
        Array.from({ length: CALLS }, (_, i) =>
          line({
            id: i + 1,
            method: 'tools/call',
            params: { name: 'record_violation', arguments: { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details } },
          }),
        ).join(''),
    );
    child.stdin.end();
    // Each call writes a file: once their count stops growing, the server has stopped taking requests.
    const count = () => records(root, EXAMPLE_PLAN, 'violations').length;
    let seen = -1;
    for (let still = 0, waited = 0; still < 10 && waited < 200; waited++) {
      await new Promise((r) => setTimeout(r, 100));
      still = count() === seen ? still + 1 : 0;
      seen = count();
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(CALLS);
    // Read, it answers every call, then ends as stdin has ended.
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stdout.resume();
    expect((await exited).code).toBe(0);
    const answered = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    expect(answered.filter((a) => a.id > 0 && a.result && !a.result.isError)).toHaveLength(CALLS);
    expect(count()).toBe(CALLS);
  }, 60_000);
});

describe('agents mcp: a stop signal', () => {
  it('SIGTERM while a record_violation waits for a lock: the call gives up and is answered, nothing is written, exit 143', async () => {
    const root = exampleStore();
    const folder = join(root, 'plans', EXAMPLE_PLAN, 'violations');
    mkdirSync(folder, { recursive: true });
    // Held by a live process (this one): the call waits for it.
    writeFileSync(join(folder, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const before = fileList(root);
    const { child, exited } = mcpProcess(root, ['--allow-write']);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const line = mcpLine;
    // stdin stays open, as a client's does: the signal, not the end of the input, ends the server.
    child.stdin.write(
      line({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) +
        line({ method: 'notifications/initialized' }) +
        line({
          id: 1,
          method: 'tools/call',
          params: { name: 'record_violation', arguments: { plan: EXAMPLE_PLAN, invariant: NEVER_DELETE, details: 'dropped a table' } },
        }),
    );
    // The call is waiting once the lock is older than a first attempt: the server has read it.
    for (let waited = 0; !out.includes('"id":0') && waited < 100; waited++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 143, signal: null });
    expect(err).toMatch(/SIGTERM/);
    const answer = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } })
      .find((a) => a.id === 1);
    expect(answer?.result?.isError).toBe(true);
    expect(fileList(root)).toEqual(before);
  }, 30_000);
  it('SIGTERM while the client leaves its answers unread: the answers are dropped, said on stderr, and it exits 143 instead of waiting for a reader', async () => {
    // An answer far longer than a pipe holds (the prompt quotes its context): the server's write of it waits, once
    // more has come than the answer to initialize.
    const { exit, err } = await stoppedUnread(
      mcpLine({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) +
        mcpLine({
          id: 1,
          method: 'prompts/get',
          params: { name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, context: 'x'.repeat(1_000_000) } },
        }),
    );
    expect(exit).toEqual({ code: 143, signal: null });
    expect(err).toMatch(/left unread were dropped/);
    expect(err).toMatch(/SIGTERM/);
  }, 30_000);
  it("SIGTERM while a batch's answers wait for a reader that does not read: it exits 143, not held until a second signal", async () => {
    // The version that has batches; one batch whose answer is far longer than a pipe holds.
    const batch = Array.from({ length: 300 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'list_invariants', arguments: {} },
    }));
    const { exit, err } = await stoppedUnread(
      mcpLine({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) +
        mcpLine({ method: 'notifications/initialized' }) +
        `${JSON.stringify(batch)}\n`,
    );
    expect(exit).toEqual({ code: 143, signal: null });
    expect(err).toMatch(/left unread were dropped/);
  }, 30_000);
});

/** One JSON-RPC message as a line of the stdio transport. */
const mcpLine = (o: object) => `${JSON.stringify({ jsonrpc: '2.0', ...o })}\n`;

/**
 * Starts `agents mcp` on the example store with a client that never reads its output, writes `lines`, waits until the
 * answers fill the pipe and sends SIGTERM: how the server ended (or "still running" 10 s later) and its stderr.
 */
async function stoppedUnread(lines: string): Promise<{ exit: unknown; err: string }> {
  const { child, exited } = mcpProcess(exampleStore());
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout.pause();
  child.stdin.on('error', () => {});
  child.stdin.write(lines);
  for (let waited = 0; child.stdout.readableLength < 8192 && waited < 150; waited++) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  const stuck = new Promise((r) => setTimeout(() => r('still running'), 10_000).unref());
  const exit = await Promise.race([exited, stuck]);
  return { exit, err };
}

describe('agents mcp: store changes on disk', () => {
  it('sends resources/updated to subscribers and list_changed when projects or plans come and go', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    await s.client.listResources();
    const projectMd = 'agents://projects/myapp/effective.md';
    const planJson = `agents://plans/${EXAMPLE_PLAN}/effective.json`;
    await s.client.subscribeResource({ uri: projectMd });
    await s.client.subscribeResource({ uri: planJson });

    // A new global invariant changes both sets.
    const updatedProject = s.next('updated', 10_000, (u) => u === projectMd);
    const updatedPlan = s.next('updated', 10_000, (u) => u === planJson);
    writeFileSync(join(root, 'global', `${NEW_ID}.yaml`), invariantYaml(NEW_ID, 'Keep backups'));
    await Promise.all([updatedProject, updatedPlan]);
    const read = await s.client.readResource({ uri: projectMd });
    expect((read.contents[0] as { text: string }).text).toContain('Keep backups');

    // A new project: the list changed; the subscribed sets did not.
    const listChanged = s.next('list_changed');
    const seenBefore = s.seen.length;
    mkdirSync(join(root, 'projects', 'billing'));
    writeFileSync(
      join(root, 'projects', 'billing', `${NEW_ID.slice(0, 25)}B.yaml`),
      invariantYaml(`${NEW_ID.slice(0, 25)}B`, 'Charge once'),
    );
    await listChanged;
    expect(s.seen.slice(seenBefore)).toEqual(['list_changed']);
    expect((await s.client.listResources()).resources.map((r) => r.uri)).toContain('agents://projects/billing/effective.md');

    // After unsubscribing, no more updates for that resource.
    await s.client.unsubscribeResource({ uri: projectMd });
    const onlyPlan = s.next('updated', 10_000, (u) => u === planJson);
    rmSync(join(root, 'global', `${NEW_ID}.yaml`));
    await onlyPlan;
    expect(s.seen.filter((x) => x === `updated ${projectMd}`)).toHaveLength(1);
  });

  it('sends resources/updated when config.yaml or extends.lock.yaml changes, as they decide the inherited invariants', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    const projectJson = 'agents://projects/myapp/effective.json';
    await s.client.subscribeResource({ uri: projectJson });
    // A policy source named and not pinned: every read is now refused, so the subscriber must hear of it.
    let updated = s.next('updated', 10_000, (u) => u === projectJson);
    const config = readFileSync(join(root, 'config.yaml'), 'utf8');
    writeFileSync(join(root, 'config.yaml'), `${config}extends:\n  - url: ../policy\n    ref: v1\n`);
    await updated;
    await expect(s.client.readResource({ uri: projectJson })).rejects.toThrow(/extends update/);
    updated = s.next('updated', 10_000, (u) => u === projectJson);
    writeFileSync(join(root, 'extends.lock.yaml'), 'version: 1\nsources: []\n');
    await updated;
  });

  it('sends resources/updated when agents extends fetch fills the cache, which no store file records', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // As in a fresh clone: the lock is there, the pinned commits are not.
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const s = await startMcp(join(app, '.agents'));
    const projectJson = 'agents://projects/myapp/effective.json';
    await s.client.subscribeResource({ uri: projectJson });
    await expect(s.client.readResource({ uri: projectJson })).rejects.toThrow(/extends fetch/);
    const updated = s.next('updated', 10_000, (u) => u === projectJson);
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    await updated;
    const read = await s.client.readResource({ uri: projectJson });
    const ids = (JSON.parse((read.contents[0] as { text: string }).text) as { invariants: { id: string }[] }).invariants.map((i) => i.id);
    expect(ids).toContain(LOCKED);
  });

  it("sends resources/updated for each waiver added to a project's or a plan's waivers/ folder, as the sets list them", async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    const projectJson = 'agents://projects/myapp/effective.json';
    const planJson = `agents://plans/${EXAMPLE_PLAN}/effective.json`;
    await s.client.subscribeResource({ uri: projectJson });
    await s.client.subscribeResource({ uri: planJson });
    const waive = async (scope: string[], reason: string) => {
      const r = await runAgents([
        '--store',
        root,
        'invariant',
        'waive',
        API_TESTS,
        ...scope,
        '--reason',
        reason,
        '--owner',
        'ops',
        '--expires',
        '2099-01-01',
      ]);
      expect(r.code, r.stderr).toBe(0);
    };
    // The first waiver makes the folder (an entry of the project's folder); the second is only in waivers/.
    for (const [scope, uri] of [
      [['--project', 'myapp'], projectJson],
      [['--plan', EXAMPLE_PLAN], planJson],
    ] as const) {
      for (const reason of ['first', 'second']) {
        const updated = s.next('updated', 10_000, (u) => u === uri);
        await waive([...scope], reason);
        await updated;
      }
    }
    const read = await s.client.readResource({ uri: projectJson });
    const entry = (
      JSON.parse((read.contents[0] as { text: string }).text) as { invariants: { id: string; waivers: unknown[] }[] }
    ).invariants.find((i) => i.id === API_TESTS);
    expect(entry?.waivers).toHaveLength(2);
  });

  it('survives a git checkout that swaps hundreds of files: notified, and the sets read afterwards are the new ones', async () => {
    const root = exampleStore();
    const repo = dirname(root);
    gitInit(repo);
    commitAll(repo, 'store');
    git(repo, 'checkout', '-q', '-b', 'big');
    rmSync(join(root, 'projects', 'myapp'), { recursive: true });
    mkdirSync(join(root, 'projects', 'myapp'));
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `01M9${String(i).padStart(22, '0')}`;
      ids.push(id);
      writeFileSync(join(root, 'projects', 'myapp', `${id}.yaml`), invariantYaml(id, `Rule number ${i}`));
    }
    commitAll(repo, 'many');
    git(repo, 'checkout', '-q', 'main');

    const s = await startMcp(root);
    await s.client.listResources();
    const uri = 'agents://projects/myapp/effective.json';
    await s.client.subscribeResource({ uri });
    const count = async () => JSON.parse(((await s.client.readResource({ uri })).contents[0] as { text: string }).text).count as number;
    expect(await count()).toBe(3);

    let updated = s.next('updated', 15_000, (u) => u === uri);
    git(repo, 'checkout', '-q', 'big');
    await updated;
    // git has finished writing: the set read now is the new branch's whole set.
    expect(await count()).toBe(302);

    updated = s.next('updated', 15_000, (u) => u === uri);
    git(repo, 'checkout', '-q', 'main');
    await updated;
    expect(await count()).toBe(3);
    const ok = await call(s, 'effective_invariants', { project: 'myapp' });
    expect((ok.structuredContent as { count: number }).count).toBe(3);
  });

  it('follows a store folder moved away and replaced by a copy: the copy is watched, the old folder no longer', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    await s.client.listResources();
    const projectMd = 'agents://projects/myapp/effective.md';
    await s.client.subscribeResource({ uri: projectMd });
    const old = join(dirname(root), 'store-old');
    const swapped = s.next('updated', 10_000, (u) => u === projectMd);
    renameSync(root, old);
    cpSync(old, root, { recursive: true });
    await swapped;
    // An edit of the live store is told; one of the folder moved away is not.
    const updated = s.next('updated', 10_000, (u) => u === projectMd);
    writeFileSync(join(root, 'global', `${NEW_ID}.yaml`), invariantYaml(NEW_ID, 'Keep backups'));
    await updated;
    const seen = s.seen.length;
    writeFileSync(join(old, 'global', `${NEW_ID.slice(0, 25)}C.yaml`), invariantYaml(`${NEW_ID.slice(0, 25)}C`, 'Only in the old folder'));
    await new Promise((r) => setTimeout(r, 600));
    expect(s.seen.slice(seen)).toEqual([]);
  });

  it('a store folder moved away is an error for every tool and resource, never an empty store; moved back, it answers again', async () => {
    const root = exampleStore();
    // A guard that denies: with the store gone, check_action must not answer "none".
    gitInit(dirname(root));
    writeFileSync(
      join(root, 'global', `${NEW_ID}.yaml`),
      guardedYaml(NEW_ID, 'Agents never touch production credentials', { write: ['secrets/**'] }),
    );
    const s = await startMcp(root);
    expect((await call(s, 'check_action', { path: 'secrets/prod.env' })).structuredContent).toMatchObject({ decision: 'deny' });
    const away = join(dirname(root), 'store-away');
    renameSync(root, away);
    for (const [tool, args] of [
      ['list_invariants', {}],
      ['check_action', { path: 'secrets/prod.env' }],
      ['effective_invariants', { project: 'myapp' }],
    ] as const) {
      const r = await call(s, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(errorOf(r)).toMatchObject({ code: 'no-store', exit_code: 2 });
    }
    await expect(s.client.readResource({ uri: 'agents://projects/myapp/effective.json' })).rejects.toThrow(/no store at/);
    await expect(s.client.listResources()).rejects.toThrow(/no store at/);
    renameSync(away, root);
    expect((await call(s, 'list_invariants', {})).isError).toBeFalsy();
  });

  it('keeps watching when a plan folder is removed and made again, and after a rename into place', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    await s.client.listResources();
    const planDir = join(root, 'plans', EXAMPLE_PLAN);
    const aside = join(dirname(root), 'aside');
    let changed = s.next('list_changed');
    renameSync(planDir, aside);
    await changed;
    expect((await s.client.listResources()).resources).toHaveLength(2);
    changed = s.next('list_changed');
    renameSync(aside, planDir);
    await changed;
    expect((await s.client.listResources()).resources).toHaveLength(4);
    expect(existsSync(join(planDir, 'plan.yaml'))).toBe(true);
    expect(readdirSync(planDir)).toContain(`${PLAN_OWN}.yaml`);
  });
});

/**
 * `agents mcp` started on `root` as a client starts it (killed when the test ends), and how it exits. With `stderr`
 * 'ignore' (a server that may say much there while nobody reads), `child.stderr` is null.
 */
function mcpProcess(root: string, args: string[] = [], stderr: 'pipe' | 'ignore' = 'pipe') {
  const child = spawn(process.execPath, [BIN, '--store', root, 'mcp', ...args], {
    cwd: REPO,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' },
    stdio: ['pipe', 'pipe', stderr],
  }) as ChildProcessByStdio<Writable, Readable, Readable>;
  onTestFinished(() => void child.kill('SIGKILL'));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited };
}
