// Real git repositories for the tests of policy sources: a policy repository with a bare clone as its
// remote, and a consumer store that extends it.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { invariantYaml, lastingDir, tempDir, writeTree } from '../helpers/tmp.ts';

export const LOCKED = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
export const SECRETS = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
export const LOCAL = '01JDQ6X5Z8W4N3B2C1D0E9F8G5';
export const LATER = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
/** The action template org/release of `appWithTemplate`'s policy source. */
export const TEMPLATE = '01M91M5SHWTSNA3QA4Q8JH4SSF';

export interface Policy {
  /** The working repository the maintainers commit in. */
  work: string;
  /** The bare remote (a path). */
  bare: string;
  /** `file://` URL of the bare remote. */
  url: string;
  /** The commit tagged v1: a locked invariant and an unlocked one. */
  v1: string;
}

/** The first policy repository and its remote, made once in a folder of their own that outlives the test. */
let template: { dir: string; v1: string } | undefined;

function policyTemplate(): { dir: string; v1: string } {
  if (template) return template;
  const dir = lastingDir('agents-policy-template-');
  const work = join(dir, 'policy');
  mkdirSync(work);
  gitInit(work);
  writeTree(work, {
    [`.agents/global/${LOCKED}.yaml`]: invariantYaml(LOCKED, 'Never delete production data', { locked: 'true' }),
    [`.agents/global/${SECRETS}.yaml`]: invariantYaml(SECRETS, 'No secrets in prompts'),
    '.agents/actions/org/release/.keep': '',
  });
  const v1 = commitAll(work, 'v1');
  git(work, 'tag', 'v1');
  git(dir, 'clone', '-q', '--bare', work, join(dir, 'policy.git'));
  git(work, 'remote', 'add', 'origin', join(dir, 'policy.git'));
  template = { dir, v1 };
  return template;
}

/** Replaces the one `url = from` line of a git config file by `url = to`. */
function moveRemote(config: string, from: string, to: string): void {
  const text = readFileSync(config, 'utf8');
  const line = `\turl = ${from}\n`;
  if (!text.includes(line)) throw new Error(`${config} names no remote ${from}`);
  writeFileSync(config, text.replace(line, `\turl = ${to}\n`));
}

/**
 * A policy repository: v1 (tagged) holds a locked invariant and another; pushed to a bare remote. Every one is a
 * copy of the first one made (the same commits, fixed by the tests' git identity and dates), with each remote's
 * path moved: six git commands (and the processes the clone starts) saved a repository.
 */
export function policyRepo(dir: string, name = 'policy'): Policy {
  const t = policyTemplate();
  const work = join(dir, name);
  const bare = join(dir, `${name}.git`);
  mkdirSync(work);
  cpSync(join(t.dir, 'policy'), work, { recursive: true });
  cpSync(join(t.dir, 'policy.git'), bare, { recursive: true });
  moveRemote(join(work, '.git/config'), join(t.dir, 'policy.git'), bare);
  moveRemote(join(bare, 'config'), join(t.dir, 'policy'), work);
  return { work, bare, url: `file://${bare}`, v1: t.v1 };
}

/** Commits `tree` in the policy repository and pushes `refs` (branch main by default); returns the commit. */
export function policyCommit(p: Policy, tree: Record<string, string | null>, ...refs: string[]): string {
  writeTree(p.work, tree);
  const commit = commitAll(p.work, 'change');
  git(p.work, 'push', '-q', '--force', 'origin', ...(refs.length ? refs : ['main']));
  return commit;
}

/** A consumer store with project myapp (one invariant) whose config.yaml holds `extendsYaml`, committed. */
export function consumer(dir: string, extendsYaml: string, name = 'app'): string {
  const top = join(dir, name);
  mkdirSync(top);
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    [`.agents/projects/myapp/${LOCAL}.yaml`]: invariantYaml(LOCAL, 'All API changes need tests'),
    '.agents/config.yaml': `extends:\n${extendsYaml}`,
  });
  commitAll(top, 'consumer');
  return top;
}

export const run = (cwd: string, ...args: string[]) => runMain(args, { cwd });

/** The ids of `invariant list --effective --project myapp`, or the exit code when it fails. */
export async function effectiveIds(app: string): Promise<string[] | number> {
  const r = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
  if (r.code !== 0) return r.code;
  return (JSON.parse(r.stdout) as { id: string }[]).map((e) => e.id);
}

export const LOCK = '.agents/extends.lock.yaml';

/** Replaces `from` by `to` in a file of the consumer (relative to its top). */
export function edit(app: string, file: string, from: string | RegExp, to: string): void {
  const path = join(app, file);
  const before = readFileSync(path, 'utf8');
  const after = before.replace(from, to);
  if (after === before) throw new Error(`${file} holds no ${String(from)}`);
  writeFileSync(path, after);
}

/**
 * A consumer of a fresh policy repository, pinned at v1 (`extends update`), with `tree` written in it first;
 * the pin committed when `commit`.
 */
export async function pinnedApp(tree: Record<string, string> = {}, options: { commit?: boolean } = {}): Promise<string> {
  const dir = tempDir();
  const policy = policyRepo(dir);
  const app = consumer(dir, `  - url: ${policy.url}\n    ref: v1\n`);
  writeTree(app, tree);
  const update = await run(app, 'extends', 'update');
  if (update.code !== 0) throw new Error(`extends update: ${update.stderr}`);
  if (options.commit) commitAll(app, 'pin');
  return app;
}

/** `invariant waive ID --project myapp` with a reason, an owner and a far expiry, and any further words. */
export const waiveForMyapp = (app: string, id: string, ...more: string[]) =>
  run(app, 'invariant', 'waive', id, '--project', 'myapp', '--reason', 'r', '--owner', 'o', '--expires', '2099-01-01', ...more);

/**
 * A folder holding a `git` that runs `before` (shell) and then the real git, for PATH: what a test sees of, or
 * slows in, the git processes a command starts. Returns the folder.
 */
export function gitShim(dir: string, before: string): string {
  const shim = join(dir, 'shim');
  mkdirSync(shim);
  const real = (process.env.PATH ?? '')
    .split(':')
    .map((p) => join(p, 'git'))
    .find((p) => existsSync(p))!;
  writeFileSync(join(shim, 'git'), `#!/bin/sh\n${before}\nexec ${real} "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  return shim;
}

/** A consumer store extending a policy source that holds the action template org/release, pinned and fetched. */
export async function appWithTemplate(): Promise<string> {
  const dir = tempDir();
  const policy = policyRepo(dir);
  policyCommit(policy, { [`.agents/actions/org/release/${TEMPLATE}.yaml`]: invariantYaml(TEMPLATE, 'Tag every release') });
  const app = consumer(dir, `  - url: ${policy.url}\n    ref: main\n`);
  const update = await run(app, 'extends', 'update');
  if (update.code !== 0) throw new Error(`extends update: ${update.stderr}`);
  return app;
}
