// One store with all five tiers (global, project, plan, a plan promoted from an
// action, and inherited through a real `extends` policy source in a real git
// repository), read through every surface: each must show the same ids,
// scopes and shadows (src/present/ builds what they show).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { Browser } from '../../src/tui/Browser.tsx';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { startMcp, textOf } from '../helpers/mcp.ts';
import { invariantYaml, writeTree } from '../helpers/tmp.ts';
import { frameMatches } from '../tui/helpers.ts';

// Ids chosen so that store and source ids share long prefixes: abbreviations must tell them apart.
const INH_DELETE = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const INH_TESTS = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const SRC_RELEASE = '01JDQ6X5Z8W4N3B2C1D0E9F8G3';
const G_TESTS = '01JDQ6X5Z8W4N3B2C1D0E9F8H1';
const G_LOG = '01JDQ6X5Z8W4N3B2C1D0E9F8H2';
const P_LOG = '01JDQ6X5Z8W4N3B2C1D0E9F8J1';
const P_ERRORS = '01JDQ6X5Z8W4N3B2C1D0E9F8J2';
const A_REVIEW = '01JDQ6X5Z8W4N3B2C1D0E9F8K1';
const A_ERRORS = '01JDQ6X5Z8W4N3B2C1D0E9F8K2';

