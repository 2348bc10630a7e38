import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { git, gitInit } from './git.ts';
import { runAgents } from './main.ts';
import { guardedYaml, lastingDir, tempDir } from './tmp.ts';

/** The id of the one global invariant `guardedRepo` writes. */
export const GUARDED = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';

/** The repository `initializedRepo` copies, made once per worker. */
let initialized: Promise<string> | undefined;

/**
 * A git repository (branch main, the tests' identity) with the store `agents init` makes, in a new temporary
 * folder: a copy of one made once per worker, since nothing init writes depends on where or when.
 */
export async function initializedRepo(): Promise<string> {
  initialized ??= (async () => {
    const made = lastingDir('agents-initialized-');
    gitInit(made);
    expect((await runAgents(['init'], { cwd: made })).code).toBe(0);
    return made;
  })();
  const dir = tempDir();
  cpSync(await initialized, dir, { recursive: true });
  return dir;
}

/** A git repository with a store holding one global invariant with `guard`, committed when `commit`. */
export async function guardedRepo(guard: Record<string, readonly string[]>, options: { commit?: boolean } = {}): Promise<string> {
  const dir = await initializedRepo();
  writeFileSync(join(dir, '.agents/global', `${GUARDED}.yaml`), guardedYaml(GUARDED, 'Agents never touch secrets', guard));
  if (options.commit) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'store');
  }
  return dir;
}
