import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml } from '../helpers/tmp.ts';
import { G1, G2, L1, P1, P2, PLAN, exampleStore } from '../tui/helpers.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { main } from '../../src/cli/main.ts';

// `invariant edit` and `invariant move` end to end: the built CLI on a store in a temporary git repository.

beforeAll(() => {
  expect(existsSync(join(REPO, 'dist/cli.js')), 'run `npm run build` first').toBe(true);
});

/** The example store in a fresh git repository, committed; returns the store folder and the repository. */
function repoStore(): { root: string; repo: string; run: (...args: string[]) => ReturnType<typeof runAgents> } {
  const root = exampleStore();
  const repo = dirname(root);
  gitInit(repo);
  commitAll(repo, 'the store');
  return { root, repo, run: (...args) => runAgents(args, { cwd: repo }) };
}

/** Every file of the store with its bytes (the lock-free state a failed command must leave). */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const p = join(root, f);
    try {
      out[f] = readFileSync(p, 'utf8');
    } catch {
      out[f] = '<dir>';
    }
  }
  return out;
}

const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, unknown>;

describe('agents invariant edit', () => {
  it('changes severity, tags, rationale and state in place, keeping the id, the file and created_at', async () => {
    const { root, run } = repoStore();
    const file = join(root, `global/${G1}.yaml`);
    const r = await run(
      'invariant',
      'edit',
      G1.slice(0, 7).toLowerCase(),
      '--severity',
      'warning',
      '--tag',
      'data',
      '--tag',
      'safety',
      '--rationale',
      'Restores take days.',
      '--format',
      'json',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({
      id: G1,
      severity: 'warning',
      tags: ['data', 'safety'],
      rationale: 'Restores take days.',
      created_at: '2026-11-29T12:00:00Z',
      changed: ['severity', 'tags', 'rationale'],
      before: { severity: 'error', tags: [] },
      commit: null,
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`id: ${G1}\n`);
    expect(text).toContain('severity: warning\n');
    expect(text).toContain('created_by: Example Team <team@example.com>\n');

    const untag = await run('invariant', 'edit', G1, '--untag', 'data', '--rationale', '');
    expect(untag.code).toBe(0);
    expect(untag.stdout).toContain(`edited ${G1} in global: tags, rationale`);
    expect(readFileSync(file, 'utf8')).not.toContain('rationale');

    // Inactive invariants stay in the store but leave the effective set.
    expect((await run('invariant', 'edit', G1, '--deactivate')).code).toBe(0);
    const eff = (
      JSON.parse((await run('invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout) as { id: string }[]
    ).map((e) => e.id);
    expect(eff).not.toContain(G1);
    expect((await run('invariant', 'edit', G1, '--activate')).code).toBe(0);
    expect(
      (
        JSON.parse((await run('invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout) as { id: string }[]
      ).map((e) => e.id),
    ).toContain(G1);
  });

  it('changes the text, refusing a same-scope duplicate (exit 1, JSON names it) and warning of near-duplicates', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    const dup = await run('invariant', 'edit', P1, '--text', 'log ALL changes', '--format', 'json');
    expect(dup.code).toBe(1);
    expect(json(dup)).toMatchObject({ ok: false, exit_code: 1, error: { code: 'duplicate', detail: { existing_id: P2 } } });
    expect(snapshot(root)).toEqual(before);

    const near = await run('invariant', 'edit', P1, '--text', 'Never delete production data.', '--format', 'json');
    expect(near.code).toBe(0);
    expect(json(near).near_duplicates).toEqual([
      { id: G1, scope: 'global', path: `global/${G1}.yaml`, text: 'Never delete production data', kind: 'punctuation' },
    ]);
    const text = await run('invariant', 'edit', P1, '--text', 'Never delete production dta');
    expect(text.stdout).toContain(`warning: nearly repeats global ${G1} "Never delete production data" (one character apart)`);
  });

  it('keeps the BOM and the CRLF line ends of the file it rewrites; the file reads back the same', async () => {
    const { root, run } = repoStore();
    const file = join(root, `global/${G1}.yaml`);
    writeFileSync(file, `\uFEFF${readFileSync(file, 'utf8').replace(/\n/g, '\r\n')}`);
    const r = await run('invariant', 'edit', G1, '--rationale', 'First line.\nSecond line.', '--format', 'json');
    expect(r.code).toBe(0);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n').join('')).not.toContain('\n');
    expect(text).toContain('\r\n');
    const shown = JSON.parse((await run('invariant', 'show', G1, '--format', 'json')).stdout) as { rationale: string };
    expect(shown.rationale).toBe('First line.\nSecond line.');
    expect((await run('validate', '--no-cache')).code).toBe(0);
  });

  it('an edit to the values already there writes and commits nothing', async () => {
    const { root, repo, run } = repoStore();
    const before = snapshot(root);
    const head = git(repo, 'rev-parse', 'HEAD');
    const r = await run('invariant', 'edit', P2, '--severity', 'warning', '--commit');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`unchanged ${P2} in project myapp`);
    expect(snapshot(root)).toEqual(before);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('--commit commits exactly the edited file', async () => {
    const { repo, run } = repoStore();
    const r = await run('invariant', 'edit', G2, '--severity', 'info', '--commit', '--format', 'json');
    expect(r.code).toBe(0);
    const sha = json(r).commit as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, 'show', '--name-only', '--format=%s', sha).trim().split('\n')).toEqual([
      `invariant: edit ${G2} in global (severity)`,
      '',
      `.agents/global/${G2}.yaml`,
    ]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('overrides: a copy that names what it replaces is not a shadowed warning; list --effective says "overrides"', async () => {
    const { run } = repoStore();
    const strictBefore = await run('validate', '--strict', '--format', 'json');
    expect(strictBefore.code).toBe(1);
    const failing = (r: { stdout: string }) =>
      (json(r).diagnostics as { code: string; severity: string }[]).filter((d) => d.severity !== 'info').map((d) => d.code);
    expect(failing(strictBefore)).toEqual(['shadowed']);
    const r = await run('invariant', 'edit', P2, '--overrides', G2.slice(0, 7), '--format', 'json');
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({ overrides: G2, changed: ['overrides'] });
    const strict = await run('validate', '--strict', '--format', 'json');
    expect(strict.code).toBe(0);
    expect(failing(strict)).toEqual([]);
    const text = await run('invariant', 'list', '--effective', '--project', 'myapp');
    expect(text.stdout).toContain(`overrides global ${G2}`);
    expect(text.stdout).not.toContain('shadows global');
    const entries = JSON.parse((await run('invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout) as {
      id: string;
      shadows: unknown[];
      overridden: unknown[];
      overrides: string | null;
    }[];
    expect(entries.find((e) => e.id === P2)).toMatchObject({
      overrides: G2,
      shadows: [],
      overridden: [{ id: G2, scope: 'global', path: `global/${G2}.yaml` }],
    });
    expect((await run('invariant', 'edit', P2, '--overrides', '')).code).toBe(0);
    expect((await run('validate', '--strict')).code).toBe(1);
  });

  it('refuses every bad input with exit 2, one line, and changes nothing', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    const cases: [string[], RegExp][] = [
      [['invariant', 'edit', G1], /nothing to change: give at least one of --text/],
      [['invariant', 'edit', '01M8KJZZZZ', '--severity', 'info'], /no invariant with id prefix 01M8KJZZZZ/],
      [['invariant', 'edit', '01M8KJ', '--severity', 'info'], /invariant id prefix 01M8KJ is ambiguous; it matches:/],
      [['invariant', 'edit', '01M', '--severity', 'info'], /"01M" is not an invariant id or a prefix of one/],
      [['invariant', 'edit', G1, '--severity', 'fatal'], /--severity "fatal" is not one of|Invalid values|Choices/i],
      [['invariant', 'edit', G1, '--text', '   '], /the invariant text is empty/],
      [['invariant', 'edit', G1, '--text', 'x'.repeat(2001)], /the limit is 2000/],
      [['invariant', 'edit', G1, '--tag', 'a,b'], /tag "a,b" is invalid/],
      [['invariant', 'edit', G1, '--untag', 'nope'], /has no tag "nope"/],
      [['invariant', 'edit', G1, '--tag', 'x', '--untag', 'x'], /both added and removed/],
      [['invariant', 'edit', G1, '--activate', '--deactivate'], /--activate or --deactivate, not both/],
      [['invariant', 'edit', P2, '--overrides', '01M8KJZZZZ'], /no invariant with id prefix 01M8KJZZZZ/],
      [['invariant', 'edit', P2, '--overrides', G1], /cannot override .*: their texts differ/],
      [['invariant', 'edit', P2, '--overrides', P2], /cannot override itself/],
      // The global copy is hidden by the project's: it replaces nothing, and the override belongs on the other.
      [['invariant', 'edit', G2, '--overrides', P2], new RegExp(`cannot override ${P2}.*edit ${P2} --overrides ${G2}`, 's')],
      [['invariant', 'edit', G1, '--severity', 'info', '--severity', 'error'], /--severity was given more than once/],
    ];
    for (const [args, message] of cases) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(snapshot(root), args.join(' ')).toEqual(before);
    }
    // Flags that cannot go together have the code a script tells them by, naming both sides.
    for (const [args, options] of [
      [
        ['--activate', '--deactivate'],
        ['activate', 'deactivate'],
      ],
      [
        ['--clear-guard', '--guard-tool', 'Bash', '--guard-write', 'infra/**'],
        ['clear-guard', 'guard-write', 'guard-tool'],
      ],
    ] as const) {
      const r = await run('invariant', 'edit', G1, ...args, '--format', 'json');
      expect(errorOf(r), args.join(' ')).toEqual({ code: 'conflicting-options', exit_code: 2, detail: { options } });
    }
    // No flag at all outside a terminal: the group of which one is needed.
    const none = errorOf(await run('invariant', 'edit', G1, '--format', 'json'));
    expect([none.code, none.exit_code, none.detail?.command]).toEqual(['missing-option', 2, 'invariant edit']);
    expect(none.detail?.options).toEqual(expect.arrayContaining(['text', 'severity', 'clear-guard', 'guard-tool']));
    expect(snapshot(root)).toEqual(before);
  });

  it('an invalid file in the scope stops the edit (exit 3) naming it', async () => {
    const { root, run } = repoStore();
    writeFileSync(join(root, `global/${G2}.yaml`), 'id: [unclosed\n');
    const before = snapshot(root);
    const r = await run('invariant', 'edit', G1, '--severity', 'info');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`global/${G2}.yaml:1:5`);
    expect(snapshot(root)).toEqual(before);
  });

  it("keeps locked: true (a policy source's floor) through an edit and a move", async () => {
    const { root, run } = repoStore();
    const file = join(root, `global/${G1}.yaml`);
    writeFileSync(file, `${readFileSync(file, 'utf8')}locked: true\n`);
    expect((await run('invariant', 'edit', G1, '--severity', 'warning')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^severity: warning$/m);
    expect(readFileSync(file, 'utf8')).toMatch(/^locked: true$/m);
    expect((await run('invariant', 'move', G1, '--project', 'myapp')).code).toBe(0);
    const moved = readFileSync(join(root, `projects/myapp/${G1}.yaml`), 'utf8');
    expect(moved).toMatch(/^locked: true$/m);
    expect(moved).toMatch(/^severity: warning$/m);
  });
});

describe('agents invariant move', () => {
  it('keeps the BOM, the CRLF line ends and the permissions of the file it moves, as edit does', async () => {
    const { root, run } = repoStore();
    const file = join(root, `global/${G1}.yaml`);
    writeFileSync(file, `\uFEFF${readFileSync(file, 'utf8').replace(/\n/g, '\r\n')}`);
    chmodSync(file, 0o600);
    const r = await run('invariant', 'move', G1, '--project', 'myapp');
    expect(r.code, r.stderr).toBe(0);
    const moved = join(root, `projects/myapp/${G1}.yaml`);
    const bytes = readFileSync(moved);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('\r\n');
    expect(text.split('\r\n').join('')).not.toContain('\n');
    expect(statSync(moved).mode & 0o777).toBe(0o600);
    expect((await run('validate', '--no-cache')).code).toBe(0);
  });

  it('moves to another scope keeping the id and fields; invariant log follows it', async () => {
    const { root, repo, run } = repoStore();
    const r = await run('invariant', 'move', G1.slice(0, 8), '--project', 'myapp', '--commit', '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({
      id: G1,
      scope: 'project',
      project: 'myapp',
      path: `projects/myapp/${G1}.yaml`,
      from: { scope: 'global', path: `global/${G1}.yaml` },
      created_by: 'Example Team <team@example.com>',
    });
    expect(existsSync(join(root, `global/${G1}.yaml`))).toBe(false);
    expect(readFileSync(join(root, `projects/myapp/${G1}.yaml`), 'utf8')).toContain(`id: ${G1}\n`);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    const log = JSON.parse((await run('invariant', 'log', G1, '--format', 'json')).stdout) as {
      events: { change: string; from_scope: string | null; scope: string }[];
    };
    expect(log.events.map((e) => [e.change, e.from_scope, e.scope])).toEqual([
      ['moved', 'global', 'project myapp'],
      ['added', null, 'global'],
    ]);
  });

  it('a project emptied by moves and removals goes, unless a plan targets it: then it keeps a .gitkeep, in the commit', async () => {
    const { root, repo, run } = repoStore();
    // The plan targets myapp: moving its two invariants out keeps the project, and the commit holds its .gitkeep.
    expect((await run('invariant', 'move', P2, '--action', 'local/code-coverage')).code).toBe(0);
    expect(existsSync(join(root, 'projects/myapp/.gitkeep'))).toBe(false);
    const last = await run('invariant', 'move', P1, '--global', '--commit', '--format', 'json');
    expect(last.code).toBe(0);
    expect(json(last).kept_project).toEqual({ project: 'myapp', path: 'projects/myapp/.gitkeep', plans: [PLAN] });
    expect(readdirSync(join(root, 'projects/myapp'))).toEqual(['.gitkeep']);
    const commit = json(last).commit as string;
    expect(git(repo, 'show', '--name-only', '--format=', commit).trim().split('\n').sort()).toEqual(
      [`.agents/global/${P1}.yaml`, `.agents/projects/myapp/${P1}.yaml`, '.agents/projects/myapp/.gitkeep'].sort(),
    );
    const validated = await run('validate', '--format', 'json');
    expect(validated.code).toBe(0);
    expect(JSON.stringify(json(validated))).not.toContain('unknown-project');
    // A project no plan targets goes with its last invariant, by move or by removal.
    for (const how of ['move', 'remove'] as const) {
      const id = how === 'move' ? '01M8KKA000000000000000000M' : '01M8KKA000000000000000000R';
      mkdirSync(join(root, 'projects', `solo-${how}`));
      writeFileSync(join(root, 'projects', `solo-${how}`, `${id}.yaml`), invariantYaml(id, `Only rule of solo ${how}`));
      const r = await run('invariant', how, id, ...(how === 'move' ? ['--global'] : ['--yes']), '--format', 'json');
      expect(r.code).toBe(0);
      expect(json(r).kept_project).toBeNull();
      expect(existsSync(join(root, `projects/solo-${how}`))).toBe(false);
    }
  });

  it('a project whose last invariant is removed is kept when a plan file cannot be read (it may target the project)', async () => {
    const { root, run } = repoStore();
    writeFileSync(join(root, `plans/${PLAN}/plan.yaml`), 'id: [unclosed\n');
    expect((await run('invariant', 'remove', P1, '--yes')).code).toBe(0);
    const r = await run('invariant', 'remove', P2, '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kept project myapp (projects/myapp/.gitkeep)');
    expect(readdirSync(join(root, 'projects/myapp'))).toEqual(['.gitkeep']);
  });

  it('into a plan (by id prefix) adds plan provenance; out of a plan drops it; text output', async () => {
    const { root, run } = repoStore();
    const into = await run('invariant', 'move', G1, '--plan', PLAN.slice(0, 8));
    expect(into.code).toBe(0);
    expect(into.stdout).toContain(`moved ${G1} from global to plan ${PLAN}`);
    expect(readFileSync(join(root, `plans/${PLAN}/${G1}.yaml`), 'utf8')).toMatch(/source:\n\s+kind: plan/);
    const out = await run('invariant', 'move', L1, '--action', 'local/code-coverage', '--format', 'json');
    expect(out.code).toBe(0);
    expect(json(out)).toMatchObject({ scope: 'action', action: 'local/code-coverage', source: null });
    expect((await run('validate', '--format', 'json')).code).toBe(0);
  });

  it('re-checks duplicates in the destination: exit 1, nothing moved', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    const r = await run('invariant', 'move', G2, '--project', 'myapp', '--format', 'json');
    expect(r.code).toBe(1);
    expect(json(r)).toMatchObject({ ok: false, exit_code: 1, error: { code: 'duplicate', detail: { existing_id: P2 } } });
    expect(snapshot(root)).toEqual(before);
  });

  it('to a project that does not exist: creates it and says so, as add does; a name close to an existing one is refused', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    const typo = await run('invariant', 'move', G1, '--project', 'myap', '--format', 'json');
    expect(typo.code).toBe(2);
    expect(json(typo)).toMatchObject({ error: { code: 'close-project-name', detail: { project: 'myap', suggestions: ['myapp'] } } });
    expect(snapshot(root)).toEqual(before);
    const created = await run('invariant', 'move', G1, '--project', 'reports', '--format', 'json');
    expect(created.code).toBe(0);
    expect(json(created)).toMatchObject({ scope: 'project', project: 'reports', created_project: 'reports' });
    expect(created.stderr).toBe('agents: created project reports (projects/reports/)\n');
    const anyway = await run('invariant', 'move', G1, '--project', 'myap', '--new-project', '--format', 'json');
    expect(anyway.code).toBe(0);
    expect(json(anyway)).toMatchObject({ project: 'myap', created_project: 'myap' });
    const existing = await run('invariant', 'move', G1, '--project', 'myapp', '--format', 'json');
    expect(json(existing)).toMatchObject({ project: 'myapp', created_project: null });
  });

  it('an old file that cannot be removed: exit 2, write-failed, and the new copy goes again (the id is never in two scopes)', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    // A file bind-mounted onto itself cannot be unlinked, even by root (EBUSY).
    const file = join(root, `global/${G1}.yaml`);
    const bound = process.getuid?.() === 0 && spawnSync('mount', ['--bind', file, file]).status === 0;
    if (!bound) {
      console.log('skipped: cannot bind-mount here (needs root and mount)');
      return;
    }
    try {
      for (const to of [
        ['--project', 'myapp'],
        ['--project', 'brand-new'],
      ]) {
        const r = await run('invariant', 'move', G1, ...to, '--format', 'json');
        expect(r.code, r.stderr).toBe(2);
        expect(json(r)).toMatchObject({ ok: false, error: { code: 'write-failed' } });
        expect(snapshot(root)).toEqual(before);
      }
    } finally {
      spawnSync('umount', [file]);
    }
  });

  it('refuses every bad input with exit 2 and changes nothing', async () => {
    const { root, run } = repoStore();
    const before = snapshot(root);
    const cases: [string[], RegExp][] = [
      [['invariant', 'move', G1], /no scope given/],
      [['invariant', 'move', G1, '--global'], /is already in global/],
      [['invariant', 'move', G1, '--global', '--project', 'web'], /give exactly one scope/],
      [['invariant', 'move', G1, '--project', 'Bad_Name'], /project "Bad_Name" must start/],
      [['invariant', 'move', G1, '--plan', '7ZZZZZZZ'], /no plan with id prefix 7ZZZZZZZ/],
      [['invariant', 'move', G1, '--action', 'nope'], /must be NS\/NAME/],
      [['invariant', 'move', '7ZZZZZZZ', '--global'], /no invariant with id prefix 7ZZZZZZZ/],
      [['invariant', 'move', 'x', '--global'], /"x" is not an invariant id/],
    ];
    for (const [args, message] of cases) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(snapshot(root), args.join(' ')).toEqual(before);
    }
  });
});

describe('an invariant another writer moved while a command waited for its scope', () => {
  // The command finds the invariant, then waits for global/'s lock; the writer it waited for moves the invariant
  // away. Here the wait is on a lock left by a dead writer: the moment the command clears it, the file is moved.
  /** Runs `args`, moving the invariant to projects/myapp/ as the command clears the dead writer's lock. */
  async function racedRun(args: string[]) {
    const root = exampleStore();
    writeFileSync(join(root, 'global/.lock'), `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`);
    const moved = join(root, `projects/myapp/${G1}.yaml`);
    const bytes = readFileSync(join(root, `global/${G1}.yaml`));
    let stdout = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await main(['--store', root, '--format', 'json', ...args], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: {
        write: (c: string) => {
          if (c.includes(`cleared a stale lock ${join(root, 'global/.lock')}`)) renameSync(join(root, `global/${G1}.yaml`), moved);
        },
      },
      stdin,
      env: { ...process.env, NO_COLOR: '1', CI: 'true', AGENTS_STORE: undefined },
      cwd: dirname(root),
    });
    expect(readdirSync(join(root, 'global'))).not.toContain(`${G1}.yaml`);
    return { code, document: JSON.parse(stdout), moved, bytes };
  }

  it('remove says where it went (exit 2, store-changed, moved_to) and changes nothing', async () => {
    const r = await racedRun(['invariant', 'remove', '--yes', G1]);
    expect(r.code).toBe(2);
    expect(r.document.error).toMatchObject({ code: 'store-changed', detail: { moved_to: `projects/myapp/${G1}.yaml` } });
    expect(readFileSync(r.moved)).toEqual(r.bytes);
  });

  it('edit edits it at its new place', async () => {
    const r = await racedRun(['invariant', 'edit', G1, '--severity', 'info']);
    expect(r.code).toBe(0);
    expect(r.document).toMatchObject({ id: G1, severity: 'info', path: `projects/myapp/${G1}.yaml` });
    expect(readFileSync(r.moved, 'utf8')).toContain('severity: info');
  });
});

describe('ids round-trip', () => {
  it('ids made in one millisecond: the shortest unique prefix of each is accepted by show, edit and move', async () => {
    const { monotonicFactory, ulid } = await import('ulid');
    const { IdAbbreviations } = await import('../../src/core/id-prefix.ts');
    const next = monotonicFactory();
    const t = Date.UTC(2026, 10, 30, 12);
    // As `plan use` makes them (monotonic: 25 characters shared), and as separate processes in one millisecond would.
    const ids = [...Array.from({ length: 2 }, () => next(t)), ...Array.from({ length: 2 }, () => ulid(t))];
    expect(new Set(ids.map((i) => i.slice(0, 10))).size).toBe(1);
    const { root, run } = repoStore();
    for (const [i, id] of ids.entries())
      writeFileSync(join(root, `global/${id}.yaml`), invariantYaml(id, `Rule ${String.fromCharCode(97 + i)} made in one millisecond`));
    const storeIds = readdirSync(root, { recursive: true, encoding: 'utf8' }).flatMap(
      (f) => /([0-7][0-9A-HJKMNP-TV-Z]{25})(\.yaml|$)/.exec(f.split('/').pop()!)?.[1] ?? [],
    );
    const short = new IdAbbreviations(storeIds);
    for (const id of ids) {
      const abbrev = short.short(id);
      expect(abbrev.length).toBeGreaterThan(10);
      expect((json(await run('invariant', 'show', abbrev, '--format', 'json')) as { id: string }).id).toBe(id);
    }
    // Ten characters, as a tool that cut ids short would print them, are ambiguous here.
    expect((await run('invariant', 'show', ids[0]!.slice(0, 10))).stderr).toMatch(/is ambiguous/);
    expect(json(await run('invariant', 'edit', short.short(ids[0]!), '--severity', 'info', '--format', 'json')).id).toBe(ids[0]);
    expect(json(await run('invariant', 'move', short.short(ids[1]!), '--project', 'myapp', '--format', 'json')).id).toBe(ids[1]);
  });
});
