import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

/** A folder with a store and the instruction files `tree`: outside git, the import walks it and starts no process. */
function folder(tree: Record<string, string>): string {
  const top = tempDir('agents-import-front-');
  writeTree(top, {
    '.agents/global/': null,
    '.agents/projects/': null,
    '.agents/actions/': null,
    '.agents/plans/': null,
    ...tree,
  } as never);
  return top;
}

interface FileJson {
  file: string;
  skipped: string | null;
  left_out: { line: number; end_line: number; reason: string; excerpt: string }[];
}

async function dryRun(top: string): Promise<{ code: number; files: FileJson[]; candidates: { file: string; text: string }[] }> {
  const r = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: top });
  const doc = JSON.parse(r.stdout) as { files: FileJson[]; candidates: { file: string; text: string }[] };
  return { code: r.code, files: doc.files, candidates: doc.candidates };
}

const fileOf = (files: FileJson[], name: string) => files.find((f) => f.file === name)!;

function storeFiles(top: string): string[] {
  return readdirSync(join(top, '.agents'), { recursive: true, encoding: 'utf8' }).sort();
}

describe("a rule file's front matter keys the import does not read", () => {
  it('are left out with their lines (front-matter-key), in Cursor rules and Copilot instructions, CRLF and BOM too', async () => {
    const top = folder({
      'apps/web/a.ts': '',
      '.cursor/rules/web.mdc':
        '---\ndescription: Web rules\nglobs: apps/web/**\npriority: high\nalwaysApply: false\nowners:\n  - web-team\n\n---\n- Use React function components.\n',
      '.github/instructions/api.instructions.md':
        '\uFEFF---\r\napplyTo: "apps/web/**"\r\nexcludeAgent: "code-review"\r\n---\r\n- Validate every input.\r\n',
      // Only the keys each agent reads: nothing left out.
      '.cursor/rules/plain.mdc': '---\ndescription: Plain\nalwaysApply: true\n---\n- Prefer named exports.\n',
    });
    const { code, files } = await dryRun(top);
    expect(code).toBe(0);
    const leftOut = (name: string) => fileOf(files, name).left_out.map((l) => [l.line, l.end_line, l.reason, l.excerpt]);
    expect(leftOut('.cursor/rules/web.mdc')).toEqual([
      [4, 4, 'front-matter-key', 'priority: high'],
      [6, 7, 'front-matter-key', 'owners: - web-team'],
    ]);
    expect(leftOut('.github/instructions/api.instructions.md')).toEqual([[3, 3, 'front-matter-key', 'excludeAgent: "code-review"']]);
    expect(leftOut('.cursor/rules/plain.mdc')).toEqual([]);
  });

  it('are said in the text report, also under a file skipped for want of the key its agent reads (glob: for globs:)', async () => {
    const top = folder({ '.cursor/rules/typo.mdc': '---\nglob: src/**\n---\n- Use tabs.\n' });
    const r = await runAgents(['import', '--dry-run'], { cwd: top });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/skipped \.cursor\/rules\/typo\.mdc: .*\n +left out +2 +front-matter-key: glob: src\/\*\*\n/);
  });
});

describe('an alwaysApply that is neither true nor false', () => {
  it('skips its file naming it at file:line:col, and nothing is written; true and false (also quoted) and none read as before', async () => {
    const bad = { yes: 'yes', quoted: '"yes"', one: '1', list: '[true]' };
    const good = { true: 'true', 'quoted-true': '"true"', capital: 'True', false: 'false', none: '' };
    const tree: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...bad, ...good }))
      tree[`.cursor/rules/${name}.mdc`] = `---\nalwaysApply: ${value}\n---\n- Prefer rule ${name}.\n`;
    const top = folder(tree);
    const before = storeFiles(top);
    const { code, files, candidates } = await dryRun(top);
    expect(code).toBe(0);
    for (const name of Object.keys(bad))
      expect(fileOf(files, `.cursor/rules/${name}.mdc`).skipped).toContain(`.cursor/rules/${name}.mdc:2:14`);
    // Read as before: always on, or applied on request (skipped for that reason, as before).
    expect(candidates.map((c) => c.file).sort()).toEqual([
      '.cursor/rules/capital.mdc',
      '.cursor/rules/quoted-true.mdc',
      '.cursor/rules/true.mdc',
    ]);
    for (const name of ['false', 'none'])
      expect(fileOf(files, `.cursor/rules/${name}.mdc`).skipped).toMatch(/applies only when an agent asks for it/);
    const r = await runAgents(['--format', 'json', 'import', '--yes', ...Object.keys(bad).map((n) => `.cursor/rules/${n}.mdc`)], {
      cwd: top,
    });
    expect(r.code).toBe(0);
    expect(storeFiles(top)).toEqual(before);
  });
});

