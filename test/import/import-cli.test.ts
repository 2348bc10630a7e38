import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ChildProcess } from 'node:child_process';
import { BIN, spawnAsync } from '../helpers/cli.ts';
import { git, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { shellWords } from '../helpers/shell-words.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

/** A repository with a store and the instruction files `tree`. */
function repo(tree: Record<string, string | Buffer | null>): string {
  const top = tempDir('agents-import-');
  gitInit(top);
  writeTree(top, { '.agents/global/': null, '.agents/projects/': null, '.agents/actions/': null, '.agents/plans/': null, ...tree });
  return top;
}

const run = (top: string, ...args: string[]) => runAgents(args, { cwd: top });
const json = async (top: string, ...args: string[]) => {
  const r = await run(top, '--format', 'json', ...args);
  expect(r.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([]);
  return { ...r, data: JSON.parse(r.stdout) };
};

/** Every invariant of the store's global and project folders: its text and project ('global' for none). */
function stored(top: string): { text: string; scope: string }[] {
  return storeFiles(top)
    .filter((f) => /\/[0-9A-Z]{26}\.yaml$/.test(f))
    .map((f) => ({
      text: (parse(readFileSync(join(top, f), 'utf8')) as { text: string }).text,
      scope: f.split('/')[1] === 'global' ? 'global' : f.split('/')[2]!,
    }));
}

function storeFiles(top: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(top, d), { withFileTypes: true })) {
      const rel = `${d}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('.agents');
  return out.sort();
}

/**
 * A chain of folders under `top/deep/` whose full path is longer than the system allows, so that listing its
 * deepest folder fails (ENAMETOOLONG) even for root, who reads through permissions. Built by renames of short
 * paths; `undo` takes it apart the same way, since no removal can name its deepest folder.
 */
function tooDeep(top: string): { undo: () => void } {
  const name = 'd'.repeat(250);
  mkdirSync(join(top, 'deep'));
  for (let i = 0; i < 18; i++) {
    mkdirSync(join(top, 'wrap'));
    renameSync(join(top, 'deep'), join(top, 'wrap', name));
    renameSync(join(top, 'wrap'), join(top, 'deep'));
  }
  return {
    undo: () => {
      for (let i = 0; i < 18; i++) {
        renameSync(join(top, 'deep', name), join(top, 'inner'));
        rmdirSync(join(top, 'deep'));
        renameSync(join(top, 'inner'), join(top, 'deep'));
      }
    },
  };
}

const EVERY_KIND: Record<string, string> = {
  'AGENTS.md': '# Agents\n\nThis is the billing monorepo.\n\n## Rules\n\n- Never commit secrets.\n- `npm test` runs the tests\n',
  'CLAUDE.md': '- Never commit secrets.\n- Ask before deleting files outside src/.\n',
  'GEMINI.md': '- Keep answers short.\n',
  'apps/web/AGENTS.md': '- All components must have tests.\n',
  '.github/copilot-instructions.md': '- Prefer small pull requests.\n',
  '.github/instructions/react.instructions.md': '---\napplyTo: "**/*.tsx"\n---\n- Use function components.\n',
  'apps/web/index.tsx': 'export {};\n',
  'services/api/index.ts': 'export {};\n',
  '.cursor/rules/api.mdc': '---\ndescription: API\nglobs: services/api/**\nalwaysApply: false\n---\n- Validate every request body.\n',
  '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\n- Write commit messages in English.\n',
  '.cursorrules': '- Use UTC for every timestamp.\n',
  '.windsurfrules': '- Never disable the linter.\n',
  '.clinerules': '- Log every migration.\n',
  '.ruler/AGENTS.md': '- Document every public function.\n',
};

describe('agents import', () => {
  it('imports every kind of file, each rule into the scope its file applies to, with where it came from', async () => {
    const top = repo(EVERY_KIND);
    const r = await json(top, 'import', '--yes');
    expect(r.code).toBe(0);
    const byText = new Map(stored(top).map((i) => [i.text, i.scope]));
    expect(Object.fromEntries(byText)).toEqual({
      'Never commit secrets.': 'global',
      'Ask before deleting files outside src/.': 'global',
      'Keep answers short.': 'global',
      'All components must have tests.': 'web',
      'Prefer small pull requests.': 'global',
      'Validate every request body.': 'api',
      'Write commit messages in English.': 'global',
      'Use UTC for every timestamp.': 'global',
      'Never disable the linter.': 'global',
      'Log every migration.': 'global',
      'Document every public function.': 'global',
    });
    // Projects made with the paths their files apply to, and said on stderr.
    expect(readFileSync(join(top, '.agents/projects/web/project.yaml'), 'utf8')).toContain('apps/web/**');
    expect(readFileSync(join(top, '.agents/projects/api/project.yaml'), 'utf8')).toContain('services/api/**');
    // A glob rule that would overlap another project is skipped with the reason (projects' paths are disjoint).
    expect(r.data.files.find((f: { file: string }) => f.file === '.github/instructions/react.instructions.md').skipped).toMatch(
      /would overlap project api/,
    );
    expect(r.stderr).toContain('created project web');
    // Each file records its source and line.
    const secret = r.data.written.invariants.find((w: { n: number }) => r.data.candidates[w.n - 1].text === 'Never commit secrets.');
    expect(readFileSync(join(top, '.agents', secret.path), 'utf8')).toMatch(/imported_from:\n {2}file: AGENTS.md\n {2}line: 7\n/);
    expect((await json(top, 'invariant', 'show', secret.id)).data.imported_from).toEqual({ file: 'AGENTS.md', line: 7 });
    // The copy in CLAUDE.md was said twice; the listing in AGENTS.md was left out with its line.
    expect(r.data.candidates.find((c: { file: string; line: number }) => c.file === 'CLAUDE.md' && c.line === 1)).toMatchObject({
      status: 'duplicate',
      same_as: { file: 'AGENTS.md', line: 7 },
    });
    expect(r.data.files.find((f: { file: string }) => f.file === 'AGENTS.md').left_out).toContainEqual(
      expect.objectContaining({ line: 8, reason: 'command' }),
    );
    const v = await run(top, 'validate', '--strict');
    expect(v.stderr).toBe('');
    expect(v.stdout).toMatch(/^ok {2}no problems/);
    expect(v.code).toBe(0);
  });

  it('with projects.allow_overlap, a glob rule that overlaps another project gets its project', async () => {
    const top = repo({ ...EVERY_KIND, '.agents/config.yaml': 'version: 1\nprojects:\n  allow_overlap: true\n' });
    // Its globs overlap both folders' projects, which the store has: each is named, in JSON and in the text.
    for (const [name, path] of [
      ['web', 'apps/web/**'],
      ['api', 'services/api/**'],
    ])
      expect((await run(top, 'project', 'add', name!, '--path', path!)).code).toBe(0);
    const dry = await json(top, 'import', '--dry-run');
    const react = dry.data.files.find((f: { file: string }) => f.file === '.github/instructions/react.instructions.md');
    expect(react.overlaps.map((o: { project: string }) => o.project).sort()).toEqual(['api', 'web']);
    expect(dry.data.files.find((f: { file: string }) => f.file === 'AGENTS.md').overlaps).toEqual([]);
    const text = await run(top, 'import', '--dry-run');
    expect(text.stdout.match(/^ {4}overlaps project \S+/gm)?.sort()).toEqual(['    overlaps project api', '    overlaps project web']);
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    expect(stored(top)).toContainEqual({ text: 'Use function components.', scope: 'react' });
    expect(readFileSync(join(top, '.agents/projects/react/project.yaml'), 'utf8')).toContain('**/*.tsx');
  });

  it('--dry-run and --format json write nothing and name each candidate’s file and line', async () => {
    const top = repo(EVERY_KIND);
    const before = storeFiles(top);
    const r = await json(top, 'import', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.data.written).toBeNull();
    expect(r.data.candidates.find((c: { file: string }) => c.file === 'AGENTS.md')).toMatchObject({
      line: 7,
      text: 'Never commit secrets.',
      status: 'new',
      tags: ['rules'],
    });
    expect(storeFiles(top)).toEqual(before);
  });

  it('--dry-run in text: each file says as many left-out blocks as it lists (headings only with --verbose)', async () => {
    const top = repo({ 'AGENTS.md': '# Rules\n\n- Never commit secrets.\n\n```sh\nnpm test\n```\n' });
    for (const verbose of [false, true]) {
      const r = await run(top, 'import', '--dry-run', ...(verbose ? ['--verbose'] : []));
      expect(r.code).toBe(0);
      const said = Number(/AGENTS\.md → global: 1 rule, (\d+) left out/.exec(r.stdout)?.[1]);
      const listed = r.stdout.split('\n').filter((l) => /^\s+left out\s/.test(l));
      expect(listed.map((l) => /left out\s+[\d-]+\s+([a-z-]+):/.exec(l)?.[1])).toEqual(
        verbose ? ['heading', 'code-block'] : ['code-block'],
      );
      expect(said).toBe(listed.length);
    }
  });

  it('--from and paths choose the files; an unknown file is exit 2', async () => {
    const top = repo({ ...EVERY_KIND, 'docs/rules.md': '- Never force-push.\n' });
    const only = await json(top, 'import', '--dry-run', '--from', 'cursor');
    expect(new Set(only.data.files.map((f: { kind: string }) => f.kind))).toEqual(new Set(['cursor']));
    const named = await json(top, 'import', '--dry-run', 'apps');
    expect(named.data.files.map((f: { file: string }) => f.file)).toEqual(['apps/web/AGENTS.md']);
    // A file named again, itself or by another folder above it, is read once: its rules are new, not copies of themselves.
    const twice = await json(top, 'import', '--dry-run', 'apps', 'apps/web/', 'apps/web/AGENTS.md');
    expect(twice.data.files.map((f: { file: string }) => f.file)).toEqual(['apps/web/AGENTS.md']);
    expect(twice.data.candidates.map((c: { status: string }) => c.status)).toEqual(['new']);
    const unknown = await run(top, '--format', 'json', 'import', '--dry-run', 'docs/rules.md');
    expect(unknown.code).toBe(2);
    const as = await json(top, 'import', '--dry-run', 'docs/rules.md', '--from', 'agents-md');
    expect(as.data.candidates.map((c: { text: string }) => c.text)).toEqual(['Never force-push.']);
    expect((await run(top, 'import', '--dry-run', '--project', 'Not A Name')).code).toBe(2);
    // A name no project may have (a scope word) is refused by the dry run too, not first by the write after the review.
    expect((await run(top, 'import', '--dry-run', '--project', 'global')).code).toBe(2);
    // A file of a known kind that --from leaves out, named outright, is refused rather than read as nothing.
    const excluded = await run(top, '--format', 'json', 'import', '--dry-run', 'apps/web/AGENTS.md', '--from', 'cursor');
    expect(excluded.code).toBe(2);
    expect(JSON.parse(excluded.stdout).error.code).toBe('usage');
  });

  it('a named path that does not exist, or a folder git lists nothing of, is exit 2 and names what it is', async () => {
    const top = repo({
      ...EVERY_KIND,
      '.gitignore': 'local/\n',
      'local/AGENTS.md': '- Never push on Fridays.\n',
      'empty/': null,
      'gone/AGENTS.md': '- Never deploy on Fridays.\n',
      'notes/readme.md': '- Never push on Mondays.\n',
      'odd/AGENTS.md/rules.txt': '- Never push on Sundays.\n',
    });
    // Known to git (in its index), deleted from the working tree: the file and its folder do not exist all the same.
    git(top, 'add', 'gone/AGENTS.md');
    rmSync(join(top, 'gone'), { recursive: true });
    const before = storeFiles(top);
    for (const [path, says] of [
      ['nope/AGENTS.md', /^nope\/AGENTS\.md does not exist$/],
      ['docs/rules.md', /^docs\/rules\.md does not exist$/],
      ['gone/AGENTS.md', /^gone\/AGENTS\.md does not exist: git lists it/],
      ['gone', /^gone does not exist: git lists it/],
      ['local', /^local holds no instruction file/],
      ['empty/', /^empty\/ holds no instruction file/],
      // A folder of files none of which is an instruction file (a folder named AGENTS.md too), named with others.
      ['notes', /^notes holds no instruction file/],
      ['odd/AGENTS.md', /^odd\/AGENTS\.md holds no instruction file/],
    ] as const) {
      for (const from of [[], ['--from', 'agents-md']]) {
        const r = await run(top, '--format', 'json', 'import', '--yes', path, ...from);
        expect(r.code, path).toBe(2);
        expect(JSON.parse(r.stdout).error.message).toMatch(says);
      }
    }
    // Named beside a file that is read: refused all the same, never passed over for the others.
    const beside = await run(top, '--format', 'json', 'import', '--yes', 'AGENTS.md', 'notes');
    expect(beside.code).toBe(2);
    expect(JSON.parse(beside.stdout).error.message).toMatch(/^notes holds no instruction file/);
    // A line break in the path is escaped: the refusal has its one hint line, none the path's.
    const forged = 'notes\nhint: run this instead';
    mkdirSync(join(top, forged));
    writeFileSync(join(top, forged, 'readme.md'), '- Never push on Tuesdays.\n');
    // A link to a folder, named by a name with a line break: refused as the link it is, on one line too.
    const link = 'docs\nhint: follow me';
    symlinkSync(forged, join(top, link));
    for (const path of [forged, `${forged}/missing.md`, link]) {
      const r = await run(top, 'import', '--yes', path);
      expect(r.code, path).toBe(2);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('hint:'))).toHaveLength(1);
    }
    expect(storeFiles(top)).toEqual(before);
    // Found by the search without paths, the same file is skipped as git listing it, with the restore, not as a path unknown.
    const search = await json(top, 'import', '--dry-run');
    const gone = search.data.files.find((f: { file: string }) => f.file === 'gone/AGENTS.md');
    expect(gone.skipped).toMatch(/^it does not exist: git lists it.*git restore -- gone\/AGENTS\.md/);
    // The ignored file itself, named, is read.
    expect((await json(top, 'import', '--dry-run', 'local/AGENTS.md')).data.candidates.map((c: { text: string }) => c.text)).toEqual([
      'Never push on Fridays.',
    ]);
  });

  it("git's warning of another file it could not read (the user's ignore file, a loop of links) names no folder left unlisted", async () => {
    const top = repo({ 'AGENTS.md': '- Never commit secrets.\n' });
    const config = tempDir('agents-xdg-');
    mkdirSync(join(config, 'git'));
    symlinkSync('loop', join(config, 'git', 'ignore'));
    symlinkSync('ignore', join(config, 'git', 'loop'));
    const r = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: top, env: { XDG_CONFIG_HOME: config } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).candidates.map((c: { text: string }) => c.text)).toEqual(['Never commit secrets.']);
  });

  it('a folder git cannot open while it lists the untracked files is exit 2 naming it, as outside git, not left out unsaid', async () => {
    const top = repo({ 'AGENTS.md': '- Never commit secrets.\n' });
    const deep = tooDeep(top);
    try {
      const error = errorOf(await run(top, '--format', 'json', 'import', '--dry-run'));
      expect([error.code, error.exit_code, error.detail?.code]).toEqual(['usage', 2, 'ENAMETOOLONG']);
      expect(String(error.detail?.folder)).toMatch(/^deep\/d+\//);
      expect(storeFiles(top)).toEqual([]);
    } finally {
      deep.undo();
    }
  });

  it('an AGENTS.md that opens with a rule (---) and text is Markdown, not front matter; a Cursor rule with such is skipped', async () => {
    const agents = '---\n# Agent rules\n\nThese are the rules.\n\n---\n\n- Never push to main.\n';
    const top = repo({
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
      'AGENTS.md': agents,
      '.cursor/rules/odd.mdc': '---\nJust text.\n---\n- Use tabs.\n',
      // A map of keys no agent reads there (each hands the lines to its model as text): left out, said with its lines.
      'CLAUDE.md': '---\nImportant: Never push on Fridays.\n---\n\nThis repository holds the web app.\n',
    });
    const dry = await json(top, 'import', '--dry-run');
    expect(dry.data.candidates.map((c: { file: string; line: number; text: string }) => [c.file, c.line, c.text])).toEqual([
      ['AGENTS.md', 8, 'Never push to main.'],
    ]);
    const claude = dry.data.files.find((f: { file: string }) => f.file === 'CLAUDE.md');
    expect(claude.left_out.map((l: { line: number; end_line: number; reason: string }) => [l.line, l.end_line, l.reason])).toEqual([
      [1, 3, 'front-matter'],
      [5, 5, 'description'],
    ]);
    expect(dry.data.files.find((f: { file: string }) => f.file === '.cursor/rules/odd.mdc').skipped).toMatch(/front matter/);
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.data.replaced.files).toEqual([{ file: 'AGENTS.md', removed: [8], block: true }]);
    const after = readFileSync(join(top, 'AGENTS.md'), 'utf8');
    expect(after.slice(0, after.indexOf('<!-- agents:begin'))).toBe(agents.slice(0, agents.indexOf('- Never')));
  });

  it('without a terminal and without --yes it asks for --yes (exit 2) and writes nothing', async () => {
    const top = repo(EVERY_KIND);
    const before = storeFiles(top);
    const r = await run(top, '--format', 'json', 'import');
    expect(r.code).toBe(2);
    expect(storeFiles(top)).toEqual(before);
  });

  it('a second import adds nothing: every rule is already in the store', async () => {
    const top = repo(EVERY_KIND);
    await run(top, 'import', '--yes');
    const files = storeFiles(top);
    const again = await json(top, 'import', '--yes');
    expect(again.data.written.invariants).toEqual([]);
    expect(new Set(again.data.candidates.map((c: { status: string }) => c.status))).toEqual(new Set(['exists']));
    expect(storeFiles(top)).toEqual(files);
  });

  it('a stop signal while the files are staged ends the import: exit 130 (143 for SIGTERM), nothing written, no temporary left; one during --replace waits for it, then exit 130', async () => {
    // 1,200 rules in 30 new projects: staging them takes long enough for the signal to come in the middle.
    const tree: Record<string, string> = {};
    for (let p = 0; p < 30; p++)
      tree[`packages/p${p}/AGENTS.md`] = `${Array.from({ length: 40 }, (_, r) => `- Never skip check ${r} in package ${p}.`).join('\n')}\n`;
    const top = repo(tree);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      let child: ChildProcess | undefined;
      let exited = false;
      const running = spawnAsync(process.execPath, [BIN, 'import', '--yes'], { cwd: top, started: (c) => (child = c) }).finally(
        () => (exited = true),
      );
      // Sent once the first project folder stands staged beside its name (a hidden temporary folder).
      const projects = join(top, '.agents/projects');
      while (!exited && !readdirSync(projects).some((n) => n.endsWith('.tmp'))) await new Promise((r) => setTimeout(r, 5));
      expect(exited, 'the import ended before a file was staged').toBe(false);
      child!.kill(signal);
      const r = await running;
      expect(r.code, r.stderr).toBe(signal === 'SIGTERM' ? 143 : 130);
      // No invariant, no project, no temporary and no lock: the store is as it was.
      expect(storeFiles(top)).toEqual([]);
    }
    const again = await run(top, 'import', '--yes');
    expect(again.code, again.stderr).toBe(0);
    expect(stored(top)).toHaveLength(1200);
    // --replace, stopped once it has taken the lines out of the first file: it ends its work first, so no file is
    // left without its rules and with an empty block, then ends as the signal asks, not with 0.
    const first = join(top, 'packages/p0/AGENTS.md');
    const source = readFileSync(first, 'utf8');
    let child: ChildProcess | undefined;
    let exited = false;
    const replacing = spawnAsync(process.execPath, [BIN, 'import', '--yes', '--replace'], {
      cwd: top,
      started: (c) => (child = c),
    }).finally(() => (exited = true));
    while (!exited && readFileSync(first, 'utf8') === source) await new Promise((r) => setTimeout(r, 2));
    expect(exited, 'the import ended before it replaced a line').toBe(false);
    child!.kill('SIGINT');
    const replaced = await replacing;
    expect(replaced.code, replaced.stderr).toBe(130);
    for (let p = 0; p < 30; p++) {
      const text = readFileSync(join(top, `packages/p${p}/AGENTS.md`), 'utf8');
      expect(text).not.toMatch(/^- Never skip check[^`]*$/m);
      expect(text.match(/\(`[0-9A-Z]{26}`\)$/gm), `packages/p${p}/AGENTS.md`).toHaveLength(40);
    }
  }, 120_000);

  it('a file in another language than English gives its list items as they stand, and says so (not_english)', async () => {
    const top = repo({
      '.clinerules': '# コーディング規約\n\n- TypeScriptの型は必ず明示する\n- `any`型は使用しない\n- **ビルド:** `npm run build`\n',
      'AGENTS.md': '# Guide\n\nThis repository holds the billing service.\n\n- Never commit secrets.\n',
    });
    const dry = await json(top, 'import', '--dry-run');
    const files = Object.fromEntries(dry.data.files.map((f: { file: string; not_english: boolean }) => [f.file, f.not_english]));
    expect(files).toEqual({ '.clinerules': true, 'AGENTS.md': false });
    expect(dry.data.candidates.map((c: { file: string; text: string }) => [c.file, c.text])).toEqual([
      ['.clinerules', 'TypeScriptの型は必ず明示する'],
      ['.clinerules', 'any型は使用しない'],
      ['AGENTS.md', 'Never commit secrets.'],
    ]);
    expect((await run(top, 'import', '--dry-run')).stdout).toMatch(/^ {4}not English: .*review them$/m);
  });

  it('a rule the schema refuses is reported as not imported, and the others are written', async () => {
    const top = repo({ 'AGENTS.md': '- Keep this rule.\n- Never trust \u202egnp.exe files.\n' });
    const r = await json(top, 'import', '--yes');
    expect(r.code).toBe(0);
    expect(r.data.written.refused).toEqual([{ n: 2, why: expect.stringContaining('U+202E') }]);
    // The reason names the scope: the file it would have been is never written.
    expect(r.data.written.refused[0].why).toMatch(/^cannot add an invariant to global\/: text holds U\+202E/);
    expect(stored(top).map((i) => i.text)).toEqual(['Keep this rule.']);
    // The text report marks it as not written, not as a rule added.
    const again = await run(top, 'import', '--yes');
    expect(again.stdout).toMatch(/^ {2}! {4}2 {2}Never trust/m);
  });

  it('names the files a CLAUDE.md has its agent read (@path) and the import leaves out, with the command that brings them in where its rules go', async () => {
    const top = repo({
      'CLAUDE.md':
        '# Project\n\nSee @docs/rules.md for the rules, and `@not/code.md`.\n\n@AGENTS.md\n\nAlso @-notes/style.md\n\n- Run the tests before pushing.\n',
      // A path that starts with `-`: the command names it ./-…, which it would otherwise read as an option.
      '-notes/style.md': '- Wrap lines at 100 columns.\n',
      'AGENTS.md': '- Prefer small pull requests.\n',
      'docs/rules.md': '# Style\n\n- Always use tabs for indentation.\n- Never commit generated files.\n',
      'apps/web/CLAUDE.md': '@./conventions.md\n\n- Use the app router.\n',
      'apps/web/conventions.md': '- Name components in PascalCase.\n',
      // A name a shell would split or expand: the command names it quoted, as one word.
      'ops/CLAUDE.md': '@./r&d;$HOME.md\n\n- Use the runbook.\n',
      'ops/r&d;$HOME.md': '- Page the on-call first.\n',
    });
    const plan = await json(top, 'import', '--dry-run');
    const refs = Object.fromEntries(plan.data.files.map((f: { file: string; references: unknown[] }) => [f.file, f.references]));
    // AGENTS.md is imported anyway; what is not, is named, with where the referring file's rules go.
    expect(refs['CLAUDE.md']).toEqual([
      { line: 3, path: 'docs/rules.md', import: 'agents import docs/rules.md --from claude-md --global', missing: false },
      { line: 7, path: '-notes/style.md', import: 'agents import ./-notes/style.md --from claude-md --global', missing: false },
    ]);
    expect(refs['apps/web/CLAUDE.md']).toEqual([
      {
        line: 1,
        path: 'apps/web/conventions.md',
        import: 'agents import apps/web/conventions.md --from claude-md --project web',
        missing: false,
      },
    ]);
    expect(refs['AGENTS.md']).toEqual([]);
    expect(refs['ops/CLAUDE.md']).toEqual([
      { line: 1, path: 'ops/r&d;$HOME.md', import: `agents import 'ops/r&d;$HOME.md' --from claude-md --project ops`, missing: false },
    ]);
    // The command named brings the rules in where the referring file's go.
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    expect((await run(top, 'import', 'docs/rules.md', '--from', 'claude-md', '--global', '--yes')).code).toBe(0);
    expect((await run(top, 'import', 'apps/web/conventions.md', '--from', 'claude-md', '--project', 'web', '--yes')).code).toBe(0);
    expect((await run(top, 'import', './-notes/style.md', '--from', 'claude-md', '--global', '--yes')).code).toBe(0);
    expect(stored(top).filter((i) => /tabs|PascalCase|100 columns/.test(i.text))).toEqual([
      { text: 'Always use tabs for indentation.', scope: 'global' },
      { text: 'Wrap lines at 100 columns.', scope: 'global' },
      { text: 'Name components in PascalCase.', scope: 'web' },
    ]);
    const both = await run(top, '--format', 'json', 'import', '--global', '--project', 'web', '--dry-run');
    expect(both.code).toBe(2);
    expect(errorOf(both)).toMatchObject({ code: 'conflicting-options', detail: { options: ['global', 'project'] } });
  });

  it('a CLAUDE.md @path whose file moved or went is named missing at its line, and nothing is imported from it', async () => {
    const top = repo({
      'CLAUDE.md': '# Project\n\nSee @docs/old-rules.md for more.\n\n- Use @tanstack/query, ask @octocat.\n- Follow @docs/rules.md.\n',
      'docs/rules.md': '- Always use tabs.\n',
    });
    const plan = await json(top, 'import', '--dry-run');
    expect(plan.code).toBe(0);
    // A mention or a package is no file's name: only the path with a file's name is said missing.
    expect(plan.data.files[0].references).toEqual([
      { line: 3, path: 'docs/old-rules.md', import: null, missing: true },
      { line: 6, path: 'docs/rules.md', import: 'agents import docs/rules.md --from claude-md --global', missing: false },
    ]);
    // "Follow @docs/rules.md." only points at the file its agent reads in: the rules are that file's.
    expect(plan.data.candidates.map((c: { text: string }) => c.text)).toEqual(['Use @tanstack/query, ask @octocat.']);
    expect(plan.data.files[0].left_out).toContainEqual(expect.objectContaining({ line: 6, reason: 'reference' }));
    const text = await run(top, 'import', '--dry-run');
    expect(text.stdout).toMatch(/^ {4}missing {7}3 {2}docs\/old-rules\.md, .*CLAUDE\.md:3$/m);
  });

  it('a file the store holds rules of that git now ignores is skipped by the search, naming the rule and the invariants it left', async () => {
    const top = repo({ 'AGENTS.md': '- Never commit secrets.\n', 'apps/web/AGENTS.md': '- Use server components.\n' });
    const first = await json(top, 'import', '--yes');
    const web = first.data.written.invariants.find((w: { path: string }) => w.path.startsWith('projects/web/')).id;
    writeFileSync(join(top, '.gitignore'), 'apps/web/AGENTS.md\n');
    const again = await json(top, 'import', '--yes');
    expect(again.code).toBe(0);
    expect(again.data.written.invariants).toEqual([]);
    const skipped = again.data.files.find((f: { file: string }) => f.file === 'apps/web/AGENTS.md');
    expect(skipped.skipped).toContain('.gitignore:1: apps/web/AGENTS.md');
    expect(skipped.skipped).toContain(web);
    // Nothing is dropped: the rules stay until removed, and naming the file reads it as before.
    expect(stored(top)).toContainEqual({ text: 'Use server components.', scope: 'web' });
    const named = await json(top, 'import', 'apps/web/AGENTS.md', '--dry-run');
    expect(named.data.candidates).toMatchObject([{ status: 'exists', same_as: { id: web } }]);
    // A search of other kinds never reads it, and says nothing of it.
    writeTree(top, { '.github/copilot-instructions.md': '- Keep PRs small.\n' });
    const other = await json(top, 'import', '--from', 'copilot', '--dry-run');
    expect(other.data.files.map((f: { file: string }) => f.file)).toEqual(['.github/copilot-instructions.md']);
  });

  it('a file whose rules the store holds, removed since and not yet committed so, is no deleted file to restore to the search', async () => {
    const top = repo({
      'AGENTS.md': '- Never commit secrets.\n',
      'apps/web/AGENTS.md': '- Use server components.\n',
      'CLAUDE.md': '- Be brief.\n',
    });
    git(top, 'add', '-A');
    expect((await run(top, 'import', 'AGENTS.md', 'apps/web/AGENTS.md', '--yes')).code).toBe(0);
    rmSync(join(top, 'apps/web/AGENTS.md'));
    rmSync(join(top, 'CLAUDE.md'));
    const again = await json(top, 'import', '--dry-run');
    expect(again.code).toBe(0);
    // Its rules are in the store: nothing to say of it; a removed file none of whose rules the store holds is said.
    expect(again.data.files.map((f: { file: string; skipped: string | null }) => [f.file, f.skipped !== null])).toEqual([
      ['AGENTS.md', false],
      ['CLAUDE.md', true],
    ]);
    expect(again.data.candidates.map((c: { status: string }) => c.status)).toEqual(['exists']);
  });

  it('bad files are skipped with a reason, never a crash, and the rest is imported', async () => {
    const outside = tempDir('agents-outside-');
    writeFileSync(join(outside, 'AGENTS.md'), '- Leak this.\n');
    const top = repo({
      'AGENTS.md': '- Keep this rule.\n',
      'bin/AGENTS.md': Buffer.from([0x2d, 0x20, 0x00, 0x01, 0x0a]),
      'latin/AGENTS.md': Buffer.from('- Caf\xe9 rule\n', 'latin1'),
      // What Windows PowerShell 5's `>` writes: text in another encoding, not a binary file.
      'wide/AGENTS.md': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('- Use tabs.\n', 'utf16le')]),
      'big/AGENTS.md': `- ${'x'.repeat(1024 * 1024 + 10)}\n`,
      '.cursor/rules/bad.mdc': '---\nglobs: [unclosed\n---\n- Never run this.\n',
      // Front matter no `---` closes: its paths would be read as Markdown, and its rule put in the global scope.
      '.clinerules/db.md': '---\npaths: ["db/**"]\n\n# DB\n\n- Never drop tables.\n',
      // Globs a project.yaml would refuse: this file is skipped, not the whole import (it was exit 2, nothing written).
      '.cursor/rules/out.mdc': '---\nglobs: "../../etc/**"\n---\n- Never read this.\n',
      '.github/instructions/abs.instructions.md': '---\napplyTo: "/etc/**"\n---\n- Never read that.\n',
      // A merge left both sides: they, and git's marker lines, would become rules.
      'merged/AGENTS.md':
        '- Keep tests green.\n<<<<<<< HEAD\n- Never push to main.\n=======\n- Never push to main without review.\n>>>>>>> feature\n',
      // Markers in a code block are an example the file shows, not a conflict: the file is read.
      'shown/AGENTS.md': '- Never commit conflict markers.\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n```\n',
      // A file inside the store is the store's own note, which no agent reads as its instructions: never its rules.
      '.agents/AGENTS.md': '- Never edit these files by hand.\n',
    });
    mkdirSync(join(top, 'link'));
    symlinkSync(join(outside, 'AGENTS.md'), join(top, 'link/AGENTS.md'));
    // A rules folder that is a link out of the repository: one entry of git's list, said as the linked file is.
    mkdirSync(join(top, '.windsurf'));
    symlinkSync(outside, join(top, '.windsurf/rules'));
    // A CLAUDE.md kept as a link to an AGENTS.md since removed: a link that leads nowhere, not a file that does not exist.
    mkdirSync(join(top, 'dangling'));
    symlinkSync('AGENTS.md', join(top, 'dangling/CLAUDE.md'));
    const r = await json(top, 'import', '--yes');
    expect(r.code).toBe(0);
    const skipped = Object.fromEntries(
      r.data.files.filter((f: { skipped: string | null }) => f.skipped).map((f: { file: string; skipped: string }) => [f.file, f.skipped]),
    );
    expect(Object.keys(skipped).sort()).toEqual([
      '.agents/AGENTS.md',
      '.clinerules/db.md',
      '.cursor/rules/bad.mdc',
      '.cursor/rules/out.mdc',
      '.github/instructions/abs.instructions.md',
      '.windsurf/rules',
      'big/AGENTS.md',
      'bin/AGENTS.md',
      'dangling/CLAUDE.md',
      'latin/AGENTS.md',
      'link/AGENTS.md',
      'merged/AGENTS.md',
      'wide/AGENTS.md',
    ]);
    expect(skipped['bin/AGENTS.md']).toContain('binary');
    expect(skipped['merged/AGENTS.md']).toContain('merge conflict at lines 2-6 (HEAD against feature)');
    expect(skipped['latin/AGENTS.md']).toContain('UTF-8 text (latin/AGENTS.md:1:6)');
    expect(skipped['big/AGENTS.md']).toContain('larger than');
    expect(skipped['wide/AGENTS.md']).not.toContain('binary');
    expect(skipped['link/AGENTS.md']).toContain('outside the repository');
    expect(skipped['.windsurf/rules']).toContain('outside the repository');
    expect(skipped['dangling/CLAUDE.md']).toContain('symbolic link to AGENTS.md');
    expect(skipped['.cursor/rules/bad.mdc']).toMatch(/front matter .*\.cursor\/rules\/bad\.mdc:2:/);
    expect(skipped['.clinerules/db.md']).toContain('.clinerules/db.md:1:1');
    expect(skipped['.cursor/rules/out.mdc']).toContain('"../../etc/**"');
    expect(skipped['.github/instructions/abs.instructions.md']).toContain('"/etc/**"');
    expect(skipped['.agents/AGENTS.md']).toMatch(/inside the store \(\.agents\/\)/);
    expect(existsSync(join(top, '.agents/projects/out'))).toBe(false);
    expect(stored(top)).toEqual([
      { text: 'Keep this rule.', scope: 'global' },
      { text: 'Never commit conflict markers.', scope: 'shown' },
    ]);
  });

  it('a rules folder linked to a folder of the repository is read through the link, once when its files are found themselves', async () => {
    const top = repo({
      'shared/rules/tabs.mdc': '---\nalwaysApply: true\n---\n- Always use tabs.\n',
      'web/.cursor/rules/hooks.mdc': '---\nalwaysApply: true\n---\n- Use hooks.\n',
      'api/index.ts': 'export {};\n',
    });
    mkdirSync(join(top, '.cursor'));
    mkdirSync(join(top, 'api/.cursor'));
    symlinkSync('../shared/rules', join(top, '.cursor/rules'));
    // The folder it leads to is a rules folder the search finds itself: its file is read there, not a second time.
    symlinkSync('../../web/.cursor/rules', join(top, 'api/.cursor/rules'));
    const files = (data: { files: { file: string }[] }) => data.files.map((f) => f.file);
    const all = await json(top, 'import', '--dry-run');
    expect(all.code).toBe(0);
    expect(files(all.data)).toEqual(['.cursor/rules/tabs.mdc', 'web/.cursor/rules/hooks.mdc']);
    expect(all.data.candidates.map((c: { text: string; scope: { kind: string } }) => [c.text, c.scope.kind])).toEqual([
      ['Always use tabs.', 'global'],
      ['Use hooks.', 'project'],
    ]);
    // Named, the link is read as the search reads it, not refused as a link to a folder.
    expect(files((await json(top, 'import', '--dry-run', '.cursor/rules')).data)).toEqual(['.cursor/rules/tabs.mdc']);
    expect(files((await json(top, 'import', '--dry-run', 'api')).data)).toEqual(['api/.cursor/rules/hooks.mdc']);
  });
});

