import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { errorOf, startMcp, textOf } from '../helpers/mcp.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore } from '../helpers/plans.ts';
import { invariantYaml } from '../helpers/tmp.ts';

interface Paged {
  count: number;
  invariants: { id: string }[];
  next_cursor: string | null;
}

/** A store whose global scope alone is over the 4 MiB of a message: 450 invariants of the longest rationale. */
function bigStore(): { root: string; ids: string[] } {
  const root = exampleStore();
  const rationale = 'r'.repeat(10_000);
  const ids: string[] = [];
  for (let i = 0; i < 450; i++) {
    const id = `01M9B${String(i).padStart(21, '0')}`;
    ids.push(id);
    writeFileSync(join(root, 'global', `${id}.yaml`), invariantYaml(id, `Rule number ${i}`, { rationale }));
  }
  return { root, ids };
}

describe('agents mcp: a set over one message is answered in pages', () => {
  it('effective_invariants and list_invariants give every entry once, page after page, each page fitting its outputSchema', async () => {
    const { root, ids } = bigStore();
    const s = await startMcp(root);
    // Listed first, so that the SDK's client holds each answer to the tool's outputSchema.
    await s.client.listTools();
    for (const [name, args] of [
      ['effective_invariants', { project: 'myapp' }],
      ['list_invariants', {}],
      ['list_invariants', { global: true }],
    ] as const) {
      const got: string[] = [];
      const pages: CallToolResult[] = [];
      let cursor: string | null = null;
      do {
        const r = (await s.client.callTool({ name, arguments: { ...args, ...(cursor ? { cursor } : {}) } })) as CallToolResult;
        expect(r.isError, textOf(r)).toBeFalsy();
        pages.push(r);
        const data = r.structuredContent as unknown as Paged;
        got.push(...data.invariants.map((i) => i.id));
        cursor = data.next_cursor;
      } while (cursor !== null && pages.length < 10);
      expect(pages.length, name).toBeGreaterThan(1);
      expect(new Set(got).size, name).toBe(got.length);
      expect(got, name).toEqual(expect.arrayContaining(ids));
      // `count` is the whole set's, on every page.
      for (const p of pages) expect((p.structuredContent as unknown as Paged).count, name).toBe(got.length);
      if (name === 'list_invariants') {
        // Each page's text counts the whole listing, as `count` does: its total line and its scopes' headings (the
        // example's 2 global invariants and the 450 added), not the page's share of them.
        for (const p of pages) {
          expect(textOf(p), name).toContain(`\n${got.length} invariants\n`);
          for (const m of textOf(p).matchAll(/^global \((\d+)\)$/gm)) expect(m[1], name).toBe('452');
        }
        expect(textOf(pages[1]!), name).toMatch(/^global \(452\)$/m);
      }
      if (name === 'effective_invariants') {
        // The second page numbers its entries by their place in the whole set.
        const first = (pages[0]!.structuredContent as unknown as Paged).invariants.length;
        expect(textOf(pages[1]!)).toContain(`\n${first + 1}. `);
      }
    }
  });

  it('a cursor or set_digest copied with white space around it is taken, as an id is: the same page, the answer recorded', async () => {
    const { root } = bigStore();
    const s = await startMcp(root, ['--allow-write']);
    const pad = (v: string) => ` ${v}\n`;
    const first = (await s.client.callTool({ name: 'effective_invariants', arguments: { project: 'myapp' } })) as CallToolResult;
    const cursor = (first.structuredContent as unknown as Paged).next_cursor!;
    const exact = (await s.client.callTool({ name: 'effective_invariants', arguments: { project: 'myapp', cursor } })) as CallToolResult;
    const padded = (await s.client.callTool({
      name: 'effective_invariants',
      arguments: { project: 'myapp', cursor: pad(cursor) },
    })) as CallToolResult;
    expect(padded.isError, textOf(padded)).toBeFalsy();
    expect(padded.structuredContent).toEqual(exact.structuredContent);

    // The prompt's pages, each asked for with its cursor padded, and the answer to them with its set_digest padded.
    const got: string[] = [];
    let digest = '';
    let next: string | null = null;
    let pages = 0;
    do {
      const p = await s.client.getPrompt({
        name: 'reconcile_plan',
        arguments: { plan: EXAMPLE_PLAN, ...(next ? { cursor: pad(next) } : {}) },
      });
      pages++;
      const text = p.messages[0]!.content.type === 'text' ? p.messages[0]!.content.text : '';
      got.push(...[...text.matchAll(/"id": "([0-9A-Z]{26})"/g)].map((m) => m[1]!));
      digest = (p._meta as { 'agents/set_digest': string })['agents/set_digest'];
      next = (p._meta as { 'agents/next_cursor': string | null })['agents/next_cursor'];
    } while (next !== null && pages < 10);
    expect(pages).toBeGreaterThan(1);
    const answer = JSON.stringify({ results: got.map((id) => ({ invariant_id: id, enforced: true, response: 'Honoured.' })) });
    const recorded = (await s.client.callTool({
      name: 'record_reconciliation',
      arguments: { plan: EXAMPLE_PLAN, answer, set_digest: pad(digest) },
    })) as CallToolResult;
    expect(recorded.isError, textOf(recorded)).toBeFalsy();
    expect(recorded.structuredContent).toMatchObject({ total: got.length, ok: true });
  }, 120_000);

  it('a cursor whose entries before it changed is store-changed, one the server did not give invalid-value, and the first page is had again', async () => {
    const { root, ids } = bigStore();
    const s = await startMcp(root);
    const first = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true } })) as CallToolResult;
    const cursor = (first.structuredContent as unknown as Paged).next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    // An invariant of the first page removed: the next page would skip one, so it is refused.
    rmSync(join(root, 'global', `${ids[0]}.yaml`));
    const moved = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true, cursor } })) as CallToolResult;
    expect(moved.isError).toBe(true);
    expect(errorOf(moved)).toMatchObject({ code: 'store-changed', exit_code: 2, detail: { cursor } });
    // One added before the cursor as well: as many entries before it as when it was given, but not the same ones.
    const added = '01M9A00000000000000000000Z';
    writeFileSync(join(root, 'global', `${added}.yaml`), invariantYaml(added, 'A rule added meanwhile'));
    const swapped = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true, cursor } })) as CallToolResult;
    expect(errorOf(swapped)).toMatchObject({ code: 'store-changed', exit_code: 2 });
    const forged = (await s.client.callTool({
      name: 'effective_invariants',
      arguments: { project: 'myapp', cursor: 'page 2' },
    })) as CallToolResult;
    expect(errorOf(forged)).toMatchObject({ code: 'invalid-value', exit_code: 2, detail: { option: 'cursor', value: 'page 2' } });
    const again = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true } })) as CallToolResult;
    expect(again.isError, textOf(again)).toBeFalsy();
  });

  it('a cursor given to another tool, target or pattern than the one that gave it is invalid-value, not store-changed', async () => {
    const { root } = bigStore();
    const s = await startMcp(root);
    const first = (await s.client.callTool({ name: 'effective_invariants', arguments: { project: 'myapp' } })) as CallToolResult;
    const cursor = (first.structuredContent as unknown as Paged).next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    for (const [name, args] of [
      ['effective_invariants', { plan: EXAMPLE_PLAN }],
      // A path of the project: the call's own target, which the store maps to a project.
      ['effective_invariants', { path: 'src/x.ts' }],
      ['effective_invariants', { project: 'myapp', pattern: 'Rule' }],
      ['list_invariants', { global: true }],
      ['plan_status', { plan: EXAMPLE_PLAN }],
    ] as const) {
      const r = (await s.client.callTool({ name, arguments: { ...args, cursor } })) as CallToolResult;
      expect(r.isError, name).toBe(true);
      expect(errorOf(r), `${name} ${JSON.stringify(args)}`).toMatchObject({
        code: 'invalid-value',
        exit_code: 2,
        detail: { option: 'cursor', value: cursor },
      });
    }
    // A plan's cursor is the plan's: the plan moved to another project between two pages is its set changed.
    const ofPlan = (await s.client.callTool({ name: 'effective_invariants', arguments: { plan: EXAMPLE_PLAN } })) as CallToolResult;
    const planCursor = (ofPlan.structuredContent as unknown as Paged).next_cursor!;
    mkdirSync(join(root, 'projects', 'other'));
    writeFileSync(join(root, 'projects', 'other', 'project.yaml'), 'paths: [other/**]\n');
    const planFile = join(root, 'plans', EXAMPLE_PLAN, 'plan.yaml');
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('project: myapp', 'project: other'));
    const moved = (await s.client.callTool({
      name: 'effective_invariants',
      arguments: { plan: EXAMPLE_PLAN, cursor: planCursor },
    })) as CallToolResult;
    expect(errorOf(moved)).toMatchObject({ code: 'store-changed', exit_code: 2 });
    // The cursor of a path is the path's: the path moved to another project between two pages is its set changed.
    const ofPath = (await s.client.callTool({ name: 'effective_invariants', arguments: { path: 'src/x.ts' } })) as CallToolResult;
    const pathCursor = (ofPath.structuredContent as unknown as Paged).next_cursor!;
    writeFileSync(join(root, 'projects', 'myapp', 'project.yaml'), 'paths: [bin/**]\n');
    writeFileSync(join(root, 'projects', 'other', 'project.yaml'), 'paths: [src/**]\n');
    const remapped = (await s.client.callTool({
      name: 'effective_invariants',
      arguments: { path: 'src/x.ts', cursor: pathCursor },
    })) as CallToolResult;
    expect(errorOf(remapped)).toMatchObject({ code: 'store-changed', exit_code: 2 });
  });

  it('plan_status answers its reasons in pages, each page with the verdict and fitting its outputSchema', async () => {
    const root = exampleStore();
    expect((await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN])).code).toBe(0);
    // Invariants added to the plan's project since its run: the run is stale, and each one is a reason of its own
    // (unenforced: no record of it), over the 4 MiB of a message together.
    const added: string[] = [];
    for (let i = 0; i < 14_000; i++) {
      const id = `01M9C${String(i).padStart(21, '0')}`;
      added.push(id);
      writeFileSync(join(root, 'projects', 'myapp', `${id}.yaml`), invariantYaml(id, `Rule number ${i}`));
    }
    const s = await startMcp(root);
    await s.client.listTools();
    interface Status {
      failing: boolean;
      reasons: { code: string; invariant_id: string | null }[];
      next_cursor: string | null;
    }
    const pages: Status[] = [];
    let cursor: string | null = null;
    do {
      const r = (await s.client.callTool({
        name: 'plan_status',
        arguments: { plan: EXAMPLE_PLAN, ...(cursor ? { cursor } : {}) },
      })) as CallToolResult;
      expect(r.isError, textOf(r)).toBeFalsy();
      const data = r.structuredContent as unknown as Status;
      pages.push(data);
      cursor = data.next_cursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) expect(p.failing).toBe(true);
    const reasons = pages.flatMap((p) => p.reasons);
    expect(reasons.filter((r) => r.code === 'stale')).toHaveLength(1);
    const unenforced = reasons.filter((r) => r.code === 'unenforced').map((r) => r.invariant_id);
    expect(new Set(unenforced).size).toBe(unenforced.length);
    // Every added id among the reasons, as arrayContaining asks, by a Set: arrayContaining compares each of the 14,000
    // with each reason, which held this test 4 s.
    const given = new Set(unenforced);
    expect(added.filter((id) => !given.has(id))).toEqual([]);
    const forged = (await s.client.callTool({
      name: 'plan_status',
      arguments: { plan: EXAMPLE_PLAN, cursor: 'page 2' },
    })) as CallToolResult;
    expect(errorOf(forged)).toMatchObject({ code: 'invalid-value', exit_code: 2, detail: { option: 'cursor' } });
  }, 120_000);

  it('the reconcile_plan prompt gives a set over one message in pages, and one answer to them all is recorded', async () => {
    const { root, ids } = bigStore();
    const s = await startMcp(root, ['--allow-write']);
    interface PromptMeta {
      'agents/set_digest': string;
      'agents/next_cursor': string | null;
    }
    const got: string[] = [];
    const digests = new Set<string>();
    let pages = 0;
    let cursor: string | null = null;
    do {
      const p = await s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, ...(cursor ? { cursor } : {}) } });
      pages++;
      const text = p.messages[0]!.content.type === 'text' ? p.messages[0]!.content.text : '';
      // Each page well within the 4 MiB of a message, its invariants listed once.
      expect(Buffer.byteLength(text)).toBeLessThan(4 * 1024 * 1024);
      got.push(...[...text.matchAll(/"id": "([0-9A-Z]{26})"/g)].map((m) => m[1]!));
      const meta = p._meta as unknown as PromptMeta;
      digests.add(meta['agents/set_digest']);
      cursor = meta['agents/next_cursor'];
      if (cursor !== null) expect(text).toContain(`cursor "${cursor}"`);
    } while (cursor !== null && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(got).size).toBe(got.length);
    expect(got).toEqual(expect.arrayContaining(ids));
    // One set, whichever page said its digest: the answer to every page is recorded under it as one run.
    expect(digests.size).toBe(1);
    const answer = JSON.stringify({ results: got.map((id) => ({ invariant_id: id, enforced: true, response: 'Honoured.' })) });
    const recorded = (await s.client.callTool({
      name: 'record_reconciliation',
      arguments: { plan: EXAMPLE_PLAN, answer, set_digest: [...digests][0] },
    })) as CallToolResult;
    expect(recorded.isError, textOf(recorded)).toBeFalsy();
    expect(recorded.structuredContent).toMatchObject({ total: got.length, enforced: got.length, ok: true });

    // A cursor of another call is the wrong value; one of a set changed since, the store's change.
    const first = await s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN } });
    const next = (first._meta as unknown as PromptMeta)['agents/next_cursor']!;
    const listed = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true } })) as CallToolResult;
    const other = (listed.structuredContent as unknown as Paged).next_cursor!;
    await expect(s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, cursor: other } })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'invalid-value', detail: { option: 'cursor' } },
    });
    // An invariant of the first page edited (the same id): the set its set_digest names is not the one of the first
    // page any more, so the next page is refused, as one of a set changed between pages.
    const edited = got.find((id) => ids.includes(id))!;
    writeFileSync(join(root, 'global', `${edited}.yaml`), invariantYaml(edited, 'Rule edited meanwhile'));
    await expect(s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, cursor: next } })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'store-changed', exit_code: 2 },
    });
    rmSync(join(root, 'global', `${ids[1]}.yaml`));
    await expect(s.client.getPrompt({ name: 'reconcile_plan', arguments: { plan: EXAMPLE_PLAN, cursor: next } })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'store-changed', exit_code: 2 },
    });
  }, 60_000);

  it('a set that fits is one answer whose next_cursor is null', async () => {
    const s = await startMcp(exampleStore());
    await s.client.listTools();
    const r = (await s.client.callTool({ name: 'effective_invariants', arguments: { project: 'myapp' } })) as CallToolResult;
    const data = r.structuredContent as unknown as Paged;
    expect(data.next_cursor).toBeNull();
    expect(data.count).toBe(data.invariants.length);
    expect(textOf(r)).not.toContain('Page:');
  });
});
