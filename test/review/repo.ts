import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll } from 'vitest';
import { dirname, join } from 'node:path';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { invariantYaml, tempDir } from '../helpers/tmp.ts';

/** A ULID-shaped id from a short tag: deterministic, so output can be compared exactly. */
export function ulid(tag: string): string {
  return `01J${tag}`.padEnd(26, '0');
}

export const G1 = ulid('G1');
export const G2 = ulid('G2');
export const G3 = ulid('G3');
export const P1 = ulid('P1');
export const P2 = ulid('P2');
export const Q1 = ulid('Q1');
export const X1 = ulid('X1');
export const A1 = ulid('A1');
export const PLAN = ulid('XP');

/** A git repository with the store at `.agents/`, and writers that speak store paths. */
export class Repo {
  readonly dir: string;
  readonly store: string;

  constructor(dir = tempDir('agents-review-'), init = true) {
    this.dir = dir;
    this.store = join(dir, '.agents');
    if (init) gitInit(dir);
  }

  write(rel: string, content: string): this {
    const full = join(this.store, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return this;
  }

  inv(folder: string, id: string, text: string, extra: Record<string, string> = {}): this {
    return this.write(`${folder}/${id}.yaml`, invariantYaml(id, text, extra));
  }

  plan(id: string, project?: string): this {
    return this.write(`plans/${id}/plan.yaml`, `id: ${id}\n${project ? `project: ${project}\n` : ''}`);
  }

  rm(rel: string): this {
    rmSync(join(this.store, rel), { force: true });
    return this;
  }

  commit(message: string): string {
    return commitAll(this.dir, message);
  }

  git(...args: string[]): string {
    return git(this.dir, ...args);
  }
}

/**
 * The history the review tests share:
 *   c1  base: global G1, G2; project myapp P1; project other Q1; plan XP (myapp) X1; action A1
 *   c2  project myapp adds "Log all changes" (P2, shadows G2); global adds G3
 *   c3  G1 edited (text and severity); G3 removed
 *   c4  P2 removed (G2 comes back into effect)
 *   c5  P1 moved from project myapp to global
 */
export function history(dir?: string): { repo: Repo; c: string[] } {
  const repo = new Repo(dir);
  repo
    .inv('global', G1, 'Never delete production data')
    .inv('global', G2, 'Log all changes')
    .inv('projects/myapp', P1, 'All API changes need tests')
    .inv('projects/other', Q1, 'Keep the changelog current')
    .plan(PLAN, 'myapp')
    .inv(`plans/${PLAN}`, X1, 'Use Python 3.13 only')
    .inv('actions/local/code-coverage', A1, 'Minimum 80% coverage');
  const c1 = repo.commit('c1 base');
  repo.inv('projects/myapp', P2, 'Log all changes').inv('global', G3, 'Write docs for every endpoint');
  const c2 = repo.commit('c2 shadow');
  repo.inv('global', G1, 'Never delete production data or backups', { severity: 'warning' }).rm(`global/${G3}.yaml`);
  const c3 = repo.commit('c3 edit');
  repo.rm(`projects/myapp/${P2}.yaml`);
  const c4 = repo.commit('c4 unshadow');
  repo.rm(`projects/myapp/${P1}.yaml`).inv('global', P1, 'All API changes need tests');
  const c5 = repo.commit('c5 move');
  return { repo, c: [c1, c2, c3, c4, c5] };
}

/** A folder for a describe block's shared repository, removed after the block. */
export function suiteDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agents-review-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
