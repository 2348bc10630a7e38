import { execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, GIT_ENV, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, useActor } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { consumer, policyRepo } from '../extends/repos.ts';

/**
 * A store owned by another user is never written and its actor never run,
 * unless allowed as git's safe.directory allows a repository
 * (docs/store-format.md#stores-owned-by-someone-else). Changing a folder's
 * owner needs root: CI runs the suite as root.
 */

const NOBODY = 65534;
const isRoot = process.geteuid?.() === 0;

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}

/** The seed's example store outside any repository, with an actor that leaves a mark outside the store when it runs; owned by `nobody`. */
function foreignStore(): { root: string; mark: string } {
  const root = exampleStore();
  const mark = join(tempDir('agents-mark-'), 'actor-ran');
  useActor(
    root,
    `import { writeFileSync } from 'node:fs';
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
writeFileSync(${JSON.stringify(mark)}, 'ran');
console.log(JSON.stringify({ results: request.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) }));`,
  );
  chownTree(root, NOBODY);
  return { root, mark };
}

/** No repository above the store: found by searching from its parent folder, as a user in /tmp would. */
function run(root: string, args: string[], env: Record<string, string | undefined> = {}) {
  return runAgents(args, { cwd: dirname(root), env: { GIT_CEILING_DIRECTORIES: dirname(dirname(root)), ...env } });
}

