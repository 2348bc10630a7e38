// `project add NAME --path GLOB` of a project that exists without project.yaml gives it one (docs/commands.md): said
// as that, not as a new project, and the .gitkeep that kept the empty folder goes once project.yaml keeps it.
import { readdirSync } from 'node:fs';
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