describe('a glob that names a folder of the files (apps/web for apps/web/**)', () => {
  it('skips its file naming the glob at file:line, as project add refuses such a path, and makes no project', async () => {
    const top = folder({
      'apps/web/src/a.ts': '',
      'services/api/b.go': '',
      '.cursor/rules/web.mdc': '---\ndescription: Web\nglobs: apps/web\n---\n- Use React function components.\n',
      '.github/instructions/api.instructions.md': '---\napplyTo: "services/api/**, services/api"\n---\n- Validate every input.\n',
      // A nested rule file's glob, named as it is written and as it reads from the top.
      'apps/web/.cursor/rules/hooks.mdc': '---\nglobs: src\n---\n- Use hooks.\n',
      // A glob of files is read as before.
      '.cursor/rules/ts.mdc': '---\nglobs: apps/web/src/*.ts\n---\n- Use strict mode.\n',
    });
    const { code, files, candidates } = await dryRun(top);
    expect(code).toBe(0);
    expect(fileOf(files, '.cursor/rules/web.mdc').skipped).toContain('"apps/web"');
    expect(fileOf(files, '.cursor/rules/web.mdc').skipped).toContain('.cursor/rules/web.mdc:3');
    expect(fileOf(files, '.github/instructions/api.instructions.md').skipped).toContain('.github/instructions/api.instructions.md:2');
    expect(fileOf(files, 'apps/web/.cursor/rules/hooks.mdc').skipped).toContain('"apps/web/src"');
    expect(fileOf(files, '.cursor/rules/ts.mdc').skipped).toBeNull();
    expect(candidates.map((c) => c.file)).toEqual(['.cursor/rules/ts.mdc']);
    const before = storeFiles(top);
    const r = await runAgents(['--format', 'json', 'import', '--yes'], { cwd: top });
    expect(r.code).toBe(0);
    expect(storeFiles(top).filter((f) => !before.includes(f) && f.endsWith('project.yaml'))).toEqual(['projects/ts/project.yaml']);
  });
});

describe("a Windsurf rule's trigger", () => {
  it('decides where it applies whatever its alwaysApply says: the rule is not skipped for an alwaysApply of yes', async () => {
    const top = folder({ '.windsurf/rules/style.md': '---\ntrigger: always_on\nalwaysApply: yes\n---\n- Use tabs.\n' });
    const f = fileOf((await dryRun(top)).files, '.windsurf/rules/style.md');
    expect(f.skipped).toBeNull();
  });
});

describe('--project P and a glob that names a folder', () => {
  it('puts the rules into P when P exists (its paths are kept, not the glob), and skips the file when the import would make P of it', async () => {
    const top = folder({
      'apps/web/src/a.ts': '',
      '.agents/projects/web/project.yaml': 'paths:\n  - apps/web/**\n',
      '.cursor/rules/web.mdc': '---\nglobs: apps/web\n---\n- Use React function components.\n',
    });
    const into = await runAgents(['--format', 'json', 'import', '--dry-run', '--project', 'web'], { cwd: top });
    expect(JSON.parse(into.stdout).candidates.map((c: { scope: { project: string } }) => c.scope.project)).toEqual(['web']);
    const fresh = await runAgents(['--format', 'json', 'import', '--dry-run', '--project', 'site'], { cwd: top });
    const doc = JSON.parse(fresh.stdout) as { files: FileJson[]; candidates: unknown[] };
    expect(fileOf(doc.files, '.cursor/rules/web.mdc').skipped).toContain('.cursor/rules/web.mdc:2');
    expect(doc.candidates).toEqual([]);
  });
});

describe('globs written bare where YAML reads an alias, beside keys written as YAML', () => {
  it('place each kind of rule file where its globs say, as its agent reads them, none skipped', async () => {
    const top = folder({
      '.cursor/rules/api.mdc': '---\ndescription: "API: errors"\nglobs: *.ts, src/**\nalwaysApply: false\n---\n- Return problem JSON.\n',
      '.cursor/rules/go.mdc': '---\ndescription: "Go: style"\nglobs:\n  - *.go\n---\n- Wrap errors.\n',
      '.windsurf/rules/py.md': '---\ntrigger: glob\ndescription: "Py: style"\nglobs: [*.py, *.pyi]\n---\n- Use type hints.\n',
      'a.ts': '',
      'b.go': '',
      'c.py': '',
    });
    const r = await runAgents(['--format', 'json', 'import', '--dry-run'], { cwd: top });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { files: FileJson[]; projects: { name: string; paths: string[] }[] };
    expect(doc.files.map((f) => f.skipped)).toEqual([null, null, null]);
    expect(doc.projects.map((p) => [p.name, p.paths])).toEqual([
      ['api', ['*.ts', 'src/**']],
      ['go', ['*.go']],
      ['py', ['*.py', '*.pyi']],
    ]);
  });
});