describe.skipIf(!isRoot)('a store owned by another user (run as root, the store chowned to nobody)', () => {
  it('its actor is not run and nothing is written: exit 2 saying how to allow it', async () => {
    const { root, mark } = foreignStore();
    const before = fileList(root);
    const r = await run(root, ['plan', 'strategize', EXAMPLE_PLAN, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      exit_code: 2,
      error: { code: 'foreign-store', detail: { store: root, path: root, owner: NOBODY, uid: 0 } },
    });
    expect(existsSync(mark)).toBe(false);
    expect(fileList(root)).toEqual(before);
    expect(r.stderr).toContain(`is owned by user ${NOBODY}, not by you (user 0)`);
    expect(r.stderr).toContain(`git config --global --add safe.directory ${root}`);
    expect(r.stderr).toContain(`AGENTS_SAFE_DIRECTORY=${root}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['invariant add', ['invariant', 'add', '--global', 'Never push on Fridays']],
    ['invariant remove', ['invariant', 'remove', '--yes', '01M8KJT9']],
    ['plan use', ['plan', 'use', 'local/code-coverage', '--project', 'myapp']],
    ['invariant violation add', ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9', '--details', 'seen']],
  ])('%s writes nothing in it (exit 2)', async (_name, args) => {
    const { root } = foreignStore();
    const before = fileList(root);
    const r = await run(root, [...args, '--format', 'json']);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'foreign-store', detail: { owner: NOBODY } });
    expect(r.code).toBe(2);
    expect(fileList(root)).toEqual(before);
  });

  it('validate --fix removes nothing in it; reading it still works', async () => {
    const { root } = foreignStore();
    writeFileSync(join(root, 'global', '.x.yaml.3999999.abcd.tmp'), 'half');
    chownSync(join(root, 'global', '.x.yaml.3999999.abcd.tmp'), NOBODY, NOBODY);
    const before = fileList(root);
    const fix = await run(root, ['validate', '--fix', '--format', 'json']);
    expect(fix.code).toBe(2);
    expect(JSON.parse(fix.stdout).error).toMatchObject({ code: 'foreign-store', detail: { owner: NOBODY } });
    expect(fileList(root)).toEqual(before);
    const list = await run(root, ['invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it.each([
    ['AGENTS_SAFE_DIRECTORY naming the store', (root: string) => ({ AGENTS_SAFE_DIRECTORY: root })],
    ['AGENTS_SAFE_DIRECTORY=*', () => ({ AGENTS_SAFE_DIRECTORY: '*' })],
    ['AGENTS_SAFE_DIRECTORY naming the folder above with /*', (root: string) => ({ AGENTS_SAFE_DIRECTORY: `${dirname(root)}/*` })],
    ['git safe.directory naming the store', (root: string) => ({ GIT_CONFIG_GLOBAL: gitConfig(`[safe]\n\tdirectory = ${root}\n`) })],
    ['git safe.directory = *', () => ({ GIT_CONFIG_GLOBAL: gitConfig('[safe]\n\tdirectory = *\n') })],
    [
      "git safe.directory naming the store from the run's home folder (~/)",
      (root: string) => ({ HOME: dirname(root), GIT_CONFIG_GLOBAL: gitConfig(`[safe]\n\tdirectory = ~/${basename(root)}\n`) }),
    ],
    ['sudo by its owner (SUDO_UID)', () => ({ SUDO_UID: String(NOBODY) })],
  ])('allowed by %s: the actor runs and the run is recorded', async (_name, allow) => {
    const { root, mark } = foreignStore();
    const r = await run(root, ['plan', 'strategize', EXAMPLE_PLAN], allow(root));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(mark)).toBe(true);
    expect(readdirSync(join(root, 'plans', EXAMPLE_PLAN, 'enforcement')).filter((f) => f.endsWith('.yaml'))).toHaveLength(1);
  });

  it.each([
    ['another folder', (root: string) => ({ AGENTS_SAFE_DIRECTORY: `${root}-other` })],
    [
      'git safe.directory emptied after allowing',
      (root: string) => ({ GIT_CONFIG_GLOBAL: gitConfig(`[safe]\n\tdirectory = ${root}\n\tdirectory =\n`) }),
    ],
  ])('not allowed by %s', async (_name, allow) => {
    const { root, mark } = foreignStore();
    const r = await run(root, ['plan', 'strategize', EXAMPLE_PLAN], allow(root));
    expect(r.code).toBe(2);
    expect(existsSync(mark)).toBe(false);
  });
});

describe.skipIf(!isRoot)('a store of ours whose config.yaml belongs to another user', () => {
  it('does not run the actor that file names', async () => {
    const { root, mark } = foreignStore();
    chownTree(root, 0);
    chownSync(join(root, 'config.yaml'), NOBODY, NOBODY);
    const r = await run(root, ['plan', 'strategize', EXAMPLE_PLAN, '--format', 'json']);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'foreign-store', detail: { path: join(root, 'config.yaml'), owner: NOBODY } });
    expect(r.code).toBe(2);
    expect(existsSync(mark)).toBe(false);
  });
});

describe.skipIf(!isRoot)('a git repository owned by another user, which git refuses (safe.directory)', () => {
  it('validate --staged, guard check, invariant diff, extends fetch --rev, add --commit and init --hooks say so (exit 2, unsafe-repository), not a missing revision or an unknown option; nothing written', async () => {
    // One repository for every command: two commits of the example store, chowned to nobody.
    const top = dirname(exampleStore());
    gitInit(top);
    commitAll(top, 'store');
    git(top, 'commit', '-q', '--allow-empty', '-m', 'second');
    chownTree(top, NOBODY);
    const before = fileList(top);
    for (const args of [
      ['validate', '--staged'],
      ['guard', 'check', '--staged'],
      ['guard', 'check', 'HEAD~1..HEAD'],
      ['invariant', 'diff', 'HEAD~1..HEAD'],
      ['extends', 'fetch', '--rev', 'HEAD~1'],
      ['invariant', 'add', '--global', 'Never push on Fridays', '--commit'],
      ['init', '--hooks'],
    ]) {
      const r = await runAgents([...args, '--format', 'json'], { cwd: top, env: { ...GIT_ENV } });
      expect({ args, error: JSON.parse(r.stdout).error }).toMatchObject({ args, error: { code: 'unsafe-repository', detail: { top } } });
      expect(r.code).toBe(2);
    }
    expect(fileList(top)).toEqual(before);
  });
});

describe.skipIf(!isRoot)('the command a refusal gives to allow a folder whose path holds a space', () => {
  it('is one the shell runs as written, after which git and agents allow the repository and its store', async () => {
    const top = join(tempDir(), 'My Projects', 'app');
    cpSync(exampleStore(), join(top, '.agents'), { recursive: true });
    gitInit(top);
    commitAll(top, 'store');
    chownTree(top, NOBODY);
    const env = { ...GIT_ENV, GIT_CONFIG_GLOBAL: gitConfig('') };
    const add = ['invariant', 'add', '--global', 'Never push on Fridays', '--format', 'json'];
    const staged = ['validate', '--staged', '--format', 'json'];
    /** Runs the `git config …` command the refusal's hint names, as a user pastes it into a shell. */
    const allow = (hint: string) => execFileSync('sh', ['-c', /`(git config [^`]+)`/.exec(hint)![1]!], { env: { ...process.env, ...env } });
    const foreign = JSON.parse((await runAgents(add, { cwd: top, env })).stdout).error;
    expect(foreign).toMatchObject({ code: 'foreign-store', detail: { store: join(top, '.agents') } });
    allow(foreign.hint);
    const unsafe = JSON.parse((await runAgents(staged, { cwd: top, env })).stdout).error;
    expect(unsafe).toMatchObject({ code: 'unsafe-repository', detail: { top } });
    allow(unsafe.hint);
    const checked = await runAgents(staged, { cwd: top, env });
    expect(checked.code, checked.stdout).toBe(0);
    const added = await runAgents(add, { cwd: top, env });
    expect(added.code, added.stdout).toBe(0);
  });
});

function gitConfig(text: string): string {
  const file = join(tempDir('agents-gitconfig-'), 'config');
  writeFileSync(file, text);
  return file;
}

describe.skipIf(!isRoot)('a policy source whose repository (a path) another user owns, which git refuses', () => {
  it('extends fetch and update name that repository, not this one, and its command allows it (exit 2, unsafe-repository)', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
    const env = { ...GIT_ENV, GIT_CONFIG_GLOBAL: gitConfig('') };
    expect((await runAgents(['extends', 'update'], { cwd: app, env })).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    chownTree(policy.bare, NOBODY);
    let hint = '';
    for (const args of [
      ['extends', 'fetch'],
      ['extends', 'update'],
    ]) {
      const r = await runAgents([...args, '--format', 'json'], { cwd: app, env });
      expect(r.code, args.join(' ')).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error).toMatchObject({ code: 'unsafe-repository', detail: { top: policy.bare } });
      hint = error.hint;
    }
    execFileSync('sh', ['-c', /`(git config [^`]+)`/.exec(hint)![1]!], { env: { ...process.env, ...env } });
    const fetched = await runAgents(['extends', 'fetch'], { cwd: app, env });
    expect(fetched.code, fetched.stderr).toBe(0);
  });
});
