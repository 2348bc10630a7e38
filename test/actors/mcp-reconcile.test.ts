import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMPT_VERSION } from '../../src/core/reconcile-prompt.ts';
import { startMcp } from '../helpers/mcp.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, type DecisionFile, type EnforcementFile } from '../helpers/plans.ts';

// An agent connected over MCP judges a plan itself: the reconcile_plan prompt gives it the
// plan and its invariants, the record_reconciliation tool records its answer as a run.

const SET: [string, string][] = [
  ['01M8KK3EF09G9ET4TAJAHQWPMN', 'Use Python 3.13 only'],
  ['01M8KJXYP0GVPRF8KRRE9G8474', 'All API changes need tests'],
  ['01M8KJZS90J6DRJJ8E264B9DFX', 'Log all changes'],
  ['01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'],
];
const IDS = SET.map(([id]) => id);

function answer(ids: readonly string[]): string {
  return JSON.stringify({
    results: ids.map((id) => ({ invariant_id: id, enforced: id !== IDS[3], response: `reasoned about ${id.slice(-4)}` })),
  });
}

describe('MCP: the reconcile_plan prompt and record_reconciliation', () => {
  it('the prompt holds the goal, the context and every invariant; the answer is recorded as a run', async () => {
    const root = exampleStore();
    const s = await startMcp(root, ['--allow-write']);
    expect(s.client.getServerCapabilities()).toMatchObject({ prompts: {} });
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'reconcile_plan',
        [
          ['plan', true],
          ['context', false],
          ['cursor', false],
        ],
      ],
    ]);
    const got = await s.client.getPrompt({
      name: 'reconcile_plan',
      arguments: { plan: EXAMPLE_PLAN.slice(0, 8), context: 'Step 4: drop the legacy table.' },
    });
    const text = got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    for (const [id, t] of SET) {
      expect(text).toContain(id);
      expect(text).toContain(t);
    }
    expect(text).toContain('Upgrade the myapp API to Python 3.13');
    expect(text).toContain('Step 4: drop the legacy table.');
    expect(text).toContain('record_reconciliation');
    expect(got.description).toContain(PROMPT_VERSION);
    // A misspelt argument is refused as a tool's is: its context never silently left out of the prompt.
    await expect(
      s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, contxt: 'Step 4: drop the legacy table.' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown argument "contxt"') });
    await expect(s.client.getPrompt({ name: 'reconcile_plan', arguments: {} })).rejects.toMatchObject({ code: -32602 });

    const before = fileList(root);
    const missing = await s.client.callTool({
      name: 'record_reconciliation',
      arguments: { plan: EXAMPLE_PLAN, answer: answer(IDS.slice(1)) },
    });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('leaves out 01M8KK3EF09G9ET4TAJAHQWPMN');
    const prose = await s.client.callTool({ name: 'record_reconciliation', arguments: { plan: EXAMPLE_PLAN, answer: 'All fine.' } });
    expect(prose.isError).toBe(true);
    expect(fileList(root)).toEqual(before);

    const ok = await s.client.callTool({ name: 'record_reconciliation', arguments: { plan: EXAMPLE_PLAN, answer: answer(IDS) } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ plan: EXAMPLE_PLAN, enforced: 3, total: 4, ok: false });
    const [run] = records<EnforcementFile & { model?: string; prompt_version?: string }>(root, EXAMPLE_PLAN, 'enforcement');
    const [node] = records<DecisionFile>(root, EXAMPLE_PLAN, 'decisions');
    expect(run).toMatchObject({ actor: 'agent', model: 'mcp:agents-test/1.0.0', prompt_version: PROMPT_VERSION });
    expect(run!.records.map((r) => [r.invariant_id, r.enforced, r.actor_response])).toEqual(
      IDS.map((id) => [id, id !== IDS[3], `reasoned about ${id.slice(-4)}`]),
    );
    expect(node).toMatchObject({ enforcement_id: run!.id, actor: 'agent', summary: '3 of 4 invariants enforced (agent actor)' });

    // The plan's project gone: the tool reads the set twice (to check the answer, then under the lock), and says its
    // warning once, as `plan strategize` does.
    renameSync(join(root, 'projects/myapp'), join(root, 'projects/web'));
    const set = await s.client.callTool({ name: 'effective_invariants', arguments: { plan: EXAMPLE_PLAN } });
    const shortIds = (set.structuredContent as { invariants: { id: string }[] }).invariants.map((i) => i.id);
    const short = await s.client.callTool({ name: 'record_reconciliation', arguments: { plan: EXAMPLE_PLAN, answer: answer(shortIds) } });
    expect(short.isError).toBeFalsy();
    const notes = (short._meta as Record<string, string[]>)['agents/notices']!;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('unknown-project');
    expect(JSON.stringify(short.content).split('unknown-project').length).toBe(2);
  });

  it("a call the client cancels while it waits for the plan's lock gives up and records no run", async () => {
    const root = exampleStore();
    // Held by a live process (this one): the call waits for it.
    const lock = join(root, 'plans', EXAMPLE_PLAN, '.lock');
    writeFileSync(lock, `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    const s = await startMcp(root, ['--allow-write']);
    const args = { plan: EXAMPLE_PLAN, answer: answer(IDS) };
    const cancel = new AbortController();
    const cancelled = s.client.callTool({ name: 'record_reconciliation', arguments: args }, undefined, { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 300);
    await expect(cancelled).rejects.toThrow();
    // Answered after the cancellation, which the server reads first: the lock goes once the call has been told.
    await s.client.ping();
    rmSync(lock);
    // The next call takes the lock and records; the cancelled one, had it gone on waiting, would have recorded too.
    expect((await s.client.callTool({ name: 'record_reconciliation', arguments: args })).isError).toBeFalsy();
    await new Promise((r) => setTimeout(r, 300));
    expect(records(root, EXAMPLE_PLAN, 'enforcement')).toHaveLength(1);
  });

  it('without --allow-write the tool is off and writes nothing', async () => {
    const root = exampleStore();
    const s = await startMcp(root);
    const before = fileList(root);
    const r = await s.client.callTool({ name: 'record_reconciliation', arguments: { plan: EXAMPLE_PLAN, answer: answer(IDS) } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('does not allow writing');
    expect(fileList(root)).toEqual(before);
  });
});

describe("MCP: the reconcile_plan prompt's context", () => {
  it('holds at most 1 MiB of UTF-8, as the file plan strategize --context reads: the same text taken or refused by both', async () => {
    const root = exampleStore();
    const s = await startMcp(root, []);
    const dir = tempDir();
    // 1 MiB in characters but 2 MiB in bytes: refused by both; 1 MiB of ASCII: taken by both.
    const wide = '\u00e9'.repeat(1024 * 1024);
    const full = 'a'.repeat(1024 * 1024);
    for (const [context, taken] of [
      [wide, false],
      [full, true],
    ] as const) {
      const file = join(dir, `context-${taken}.txt`);
      writeFileSync(file, context);
      const cli = await runAgents([
        '--store',
        root,
        'plan',
        'strategize',
        EXAMPLE_PLAN,
        '--context',
        file,
        '--show-prompt',
        '--actor',
        'command',
      ]);
      expect(cli.code, cli.stderr).toBe(taken ? 0 : 2);
      const prompt = s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, context } });
      if (taken) await expect(prompt).resolves.toMatchObject({ _meta: { 'agents/set_digest': expect.any(String) } });
      else await expect(prompt).rejects.toMatchObject({ code: -32602, data: { code: 'usage', exit_code: 2 } });
    }
  }, 60_000);
});

describe('MCP: a plan whose run could not be recorded', () => {
  it('is refused by the reconcile_plan prompt before the agent judges it (file-too-large), as plan strategize refuses it', async () => {
    const root = exampleStore();
    // 6,000 invariants of the plan's project: a prompt well within one message, but a run over the 1 MiB of a store
    // file even with each response cut to one character, which record_reconciliation could never write.
    for (let i = 0; i < 6000; i++) {
      const id = `01M9D${String(i).padStart(21, '0')}`;
      writeFileSync(join(root, 'projects', 'myapp', `${id}.yaml`), `id: ${id}\ntext: "Rule ${i}"\n`);
    }
    const s = await startMcp(root, ['--allow-write']);
    const before = fileList(root);
    await expect(s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN } })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'file-too-large', exit_code: 2, detail: { file: `plans/${EXAMPLE_PLAN}/enforcement/` } },
    });
    expect(fileList(root)).toEqual(before);
  }, 60_000);
});