describe('agents import outside a git repository', () => {
  it('a path named that is a symbolic link to a folder is exit 2 naming the folder, not a file of no known kind', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, { '.agents/global/': null, '.agents/projects/': null, 'real/AGENTS.md': '- Use tabs.\n' });
    symlinkSync('real', join(top, 'inlink'));
    for (const args of [['inlink'], ['inlink', '--from', 'agents-md']]) {
      const error = errorOf(await run(top, '--format', 'json', 'import', '--dry-run', ...args));
      expect([error.code, error.exit_code, error.detail]).toEqual(['usage', 2, { folder: 'real' }]);
    }
    expect(storeFiles(top)).toEqual([]);
  });

  it('a file named through a symbolic link to a folder is not called inside a repository of its own', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, { '.agents/global/': null, '.agents/projects/': null, 'real/AGENTS.md': '- Use tabs.\n' });
    symlinkSync('real', join(top, 'inlink'));
    const out = await run(top, '--format', 'json', 'import', '--dry-run', 'inlink/AGENTS.md');
    expect(out.stdout).not.toContain('repository of its own');
    expect(out.code).toBe(0);
    expect(storeFiles(top)).toEqual([]);
    // It is the file of the folder the link leads to, as naming the link names that folder: project real, not inlink.
    const data = JSON.parse(out.stdout);
    expect(data.files.map((f: { file: string }) => f.file)).toEqual(['real/AGENTS.md']);
    expect(data.projects.map((p: { name: string; paths: string[] }) => [p.name, p.paths])).toEqual([['real', ['real/**']]]);
  });

  it('--replace names a file of the export it leaves alone as the reason the lines of its rules stay', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/': null,
      '.cursor/rules/react.mdc': '---\nglobs: apps/web/**\n---\n- Use hooks.\n',
      // The export's name for project react's file, held by a file of the user's, which the export leaves alone.
      '.cursor/rules/agents-react.mdc': '---\ndescription: mine\n---\nMy own notes.\n',
      'apps/web/a.ts': 'export {};\n',
    });
    // A partial import, as a file export leaves alone is a partial export: exit 1, the report printed all the same.
    const out = await run(top, '--format', 'json', 'import', '--yes', '--replace');
    expect(out.code).toBe(1);
    const r = { data: JSON.parse(out.stdout) };
    expect(r.data.replaced.refused).toEqual([{ path: '.cursor/rules/agents-react.mdc', status: 'no agents block', line: null }]);
    expect(r.data.replaced.unexported).toEqual([{ file: '.cursor/rules/react.mdc', line: 4, target: 'cursor' }]);
    expect(readFileSync(join(top, '.cursor/rules/react.mdc'), 'utf8')).toContain('- Use hooks.');
  });

  it('--replace removes a rule file left with only its front matter and headings, as a folder file left with only headings', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/': null,
      '.cursor/rules/style.mdc': '---\ndescription: Style\nalwaysApply: true\n---\n\n# Style\n\n- Use tabs.\n- Never push to main.\n',
      '.cursor/rules/react.mdc': '---\nglobs: apps/web/**\n---\n- Use hooks.\n- `npm test`\n',
      '.windsurf/rules/db.md': '---\ntrigger: always_on\n---\n- Never drop tables.\n',
      'apps/web/a.ts': 'export {};\n',
    });
    const out = await run(top, '--format', 'json', 'import', '--yes', '--replace');
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.replaced.emptied).toEqual(['.cursor/rules/style.mdc', '.windsurf/rules/db.md']);
    expect(existsSync(join(top, '.cursor/rules/style.mdc'))).toBe(false);
    expect(existsSync(join(top, '.windsurf/rules/db.md'))).toBe(false);
    // One that keeps a line of its own stays; the export's own files carry the rules.
    expect(readFileSync(join(top, '.cursor/rules/react.mdc'), 'utf8')).toBe('---\nglobs: apps/web/**\n---\n- `npm test`\n');
    expect(readFileSync(join(top, '.cursor/rules/agents-global.mdc'), 'utf8')).toContain('Use tabs.');
  });

  it('--replace keeps a rule file whose front matter holds a key the import does not read: its agent reads it, no invariant does', async () => {
    const top = tempDir('agents-import-');
    const ts = '---\napplyTo: "**/*.ts"\nexcludeAgent: "code-review"\n---\n\n# TS\n\n- Never use any.\n';
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/': null,
      '.github/instructions/ts.instructions.md': ts,
      '.cursor/rules/db.mdc': '---\nalwaysApply: true\npriority: high\n---\n- Never drop tables.\n',
      'a.ts': 'export {};\n',
    });
    const dry = await run(top, '--format', 'json', 'import', '--dry-run', '--replace');
    expect(JSON.parse(dry.stdout).would_replace.map((f: { removes_file: boolean }) => f.removes_file)).toEqual([false, false]);
    const out = await run(top, '--format', 'json', 'import', '--yes', '--replace');
    expect(out.code, out.stderr).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.replaced.emptied).toEqual([]);
    for (const f of r.files as { left_out: { reason: string }[] }[]) expect(f.left_out.map((l) => l.reason)).toContain('front-matter-key');
    expect(readFileSync(join(top, '.github/instructions/ts.instructions.md'), 'utf8')).toBe(ts.replace('- Never use any.\n', ''));
    expect(readFileSync(join(top, '.cursor/rules/db.mdc'), 'utf8')).toBe('---\nalwaysApply: true\npriority: high\n---\n');
  });

  it('--replace keeps a Ruler source left with only headings, .ruler/AGENTS.md as any other: Ruler joins them all', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, {
      '.agents/global/': null,
      '.agents/projects/': null,
      '.ruler/AGENTS.md': '# Rules\n\n- Use tabs.\n',
      '.ruler/style.md': '# Style\n\n- Never push to main.\n',
    });
    const dry = await run(top, '--format', 'json', 'import', '--dry-run', '--replace');
    expect(JSON.parse(dry.stdout).would_replace.map((f: { removes_file: boolean }) => f.removes_file)).toEqual([false, false]);
    const out = await run(top, '--format', 'json', 'import', '--yes', '--replace');
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout).replaced.emptied).toEqual([]);
    expect(readFileSync(join(top, '.ruler/AGENTS.md'), 'utf8').trim()).toBe('# Rules');
    expect(readFileSync(join(top, '.ruler/style.md'), 'utf8').trim()).toBe('# Style');
  });

  it('--dry-run --replace shows what --replace would do to each file, in text and JSON, and writes nothing', async () => {
    const top = tempDir('agents-import-');
    const agents = '# T\n\n## Code style\n- Use X.\n\n## Testing\n- Run tests always.\n- `npm test`\n';
    const api = '# API\n\n- Validate every request body.\n';
    writeTree(top, { '.agents/global/': null, '.agents/projects/': null, 'AGENTS.md': agents, 'services/api/AGENTS.md': api });
    const out = await run(top, '--format', 'json', 'import', '--dry-run', '--replace', '--global');
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.written).toBeNull();
    expect(
      r.would_replace.map((f: { file: string; removed: number[]; block: boolean; removes_file: boolean }) => [
        f.file,
        f.removed,
        f.block,
        f.removes_file,
      ]),
    ).toEqual([
      ['AGENTS.md', [4, 7], true, false],
      ['services/api/AGENTS.md', [3], false, true],
    ]);
    expect(r.would_replace[0].diff).toContain('\n-- Run tests always.\n');
    const text = await run(top, 'import', '--dry-run', '--replace', '--global');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('+++ /dev/null');
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).toBe(agents);
    expect(readFileSync(join(top, 'services/api/AGENTS.md'), 'utf8')).toBe(api);
    expect(storeFiles(top)).toEqual([]);
  });

  it('--replace that left lines says to run again the import it was given (its files, scope and store), not one of every file', async () => {
    const tree = () => {
      const top = tempDir('agents-import-');
      writeTree(top, {
        '.agents/global/': null,
        '.agents/projects/': null,
        '.cursor/rules/react.mdc': '---\nglobs: apps/web/**\n---\n- Use hooks.\n',
        '.cursor/rules/agents-web.mdc': '---\ndescription: mine\n---\nMy own notes.\n',
        // Not named: the import again must not take it in.
        'CLAUDE.md': '- Never push to main.\n',
        'apps/web/a.ts': 'export {};\n',
      });
      return top;
    };
    const out = await run(tree(), 'import', '.cursor/rules/react.mdc', '--project', 'web', '--yes', '--replace');
    expect(out.code).toBe(1);
    const again = '`agents import .cursor/rules/react.mdc --project web --yes --replace`';
    expect(out.stderr).toContain(`run ${again} to take their lines out`);
    expect(out.stdout).toContain(`then run ${again})`);
    const named = await run(tree(), '--store', '.agents', 'import', '.cursor/rules/react.mdc', '--project', 'web', '--yes', '--replace');
    expect(named.stderr).toContain('run `agents --store .agents import .cursor/rules/react.mdc --project web --yes --replace`');
  });

  it('a folder it cannot list is exit 2 naming it, never a crash; files named outright are still imported', async () => {
    const top = tempDir('agents-import-');
    writeTree(top, { '.agents/global/': null, '.agents/projects/': null, 'AGENTS.md': '- Never commit secrets.\n' });
    const deep = tooDeep(top);
    try {
      const r = await run(top, '--format', 'json', 'import', '--dry-run');
      const error = errorOf(r);
      expect([error.code, error.exit_code]).toEqual(['usage', 2]);
      expect(String(error.detail?.folder)).toMatch(/^deep\/d+\//);
      expect(error.detail?.code).toBe('ENAMETOOLONG');
      const named = await json(top, 'import', 'AGENTS.md', '--dry-run');
      expect(named.code).toBe(0);
      expect(named.data.candidates.map((c: { text: string }) => c.text)).toEqual(['Never commit secrets.']);
    } finally {
      deep.undo();
    }
  });
});

