// What a new user tripped on (issue 30, H).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellPath } from '../../src/core/shell-word.ts';
import { BIN } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, useActor } from '../helpers/plans.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const run = (root: string, ...args: string[]) => runAgents(['--store', root, '--format', 'json', ...args]);

describe('an unknown project', () => {
  it('list --project wbe says "did you mean web?", and the command its hint gives is one the tool takes', async () => {
    for (const args of [
      ['invariant', 'list', '--project', 'wbe'],
      ['invariant', 'list', '--effective', '--project', 'wbe'],
    ]) {
      const root = testStore({ [`projects/web/${A}.yaml`]: invariantYaml(A, 'Use tabs') });
      const r = await run(root, ...args);
      expect(r.code).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.code).toBe('unknown-project');
      expect(error.detail.suggestions).toEqual(['web']);
      expect(error.message).toContain('did you mean web?');
      // The hint's command: run as given, it is not refused as a name close to web.
      // The run was given --store: the hint names it, and `run` gives it again.
      const hinted = /`agents --store \S+ (invariant add [^`]*)`/
        .exec(error.hint)![1]!
        .replace('"…"', 'Keep it')
        .split(' ')
        .filter((w) => w !== '');
      const added = await run(root, ...hinted.slice(0, -2), 'Keep it');
      expect(added.code, added.stdout).toBe(0);
    }
  });
});

describe('invariant move', () => {
  it('leaves no empty project folder behind', async () => {
    const root = testStore({
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Use tabs'),
      [`projects/api/${B}.yaml`]: invariantYaml(B, 'Use spaces'),
    });
    const r = await run(root, 'invariant', 'move', A, '--global');
    expect(r.code, r.stdout).toBe(0);
    expect(existsSync(join(root, 'projects/web'))).toBe(false);
    expect(existsSync(join(root, `global/${A}.yaml`))).toBe(true);
    // A folder that still holds something stays.
    const back = await run(root, 'invariant', 'move', A, '--project', 'api');
    expect(back.code, back.stdout).toBe(0);
    expect(existsSync(join(root, 'projects/api'))).toBe(true);
  });
});

describe.skipIf(process.geteuid?.() !== 0)('an actor program owned by another user (run as root)', () => {
  it('is not run: plan strategize refuses (exit 2, foreign-store naming the script)', async () => {
    const root = exampleStore();
    const mark = join(tempDir('agents-mark-'), 'actor-ran');
    useActor(
      root,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'ran');\nconsole.log(JSON.stringify({ results: [] }));`,
    );
    const script = join(root, 'actors/fixture-actor.mjs');
    chownSync(script, 65534, 65534);
    const r = await runAgents(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'foreign-store', detail: { path: script, owner: 65534 } });
    expect(existsSync(mark)).toBe(false);
  });
});

