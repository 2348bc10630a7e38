// `project add NAME --path GLOB` of a project that exists without project.yaml gives it one (docs/commands.md): said
// as that, not as a new project, and the .gitkeep that kept the empty folder goes once project.yaml keeps it.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../helpers/main.ts';
import { testStore } from '../helpers/tmp.ts';

describe('project add of a project that has no project.yaml yet', () => {
  it('answers adopted: true, writes project.yaml and removes the .gitkeep; a new project is adopted: false', async () => {
    const store = testStore({});
    const add = (...args: string[]) =>
      runAgents(['--store', store, '--format', 'json', 'project', 'add', ...args], { cwd: dirname(store) });
    const bare = await add('c');
    expect(bare.code).toBe(0);
    expect(JSON.parse(bare.stdout)).toMatchObject({ path: 'projects/c/.gitkeep', adopted: false });
    const given = await add('c', '--path', 'lib/**');
    expect(given.code, given.stderr).toBe(0);
    expect(JSON.parse(given.stdout)).toMatchObject({ path: 'projects/c/project.yaml', adopted: true });
    expect(readdirSync(join(store, 'projects/c'))).toEqual(['project.yaml']);
  });
});

describe('a project kept by its .gitkeep that gets an invariant', () => {
  it('loses the .gitkeep to invariant add and to a move into it, under the lock', async () => {
    const store = testStore({});
    const run = (...args: string[]) => runAgents(['--store', store, '--format', 'json', ...args], { cwd: dirname(store) });
    expect((await run('project', 'add', 'd')).code).toBe(0);
    expect((await run('project', 'add', 'e')).code).toBe(0);
    const added = await run('invariant', 'add', '--project', 'd', 'Keep the ledger balanced');
    expect(added.code, added.stderr).toBe(0);
    const { id } = JSON.parse(added.stdout) as { id: string };
    expect(readdirSync(join(store, 'projects/d'))).toEqual([`${id}.yaml`]);
    const moved = await run('invariant', 'move', id, '--project', 'e');
    expect(moved.code, moved.stderr).toBe(0);
    expect(readdirSync(join(store, 'projects/e'))).toEqual([`${id}.yaml`]);
    // import into a project that exists is the third writer into its folder.
    expect((await run('project', 'add', 'f')).code).toBe(0);
    writeFileSync(join(dirname(store), 'AGENTS.md'), '# Rules\n\n- Never push to main directly.\n');
    const imported = await run('import', 'AGENTS.md', '--project', 'f', '--yes');
    expect(imported.code, imported.stderr).toBe(0);
    expect(readdirSync(join(store, 'projects/f'))).toEqual([expect.stringMatching(/^[0-9A-Z]{26}\.yaml$/)]);
    // The store's top folders keep the .gitkeep init gave them, so that git keeps them however empty.
    writeFileSync(join(store, 'global/.gitkeep'), '');
    expect((await run('invariant', 'add', '--global', 'Never drop a table')).code).toBe(0);
    expect(readdirSync(join(store, 'global'))).toContain('.gitkeep');
  });
});