/** What a surface says of one entry of an effective set. */
interface Seen {
  id: string;
  scope: string;
  /** Every copy it hides (by accident or on purpose), sorted. */
  hides: string[];
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

let app: string;
let store: string;
/** The plan made from the store's own action template, with an invariant of its own added. */
let plan: string;
/** The plan made from the policy source's action template. */
let sourcePlan: string;
/** The plan's own invariant (same text as the project's P_ERRORS: it hides it). */
let planOwn: string;

const cli = (...args: string[]) => runAgents(args, { cwd: app });
async function cliJson<T>(...args: string[]): Promise<T> {
  const r = await cli(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

// One store for every test of the file (building it runs git and the CLI a dozen times); the tests only read it.
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agents-tiers-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const work = join(dir, 'policy');
  mkdirSync(work);
  gitInit(work);
  writeTree(work, {
    [`.agents/global/${INH_DELETE}.yaml`]: invariantYaml(INH_DELETE, 'Never delete production data'),
    // The store's global copy of this text hides it: a shadow across the inherited tier.
    [`.agents/global/${INH_TESTS}.yaml`]: invariantYaml(INH_TESTS, 'All API changes need tests'),
    [`.agents/actions/org/release/${SRC_RELEASE}.yaml`]: invariantYaml(SRC_RELEASE, 'Tag every release'),
  });
  commitAll(work, 'v1');
  git(work, 'tag', 'v1');
  git(dir, 'clone', '-q', '--bare', work, join(dir, 'policy.git'));

  app = join(dir, 'app');
  mkdirSync(app);
  gitInit(app);
  store = join(app, '.agents');
  writeTree(app, {
    '.agents/config.yaml': `extends:\n  - url: file://${join(dir, 'policy.git')}\n    ref: v1\n`,
    [`.agents/global/${G_TESTS}.yaml`]: invariantYaml(G_TESTS, 'All API changes need tests'),
    [`.agents/global/${G_LOG}.yaml`]: invariantYaml(G_LOG, 'Log every change'),
    '.agents/projects/myapp/project.yaml': 'paths: [services/myapp/**]\n',
    [`.agents/projects/myapp/${P_LOG}.yaml`]: invariantYaml(P_LOG, 'Log every change', { severity: 'warning' }),
    [`.agents/projects/myapp/${P_ERRORS}.yaml`]: invariantYaml(P_ERRORS, 'Use typed errors'),
    [`.agents/actions/local/review/${A_REVIEW}.yaml`]: invariantYaml(A_REVIEW, 'Review every diff'),
    [`.agents/actions/local/review/${A_ERRORS}.yaml`]: invariantYaml(A_ERRORS, 'Never log secrets', { severity: 'info' }),
    'services/myapp/main.ts': 'export {};\n',
  });
  commitAll(app, 'store');
  expect((await cli('extends', 'update')).code).toBe(0);
  plan = (await cliJson<{ plan: { id: string } }>('plan', 'use', 'local/review', '--project', 'myapp')).plan.id;
  planOwn = (await cliJson<{ id: string }>('invariant', 'add', '--plan', plan, 'Use typed errors')).id;
  sourcePlan = (await cliJson<{ plan: { id: string } }>('plan', 'use', 'policy:org/release', '--project', 'myapp')).plan.id;
}, 120_000);

type EntryJson = { id: string; scope: string; shadows: { id: string }[]; overridden: { id: string }[] };
const fromJson = (entries: EntryJson[]): Seen[] =>
  entries.map((e) => ({ id: e.id, scope: e.scope, hides: sorted([...e.shadows, ...e.overridden].map((s) => s.id)) }));

/** `invariant list --effective` as text: scope headings, each entry's meta line (id first) and its "shadows"/"overrides" lines. */
function fromCliText(text: string): Seen[] {
  const out: Seen[] = [];
  let scope = '';
  for (const line of text.split('\n').slice(1)) {
    const meta = /^ {6}([0-9A-Z]{26}) · /.exec(line);
    // An inherited copy is named with its source ("shadows inherited policy 01…"), as the group of a kept one is.
    const hidden = /^ {6}(?:shadows|overrides) (?:inherited \S+|\w+) ([0-9A-Z]{26})/.exec(line);
    if (meta) out.push({ id: meta[1]!, scope, hides: [] });
    else if (hidden) out.at(-1)!.hides = sorted([...out.at(-1)!.hides, hidden[1]!]);
    else if (/^\S/.test(line)) scope = line.split(' ')[0]!;
  }
  return out;
}

/** The Markdown resource: "## scope" headings, "N. text (`ID` · …)" and "Shadows|Overrides kind ID." lines. */
function fromMarkdown(md: string): Seen[] {
  const out: Seen[] = [];
  let scope = '';
  for (const line of md.split('\n')) {
    const heading = /^## (\S+)/.exec(line);
    const entry = /^\d+\. .* \(`([0-9A-Z]{26})`/.exec(line);
    const hidden = /^ {3}(?:Shadows|Overrides) (?:inherited \S+|\w+) ([0-9A-Z]{26})\.$/.exec(line);
    if (heading) scope = heading[1]!;
    else if (entry) out.push({ id: entry[1]!, scope, hides: [] });
    else if (hidden) out.at(-1)!.hides = sorted([...out.at(-1)!.hides, hidden[1]!]);
  }
  return out;
}

/** The full id and scope a printed prefix names, as any command takes it back. */
async function named(prefix: string): Promise<{ id: string; scope: string }> {
  const r = await cli('invariant', 'show', prefix, '--format', 'json');
  expect(r.code, `invariant show ${prefix}: ${r.stderr}`).toBe(0);
  const shown = JSON.parse(r.stdout) as { id: string; scope: string };
  return { id: shown.id, scope: shown.scope };
}

/** The TUI's effective view: each row's printed prefix taken back through `invariant show`, hidden rows under their shadower. */
async function fromTui(target: { kind: 'project'; project: string } | { kind: 'plan'; plan: string }, inEffect: number): Promise<Seen[]> {
  const r = render(
    <Browser
      service={new InvariantService(store)}
      scope={target}
      effective
      size={{ columns: 160, rows: 60 }}
      onQuit={() => {}}
      onError={(e) => {
        throw e;
      }}
    />,
  );
  // The store's data and the effective set load apart: wait for both (the count is of the rows drawn).
  const frame = await frameMatches(r.lastFrame, (f) => expect(f).toContain(` ${inEffect} in effect, `));
  r.unmount();
  const out: Seen[] = [];
  for (const line of frame.split('\n')) {
    const row = /^[› ] [EWI] (↳ hidden by [0-9A-Z]+: )?.*?\s([0-9A-Z]{4,26})$/.exec(line);
    if (!row) continue;
    const { id, scope } = await named(row[2]!);
    if (row[1]) out.at(-1)!.hides = sorted([...out.at(-1)!.hides, id]);
    else out.push({ id, scope, hides: [] });
  }
  return out;
}

/** The exported AGENTS.md files: each entry "(… `ID`; shadows kind `ID`, …)"; the root file holds the global and inherited ones. */
function fromExport(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^- .* \((?:[^`]*, )?`([0-9A-Z]{26})`(?:; shadows (.*))?\)$/.exec(line);
    if (m) out.set(m[1]!, sorted([...(m[2] ?? '').matchAll(/`([0-9A-Z]{26})`/g)].map((x) => x[1]!)));
  }
  return out;
}

describe('one store with all five tiers, through every surface', () => {
  it('the CLI (JSON and text), the MCP tools and resources and the TUI show the same ids, scopes and shadows', async () => {
    const s = await startMcp(store);
    // As a client does: the listing gives the output schemas the SDK client then checks each answer against.
    await s.client.listTools();
    for (const [target, args, toolArgs] of [
      [{ kind: 'project', project: 'myapp' }, ['--project', 'myapp'], { project: 'myapp' }],
      [{ kind: 'plan', plan }, ['--plan', plan], { plan }],
    ] as const) {
      const raw = await cliJson<(EntryJson & { shadows: { id: string; inherited_from?: string }[] })[]>(
        'invariant',
        'list',
        '--effective',
        ...args,
      );
      expect(raw.find((e) => e.id === G_TESTS)?.shadows).toMatchObject([{ id: INH_TESTS, inherited_from: 'policy' }]);
      const json = fromJson(raw);
      // Every tier is there, and the shadows cross them.
      expect(new Set(json.map((e) => e.scope))).toEqual(
        new Set(target.kind === 'plan' ? ['plan', 'project', 'global', 'inherited'] : ['project', 'global', 'inherited']),
      );
      expect(json.find((e) => e.id === G_TESTS)?.hides).toEqual([INH_TESTS]);
      expect(json.find((e) => e.id === P_LOG)?.hides).toEqual([G_LOG]);
      if (target.kind === 'plan') expect(json.find((e) => e.id === planOwn)?.hides).toEqual([P_ERRORS]);

      const text = await cli('invariant', 'list', '--effective', ...args);
      expect(fromCliText(text.stdout)).toEqual(json);
      expect(text.stdout).toContain(`shadows inherited policy ${INH_TESTS}`);

      // The SDK client checks the structured content against the tool's outputSchema.
      const tool = (await s.client.callTool({ name: 'effective_invariants', arguments: { ...toolArgs } })) as CallToolResult;
      expect(tool.isError, textOf(tool)).toBeFalsy();
      expect(fromJson((tool.structuredContent as { invariants: EntryJson[] }).invariants)).toEqual(json);
      expect(fromMarkdown(textOf(tool))).toEqual(json);
      expect(textOf(tool)).toContain(`Shadows inherited policy ${INH_TESTS}.`);

      const base = target.kind === 'project' ? 'agents://projects/myapp' : `agents://plans/${plan}`;
      const resJson = (await s.client.readResource({ uri: `${base}/effective.json` })).contents[0] as { text: string };
      expect(fromJson((JSON.parse(resJson.text) as { invariants: EntryJson[] }).invariants)).toEqual(json);
      const resMd = (await s.client.readResource({ uri: `${base}/effective.md` })).contents[0] as { text: string };
      expect(fromMarkdown(resMd.text)).toEqual(json);

      expect(await fromTui(target, json.length)).toEqual(json);
    }
  }, 120_000);
});

type ShowJson = { id: string; scope: string; shadows: { id: string }[]; shadowed_by: { id: string }[] };
const relations = (r: ShowJson) => ({
  id: r.id,
  scope: r.scope,
  shadows: sorted(r.shadows.map((x) => x.id)),
  shadowed_by: sorted(r.shadowed_by.map((x) => x.id)),
});

describe('the MCP output schemas hold what the tools answer', () => {
  it('effective_invariants, list_invariants and show_invariant answer inherited entries within their outputSchema', async () => {
    const s = await startMcp(store);
    const { tools } = await s.client.listTools();
    const ajv = new Ajv({ strict: false });
    const schemaOf = (name: string) => ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
    for (const [name, args] of [
      ['effective_invariants', { project: 'myapp' }],
      ['effective_invariants', { plan }],
      ['list_invariants', {}],
      ['show_invariant', { id: INH_TESTS }],
      ['plan_status', { plan: sourcePlan }],
    ] as const) {
      const r = (await s.client.callTool({ name, arguments: { ...args } })) as CallToolResult;
      expect(r.isError, textOf(r)).toBeFalsy();
      const valid = schemaOf(name);
      expect(valid(r.structuredContent), `${name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
  }, 60_000);
});

describe('a policy source not in the cache', () => {
  it('list_invariants answers without the inherited invariants and says so in its answer, not only on stderr', async () => {
    const copy = join(dir, 'app-uncached');
    cpSync(app, copy, { recursive: true });
    rmSync(join(copy, '.git', 'agents'), { recursive: true, force: true });
    const s = await startMcp(join(copy, '.agents'));
    const r = (await s.client.callTool({ name: 'list_invariants', arguments: {} })) as CallToolResult;
    expect(r.isError, textOf(r)).toBeFalsy();
    const listed = (r.structuredContent as { invariants: { id: string; scope: string }[] }).invariants;
    expect(listed.some((i) => i.scope === 'inherited')).toBe(false);
    expect(listed.map((i) => i.id)).toContain(G_TESTS);
    const notes = (r._meta as Record<string, string[]> | undefined)?.['agents/notices'] ?? [];
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/agents extends fetch/);
    expect(textOf(r)).toContain(notes[0]);
    // A scope's own list reads no source: nothing to say.
    const scoped = (await s.client.callTool({ name: 'list_invariants', arguments: { global: true } })) as CallToolResult;
    expect(scoped._meta?.['agents/notices']).toBeUndefined();
  }, 60_000);
});

/** The browser on project myapp's effective set, once its first frame holds the set (some in effect, some hidden). */
async function myappEffective(size = { columns: 160, rows: 60 }) {
  const r = render(
    <Browser
      service={new InvariantService(store)}
      scope={{ kind: 'project', project: 'myapp' }}
      effective
      size={size}
      onQuit={() => {}}
      onError={(e) => {
        throw e;
      }}
    />,
  );
  return { r, frame: await frameMatches(r.lastFrame, (f) => expect(f).toMatch(/[1-9]\d* in effect, [1-9]\d* hidden/)) };
}

describe('the TUI on a store that extends a source', () => {
  it('shows the inherited copy hidden under the global one that shadows it, by a prefix the commands take back', async () => {
    const { r, frame } = await myappEffective();
    r.unmount();
    const rows = frame.split('\n');
    const under = rows.findIndex((l) => /^[› ] E All API changes need tests\s+\S+$/.test(l));
    expect(under).toBeGreaterThan(-1);
    expect(rows[under + 1]).toMatch(/^ {2}E ↳ hidden by \S+: All API changes need tests\s+\S+$/);
    // The prefix it prints is taken back by the commands.
    expect(await named(/(\S+)$/.exec(rows[under + 1]!)![1]!)).toEqual({ id: INH_TESTS, scope: 'inherited' });
  });
});

describe('the TUI on a store that extends a source: d', () => {
  it('d on an inherited row is refused before the confirmation, as `invariant remove` refuses it', async () => {
    const { r, frame } = await myappEffective();
    // The last row of the effective set is in the inherited group, below every scope of the store.
    expect(frame.split('\n').filter((l) => l.startsWith('inherited ')).length).toBe(1);
    r.stdin.write('G');
    await frameMatches(r.lastFrame, (f) => expect(f).toMatch(new RegExp(`^› E Never delete production data\\s+${INH_DELETE}$`, 'm')));
    r.stdin.write('d');
    await frameMatches(r.lastFrame, (f) => expect(f).toContain('is inherited from the policy source policy'));
    expect(r.lastFrame()).not.toContain('Remove this invariant?');
    r.unmount();
    expect((await cli('invariant', 'show', INH_DELETE)).code).toBe(0);
  });
});

describe('the TUI on a store that extends a source: d at 40×14', () => {
  it('says the refusal whole, its point at its end, taking the rows it needs from the list', async () => {
    const { r } = await myappEffective({ columns: 40, rows: 14 });
    r.stdin.write('G');
    await frameMatches(r.lastFrame, (f) => expect(f).toMatch(new RegExp(`^› E Never.* ${INH_DELETE}$`, 'm')));
    r.stdin.write('d');
    const said = (f: string) =>
      f
        .split('\n')
        .slice(1, 4)
        .map((l) => l.trimEnd())
        .join(' ');
    const frame = await frameMatches(r.lastFrame, (f) => expect(said(f)).toContain('is inherited from'));
    const rows = frame.split('\n');
    expect(said(frame)).toMatch(/is inherited from the policy source policy; this store cannot change it$/);
    expect(rows.length).toBeLessThanOrEqual(13);
    expect(rows.at(-1)).toMatch(/quit$/);
    r.unmount();
  });
});

describe('one invariant of every tier, shown', () => {
  it('invariant show (JSON and text) and show_invariant agree on every tier, an inherited id included', async () => {
    const promoted = (await cliJson<EntryJson[]>('invariant', 'list', '--effective', '--plan', plan)).find(
      (e) => e.scope === 'plan' && e.id !== planOwn,
    )!.id;
    const s = await startMcp(store);
    const seen: Record<string, ReturnType<typeof relations>> = {};
    for (const id of [INH_TESTS, G_TESTS, P_LOG, P_ERRORS, planOwn, promoted, A_REVIEW]) {
      const shown = relations(await cliJson<ShowJson>('invariant', 'show', id));
      const tool = (await s.client.callTool({ name: 'show_invariant', arguments: { id } })) as CallToolResult;
      expect(tool.isError, textOf(tool)).toBeFalsy();
      const data = tool.structuredContent as { invariant: ShowJson } & ShowJson;
      expect(relations({ ...data, id: data.invariant.id, scope: data.invariant.scope })).toEqual(shown);
      // The text of both is one rendering (src/present/invariant.ts); the server was given the store by --store, so
      // the commands its text names carry it, as the command line's do when it is given the same.
      expect(textOf(tool)).toBe((await cli('--store', store, 'invariant', 'show', id)).stdout.trimEnd());
      seen[id] = shown;
    }
    // A whole-store listing too: the text of list_invariants is `invariant list`'s (tags, the copies hidden and hiding).
    const listed = (await s.client.callTool({ name: 'list_invariants', arguments: {} })) as CallToolResult;
    expect(textOf(listed)).toBe((await cli('invariant', 'list')).stdout.trimEnd());
    expect(textOf(listed)).toContain(`shadowed by global ${G_TESTS}`);
    expect(seen[INH_TESTS]).toEqual({ id: INH_TESTS, scope: 'inherited', shadows: [], shadowed_by: [G_TESTS] });
    expect(seen[G_TESTS]).toEqual({ id: G_TESTS, scope: 'global', shadows: [INH_TESTS], shadowed_by: [] });
    expect(seen[P_ERRORS]?.shadowed_by).toEqual([planOwn]);
    expect(seen[promoted]?.scope).toBe('plan');
    expect(seen[A_REVIEW]?.scope).toBe('action');
  }, 120_000);

  it('a write naming an inherited id is refused (exit 2, the source named), and nothing changes', async () => {
    const before = git(app, 'status', '--porcelain');
    const r = await cli('invariant', 'remove', INH_DELETE, '--yes', '--format', 'json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.detail).toEqual({ source: 'policy', id: INH_DELETE });
    expect(git(app, 'status', '--porcelain')).toBe(before);
    expect((await cli('invariant', 'show', INH_DELETE)).code).toBe(0);
  });
});

describe('export and validate on the same store', () => {
  it('the exported files show the effective entries with the same ids and shadows', async () => {
    const effective = fromJson(await cliJson<EntryJson[]>('invariant', 'list', '--effective', '--project', 'myapp'));
    const r = await cli('export', '--target', 'agents-md');
    expect(r.code, r.stderr).toBe(0);
    const root = fromExport(readFileSync(join(app, 'AGENTS.md'), 'utf8'));
    const project = fromExport(readFileSync(join(app, 'services/myapp/AGENTS.md'), 'utf8'));
    for (const e of effective) expect((e.scope === 'project' ? project : root).get(e.id), e.id).toEqual(e.hides);
    expect(root.get(INH_DELETE)).toEqual([]);
    expect(root.get(G_TESTS)).toEqual([INH_TESTS]);
    // A hidden inherited copy is named with its source, as a kept one is.
    expect(readFileSync(join(app, 'AGENTS.md'), 'utf8')).toContain(`shadows inherited policy \`${INH_TESTS}\``);
  });

  it('export --stdout with --format json or yaml is a document holding the text it prints, not the Markdown itself', async () => {
    const text = await cli('export', '--stdout', '--plan', plan, '--target', 'agents-md');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(INH_DELETE);
    const json = await cliJson<Record<string, unknown>>('export', '--stdout', '--plan', plan, '--target', 'agents-md');
    expect(json).toEqual({ target: 'agents-md', plan, project: null, content: text.stdout });
    const yaml = await cli('export', '--stdout', '--project', 'myapp', '--target', 'cursor', '--format', 'yaml');
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toMatch(/^target: cursor\nplan: null\nproject: myapp\ncontent: /);
  });

  it('validate accepts a plan promoted from a policy source action whose invariants exist at the pinned commit', async () => {
    const promoted = (await cliJson<EntryJson[]>('invariant', 'list', '--effective', '--plan', sourcePlan)).filter(
      (e) => e.scope === 'plan',
    );
    expect(promoted.length).toBe(1);
    const shown = await cliJson<{ source: { origin_id: string; ref: string } }>('invariant', 'show', promoted[0]!.id);
    expect(shown.source).toMatchObject({ origin_id: SRC_RELEASE });
    const r = await cli('validate', '--format', 'json');
    const codes = (JSON.parse(r.stdout).diagnostics as { code: string; file: string }[]).map((d) => `${d.code} ${d.file}`);
    expect(codes.filter((c) => c.startsWith('unknown-origin'))).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("validate keeps no memo of the references check in a store that extends a policy source (its origins live in the source's copy)", async () => {
    expect((await cli('validate')).code).toBe(0);
    expect((await cli('validate')).code).toBe(0);
    const memo = JSON.parse(readFileSync(join(app, '.git/agents/validate-worktree.cache.checks'), 'utf8')) as { checks: object };
    expect(Object.keys(memo.checks)).toContain('ids');
    expect(Object.keys(memo.checks)).not.toContain('references');
  });

  it('validate still reports an origin the source does not hold at the pin', async () => {
    const id = (await cliJson<EntryJson[]>('invariant', 'list', '--effective', '--plan', sourcePlan)).find((e) => e.scope === 'plan')!.id;
    const file = join(store, 'plans', sourcePlan, `${id}.yaml`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(SRC_RELEASE, INH_DELETE));
    try {
      const r = await cli('validate', '--format', 'json');
      const found = (JSON.parse(r.stdout).diagnostics as { code: string; file: string }[]).filter((d) => d.code === 'unknown-origin');
      expect(found.map((d) => d.file)).toEqual([`plans/${sourcePlan}/${id}.yaml`]);
    } finally {
      writeFileSync(file, text);
    }
  });
});