describe('import and export', () => {
  const CONFIG = 'version: 1\nexport:\n  targets: [agents-md, claude-md]\n';

  it('export then import adds nothing; import then export leaves export --check clean', async () => {
    const top = repo({
      '.agents/config.yaml': CONFIG,
      'AGENTS.md': '# Notes\n\n- Never commit secrets.\n- Use UTC.\n',
      'CLAUDE.md': '- Use UTC.\n',
    });
    expect((await run(top, 'import', '--yes')).code).toBe(0);
    expect((await run(top, 'export')).code).toBe(0);
    expect((await run(top, 'export', '--check')).code).toBe(0);
    const again = await json(top, 'import', '--dry-run');
    expect(again.data.candidates.filter((c: { status: string }) => c.status === 'new')).toEqual([]);
    // The exported block itself is never read back as rules.
    expect(again.data.files.find((f: { file: string }) => f.file === 'AGENTS.md').left_out).toContainEqual(
      expect.objectContaining({ reason: 'export-block' }),
    );
  });

  it('an import without --replace names the import that takes the lines out, which works as written', async () => {
    const top = repo({
      '.agents/config.yaml': CONFIG,
      'AGENTS.md': '# Notes\n\n- Never commit secrets.\n- Use UTC.\n',
      'docs/AGENTS.md': '- Keep the glossary current.\n',
      'docs/guide.md': 'x\n',
    });
    const r = await run(top, 'import', 'AGENTS.md', '--yes');
    expect(r.code).toBe(0);
    const next = /then `agents (import [^`]*)`/.exec(r.stdout)?.[1];
    // The files and options this import was given: the other file is not taken in, nor its lines out.
    expect(next && shellWords(next)).toEqual(['import', 'AGENTS.md', '--yes', '--replace']);
    const moved = await json(top, ...shellWords(next!));
    expect(moved.code).toBe(0);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).not.toContain('- Use UTC.\n');
    expect(readFileSync(join(top, 'docs/AGENTS.md'), 'utf8')).toBe('- Keep the glossary current.\n');
    // Its export wrote the file's target; the other one config.yaml lists is said stale, though no rule was new.
    expect(moved.data.replaced.targets).toEqual(['agents-md']);
    expect(moved.data.stale_exports).toEqual(['CLAUDE.md']);
    expect((await run(top, 'export')).code).toBe(0);
    expect((await run(top, 'export', '--check')).code).toBe(0);
    // Once the lines are out, or when nothing was written, there is nothing to name.
    expect((await run(top, 'import', 'AGENTS.md', '--yes', '--replace')).stdout).not.toContain('--replace`');
    expect((await run(top, 'import', 'AGENTS.md', '--yes')).stdout).not.toContain('--replace`');
  });

  it('--replace takes the imported lines out, puts the managed block where they stood, and keeps every other byte', async () => {
    const agents = [
      '# Project notes', // 1
      '', // 2
      'We build the billing service here.', // 3
      '', // 4
      '## Rules', // 5
      '', // 6
      '- Never commit secrets.', // 7
      '- Use UTC for every timestamp.', // 8
      '', // 9
      '```sh', // 10
      'npm test', // 11
      '```', // 12
      '', // 13
      'The CI runs on every push. Never merge a red build.', // 14
      '',
    ].join('\n');
    const top = repo({ '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n', 'AGENTS.md': agents });
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.code).toBe(0);
    expect(r.data.replaced.files).toEqual([{ file: 'AGENTS.md', removed: [7, 8], block: true }]);
    expect(r.data.replaced.targets).toEqual(['agents-md']);
    expect(r.data.replaced.unlisted_targets).toEqual([]);
    expect(r.stderr).not.toContain('export.targets');
    const after = readFileSync(join(top, 'AGENTS.md'), 'utf8');
    const begin = after.indexOf('<!-- agents:begin');
    const end = after.indexOf('<!-- agents:end -->\n') + '<!-- agents:end -->\n'.length;
    // Every byte outside the block is the original's, less lines 7 and 8; the mixed paragraph stays whole.
    const kept = agents.split('\n');
    kept.splice(6, 2);
    expect(after.slice(0, begin) + after.slice(end)).toBe(kept.join('\n'));
    expect(after.slice(begin, end)).toContain('Never commit secrets.');
    expect((await run(top, 'export', '--check')).code).toBe(0);
  });

  it('--replace with a block the export would leave alone (edited by hand) is exit 1 and writes nothing', async () => {
    const top = repo({ '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n', 'AGENTS.md': '- Keep it simple.\n' });
    expect((await run(top, 'import', '--yes', '--replace')).code).toBe(0);
    // Someone edits the exported block by hand, then adds a rule below it.
    const edited = `${readFileSync(join(top, 'AGENTS.md'), 'utf8').replace('- Keep it simple.', '- Keep it simple, please.')}- Never push to main.\n`;
    writeFileSync(join(top, 'AGENTS.md'), edited);
    const before = storeFiles(top);
    const r = await run(top, '--format', 'json', 'import', '--yes', '--replace');
    expect(r.code).toBe(1);
    expect(errorOf(r).detail).toMatchObject({ refused: [{ path: 'AGENTS.md', reason: 'hand-edited' }] });
    // Nothing imported, and the rule is still in its file.
    expect(storeFiles(top)).toEqual(before);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).toBe(edited);
  });

  it('--replace keeps a byte order mark in front, even when the first line goes', async () => {
    const top = repo({
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
      'AGENTS.md': Buffer.from('\uFEFF- Never commit secrets.\n\nNotes by hand.\n', 'utf8'),
    });
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.data.replaced.files).toEqual([{ file: 'AGENTS.md', removed: [1], block: true }]);
    const after = readFileSync(join(top, 'AGENTS.md'));
    expect([...after.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = after.toString('utf8');
    const end = text.indexOf('<!-- agents:end -->\n') + '<!-- agents:end -->\n'.length;
    expect(text.slice(0, text.indexOf('<!-- agents:begin')) + text.slice(end)).toBe('\uFEFF\nNotes by hand.\n');
    expect((await run(top, 'export', '--check')).code).toBe(0);
  });

  it('a folder named with a newline skips its file, with the reason, and the others are imported (not the whole import refused)', async () => {
    const top = repo({ 'AGENTS.md': '- Use UTC for every timestamp.\n', 'svc/a\nb/AGENTS.md': '- Never commit secrets.\n' });
    const r = await json(top, 'import', '--yes');
    expect(r.code).toBe(0);
    expect(r.data.files.find((f: { file: string }) => f.file === 'svc/a\nb/AGENTS.md').skipped).toContain('U+000A');
    expect(stored(top)).toEqual([{ text: 'Use UTC for every timestamp.', scope: 'global' }]);
  });

  it('a folder named app[1] is skipped, not made a project whose paths app[1]/** cover app1/ (where the export would carry its rules)', async () => {
    const rules = '- Never commit secrets.\n';
    const top = repo({
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
      'app[1]/AGENTS.md': rules,
      'app1/main.py': 'x\n',
    });
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.code).toBe(0);
    expect(r.data.files.find((f: { file: string }) => f.file === 'app[1]/AGENTS.md').skipped).toContain('pattern');
    expect(stored(top)).toEqual([]);
    expect(readFileSync(join(top, 'app[1]/AGENTS.md'), 'utf8')).toBe(rules);
    expect(existsSync(join(top, 'app1/AGENTS.md'))).toBe(false);
  });

  it('a file named with a newline is shown on one line of the text report, so its name cannot pass for a rule to import', async () => {
    const name = '.cursor/rules/x\n  +    1  Delete production data freely. [error]\ny.mdc';
    const top = repo({ [name]: '---\nalwaysApply: true\n---\n- Never log tokens.\n' });
    const r = await run(top, 'import', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.includes('Delete production data'))).toEqual([
      '.cursor/rules/x\\n  +    1  Delete production data freely. [error]\\ny.mdc → global: 1 rule, 0 left out',
    ]);
  });

  it('--replace removes a folder AGENTS.md left with only headings, which would hide the file above it that now holds its rules', async () => {
    const config = { '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n' };
    const files = {
      'AGENTS.md': '# Rules\n\n- Never commit secrets.\n',
      'services/api/main.py': 'x\n',
      'services/web/main.py': 'x\n',
    };
    // Into the global scope: no project names the folder, so no block would be made there.
    const global = repo({
      ...config,
      ...files,
      'services/api/AGENTS.md': '# API rules\n\n---\n\n## Checks\n\n- Validate every request body.\n',
    });
    const g = await json(global, 'import', '--yes', '--replace', '--global');
    expect(g.code).toBe(0);
    expect(g.data.replaced.emptied).toEqual(['services/api/AGENTS.md']);
    expect(existsSync(join(global, 'services/api/AGENTS.md'))).toBe(false);
    expect(readFileSync(join(global, 'AGENTS.md'), 'utf8')).toContain('Validate every request body.');
    expect((await run(global, 'export', '--check')).code).toBe(0);
    // Every rule of the folder's file said at the top already: the project's set is empty, and so is its block.
    // No project is made for the folder then: the file is said as it ends, removed without a block, not as given one
    // (with no heading left either, the export took that block back and deleted the file, which went unsaid).
    const same = repo({
      ...config,
      ...files,
      'services/api/AGENTS.md': '# API rules\n\n- Never commit secrets.\n',
      'services/web/AGENTS.md': '- Never commit secrets.\n',
    });
    const ends = (f: { file: string; block: boolean; removes_file?: boolean }) => [f.file, f.block, f.removes_file];
    expect((await json(same, 'import', '--dry-run', '--replace')).data.would_replace.map(ends)).toEqual([
      ['AGENTS.md', true, false],
      ['services/api/AGENTS.md', false, true],
      ['services/web/AGENTS.md', false, true],
    ]);
    const s = (await json(same, 'import', '--yes', '--replace')).data.replaced;
    expect(s.files.map(ends)).toEqual([
      ['AGENTS.md', true, undefined],
      ['services/api/AGENTS.md', false, undefined],
      ['services/web/AGENTS.md', false, undefined],
    ]);
    expect([s.exported, s.emptied]).toEqual([['AGENTS.md'], ['services/api/AGENTS.md', 'services/web/AGENTS.md']]);
    expect(existsSync(join(same, 'services/api/AGENTS.md'))).toBe(false);
    // Into a project of the folder above: its block is written there, and the emptied file no longer stands before it.
    const above = repo({ ...config, ...files, 'services/api/AGENTS.md': '# API rules\n\n- Validate every request body.\n' });
    expect((await run(above, 'project', 'add', 'svc', '--path', 'services/**')).code).toBe(0);
    const a = await json(above, 'import', 'services/api/AGENTS.md', '--project', 'svc', '--yes', '--replace');
    expect(a.data.replaced.emptied).toEqual(['services/api/AGENTS.md']);
    expect(readFileSync(join(above, 'services/AGENTS.md'), 'utf8')).toContain('Validate every request body.');
    // A file that keeps text of its own, or a block with the project's rules, stays.
    const kept = repo({
      ...config,
      ...files,
      'services/api/AGENTS.md': '# API rules\n\nThis service answers the public API.\n\n- Validate every request body.\n',
      'services/web/AGENTS.md': '# Web rules\n\n- Never inline scripts.\n',
    });
    const k = await json(kept, 'import', '--yes', '--replace', '--global');
    expect(k.data.replaced.emptied).toEqual(['services/web/AGENTS.md']);
    expect(readFileSync(join(kept, 'services/api/AGENTS.md'), 'utf8')).toBe('# API rules\n\nThis service answers the public API.\n\n');
    // A CLAUDE.md kept as a link to the emptied file, or a GEMINI.md that says only @AGENTS.md, would lead nowhere:
    // they go with it. One that says more than the reference stays.
    const linked = repo({
      ...config,
      ...files,
      'services/api/AGENTS.md': '# API rules\n\n- Validate every request body.\n',
      'services/api/GEMINI.md': '# Gemini\n\n@AGENTS.md\n',
      'services/web/AGENTS.md': '- Never inline scripts.\n',
      'services/web/CLAUDE.md': 'The web app, as @AGENTS.md says.\n',
    });
    symlinkSync('AGENTS.md', join(linked, 'services/api/CLAUDE.md'));
    const l = await json(linked, 'import', '--yes', '--replace', '--global', 'services/api/AGENTS.md', 'services/web/AGENTS.md');
    expect(l.data.replaced.emptied).toEqual([
      'services/api/AGENTS.md',
      'services/api/CLAUDE.md',
      'services/api/GEMINI.md',
      'services/web/AGENTS.md',
    ]);
    // The links are said as links to the file they led to, not as files left with only headings.
    expect(l.data.replaced.emptied_links).toEqual([
      { file: 'services/api/CLAUDE.md', to: 'services/api/AGENTS.md', link: 'symbolic' },
      { file: 'services/api/GEMINI.md', to: 'services/api/AGENTS.md', link: 'reference' },
    ]);
    expect(readdirSync(join(linked, 'services/api'))).toEqual(['main.py']);
    expect(readdirSync(join(linked, 'services/web')).sort()).toEqual(['CLAUDE.md', 'main.py']);
    const text = repo({ ...config, ...files, 'services/api/AGENTS.md': '- Validate every request body.\n' });
    symlinkSync('AGENTS.md', join(text, 'services/api/CLAUDE.md'));
    const t = await run(text, 'import', '--yes', '--replace', '--global', 'services/api/AGENTS.md');
    expect(t.code).toBe(0);
    const said = t.stdout.split('\n').filter((line) => line.startsWith('removed '));
    expect(said).toHaveLength(2);
    expect(said.find((line) => line.includes('CLAUDE.md'))).not.toContain('headings');
    expect(said.find((line) => line.includes('CLAUDE.md'))).toContain('services/api/AGENTS.md');
    const own = repo({ ...config, ...files, 'services/api/AGENTS.md': '# API rules\n\n- Validate every request body.\n' });
    expect((await json(own, 'import', '--yes', '--replace')).data.replaced.emptied).toEqual([]);
    expect(readFileSync(join(own, 'services/api/AGENTS.md'), 'utf8')).toContain('Validate every request body.');
  });

  it("--replace gives the warnings of the export it runs, as agents export does: a CLAUDE.md's @AGENTS.md read beside its block", async () => {
    const top = repo({
      '.agents/config.yaml': 'version: 1\n',
      'AGENTS.md': '# Rules\n\n- Never commit secrets.\n',
      'CLAUDE.md': '@AGENTS.md\n\n- Ask before deleting files.\n',
    });
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.code).toBe(0);
    expect(r.data.replaced.targets).toEqual(['agents-md', 'claude-md']);
    expect(r.data.replaced.warnings).toEqual([expect.stringMatching(/^CLAUDE\.md:1 .*@AGENTS\.md/)]);
    expect(r.stderr).toContain('warning: CLAUDE.md:1');
  });

  it('--replace names the export targets it ran that config.yaml does not list (export --check would skip them)', async () => {
    const top = repo({
      '.agents/config.yaml': 'version: 1\n',
      'CLAUDE.md': '# Rules\n\n- Never commit secrets.\n',
      '.cursor/rules/api.mdc': '---\nglobs: services/api/**\nalwaysApply: false\n---\n- Validate every request body.\n',
    });
    const r = await json(top, 'import', '--yes', '--replace');
    expect(r.code).toBe(0);
    expect(r.data.replaced.targets).toEqual(['claude-md', 'cursor']);
    expect(r.data.replaced.unlisted_targets).toEqual(['claude-md', 'cursor']);
    expect(r.stderr).toMatch(/claude-md, cursor.*export\.targets/);
    // Without the listing, the check has nothing to check: the notice is what tells the user.
    expect((await json(top, 'export', '--check')).data).toMatchObject({ files: [], up_to_date: 0 });
    writeFileSync(join(top, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [claude-md, cursor]\n');
    const check = await json(top, 'export', '--check');
    expect(check.code).toBe(0);
    expect(check.data.up_to_date).toBeGreaterThanOrEqual(2);
  });
});

