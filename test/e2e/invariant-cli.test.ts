import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { tempDir, testStore, invariantYaml } from '../helpers/tmp.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { errorOf, runAgents } from '../helpers/main.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { runReadOnly } from '../helpers/read-only.ts';
import { runKilledAtUnlink } from '../reliability/kill.ts';

const ULID_RE = /\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b/;
const EXAMPLE_PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** A copy of the example store in a fresh folder, to run commands that write. */
function exampleCopy(): string {
  const root = join(tempDir(), '.agents');
  cpSync(join(REPO, '.agents.example'), root, { recursive: true });
  return root;
}

function files(root: string, folder: string): string[] {
  return existsSync(join(root, folder))
    ? readdirSync(join(root, folder))
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
}

/** Every file of a store with its content, to prove a failed command changed nothing. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(join(dir, d.name), r);
      else out[r] = readFileSync(join(dir, d.name), 'utf8');
    }
  };
  walk(root, '');
  return out;
}

beforeAll(() => {
  expect(existsSync(join(REPO, 'dist/cli.js')), 'run `npm run build` first').toBe(true);
});

describe('the seed command lines', () => {
  it('adds at every scope as the seed writes it', async () => {
    const root = exampleCopy();
    const store = ['--store', root];
    const cases: [string[], string][] = [
      [['invariant', 'add', '--global', 'Never read secrets'], 'global'],
      [['invariant', 'add', '--project', 'myapp', 'Keep the changelog current'], 'projects/myapp'],
      [['invariant', 'add', '--plan', EXAMPLE_PLAN, 'Pin every dependency'], `plans/${EXAMPLE_PLAN}`],
      [['invariant', 'add', '--action', 'local/code-coverage', 'Report coverage per file'], 'actions/local/code-coverage'],
    ];
    for (const [args, folder] of cases) {
      const before = files(root, folder);
      const r = await runAgents([...store, ...args]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const id = ULID_RE.exec(r.stdout)?.[0];
      expect(id).toBeDefined();
      expect(r.stdout).toContain(join(root, folder, `${id}.yaml`));
      expect(files(root, folder)).toEqual([...before, `${id}.yaml`].sort());
      const text = readFileSync(join(root, folder, `${id}.yaml`), 'utf8');
      expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=(\.\.\/)+schemas\/invariant\.schema\.json$/);
      expect(text).toContain(`id: ${id}\n`);
      expect(text).toContain(`text: ${args[args.length - 1]}\n`);
    }
  });

  it('lists all active invariants, filters by scope and regex, and prints JSON', async () => {
    const root = exampleCopy();
    const store = ['--store', root];
    const all = await runAgents([...store, 'invariant', 'list']);
    expect(all.code).toBe(0);
    for (const t of [
      'Never delete production data',
      'Log all changes',
      'All API changes need tests',
      'Minimum 80% coverage',
      'Use Python 3.13 only',
    ])
      expect(all.stdout).toContain(t);

    const global = JSON.parse((await runAgents([...store, 'invariant', 'list', '--global', '--format', 'json'])).stdout) as {
      text: string;
    }[];
    expect(global.map((g) => g.text)).toEqual(['Never delete production data', 'Log all changes']);

    const project = JSON.parse((await runAgents([...store, 'invariant', 'list', '--project', 'myapp', '--format', 'json'])).stdout) as {
      text: string;
    }[];
    expect(project.map((g) => g.text)).toEqual(['All API changes need tests', 'Log all changes']);

    await runAgents([...store, 'invariant', 'add', '--global', 'Keep data safe at rest']);
    const re = JSON.parse((await runAgents([...store, 'invariant', 'list', 'data.*safe', '--format', 'json'])).stdout) as {
      text: string;
    }[];
    expect(re.map((g) => g.text)).toEqual(['Keep data safe at rest']);
    // Smart case: an upper-case letter makes the pattern case-sensitive.
    expect(JSON.parse((await runAgents([...store, 'invariant', 'list', 'Data', '--format', 'json'])).stdout)).toEqual([]);
    expect(JSON.parse((await runAgents([...store, 'invariant', 'list', 'DATA', '--format', 'json'])).stdout)).toEqual([]);
    expect((JSON.parse((await runAgents([...store, 'invariant', 'list', 'data', '--format', 'json'])).stdout) as unknown[]).length).toBe(2);
  });

  it('shows the effective set of myapp as the seed lists it, with the shadow note', async () => {
    const r = await runAgents(['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']);
    expect(r.code).toBe(0);
    const order = ['All API changes need tests', 'Log all changes', 'Never delete production data'].map((t) => r.stdout.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(r.stdout).toContain('shadows global 01M8KJW430VF8WCABSB8RTQ8RY');
  });

  it('takes a unique prefix of a plan id for --plan, as the plan commands do, and names unknown ones', async () => {
    const full = await runAgents([
      '--store',
      '.agents.example',
      'invariant',
      'list',
      '--effective',
      '--plan',
      EXAMPLE_PLAN,
      '--format',
      'json',
    ]);
    const prefixed = await runAgents([
      '--store',
      '.agents.example',
      'invariant',
      'list',
      '--effective',
      '--plan',
      EXAMPLE_PLAN.slice(0, 8).toLowerCase(),
      '--format',
      'json',
    ]);
    expect(prefixed.code).toBe(0);
    expect(prefixed.stdout).toBe(full.stdout);
    const unknown = await runAgents(['--store', '.agents.example', 'invariant', 'list', '--effective', '--plan', 'ZZZZ']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no plan with id prefix ZZZZ');

    const root = exampleCopy();
    const before = snapshot(root);
    const short = await runAgents(['--store', root, 'invariant', 'add', '--plan', '01M', 'Too short a prefix']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('is not a plan id or a prefix of one');
    expect(snapshot(root)).toEqual(before);
    const added = await runAgents([
      '--store',
      root,
      'invariant',
      'add',
      '--plan',
      EXAMPLE_PLAN.slice(0, 6),
      'Keep the migration reversible',
      '--format',
      'json',
    ]);
    expect(added.code).toBe(0);
    const path = (JSON.parse(added.stdout) as { path: string }).path;
    expect(path).toMatch(new RegExp(`^plans/${EXAMPLE_PLAN}/[0-7][0-9A-HJKMNP-TV-Z]{25}\\.yaml$`));
    expect(existsSync(join(root, path))).toBe(true);
  });

  it('prints the effective set of the example plan as the seed lists it, in JSON', async () => {
    const r = await runAgents([
      '--store',
      '.agents.example',
      'invariant',
      'list',
      '--effective',
      '--plan',
      EXAMPLE_PLAN,
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(out.map((o) => [o.text, o.scope])).toEqual([
      ['Use Python 3.13 only', 'plan'],
      ['All API changes need tests', 'project'],
      ['Log all changes', 'project'],
      ['Never delete production data', 'global'],
    ]);
    expect(out[2]).toEqual({
      id: '01M8KJZS90J6DRJJ8E264B9DFX',
      text: 'Log all changes',
      severity: 'error',
      active: true,
      scope: 'project',
      project: 'myapp',
      action: null,
      plan: null,
      path: 'projects/myapp/01M8KJZS90J6DRJJ8E264B9DFX.yaml',
      tags: [],
      rationale: null,
      overrides: null,
      created_at: '2026-11-29T12:03:00Z',
      created_by: 'Example Team <team@example.com>',
      source: null,
      imported_from: null,
      shadows: [{ id: '01M8KJW430VF8WCABSB8RTQ8RY', scope: 'global', path: 'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml' }],
      overridden: [],
      // The example's waiver of this invariant for the plan.
      waivers: [
        {
          id: '01M8KK6RQ0CZ6W1V4TZ2J5X3HB',
          invariant_id: '01M8KJZS90J6DRJJ8E264B9DFX',
          scope: 'plan',
          plan: EXAMPLE_PLAN,
          project: null,
          reason: 'The upgrade runs in a sandbox whose change log is the git history of the branch.',
          owner: 'Example Team <team@example.com>',
          expires: '2099-12-31',
          holds: true,
          created_at: '2026-11-29T12:07:00Z',
          created_by: 'Example Team <team@example.com>',
          path: `plans/${EXAMPLE_PLAN}/waivers/01M8KK6RQ0CZ6W1V4TZ2J5X3HB.yaml`,
        },
      ],
    });
    expect(out[0]).toMatchObject({
      scope: 'plan',
      plan: EXAMPLE_PLAN,
      project: null,
      source: { kind: 'plan', ref: null, origin_id: null },
    });
  });

  it('prints YAML with --format yaml', async () => {
    const r = await runAgents(['--store', '.agents.example', 'invariant', 'list', '--global', '--format', 'yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^- id: 01M8KJT9G0XNWEM589ZS7FV0VT\n {2}text: Never delete production data\n/);
  });

  it('removes with --yes, and refuses without it when not interactive', async () => {
    const root = exampleCopy();
    const before = snapshot(root);
    const refused = await runAgents(['--store', root, 'invariant', 'remove', '01M8KJT9G0XNWEM589ZS7FV0VT']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('confirmation needed');
    expect(snapshot(root)).toEqual(before);
    const refusedJson = await runAgents(['--store', root, '--format', 'json', 'invariant', 'remove', '01M8KJT9']);
    expect(JSON.parse(refusedJson.stdout).error).toMatchObject({ code: 'confirmation-needed', detail: { flag: '--yes' } });

    const r = await runAgents(['--store', root, 'invariant', 'remove', '--yes', '01M8KJT9']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('removed 01M8KJT9G0XNWEM589ZS7FV0VT');
    expect(files(root, 'global')).toEqual(['01M8KJW430VF8WCABSB8RTQ8RY.yaml']);
  });

  it('shows one invariant by prefix, with where it applies and what it shadows', async () => {
    const r = await runAgents(['--store', '.agents.example', 'invariant', 'show', '01m8kjzs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/id\s+01M8KJZS90J6DRJJ8E264B9DFX/);
    expect(r.stdout).toMatch(/scope\s+project myapp/);
    expect(r.stdout).toMatch(/applies to\s+project myapp and the 1 plan\(s\) targeting it/);
    expect(r.stdout).toMatch(/shadows\s+global 01M8KJW430VF8WCABSB8RTQ8RY/);
    const json = JSON.parse(
      (await runAgents(['--store', '.agents.example', 'invariant', 'show', '01M8KJW4', '--format', 'json'])).stdout,
    ) as Record<string, unknown>;
    expect(json.shadowed_by).toEqual([
      { id: '01M8KJZS90J6DRJJ8E264B9DFX', scope: 'project', path: 'projects/myapp/01M8KJZS90J6DRJJ8E264B9DFX.yaml' },
    ]);
  });
});

describe('add: duplicates and shadow notes', () => {
  it('refuses a same-scope duplicate (exit 1) naming the existing id, whatever the case and spacing', async () => {
    const root = exampleCopy();
    const before = snapshot(root);
    const r = await runAgents(['--store', root, 'invariant', 'add', '--project', 'myapp', '  all API   changes NEED tests ']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('01M8KJXYP0GVPRF8KRRE9G8474');
    expect(snapshot(root)).toEqual(before);
    const j = await runAgents([
      '--store',
      root,
      'invariant',
      'add',
      '--project',
      'myapp',
      'All API changes need tests',
      '--format',
      'json',
    ]);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      exit_code: 1,
      error: { code: 'duplicate', detail: { existing_id: '01M8KJXYP0GVPRF8KRRE9G8474' } },
    });
  });

  it('allows copies across scopes with a note of what shadows what', async () => {
    const root = exampleCopy();
    const down = await runAgents(['--store', root, 'invariant', 'add', '--project', 'myapp', 'Never delete production data']);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('it shadows the copy in global (01M8KJT9G0XNWEM589ZS7FV0VT)');
    const up = await runAgents(['--store', root, 'invariant', 'add', '--global', 'All API changes need tests', '--format', 'json']);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout).shadowed_by).toEqual([
      { id: '01M8KJXYP0GVPRF8KRRE9G8474', scope: 'project', path: 'projects/myapp/01M8KJXYP0GVPRF8KRRE9G8474.yaml' },
    ]);
  });

  it('writes severity, tags, rationale and the git author', async () => {
    const root = exampleCopy();
    const r = await runAgents([
      '--store',
      root,
      'invariant',
      'add',
      '--global',
      '--severity',
      'warning',
      '--tag',
      'data',
      '--tag',
      'safety',
      '--rationale',
      'Audits need it.',
      'Back up before migrations',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      severity: 'warning',
      tags: ['data', 'safety'],
      rationale: 'Audits need it.',
      created_by: 'Test Author <author@example.com>',
      scope: 'global',
    });
    expect(out.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe('bad input gets a clear error and changes nothing', () => {
  const cases: [string, string[], number, RegExp][] = [
    ['a project name with ..', ['invariant', 'add', '--project', '../x', 'T'], 2, /project "\.\.\/x" must start with/],
    ['an action that climbs out', ['invariant', 'add', '--action', 'a/../../b', 'T'], 2, /action "a\/\.\.\/\.\.\/b" must be NS\/NAME/],
    ['an action without a name', ['invariant', 'add', '--action', 'local', 'T'], 2, /must be NS\/NAME/],
    ['a plan id that is not a ULID', ['invariant', 'add', '--plan', 'notaulid', 'T'], 2, /"notaulid" is not a plan id or a prefix of one/],
    ['an unknown plan', ['invariant', 'add', '--plan', '01M8KK5920RS6CGAVDFVYYJ0ZZ', 'T'], 2, /no plan with id 01M8KK5920RS6CGAVDFVYYJ0ZZ/],
    ['empty text', ['invariant', 'add', '--global', ''], 2, /text is empty/],
    ['white-space-only text', ['invariant', 'add', '--global', ' \t\n '], 2, /text is empty/],
    ['text over 2,000 characters', ['invariant', 'add', '--global', 'x'.repeat(2001)], 2, /2001 characters long; the limit is 2000/],
    ['two scope flags', ['invariant', 'add', '--global', '--project', 'myapp', 'T'], 2, /at most one scope, not --global and --project/],
    ['no scope flag', ['invariant', 'add', 'T'], 2, /no scope given/],
    ['no text', ['invariant', 'add', '--global'], 2, /no invariant text given/],
    [
      'a bad severity',
      ['invariant', 'add', '--global', '--severity', 'fatal', 'T'],
      2,
      /--severity "fatal" is not one of "error", "warning", "info"/,
    ],
    ['a tag with a comma', ['invariant', 'add', '--global', '--tag', 'a,b', 'T'], 2, /tag "a,b" is invalid/],
    ['an unknown flag', ['invariant', 'list', '--bogus'], 2, /unknown option --bogus/],
    ['an unknown id', ['invariant', 'show', '01M8KJT9G0XNWEM589ZS7FV0VZ'], 2, /no invariant with id 01M8KJT9G0XNWEM589ZS7FV0VZ/],
    [
      'an ambiguous prefix',
      ['invariant', 'remove', '--yes', '01M8KJ'],
      2,
      /id prefix 01M8KJ is ambiguous; it matches:\n {2}01M8KJT9G0XNWEM589ZS7FV0VT/,
    ],
    ['a prefix too short', ['invariant', 'show', '01M'], 2, /is not an invariant id or a prefix of one/],
    ['an id that is a path', ['invariant', 'remove', '--yes', '../../etc/passwd'], 2, /is not an invariant id/],
    ['an invalid regex', ['invariant', 'list', '(unclosed'], 2, /invalid regex "\(unclosed"/],
    ['--effective without a target', ['invariant', 'list', '--effective'], 2, /--effective needs --project P or --plan ID/],
  ];
  it.each(cases)('%s', async (_name, args, code, message) => {
    const root = exampleCopy();
    const before = snapshot(root);
    const r = await runAgents(['--store', root, ...args]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(code);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    expect(snapshot(root)).toEqual(before);
  });

  it('a missing store is a usage error (exit 2); one named by --store has its code', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const r = await runAgents(['--format', 'json', 'invariant', 'list'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(errorOf(r).code).toBe('usage');
    expect(r.stderr).toContain('no store found');
    const missing = await runAgents(['--store', join(dir, 'nope'), '--format', 'json', 'invariant', 'list']);
    expect(missing.code).toBe(2);
    expect(errorOf(missing)).toMatchObject({ code: 'no-store', detail: { store: join(dir, 'nope') } });
  });

  it('an invariant file or a scope folder that is a symbolic link is named (exit 3, symlink) by remove, edit and show, not an unknown id', async () => {
    const id = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const root = testStore();
    writeFileSync(join(dirname(root), 'elsewhere.yaml'), invariantYaml(id, 'Never push to main'));
    symlinkSync('../../elsewhere.yaml', join(root, `global/${id}.yaml`));
    for (const args of [
      ['invariant', 'remove', '--yes', id.slice(0, 8)],
      ['invariant', 'edit', id, '--deactivate'],
      ['invariant', 'show', id],
    ]) {
      const r = await runAgents(['--store', root, '--format', 'json', ...args]);
      expect(errorOf(r)).toMatchObject({
        code: 'invalid-store',
        exit_code: 3,
        detail: { diagnostics: [{ code: 'symlink', file: `global/${id}.yaml` }] },
      });
    }
    expect(lstatSync(join(root, `global/${id}.yaml`)).isSymbolicLink()).toBe(true);
    // A linked project folder could hold any id: named too, rather than the id called unknown.
    const other = '01M8KJT9G0XNWEM589ZS7FV0VW';
    mkdirSync(join(dirname(root), 'web'));
    writeFileSync(join(dirname(root), `web/${other}.yaml`), invariantYaml(other, 'Never skip the review'));
    symlinkSync('../../web', join(root, 'projects/web'));
    const r = await runAgents(['--store', root, '--format', 'json', 'invariant', 'remove', '--yes', other]);
    expect(errorOf(r)).toMatchObject({
      code: 'invalid-store',
      exit_code: 3,
      detail: { diagnostics: [{ code: 'symlink', file: 'projects/web' }] },
    });
  });

  it('refuses to list with an invalid file in a needed scope: exit 3, file:line:col, no partial set', async () => {
    const root = testStore({
      'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
      'global/01M8KJW430VF8WCABSB8RTQ8RY.yaml': 'id: 01M8KJW430VF8WCABSB8RTQ8RY\ntext: Log all changes\nseverity: fatal\n',
      'projects/other/01M8KJXYP0GVPRF8KRRE9G8474.yaml': invariantYaml('01M8KJXYP0GVPRF8KRRE9G8474', 'Fine'),
    });
    for (const args of [
      ['invariant', 'list', '--effective', '--project', 'myapp'],
      ['invariant', 'list'],
      ['invariant', 'list', '--format', 'json', '--effective', '--project', 'myapp'],
    ]) {
      const r = await runAgents(['--store', root, ...args]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('global/01M8KJW430VF8WCABSB8RTQ8RY.yaml:3:11');
      expect(r.stderr).toContain('severity must be one of "error", "warning", "info"');
      expect(r.stderr).toContain('3 | severity: fatal');
      expect(r.stdout).not.toContain('Never delete production data');
    }
    // A project that does not need the broken folder still resolves.
    expect((await runAgents(['--store', root, 'invariant', 'list', '--project', 'other'])).code).toBe(0);
  });

  it('refuses a hand-written invariant whose file name is not a ULID, instead of ignoring it', async () => {
    const root = testStore({ 'global/no-deletes.yaml': 'id: 01M8KJT9G0XNWEM589ZS7FV0VT\ntext: Never delete production data\n' });
    const r = await runAgents(['--store', root, 'invariant', 'list', '--effective', '--project', 'myapp']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('global/no-deletes.yaml');
    expect(r.stderr).toContain('id-invalid');
  });

  it.each([['Billing'], ['global'], ['my app']])(
    'refuses a project folder named %j (a name no project may have) instead of leaving its invariants out',
    async (name) => {
      const id = '01M8KJXYP0GVPRF8KRRE9G8474';
      const root = testStore({
        'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'),
        [`projects/${name}/${id}.yaml`]: invariantYaml(id, 'Bill every tenant monthly'),
        [`projects/${name}/project.yaml`]: 'paths: ["billing/**"]\n',
      });
      for (const args of [
        ['invariant', 'list'],
        ['export', '--target', 'agents-md', '--dry-run'],
        ['which', 'billing/a.ts'],
        ['project', 'list'],
      ]) {
        const r = await runAgents(['--store', root, '--format', 'json', ...args]);
        expect(r.code, args.join(' ')).toBe(3);
        expect(JSON.stringify(errorOf(r))).toContain('bad-name');
      }
    },
  );

  it('refuses a plans/ folder whose name is no plan id, as validate does, instead of leaving the plan out of plan list', async () => {
    const plan = '01M8KK5920RS6CGAVDFVYYJ0B4';
    const lower = testStore({
      [`plans/${plan.toLowerCase()}/plan.yaml`]: `id: ${plan}\naction: local/deploy\ncreated_at: 2026-11-29T12:00:00Z\n`,
    });
    const drafts = testStore({ 'plans/drafts/notes.md': 'ideas\n' });
    for (const root of [lower, drafts])
      for (const args of [
        ['plan', 'list'],
        ['project', 'list'],
        ['action', 'list'],
      ]) {
        const r = await runAgents(['--store', root, '--format', 'json', ...args]);
        expect(errorOf(r).exit_code, args.join(' ')).toBe(3);
        expect(JSON.stringify(errorOf(r).detail), args.join(' ')).toContain('bad-name');
      }
    // What an interrupted `plan use` leaves is no plan yet, and no name of one: validate --fix removes it.
    const leftover = testStore({ 'plans/.01M8KK5920RS6CGAVDFVYYJ0B4.4242.1a2b.tmp/plan.yaml': 'id: x\n' });
    expect((await runAgents(['--store', leftover, 'plan', 'list'])).code).toBe(0);
  });

  it('reports a read-only store without a stack trace, changing nothing', () => {
    const root = exampleCopy();
    const before = snapshot(root);
    const r = runReadOnly(root, ['invariant', 'add', '--global', 'Only read']);
    // A store outside any repository names its lock by its whole path.
    expect(r.stderr).toMatch(/cannot write \/\S+\/\.agents\/global\/\.lock: (the file system is read-only|permission denied)/);
    expect(r.stderr).toContain('Nothing was changed');
    expect(r.status).toBe(2);
    expect(snapshot(root)).toEqual(before);
  });

  // Node.js's recursive mkdir reports a read-only file system as ENOENT: the folders a writer makes say why.
  it.each([
    [['invariant', 'add', '--project', 'brand-new', 'Only read'], 'projects/brand-new'],
    [['invariant', 'add', '--action', 'new/template', 'Only read'], 'actions/new/template'],
    [['action', 'add', 'local/new-template'], 'actions/local/new-template'],
  ])('a read-only store: %j names the folder it cannot make and why, exit 2, nothing changed', (args, folder) => {
    const root = exampleCopy();
    const before = snapshot(root);
    const r = runReadOnly(root, ['--format', 'json', ...args]);
    expect(r.status).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe('write-failed');
    expect(error.message).toMatch(new RegExp(`^cannot write ${folder}: (the file system is read-only|permission denied)$`));
    expect(snapshot(root)).toEqual(before);
  });

  it('a folder of the store that cannot be listed (permission denied) is an error naming it, never a trace or an empty scope', () => {
    const root = exampleCopy();
    // Root lists any folder: the commands run as another user, who may read the store but not that folder.
    const asRoot = process.getuid?.() === 0;
    for (let dir = dirname(root); asRoot && dir !== tmpdir() && dir !== '/'; dir = dirname(dir)) chmodSync(dir, 0o755);
    const run = (...args: string[]) =>
      asRoot
        ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, '--store', root, ...args], {
            encoding: 'utf8',
            env: { ...process.env, CI: 'true' },
          })
        : spawnSync(process.execPath, [BIN, '--store', root, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    chmodSync(join(root, 'projects/myapp'), 0);
    try {
      const v = run('--format', 'json', 'validate');
      expect(v.status, v.stderr).toBe(1);
      expect(JSON.parse(v.stdout).diagnostics).toContainEqual(
        expect.objectContaining({ code: 'file-unreadable', severity: 'error', file: 'projects/myapp' }),
      );
      for (const args of [
        ['invariant', 'list'],
        ['invariant', 'list', '--effective', '--project', 'myapp'],
      ]) {
        const r = run('--format', 'json', ...args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(3);
        expect(JSON.parse(r.stdout).error.detail.diagnostics).toContainEqual(
          expect.objectContaining({ code: 'file-unreadable', file: 'projects/myapp' }),
        );
      }
    } finally {
      chmodSync(join(root, 'projects/myapp'), 0o755);
    }
  });
});

describe('init', () => {
  it('removes the store a killed init was building beside it (git would show it for ever), not one a running init builds', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const dead = '..agents.999999999.0a1b2c3d.tmp';
    const running = `..agents.${process.ppid}.0a1b2c3d.tmp`;
    for (const temp of [dead, running]) {
      mkdirSync(join(dir, temp, 'global'), { recursive: true });
      writeFileSync(join(dir, temp, 'config.yaml'), 'version: 1\n');
    }
    const r = await runAgents(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['.agents', '.git', running].sort());
  });

  it('creates a store with config, scope folders and schemas, and refuses to overwrite one', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const r = await runAgents(['init'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, '.agents')).sort()).toEqual([
      '.gitattributes',
      'actions',
      'config.yaml',
      'global',
      'plans',
      'projects',
      'schemas',
    ]);
    expect(readdirSync(join(dir, '.agents/schemas'))).toContain('invariant.schema.json');
    writeFileSync(join(dir, 'marker'), '');
    const again = await runAgents(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('a store already exists');
    // Discovery finds it from a subfolder.
    execFileSync('mkdir', ['-p', join(dir, 'sub/deeper')]);
    expect((await runAgents(['invariant', 'add', '--global', 'Found from below'], { cwd: join(dir, 'sub/deeper') })).code).toBe(0);
    expect(
      (await runAgents(['invariant', 'list', '--format', 'json'], { cwd: join(dir, 'sub'), env: { AGENTS_STORE: undefined } })).stdout,
    ).toContain('Found from below');
  });

  it('writes what git checks out: a plain git add takes the store, the exported files and the guard settings under core.safecrlf, and --check passes after a CRLF checkout', async () => {
    for (const autocrlf of ['true', 'input']) {
      const dir = tempDir();
      gitInit(dir);
      appendFileSync(join(dir, '.git/config'), `[core]\n\tautocrlf = ${autocrlf}\n\tsafecrlf = true\n`);
      expect((await runAgents(['init', '--actor', 'none'], { cwd: dir })).code).toBe(0);
      expect((await runAgents(['invariant', 'add', '--global', 'Never push to main'], { cwd: dir })).code).toBe(0);
      expect((await runAgents(['export', '--target', 'agents-md,cursor'], { cwd: dir })).code).toBe(0);
      // The guard's new settings file too, as a checkout writes it.
      expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
      // git refuses (exit 128) a file whose line ends a checkout would change.
      expect(spawnSync('git', ['add', '-A'], { cwd: dir, env: { ...process.env, ...GIT_ENV } }).status, autocrlf).toBe(0);
      expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8').includes('\r\n')).toBe(autocrlf === 'true');
      expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8').includes('\r\n')).toBe(autocrlf === 'true');
      expect(readFileSync(join(dir, '.agents/config.yaml'), 'utf8')).not.toContain('\r');
      // The files as a checkout writes them (CRLF with autocrlf=true) are up to date, and git sees no change.
      rmSync(join(dir, 'AGENTS.md'));
      rmSync(join(dir, '.cursor'), { recursive: true });
      expect(spawnSync('git', ['checkout', '--', '.'], { cwd: dir }).status).toBe(0);
      expect((await runAgents(['export', '--check', '--no-cache', '--target', 'agents-md,cursor'], { cwd: dir })).code).toBe(0);
    }
  });

  it("a .agents/ folder that holds no store (another tool's) is said as such (not-a-store), and nothing is changed", async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    mkdirSync(join(dir, '.agents/skills'), { recursive: true });
    writeFileSync(join(dir, '.agents/skills/review.md'), '# A skill\n');
    const r = await runAgents(['--format', 'json', 'init', '--actor', 'none'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(errorOf(r)).toMatchObject({ code: 'not-a-store', detail: { entries: ['skills'] } });
    expect(readdirSync(join(dir, '.agents'))).toEqual(['skills']);
    // Elsewhere, as the hint says, the store is made.
    expect((await runAgents(['init', '--actor', 'none', '--store', 'policy'], { cwd: dir })).code).toBe(0);
  });

  it('refuses a --store that is a link to nothing (exit 2, naming where it leads), and changes nothing; made in its target once that exists', async () => {
    const dir = tempDir();
    symlinkSync('policy', join(dir, '.agents'));
    const r = await runAgents(['--format', 'json', 'init', '--actor', 'none'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(errorOf(r).code).toBe('usage');
    expect(JSON.parse(r.stdout).error.message).toContain(`${join(dir, '.agents')}: it is a symbolic link to policy`);
    expect(readdirSync(dir)).toEqual(['.agents']);
    mkdirSync(join(dir, 'policy'));
    expect((await runAgents(['init', '--actor', 'none'], { cwd: dir })).code).toBe(0);
    expect(readdirSync(join(dir, 'policy'))).toContain('config.yaml');
  });

  it('refuses a --store that is a file, or lies below one (exit 2, naming the file), and changes nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes'), 'mine\n');
    for (const store of ['notes', 'notes/sub/.agents']) {
      const r = await runAgents(['--store', store, 'init', '--actor', 'none'], { cwd: dir });
      expect(r.code, store).toBe(2);
      expect(r.stderr).toContain(`cannot create a store at ${join(dir, store)}: ${join(dir, 'notes')} is not a folder`);
      expect(r.stderr).not.toContain('internal error');
    }
    expect(readdirSync(dir)).toEqual(['notes']);
    expect(readFileSync(join(dir, 'notes'), 'utf8')).toBe('mine\n');
    // Reading from it says it is a file, and does not send the user to init.
    const list = await runAgents(['--store', 'notes', '--format', 'json', 'invariant', 'list'], { cwd: dir });
    expect(list.code).toBe(2);
    expect(errorOf(list)).toMatchObject({ code: 'no-store' });
    expect(list.stdout).toContain('it is a file');
  });

  // procfs answers ENOENT to any mkdir: Node's own recursive mkdir tries again for ever there.
  it.skipIf(!existsSync('/proc/self'))('a --store where no folder can be made (/proc) is exit 2, not a hang', async () => {
    const r = await runAgents(['--store', '/proc/agents-store/.agents', 'init', '--actor', 'none'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot write /proc/agents-store/.agents');
  });

  it('into an empty folder that is there already: the store is made in it', async () => {
    const dir = tempDir();
    const store = join(dir, 'store');
    execFileSync('mkdir', [store]);
    const r = await runAgents(['--store', store, 'init', '--actor', 'none'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readdirSync(store).sort()).toEqual(['.gitattributes', 'actions', 'config.yaml', 'global', 'plans', 'projects', 'schemas']);
    expect(readdirSync(dir)).toEqual(['store']);
  });
});

describe('a stop signal while the output waits for a slow reader', () => {
  it('ends the run at once with the signal’s code, saying the output is cut short, not killed without a word', async () => {
    // Enough invariants for the JSON list to fill a pipe nobody reads.
    const tree: Record<string, string> = {};
    for (let i = 0; i < 400; i++) {
      const id = `01M8KJT9G0XNWEM589ZS7F${String(i).padStart(4, '0')}`;
      tree[`global/${id}.yaml`] = invariantYaml(id, `Rule ${i}: ${'never skip the review of a migration '.repeat(8)}`);
    }
    const store = testStore(tree);
    const stopped = await runKilledAtUnlink(['--store', store, '--format', 'json', 'invariant', 'list'], 'stdout', 'SIGTERM');
    expect([stopped.killed, stopped.code], stopped.stderr).toEqual([false, 143]);
    expect(stopped.stderr).toContain('SIGTERM');
    expect(() => JSON.parse(stopped.stdout)).toThrow();
  });
});
