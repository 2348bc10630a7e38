import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { writeTree } from '../helpers/tmp.ts';
import { inv } from '../export/repo.ts';

// A repository with repositories of their own inside it, as git lists them: a submodule (checked out, and not in a
// fresh clone, where it is an empty folder), an untracked clone, and projects whose paths cover them.
const S1 = '01JDQ6X5Z8W4N3B2C1D0E9F8S1';
const C1 = '01JDQ6X5Z8W4N3B2C1D0E9F8C1';
const root = realpathSync(mkdtempSync(join(tmpdir(), 'agents-nested-')));
const outer = join(root, 'outer');
const fresh = join(root, 'fresh');
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  const lib = join(root, 'lib');
  for (const dir of [lib, outer]) mkdirSync(dir);
  gitInit(lib);
  writeTree(lib, { 'AGENTS.md': '# Lib\n\n- Indent with tabs\n', 'src/a.ts': 'export {};\n' });
  commitAll(lib, 'lib');
  gitInit(outer);
  writeTree(outer, {
    '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
    '.agents/projects/sub/project.yaml': 'paths:\n  - pk/sub/**\n',
    [`.agents/projects/sub/${S1}.yaml`]: inv(S1, 'Keep the submodule pinned'),
    '.agents/projects/clone/project.yaml': 'paths:\n  - pk/cl/**\n',
    [`.agents/projects/clone/${C1}.yaml`]: inv(C1, 'Leave the clone alone'),
    'README.md': '# Outer\n',
  });
  git(outer, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'pk/sub');
  // A target's own folder kept as a submodule: Cursor rules shared by several repositories.
  git(outer, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, '.cursor/rules');
  commitAll(outer, 'outer');
  git(root, 'clone', '-q', outer, fresh);
  git(root, 'clone', '-q', lib, join(outer, 'pk/cl'));
});

describe('a submodule not checked out (a fresh clone: an empty folder without .git)', () => {
  it('export refuses to write into it, as into one checked out: exit 2, other-repository, nothing written', async () => {
    expect(readdirSync(join(fresh, 'pk/sub'))).toEqual([]);
    const r = await runAgents(['--format', 'json', 'export', '--project', 'sub'], { cwd: fresh });
    expect(errorOf(r)).toMatchObject({
      code: 'export-target-refused',
      exit_code: 2,
      detail: { path: 'pk/sub/AGENTS.md', reason: 'other-repository' },
    });
    expect(readdirSync(join(fresh, 'pk/sub'))).toEqual([]);
    const check = await runAgents(['--format', 'json', 'export', '--check', '--project', 'sub'], { cwd: fresh });
    expect(errorOf(check)).toMatchObject({ code: 'export-target-refused', detail: { reason: 'other-repository' } });
    // Holding a file since (an AGENTS.md an older export left), it is still the submodule's: refused, the file untouched.
    const left = join(fresh, 'pk/sub/AGENTS.md');
    writeFileSync(left, '# Old\n\n- An old rule.\n');
    const again = await runAgents(['--format', 'json', 'export', '--project', 'sub'], { cwd: fresh });
    expect(errorOf(again)).toMatchObject({
      code: 'export-target-refused',
      detail: { path: 'pk/sub/AGENTS.md', reason: 'other-repository' },
    });
    expect(readFileSync(left, 'utf8')).toBe('# Old\n\n- An old rule.\n');
    rmSync(left);
    // A target's own folder (.cursor/rules) is refused alike, with a way out that is not about a project's paths.
    const rules = await runAgents(['--format', 'json', 'export', '--target', 'cursor'], { cwd: fresh });
    expect(errorOf(rules)).toMatchObject({ code: 'export-target-refused', detail: { reason: 'other-repository' } });
    expect(JSON.parse(rules.stdout).error.hint).not.toContain("project's paths");
  });
});

describe('validate: a project path that covers only a repository of its own', () => {
  it('matches no file of the repository, whether that repository is a submodule or an untracked clone', async () => {
    const r = await runAgents(['--format', 'json', 'validate'], { cwd: outer });
    const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: { code: string; file: string }[] };
    expect([r.code, diagnostics.filter((d) => d.code === 'project-path-unmatched').map((d) => d.file)]).toEqual([
      0,
      ['projects/clone/project.yaml', 'projects/sub/project.yaml'],
    ]);
  });
});

describe('import: the instruction files of a repository of its own inside this one are that repository’s', () => {
  it('refuses a file named inside a clone or a submodule, and the submodule’s folder, checked out or not: exit 2, nothing read', async () => {
    const refused = async (cwd: string, path: string) =>
      errorOf(await runAgents(['--format', 'json', 'import', '--dry-run', path], { cwd }));
    expect(await refused(outer, 'pk/cl/AGENTS.md')).toMatchObject({ code: 'usage', exit_code: 2, detail: { repository: 'pk/cl' } });
    expect(await refused(outer, 'pk/sub/AGENTS.md')).toMatchObject({ code: 'usage', detail: { repository: 'pk/sub' } });
    expect(await refused(fresh, 'pk/sub')).toMatchObject({ code: 'usage', detail: { repository: 'pk/sub' } });
  });
});