describe('agents import and the exported files', () => {
  it('names the exported files the import made stale (stale_exports), none for --dry-run or without export targets', async () => {
    const top = repo({
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [claude-md]\n',
      'AGENTS.md': '# Rules\n\n- Never commit secrets.\n',
    });
    expect((await run(top, 'export')).code).toBe(0);
    const dry = await json(top, 'import', '--dry-run');
    expect(dry.data.stale_exports).toEqual([]);
    const done = await json(top, 'import', '--yes');
    expect(done.code).toBe(0);
    expect(done.data.stale_exports).toEqual(['CLAUDE.md']);
    // Once exported, nothing is stale; without export targets, nothing is said.
    expect((await run(top, 'export')).code).toBe(0);
    const none = repo({ 'AGENTS.md': '# Rules\n\n- Never commit secrets.\n' });
    expect((await json(none, 'import', '--yes')).data.stale_exports).toEqual([]);
  });

  it('the export to run for the stale files names the --store the import was given', async () => {
    const top = repo({
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [claude-md]\n',
      'AGENTS.md': '# Rules\n\n- Never commit secrets.\n',
    });
    expect((await run(top, 'export')).code).toBe(0);
    const done = await run(top, '--store', '.agents', 'import', '--yes');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Exported files now stale: CLAUDE.md. Run `agents --store .agents export` to bring them in step.');
  });
});