describe('project remove', () => {
  it('is refused while invariants, plans or paths name the project (exit 1, nothing removed), and removes it once none do', async () => {
    const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
    const root = testStore({
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Use tabs'),
      'projects/api/project.yaml': 'paths:\n  - api/**\n',
      'projects/docs/.gitkeep': '',
      'projects/ops/.gitkeep': '',
      [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: ops\ngoal: Ship\ncreated_at: "2026-11-29T12:06:00Z"\n`,
    });
    for (const [name, field] of [
      ['web', 'invariants'],
      ['api', 'paths'],
      ['ops', 'plans'],
    ] as const) {
      const r = await run(root, 'project', 'remove', name);
      expect(r.code, r.stdout).toBe(1);
      const error = JSON.parse(r.stdout).error;
      expect(error.code).toBe('project-in-use');
      expect(error.detail[field]).not.toEqual(field === 'invariants' ? 0 : []);
      expect(existsSync(join(root, 'projects', name))).toBe(true);
    }
    const unknown = await run(root, 'project', 'remove', 'dcos');
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.detail.suggestions).toEqual(['docs']);
    const ok = await run(root, 'project', 'remove', 'docs');
    expect(ok.code, ok.stdout).toBe(0);
    expect(existsSync(join(root, 'projects/docs'))).toBe(false);
  });
});

describe('import of a nested file whose folder a project of wider paths holds', () => {
  it('is skipped with the command that imports it into that project, which works as written', async () => {
    const root = testStore({ 'projects/web/project.yaml': 'paths:\n  - apps/web/**\n  - packages/ui/**\n' });
    writeFileSync(join(root, '..', 'README.md'), 'x\n');
    mkdirSync(join(root, '..', 'apps/web'), { recursive: true });
    writeFileSync(join(root, '..', 'apps/web/AGENTS.md'), '# Web\n\n- Never inline styles in components.\n');
    // Run at the top of the repository: the command it names writes the path from there.
    const dry = await runAgents(['--store', root, '--format', 'json', 'import', '--dry-run'], { cwd: join(root, '..') });
    expect(dry.code, dry.stdout).toBe(0);
    const { files } = JSON.parse(dry.stdout) as { files: { file: string; skipped: string | null }[] };
    const skipped = files.find((f) => f.file === 'apps/web/AGENTS.md')!.skipped!;
    const named = /`agents --store (\S+) (import [^`]*)`/.exec(skipped)!;
    expect(named[1]).toBe(root);
    expect(named[2]).toBe('import apps/web/AGENTS.md --project web');
    // That path is from the top of the repository: given in a folder below it, the refusal names the path from there.
    const json = ['--store', root, '--format', 'json'];
    const below = await runAgents([...json, ...named[2]!.split(' '), '--yes'], { cwd: join(root, '..', 'apps') });
    expect(below.code, below.stdout).toBe(2);
    const { hint } = JSON.parse(below.stdout).error as { hint: string };
    const here = /agents --store \S+ (import \S+)$/.exec(hint)![1]!.split(' ');
    expect(here).toEqual(['import', 'web/AGENTS.md']);
    const imported = await runAgents([...json, ...here, '--project', 'web', '--yes'], { cwd: join(root, '..', 'apps') });
    expect(imported.code, imported.stdout).toBe(0);
    const listed = await run(root, 'invariant', 'list', '--project', 'web');
    expect((JSON.parse(listed.stdout) as { text: string }[]).map((i) => i.text)).toEqual(['Never inline styles in components.']);
  });
});

describe('a command without the id, template or project it needs', () => {
  it('names the command that lists them, which runs as written', async () => {
    const root = exampleStore();
    for (const [words, listing] of [
      [['plan', 'status'], 'plan list'],
      [['plan', 'use'], 'action list'],
      [['invariant', 'show'], 'invariant list'],
      [['invariant', 'violation', 'resolve'], 'invariant violation list'],
      [['project', 'remove'], 'project list'],
    ] as const) {
      const r = await run(root, ...words);
      expect(r.code, words.join(' ')).toBe(2);
      const { hint } = JSON.parse(r.stdout).error as { hint: string };
      const named = [...hint.matchAll(/`agents --store (\S+) ([^`]*)`/g)].map((m) => m[2]!).filter((c) => !c.endsWith('--help'));
      expect(named, words.join(' ')).toEqual([listing]);
      expect((await run(root, ...listing.split(' '))).code, listing).toBe(0);
    }
    // A command that makes what it names has nothing to list.
    const add = await run(root, 'project', 'add');
    expect(add.code).toBe(2);
    expect(JSON.parse(add.stdout).error.hint).not.toMatch(/ list`/);
  });
});

describe('export --stdout without one --target', () => {
  it("gives as its example the run's own project and a target it named, which prints that set", async () => {
    const root = testStore({ [`projects/web/${A}.yaml`]: invariantYaml(A, 'Use tabs') });
    for (const extra of [[], ['--target', 'cursor,bogus']]) {
      const r = await run(root, 'export', '--stdout', '--project', 'web', ...extra);
      expect(r.code).toBe(2);
      const example = /e\.g\. agents --store \S+ (export .*)$/.exec(JSON.parse(r.stdout).error.hint as string)![1]!.split(' ');
      expect(example).toEqual(['export', '--project', 'web', '--stdout', '--target', extra.length === 0 ? 'agents-md' : 'cursor']);
      const printed = await runAgents(['--store', root, ...example]);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain(A);
    }
  });
});

describe('validate PATH written from the folder holding the store, given in a folder below it', () => {
  it('is refused naming the path from the current folder (not as outside the store), which validate takes', async () => {
    const root = testStore({ [`global/${A}.yaml`]: invariantYaml(A, 'Use tabs') });
    const below = join(root, '..', 'services', 'billing');
    mkdirSync(below, { recursive: true });
    const r = await runAgents(['--store', root, '--format', 'json', 'validate', `.agents/global/${A}.yaml`], { cwd: below });
    expect(r.code).toBe(2);
    const { hint } = JSON.parse(r.stdout).error as { hint: string };
    const here = /from here that file of the store is (\S+)\.$/.exec(hint)![1]!;
    expect(here).toBe(`../../.agents/global/${A}.yaml`);
    expect((await runAgents(['--store', root, 'validate', here], { cwd: below })).code).toBe(0);
    // A path that names no file of the store from there either is outside the store, as before.
    const none = await runAgents(['--store', root, '--format', 'json', 'validate', 'nothere.yaml'], { cwd: below });
    expect([none.code, JSON.parse(none.stdout).error.message]).toEqual([2, `nothere.yaml is outside the store ${root}`]);
  });
});

describe('import without a terminal and without --yes', () => {
  it('shows on stderr what it would write, writes nothing (exit 2, confirmation-needed), and --yes writes it', async () => {
    const root = testStore();
    writeFileSync(join(root, '..', 'AGENTS.md'), '- Never push to main.\n- Run the tests.\n');
    const text = await runAgents(['--store', root, 'import']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('Never push to main.');
    expect(text.stderr).toContain('Run the tests.');
    const json = await run(root, 'import');
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'confirmation-needed', detail: { flag: '--yes', candidates: 2 } });
    expect(readdirSync(join(root, 'global'))).toEqual([]);
    expect((await run(root, 'import', '--yes')).code).toBe(0);
    expect(readdirSync(join(root, 'global')).length).toBe(2);
  });
});

describe('project remove of a project in use', () => {
  const W = '01JDQ6X5Z8W4N3B2C1D0E9F8W1';
  const waiverOf = (invariant: string) =>
    `id: ${W}\ninvariant_id: ${invariant}\nreason: r\nowner: o\nexpires: 2999-12-31\ncreated_at: 2026-11-29T12:07:00Z\ncreated_by: o\n`;

  it('is refused while the project holds a waiver (of a global invariant here), which it never removes with the folder', async () => {
    const waiver = `projects/web/waivers/${W}.yaml`;
    const root = testStore({
      [`global/${A}.yaml`]: invariantYaml(A, 'Use tabs'),
      'projects/web/.gitkeep': '',
      [waiver]: waiverOf(A),
    });
    const r = await run(root, 'project', 'remove', 'web');
    expect(r.code, r.stdout).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'project-in-use', detail: { invariants: 0, waivers: 1 } });
    expect(existsSync(join(root, waiver))).toBe(true);
    expect(readdirSync(join(root, 'projects')).sort()).toEqual(['web']);
  });

  it('names the command that lists the invariants it holds and the waiver files, so each reason can be acted on', async () => {
    const root = testStore({
      [`projects/web/${A}.yaml`]: invariantYaml(A, 'Use tabs'),
      [`projects/web/waivers/${W}.yaml`]: waiverOf(A),
    });
    const r = await run(root, 'project', 'remove', 'web');
    expect(r.code).toBe(1);
    const { message } = JSON.parse(r.stdout).error as { message: string };
    const listing = /`agents --store \S+ (invariant list [^`]*)`/.exec(message)![1]!.split(' ');
    const listed = await run(root, ...listing);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((i) => i.id)).toEqual([A]);
    expect(message).toContain(`projects/web/waivers/${W}.yaml`);
    // Done as they say, the project goes.
    rmSync(join(root, `projects/web/waivers/${W}.yaml`));
    expect((await run(root, 'invariant', 'remove', A, '--yes')).code).toBe(0);
    expect((await run(root, 'project', 'remove', 'web')).code).toBe(0);
  });
});

describe('project remove, refused part-way', () => {
  it('names the file it removed before the one it could not, and the same command finishes it', async () => {
    const root = testStore({ 'projects/docs/.gitkeep': '', 'projects/docs/project.yaml': 'description: Docs\n' });
    const yaml = join(root, 'projects/docs/project.yaml');
    // project.yaml a mount point (bound onto itself in a mount namespace of the command's own): no one may remove it.
    const r = spawnSync(
      'unshare',
      [
        '-rm',
        'sh',
        '-c',
        'mount --bind "$1" "$1" && shift && exec "$@"',
        'sh',
        yaml,
        process.execPath,
        BIN,
        '--store',
        root,
        '--format',
        'json',
        'project',
        'remove',
        'docs',
      ],
      { encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    if (r.status !== 0 && r.stdout === '') {
      console.log(`skipped: cannot make a mount namespace here (${r.stderr.trim()})`);
      return;
    }
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'write-failed',
      message: expect.stringContaining('projects/docs/project.yaml: it is in use'),
      // The rerun names the --store the run was given, so that, pasted, it finishes the same store's removal.
      detail: { written: ['projects/docs/.gitkeep'], rerun: `agents --store ${shellPath(root)} project remove docs` },
    });
    expect(JSON.parse(r.stdout).error.hint).not.toContain('Nothing was changed');
    const again = await run(root, 'project', 'remove', 'docs');
    expect(again.code, again.stdout).toBe(0);
    expect(existsSync(join(root, 'projects/docs'))).toBe(false);
  });
});

describe('project remove, and what a project folder holds that is no file of the project', () => {
  it('a stale lock left by a writer that died is cleared, as every writer clears it, and the project removed', async () => {
    const root = testStore({ 'projects/docs/.gitkeep': '', 'projects/docs/.lock': `999999999 ${hostname()} 2026-11-29T12:00:00Z\n` });
    const r = await run(root, 'project', 'remove', 'docs');
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).removed).toEqual(['projects/docs/.gitkeep']);
    expect(existsSync(join(root, 'projects/docs'))).toBe(false);
  });

  it('a project that is a link to a folder is said to be one (exit 3, symlink), as every reader says it, not "does not exist"', async () => {
    const root = testStore({ 'projects/docs/.gitkeep': '' });
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(root, 'projects/linked'));
    const r = await run(root, 'project', 'remove', 'linked');
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).error.detail.diagnostics).toEqual([expect.objectContaining({ code: 'symlink', file: 'projects/linked' })]);
    expect(existsSync(join(root, 'projects/linked'))).toBe(true);
  });

  it("a file at a project's place is named as the file in the way (exit 3, unknown-path) by readers and writers, not as a project to create", async () => {
    const root = testStore({ 'projects/docs/.gitkeep': '', 'projects/web': 'notes\n' });
    for (const args of [
      ['project', 'remove', 'web'],
      ['invariant', 'list', '--project', 'web'],
      // The add that would make the folder names the file in the way through the same check.
      ['invariant', 'add', '--project', 'web', 'Keep one ledger'],
    ]) {
      const r = await run(root, ...args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout).error.detail.diagnostics, args.join(' ')).toEqual([
        expect.objectContaining({ code: 'unknown-path', severity: 'error', file: 'projects/web' }),
      ]);
    }
    expect(readFileSync(join(root, 'projects/web'), 'utf8')).toBe('notes\n');
  });

  it('a temporary of an interrupted write, or a file of someone else (.DS_Store), refuses it (exit 1) and stays; removed, the project goes', async () => {
    const root = testStore({
      'projects/docs/.gitkeep': '',
      'projects/docs/.DS_Store': '',
      'projects/docs/.01M8KK5920RS6CGAVDFVYYJ0B4.yaml.999999999.ab12.tmp': '',
    });
    const r = await run(root, 'project', 'remove', 'docs');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'project-in-use',
      detail: {
        invariants: 0,
        temporary_files: ['projects/docs/.01M8KK5920RS6CGAVDFVYYJ0B4.yaml.999999999.ab12.tmp'],
        other_files: ['projects/docs/.DS_Store'],
      },
    });
    expect(readdirSync(join(root, 'projects/docs')).sort()).toEqual([
      '.01M8KK5920RS6CGAVDFVYYJ0B4.yaml.999999999.ab12.tmp',
      '.DS_Store',
      '.gitkeep',
    ]);
    expect((await run(root, 'validate', '--fix')).code).toBe(0);
    rmSync(join(root, 'projects/docs/.DS_Store'));
    expect((await run(root, 'project', 'remove', 'docs')).code).toBe(0);
    expect(existsSync(join(root, 'projects/docs'))).toBe(false);
  });
});

describe('--help advertises only commands that exist', () => {
  it('each verb a group lists is one of its subcommands (no "trace")', async () => {
    const { COMMANDS, GROUPS } = await import('../../src/cli/registry.ts');
    for (const g of GROUPS.filter((x) => x.name === 'invariant' || x.name === 'project')) {
      const subs = new Set(
        COMMANDS.filter((c) => c.group === g.name).flatMap((c) =>
          (Array.isArray(c.command) ? c.command : [c.command]).map((w) => String(w).split(' ')[0]!),
        ),
      );
      const verbs = g.describe
        .split(/[;:]/)[0]!
        .replace(/ and /g, ', ')
        .split(',')
        .map((w) => w.trim().split(' ')[0]!.toLowerCase());
      // "Create" is what `project add` does; every other verb names a subcommand.
      for (const v of verbs.filter((w) => w !== 'create')) expect(subs.has(v), `${g.name} ${v}`).toBe(true);
    }
  });
});

describe('--help at 80 columns', () => {
  // yargs' layout wrote a note that just fitted against its description ("List recorded violations[aliases: ls]").
  // An address in an option's column was broken in two ("https://gi" / "thub.com/…"): none to copy or click.
  it('every command and group keeps a space before each note, each address whole on its line, within 80 columns', async () => {
    const { COMMANDS, GROUPS, commandNames } = await import('../../src/cli/registry.ts');
    const words = [
      [],
      ...GROUPS.map((g) => g.name.split(' ')),
      ...COMMANDS.map((c) => [...(c.group?.split(' ') ?? []), commandNames(c)[0]!]),
    ];
    const wrong: string[] = [];
    for (const w of words) {
      const r = await runAgents([...w, '--help'], { cwd: tempDir() });
      expect(r.code, w.join(' ')).toBe(0);
      for (const line of r.stdout.split('\n'))
        if (
          /\S\[(?:aliases|boolean|string|choices|default)/.test(line) ||
          line.length > 80 ||
          [...line.matchAll(/https?:\/\/\S*/g)].some(
            (m) => !/^(?:https:\/\/github\.com\/[\w-]+\/[\w-]+\/blob\/\S+\/docs\/[\w-]+\.md|http:\/\/localhost:\d+\/\S*)$/.test(m[0]),
          )
        )
          wrong.push(`${w.join(' ')}: ${line}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('init in a repository that already has instruction files', () => {
  it('suggests agents import next, whose --yes brings their rules in, and invariant add where there are none', async () => {
    const cwd = tempDir();
    gitInit(cwd);
    mkdirSync(join(cwd, '.cursor/rules'), { recursive: true });
    writeFileSync(join(cwd, '.cursor/rules/style.mdc'), '---\nalwaysApply: true\n---\n- Always write tests\n');
    const init = await runAgents(['init', '--actor', 'none'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(/^Next: agents (.*)$/m.exec(init.stdout)?.[1]).toBe('import');
    const imported = await runAgents(['import', '--yes', '--format', 'json'], { cwd });
    expect(imported.code, imported.stderr).toBe(0);
    const listed = await runAgents(['invariant', 'list', '--format', 'json'], { cwd });
    expect(JSON.parse(listed.stdout).map((i: { text: string }) => i.text)).toEqual(['Always write tests']);
    const bare = tempDir();
    gitInit(bare);
    const plain = await runAgents(['init', '--actor', 'none'], { cwd: bare });
    expect(/^Next: agents (.*)$/m.exec(plain.stdout)?.[1]).toMatch(/^invariant add /);
  });
});
