// docs/json-output.md gives, for each command, the keys of what it prints under
// --format json: in its table, in its prose (invariant remove, invariant log) and
// in its examples (invariant diff); docs/guard.md those of the hook's audit lines.
// A reader codes against them: each command's document must have exactly the keys
// the page gives it, no more, no fewer.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';
import { topLevelParts } from '../helpers/literal-parts.ts';
import { useExampleActor } from '../helpers/plans.ts';
import { consumer, policyRepo } from '../extends/repos.ts';

/** The top-level keys a cell's first code span gives: `{a, b: [x…], c}` → a, b, c (an array of them for `[{…}]`). */
function documentedKeys(cell: string): { array: boolean; keys: string[] } | undefined {
  const code = /`([^`]+)`/.exec(cell)?.[1]?.trim();
  if (code === undefined) return undefined;
  const array = code.startsWith('[{') || /^an array of/.test(cell.trim());
  const body = code.startsWith('[{') ? code.slice(1, -1) : code;
  if (!body.startsWith('{')) return undefined;
  const keys = topLevelParts(body).map((part) => part.split(/[:\s(]/)[0]!);
  return { array, keys };
}

/** The rows of the table of commands: the command's words, and the keys its cell gives. */
function tableRows(): Map<string, { array: boolean; keys: string[] }> {
  const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
  const rows = new Map<string, { array: boolean; keys: string[] }>();
  for (const m of page.matchAll(/^\| `([a-z -]+)` \| (.+) \|$/gm)) {
    const keys = documentedKeys(m[2]!);
    if (keys) rows.set(m[1]!, keys);
  }
  return rows;
}

const PLAN_ACTION = 'local/deploy';

/** A store with a project, an action template with an invariant, a plan made from it, and a global invariant. */
async function store(): Promise<{ dir: string; plan: string; global: string }> {
  const dir = tempDir();
  gitInit(dir);
  const run = async (...args: string[]) => {
    const r = await runAgents([...args, '--format', 'json'], { cwd: dir });
    if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  await run('init');
  useExampleActor(join(dir, '.agents'));
  await run('action', 'add', PLAN_ACTION);
  await run('invariant', 'add', '--action', PLAN_ACTION, 'Run the tests before deploying');
  const global = (await run('invariant', 'add', '--global', 'Never delete production data')).id as string;
  await run('invariant', 'add', '--project', 'myapp', 'All API changes need tests');
  const plan = (await run('plan', 'use', PLAN_ACTION, '--project', 'myapp')).plan.id as string;
  return { dir, plan, global };
}

describe('the keys docs/json-output.md gives each command', () => {
  it('are the keys of what the command prints', async () => {
    const { dir, plan, global } = await store();
    // In order: a violation is added before it is listed and resolved.
    const commands: Record<string, string[]> = {
      'plan use': ['plan', 'use', PLAN_ACTION, '--project', 'myapp'],
      'plan list': ['plan', 'list'],
      'plan strategize': ['plan', 'strategize', plan],
      'plan show': ['plan', 'show', plan],
      'plan sync': ['plan', 'sync', plan, '--yes'],
      'plan decisions': ['plan', 'decisions', plan],
      'plan status': ['plan', 'status', plan],
      'plan activate': ['plan', 'activate'],
      'guard install': ['guard', 'install', '--client', 'claude'],
      'invariant violation add': ['invariant', 'violation', 'add', '--plan', plan, '--invariant', global, '--details', 'x'],
      'invariant violation list': ['invariant', 'violation', 'list', '--plan', plan],
      'invariant violation resolve': ['invariant', 'violation', 'resolve', 'VIOLATION'],
      'invariant waive': ['invariant', 'waive', global, '--plan', plan, '--reason', 'r', '--owner', 'o', '--expires', '2099-01-01'],
      export: ['export', '--target', 'agents-md'],
      'export --check': ['export', '--check', '--target', 'agents-md'],
      'export --dry-run': ['export', '--dry-run', '--target', 'claude-md'],
      'export --stdout': ['export', '--stdout', '--project', 'myapp', '--target', 'agents-md'],
      which: ['which', 'README.md'],
      'action add': ['action', 'add', 'local/other'],
      'action list': ['action', 'list'],
      'project add': ['project', 'add', 'other'],
      'project list': ['project', 'list'],
      'project remove': ['project', 'remove', 'other'],
      'init --schemas': ['init', '--schemas'],
      init: ['init', '--store', join(tempDir(), '.agents')],
    };
    const rows = tableRows();
    let violation = '';
    for (const [command, args] of Object.entries(commands)) {
      const documented = rows.get(command);
      expect(documented, `docs/json-output.md has no row for ${command}`).toBeDefined();
      const r = await runAgents([...args.map((a) => (a === 'VIOLATION' ? violation : a)), '--format', 'json'], { cwd: dir });
      // A verdict of exit 1 (which: a path in no project) prints its report; a refusal (2, 3) would print the error document.
      expect(r.code, `${command}: ${r.stderr}`).toBeLessThan(2);
      if (command === 'invariant violation add') violation = (JSON.parse(r.stdout) as { id: string }).id;
      const printed = JSON.parse(r.stdout) as Record<string, unknown> | Record<string, unknown>[];
      expect(Array.isArray(printed), command).toBe(documented!.array);
      const one = Array.isArray(printed) ? printed[0]! : printed;
      expect(Object.keys(one).sort(), command).toEqual([...documented!.keys].sort());
    }
  });

  it('reads the keys of a cell as written (the check is not blind)', () => {
    expect(documentedKeys('`{plan, folder, promoted: [invariant…], duplicates: [{origin_id, of, text}], commit}` (…)')).toEqual({
      array: false,
      keys: ['plan', 'folder', 'promoted', 'duplicates', 'commit'],
    });
    expect(documentedKeys('`[{client, file, status}]` (`status`: …)')).toEqual({ array: true, keys: ['client', 'file', 'status'] });
    expect(documentedKeys('an array of `{path, projects: [name, …]}`; …')).toEqual({ array: true, keys: ['path', 'projects'] });
    expect(tableRows().size).toBeGreaterThan(20);
  });
});

/** The keys of the first `{…}` code span after `lead` on docs/json-output.md, quotes dropped: `{"removed", "path"}`. */
function proseKeys(lead: string): { keys: string[]; nested: Map<string, string[]> } {
  const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
  const at = page.indexOf(lead);
  if (at < 0) throw new Error(`docs/json-output.md: no "${lead}"`);
  const code = /`(\{[^`]+\})`/.exec(page.slice(at))?.[1]?.replace(/\s+/g, ' ').replace(/"/g, '');
  if (code === undefined) throw new Error(`docs/json-output.md: no {…} after "${lead}"`);
  const nested = new Map<string, string[]>();
  const keys = topLevelParts(code).map((part) => {
    const [key, value] = part.split(/:\s*/, 2) as [string, string | undefined];
    // A list of objects, `events: [{commit, author}]`: the keys of its items.
    if (value?.startsWith('[{'))
      nested.set(
        key,
        topLevelParts(value.slice(1)).map((p) => p.split(/[:\s(]/)[0]!),
      );
    return key;
  });
  return { keys, nested };
}

describe('the keys docs/json-output.md gives invariant remove and invariant log in its prose', () => {
  it('are the keys of what they print', async () => {
    const { dir, global } = await store();
    const committed = await runAgents(['invariant', 'edit', global, '--severity', 'warning', '--commit', '--format', 'json'], { cwd: dir });
    expect(committed.code, committed.stderr).toBe(0);
    const log = await runAgents(['invariant', 'log', global, '--format', 'json'], { cwd: dir });
    expect(log.code, log.stderr).toBe(0);
    const logged = JSON.parse(log.stdout) as { events: Record<string, unknown>[] };
    const documented = proseKeys('`invariant log` prints');
    expect(Object.keys(logged).sort()).toEqual([...documented.keys].sort());
    expect(Object.keys(logged.events[0]!).sort()).toEqual([...documented.nested.get('events')!].sort());

    const removed = await runAgents(['invariant', 'remove', global, '--yes', '--format', 'json'], { cwd: dir });
    expect(removed.code, removed.stderr).toBe(0);
    expect(Object.keys(JSON.parse(removed.stdout)).sort()).toEqual([...proseKeys('`invariant remove` prints').keys].sort());
  });
});

describe("the keys docs/guard.md gives the guard hook's audit lines", () => {
  it('name every key a line of .git/agents/guard-audit.jsonl holds: a deny, a call no guard decides, one the hook cannot judge', async () => {
    const guard = readFileSync(join(REPO, 'docs/guard.md'), 'utf8');
    const from = guard.indexOf('Every decision (one that matched no guard too)');
    const paragraph = guard.slice(from, guard.indexOf('\n\n', guard.indexOf('So is every call answered by `guard.on_error`', from)));
    const named = new Set([...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    const { dir, plan } = await store();
    const added = await runAgents(['invariant', 'add', '--global', 'Never apply by hand', '--guard-command', 'terraform apply'], {
      cwd: dir,
    });
    expect(added.code, added.stderr).toBe(0);
    expect((await runAgents(['plan', 'activate', plan], { cwd: dir })).code).toBe(0);
    const call = (tool: string, input: object) =>
      JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, cwd: dir });
    for (const input of [
      call('Bash', { command: 'terraform apply' }),
      call('Write', { file_path: join(dir, '.git/config') }),
      call('Read', {}),
      '{',
    ])
      await runAgents(['guard', 'hook', '--client', 'claude'], { cwd: dir, input });
    const lines = readFileSync(join(dir, '.git/agents/guard-audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.decision)).toEqual(['deny', 'deny', 'none', 'error']);
    expect(lines[0]).toHaveProperty('violation');
    expect(lines[1]).toHaveProperty('reserved');
    const keys = new Set(lines.flatMap((l) => Object.keys(l)));
    expect([...keys].filter((k) => !named.has(k))).toEqual([]);
  });
});

describe('the keys docs/json-output.md gives extends fetch and extends update', () => {
  it('are the keys of what they print, a source of update and a pin too', async () => {
    const dir = tempDir();
    const app = consumer(dir, `  - url: ${policyRepo(dir).url}\n    ref: v1\n`);
    const rows = tableRows();
    const json = async (...args: string[]) => {
      const r = await runAgents([...args, '--format', 'json'], { cwd: app });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown> & { sources: Record<string, unknown>[] };
    };
    const update = await json('extends', 'update');
    expect(Object.keys(update).sort()).toEqual([...rows.get('extends update')!.keys].sort());
    // A source: `{name, before, after, moved_tag, before_gone, diff}`; a pin as the row's "a pin is {…}" gives it.
    const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
    const row = /^\| `extends update` \| (.+) \|$/m.exec(page)![1]!;
    const keysOf = (code: string) => topLevelParts(code).map((p) => p.split(/[:\s(?]/)[0]!);
    const source = /sources: \[(\{[^\]]+\})\]/.exec(row)![1]!;
    expect(Object.keys(update.sources[0]!).sort()).toEqual(keysOf(source).sort());
    const pin = /a pin is `(\{[^`]+\})`/.exec(row)![1]!;
    // `path` and `tag_object` are written only where they apply (a store not in .agents, an annotated tag).
    expect(Object.keys(update.sources[0]!.after as object).sort()).toEqual(
      keysOf(pin)
        .filter((k) => !['path', 'tag_object'].includes(k))
        .sort(),
    );
    const fetched = (await json('extends', 'fetch')) as unknown as Record<string, unknown>[];
    expect(rows.get('extends fetch')!.array).toBe(true);
    expect(Object.keys(fetched[0]!).sort()).toEqual([...rows.get('extends fetch')!.keys].sort());
  });
});

describe("docs/json-output.md's invariant diff example", () => {
  it('has the keys invariant diff prints, two levels deep, for an invariant, a waiver, paths and a plan changed', async () => {
    const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
    const at = page.indexOf('`invariant diff` prints:');
    const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(page.slice(at))![1]!) as Record<string, unknown>;
    const { dir, plan, global } = await store();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    const run = async (...args: string[]) => {
      const r = await runAgents(args, { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    await run('project', 'add', 'other');
    git('add', '-A');
    git('commit', '-qm', 'base');
    await run('invariant', 'add', '--project', 'myapp', 'Log all changes');
    await run('invariant', 'waive', global, '--project', 'myapp', '--reason', 'r', '--owner', 'o', '--expires', '2099-01-01');
    await run('project', 'add', 'myapp', '--path', 'services/**');
    const planFile = join(dir, '.agents/plans', plan, 'plan.yaml');
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('project: myapp', 'project: other'));
    const printed = JSON.parse((await run('invariant', 'diff', '--format', 'json')).stdout) as Record<string, unknown>;
    /** The keys of `doc` and of its values' objects (a list's first item), as paths; the example's "…" left out. */
    const twoLevels = (doc: Record<string, unknown>) =>
      Object.entries(doc).flatMap(([k, v]) => {
        const inner = Array.isArray(v) ? v[0] : v;
        const keys = inner !== null && typeof inner === 'object' ? Object.keys(inner).filter((x) => x !== '…') : [];
        return [k, ...keys.map((x) => `${k}.${x}`)];
      });
    // policy_sources and policy_order are said in the prose below the example (a store that extends nothing has none).
    expect(twoLevels(printed).sort()).toEqual([...twoLevels(shown), 'policy_sources', 'policy_order'].sort());
  });
});
