import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { git, gitInit } from './git.ts';
import { runAgents } from './main.ts';
import { guardedYaml, tempDir } from './tmp.ts';

/** The id of the one global invariant `guardedRepo` writes. */
export const GUARDED = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';

/** A git repository with a store holding one global invariant with `guard`, committed when `commit`. */
export async function guardedRepo(guard: Record<string, readonly string[]>, options: { commit?: boolean } = {}): Promise<string> {
  const dir = tempDir();
  gitInit(dir);
  expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
  writeFileSync(join(dir, '.agents/global', `${GUARDED}.yaml`), guardedYaml(GUARDED, 'Agents never touch secrets', guard));
  if (options.commit) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
  }
  return dir;
}
