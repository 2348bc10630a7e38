import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsAsync } from '../helpers/cli.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runAgents, runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

const NEVER_DELETE = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const NO_SECRETS = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const TAG_RELEASES = '01JDQ6X5Z8W4N3B2C1D0E9F8G3';
const LOG_CHANGES = '01JDQ6X5Z8W4N3B2C1D0E9F8G4';
const LOCAL_TESTS = '01JDQ6X5Z8W4N3B2C1D0E9F8G5';
const LOCAL_WEAK = '01JDQ6X5Z8W4N3B2C1D0E9F8G6';
const OTHER_COPY = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';

/** A policy repository (a store in `.agents/`) with a bare clone as its remote; returns the bare repository's file URL. */
function policyRepo(dir: string, marker: string): { work: string; url: string } {
  const work = join(dir, 'policy');
  mkdirSync(work);
  gitInit(work);
  writeTree(work, {
    '.agents/global/': null,
    [`.agents/global/${NEVER_DELETE}.yaml`]: invariantYaml(NEVER_DELETE, 'Never delete production data', { locked: 'true' }),
    [`.agents/actions/org/release/${TAG_RELEASES}.yaml`]: invariantYaml(TAG_RELEASES, 'Tag every release'),
    // Nothing of a source runs: neither its actor nor its config.
    '.agents/actors/evil.sh': `#!/bin/sh\ntouch ${marker}\n`,
    '.agents/config.yaml': `reconciliation:\n  command: [sh, actors/evil.sh]\n`,
  });
  commitAll(work, 'v1');
  git(work, 'tag', 'v1');
  const bare = join(dir, 'policy.git');
  git(dir, 'clone', '-q', '--bare', work, bare);
  return { work, url: `file://${bare}` };
}

function consumer(dir: string, name: string, extendsYaml: string, tree: Record<string, string | null> = {}): string {
  const top = join(dir, name);
  mkdirSync(top);
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    [`.agents/projects/myapp/${LOCAL_TESTS}.yaml`]: invariantYaml(LOCAL_TESTS, 'All API changes need tests'),
    '.agents/config.yaml': `extends:\n${extendsYaml}`,
    ...tree,
  });
  commitAll(top, 'consumer');
  return top;
}

const run = (cwd: string, ...args: string[]) => runMain(args, { cwd });

/** A consumer of a policy repository pinned at v1, and a plan made there from the source's template org/release. */
async function planFromSource(): Promise<{ policy: { work: string; url: string }; app: string; planId: string; copy: string }> {
  const dir = tempDir();
  const policy = policyRepo(dir, join(dir, 'PWNED'));
  const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
  expect((await run(app, 'extends', 'update')).code).toBe(0);
  const use = await run(app, 'plan', 'use', 'policy:org/release', '--project', 'myapp', '--format', 'json');
  expect(use.code).toBe(0);
  return { policy, app, planId: JSON.parse(use.stdout).plan.id as string, copy: JSON.parse(use.stdout).promoted[0].id as string };
}

function effective(json: string): { id: string; scope: string; inherited_from?: string; severity: string }[] {
  return JSON.parse(json);
}

function cacheDir(top: string, name: string): string {
  return join(top, '.git', 'agents', 'extends', `${name}.git`);
}

describe('extends: a policy repository consumed by pinned commit', () => {
  it('update pins the tag, fetch gets exactly that commit, and the effective set names the source', async () => {
    const dir = tempDir();
    const marker = join(dir, 'PWNED');
    const policy = policyRepo(dir, marker);
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    const v1 = git(policy.work, 'rev-parse', 'v1').trim();

    // Not pinned yet: reading refuses, naming what to run.
    const before = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(before.code).toBe(2);
    expect(JSON.parse(before.stdout).error.code).toBe('extends-not-pinned');

    const up = await run(app, 'extends', 'update', '--format', 'json');
    expect(up.code).toBe(0);
    const lock = readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8');
    expect(lock.split('\n')[0]).toBe('# yaml-language-server: $schema=schemas/extends-lock.schema.json');
    expect(lock).toContain(`commit: ${v1}`);
    expect(lock).toContain('kind: tag');

    // A fresh cache: fetch gets the pinned commit and says what it ignores.
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const fetched = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(fetched.code).toBe(0);
    expect(JSON.parse(fetched.stdout)).toEqual([
      { name: 'policy', commit: v1, status: 'fetched', ignored: ['actors', 'config.yaml'], not_inherited: [] },
    ]);
    expect(git(cacheDir(app, 'policy'), 'rev-parse', `refs/agents/pins/${v1}`).trim()).toBe(v1);
    expect(git(cacheDir(app, 'policy'), 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    const again = await run(app, 'extends', 'fetch', '--format', 'json');
    expect(JSON.parse(again.stdout)[0].status).toBe('cached');

    const list = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(list.code).toBe(0);
    expect(effective(list.stdout).map((e) => [e.id, e.scope, e.inherited_from ?? null])).toEqual([
      [LOCAL_TESTS, 'project', null],
      [NEVER_DELETE, 'inherited', 'policy'],
    ]);
    const text = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp');
    expect(text.stdout).toContain('plan > project > global > inherited');
    expect(text.stdout).toContain('inherited policy');

    // plan use of the source's action template, addressed as <source>:<ns>/<name>.
    const plan = await run(app, 'plan', 'use', 'policy:org/release', '--project', 'myapp', '--format', 'json');
    expect(plan.code).toBe(0);
    const planId = JSON.parse(plan.stdout).plan.id as string;
    const planYaml = readFileSync(join(app, '.agents/plans', planId, 'plan.yaml'), 'utf8');
    expect(planYaml).toContain('action: policy:org/release');
    const planList = await run(app, 'invariant', 'list', '--effective', '--plan', planId, '--format', 'json');
    expect(effective(planList.stdout).map((e) => e.scope)).toEqual(['plan', 'project', 'inherited']);
    // action list shows the source's template by the name plan use takes, with the plan made from it; a wrong name
    // is told the names there are.
    const actions = await run(app, 'action', 'list', '--format', 'json');
    expect(actions.code).toBe(0);
    expect(JSON.parse(actions.stdout)).toContainEqual(
      expect.objectContaining({ action: 'policy:org/release', source: 'policy', folder: 'extends/policy/actions/org/release', plans: 1 }),
    );
    const wrong = await run(app, 'plan', 'use', 'org/release');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('policy:org/release');
    // A search of every scope finds the inherited invariant too (after the store's own), as show finds it; a store
    // copy of its text is said to shadow it when added, and listed so.
    const found = await run(app, 'invariant', 'list', 'production', '--format', 'json');
    expect(JSON.parse(found.stdout).map((i: { id: string; scope: string }) => [i.id, i.scope])).toEqual([[NEVER_DELETE, 'inherited']]);
    const copy = await run(app, 'invariant', 'add', '--project', 'myapp', 'Never delete production data', '--format', 'json');
    expect(copy.code).toBe(0);
    expect(JSON.parse(copy.stdout).shadows.map((o: { id: string }) => o.id)).toEqual([NEVER_DELETE]);
    const listed = JSON.parse((await run(app, 'invariant', 'list', 'production', '--format', 'json')).stdout) as {
      id: string;
      shadowed_by: { id: string }[];
    }[];
    expect(listed.find((i) => i.id === NEVER_DELETE)!.shadowed_by.map((o) => o.id)).toEqual([JSON.parse(copy.stdout).id]);
    // Validation accepts the plan and the lock; the source's actor never ran.
    const validated = await run(app, 'validate', '--format', 'json');
    expect(validated.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('a branch moves and update reports what entered and left; a force-pushed tag is refused until accepted', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    git(dir, '-C', policy.work, 'remote', 'add', 'origin', policy.url.slice('file://'.length));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const v1 = git(policy.work, 'rev-parse', 'v1').trim();

    // The maintainers re-tag v1 on another commit and force-push it.
    writeTree(policy.work, { [`.agents/global/${NO_SECRETS}.yaml`]: invariantYaml(NO_SECRETS, 'No secrets in prompts') });
    const moved = commitAll(policy.work, 'retag');
    git(policy.work, 'tag', '-f', 'v1');
    git(policy.work, 'push', '-q', '--force', 'origin', 'main', 'v1');
    const refused = await run(app, 'extends', 'update', '--format', 'json');
    expect(refused.code).toBe(1);
    const report = JSON.parse(refused.stdout);
    expect(report.written).toBe(false);
    expect(report.sources[0].moved_tag).toBe(true);
    expect(report.sources[0].before.commit).toBe(v1);
    expect(report.sources[0].after.commit).toBe(moved);
    expect(readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8')).toContain(v1);
    const text = await run(app, 'extends', 'update');
    expect(text.stdout).toContain('the tag v1 was moved at the source');

    const accepted = await run(app, 'extends', 'update', '--accept-moved-tag', '--format', 'json');
    expect(accepted.code).toBe(0);
    expect(readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8')).toContain(moved);

    // A branch: moving is what it does; update shows what entered and left each project's set.
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(policy.work, `.agents/global/${NO_SECRETS}.yaml`));
    writeTree(policy.work, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy.work, 'v2');
    git(policy.work, 'push', '-q', 'origin', 'main');
    const move = await run(app, 'extends', 'update', '--format', 'json');
    expect(move.code).toBe(0);
    const target = JSON.parse(move.stdout).sources[0].diff.targets.find((t: { project?: string }) => t.project === 'myapp');
    expect(target.entered.map((e: { id: string }) => e.id)).toEqual([LOG_CHANGES]);
    expect(target.left.map((e: { id: string }) => e.id)).toEqual([NO_SECRETS]);
    expect(JSON.parse(move.stdout).stale_exports).toEqual([]);
  });

  it('update names the exported files the moved pin made stale', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: main\n`);
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: main\nexport:\n  targets: [agents-md]\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect((await run(app, 'export')).code).toBe(0);
    writeTree(policy.work, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy.work, 'v2');
    git(policy.work, 'push', '-q', policy.url.slice('file://'.length), 'main');
    const move = await run(app, 'extends', 'update', '--format', 'json');
    expect(move.code).toBe(0);
    expect(JSON.parse(move.stdout).stale_exports).toEqual(['AGENTS.md']);
    expect((await run(app, 'export', '--check')).code).toBe(1);
  });

  it('update in a clone that never fetched the old pin moves the ref and reports from the old pin', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    writeTree(policy.work, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    const v2 = commitAll(policy.work, 'v2');
    git(policy.work, 'tag', 'v2');
    git(policy.work, 'push', '-q', policy.url.slice('file://'.length), 'main', 'v2');

    // A teammate's fresh clone (no cache) edits the ref and updates: `extends fetch` would refuse the edited config.yaml.
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: v2\n`);
    const move = await run(app, 'extends', 'update', '--format', 'json');
    expect(move.code).toBe(0);
    const report = JSON.parse(move.stdout);
    expect(report.written).toBe(true);
    expect(report.sources[0].before.ref).toBe('v1');
    expect(report.sources[0].after.commit).toBe(v2);
    const target = report.sources[0].diff.targets.find((t: { project?: string }) => t.project === 'myapp');
    expect(target.entered.map((e: { id: string }) => e.id)).toEqual([LOG_CHANGES]);
    expect(target.left).toEqual([]);
    expect(readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8')).toContain(`commit: ${v2}`);
  });

  it('update in a fresh clone moves a branch pin whose commit the source force-pushed away, and says the report starts from nothing', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const bare = policy.url.slice('file://'.length);
    writeTree(policy.work, { [`.agents/global/${LOG_CHANGES}.yaml`]: invariantYaml(LOG_CHANGES, 'Log all changes') });
    commitAll(policy.work, 'later');
    git(policy.work, 'push', '-q', bare, 'main');
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: main\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    // The maintainers drop that commit from main and the remote prunes it: no one can fetch it again.
    git(policy.work, 'reset', '-q', '--hard', 'v1');
    writeTree(policy.work, { [`.agents/global/${NO_SECRETS}.yaml`]: invariantYaml(NO_SECRETS, 'No secrets in prompts') });
    const rewritten = commitAll(policy.work, 'rewritten');
    git(policy.work, 'push', '-q', '--force', bare, 'main');
    git(bare, 'reflog', 'expire', '--expire=now', '--all');
    git(bare, 'gc', '-q', '--prune=now');
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });

    expect((await run(app, 'extends', 'fetch', '--format', 'json')).code).toBe(1);
    const move = await run(app, 'extends', 'update', '--format', 'json');
    expect(move.code).toBe(0);
    const report = JSON.parse(move.stdout).sources[0];
    expect(report.before_gone).toBe(true);
    expect(report.after.commit).toBe(rewritten);
    const target = report.diff.targets.find((t: { project?: string }) => t.project === 'myapp');
    expect(target.entered.map((e: { id: string }) => e.id).sort()).toEqual([NEVER_DELETE, NO_SECRETS]);
    expect(readFileSync(join(app, '.agents/extends.lock.yaml'), 'utf8')).toContain(`commit: ${rewritten}`);
  });

  it('reading never touches the network: with the pin cached an unreachable source works; without it, exit 2 and nothing written', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(policy.url.slice('file://'.length), { recursive: true, force: true });

    const cached = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(cached.code).toBe(0);
    expect(effective(cached.stdout).map((e) => e.id)).toEqual([LOCAL_TESTS, NEVER_DELETE]);

    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const missing = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ code: 'extends-not-fetched', detail: { source: 'policy' } });
    // A listing writes nothing, so its refusal does not say it wrote nothing.
    expect(JSON.parse(missing.stdout).error.hint).not.toMatch(/nothing was written/i);
    const use = await run(app, 'plan', 'use', 'policy:org/release', '--format', 'json');
    expect(use.code).toBe(2);
    expect(JSON.parse(use.stdout).error.code).toBe('extends-not-fetched');
    expect(existsSync(join(app, '.agents/plans'))).toBe(false);
    // Listings of every scope and of the templates go on with the store's own, and say what they leave out.
    for (const args of [
      ['invariant', 'list'],
      ['action', 'list'],
    ]) {
      const listed = await run(app, ...args, '--format', 'json');
      expect(listed.code, args.join(' ')).toBe(0);
      expect(listed.stderr).toContain('not in the cache (run `agents extends fetch`)');
    }
    expect(JSON.parse((await run(app, 'invariant', 'list', '--format', 'json')).stdout).map((i: { id: string }) => i.id)).toEqual([
      LOCAL_TESTS,
    ]);
    const fetch = await run(app, 'extends', 'fetch');
    expect(fetch.code).toBe(2);
    expect(existsSync(cacheDir(app, 'policy'))).toBe(false);
    expect(git(app, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .agents/extends.lock.yaml\n');
  });

  it('the guard hook in a clone that has not fetched the pin denies, naming the command that fetches it, which works as written', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const input = JSON.stringify({
      session_id: 's',
      cwd: app,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    const hook = () => runAgents(['guard', 'hook', '--client', 'claude'], { cwd: app, input });
    const denied = await hook();
    expect(denied.code).toBe(2);
    // The reason is all the person sees: it says what to run, and that command, typed as written, unblocks the hook.
    const words = /`agents ([^`]+)`/.exec(denied.stderr)?.[1]?.split(' ') ?? [];
    expect(words).toEqual(['extends', 'fetch']);
    expect((await run(app, ...words)).code).toBe(0);
    expect(await hook()).toMatchObject({ code: 0, stdout: '' });
  });

  it('import --replace takes out the line of a rule a policy source holds: the export writes it, with its source', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\nexport:\n  targets: [agents-md]\n`, {
      'AGENTS.md': '# Rules\n\n- Never delete production data\n- Keep the changelog current\n',
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const r = await run(app, 'import', '--yes', '--replace', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const replaced = JSON.parse(r.stdout).replaced as { files: { file: string; removed: number[] }[]; unexported: unknown[] };
    expect(replaced.unexported).toEqual([]);
    expect(replaced.files).toMatchObject([{ file: 'AGENTS.md', removed: [3, 4] }]);
    const text = readFileSync(join(app, 'AGENTS.md'), 'utf8');
    expect(text.match(/Never delete production data/g)).toHaveLength(1);
    expect(text).toContain(`(inherited policy, \`${NEVER_DELETE}\`)`);
  });

  it('a plan made from a source dropped from config.yaml is still shown; sync refuses it as a gone template', async () => {
    const { app, planId, copy } = await planFromSource();
    writeFileSync(join(app, '.agents/config.yaml'), 'version: 1\n');

    const show = await run(app, 'plan', 'show', planId, '--format', 'json');
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout).drift.map((d: { kind: string; plan_invariant_id: string }) => [d.kind, d.plan_invariant_id])).toEqual([
      ['removed', copy],
    ]);
    const sync = await run(app, 'plan', 'sync', planId, '--yes', '--format', 'json');
    expect(sync.code).toBe(2);
    expect(JSON.parse(sync.stdout).error).toMatchObject({ code: 'action-gone', detail: { actions: ['policy:org/release'] } });
    expect(existsSync(join(app, '.agents/plans', planId, `${copy}.yaml`))).toBe(true);
    // Its copy removed by hand, the plan is in step.
    expect((await run(app, 'invariant', 'remove', copy, '--yes')).code).toBe(0);
    expect((await run(app, 'plan', 'sync', planId, '--yes')).code).toBe(0);
  });

  it('sync of a plan whose source template left the source at the new pin names the source and its pin, not a folder of the store', async () => {
    const { policy, app, planId, copy } = await planFromSource();
    rmSync(join(policy.work, '.agents/actions'), { recursive: true });
    commitAll(policy.work, 'v2');
    git(policy.work, 'tag', 'v2');
    git(policy.work, 'push', '-q', policy.url.slice('file://'.length), 'main', 'v2');
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: v2\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);

    const sync = await run(app, 'plan', 'sync', planId, '--yes', '--format', 'json');
    expect(sync.code).toBe(2);
    const error = JSON.parse(sync.stdout).error;
    expect(error).toMatchObject({ code: 'action-gone', detail: { plan: planId, actions: ['policy:org/release'] } });
    // The template was never a folder of this store: the refusal names the source it left, at its pin.
    expect(error.message).toContain('policy source policy');
    expect(error.message).not.toContain('actions/org/release/ does not exist');
    expect(existsSync(join(app, '.agents/plans', planId, `${copy}.yaml`))).toBe(true);
  });

  it('plan status offers no waiver for an error violation of a locked invariant, which invariant waive refuses', async () => {
    const { app, planId } = await planFromSource();
    expect((await run(app, 'invariant', 'violation', 'add', '--plan', planId, '--invariant', NEVER_DELETE)).code).toBe(0);
    const waive = await run(
      app,
      'invariant',
      'waive',
      NEVER_DELETE,
      '--plan',
      planId,
      '--reason',
      'r',
      '--owner',
      'o',
      '--expires',
      '2999-01-01',
      '--format',
      'json',
    );
    expect(JSON.parse(waive.stdout).error.code).toBe('locked-waived');
    const status = await run(app, 'plan', 'status', planId, '--format', 'json');
    expect(status.code).toBe(1);
    const reason = JSON.parse(status.stdout).reasons.find((r: { code: string }) => r.code === 'error-violation');
    expect(reason.message).toContain(NEVER_DELETE);
    expect(reason.message).not.toMatch(/\bwaive\b/);
  });

  it('two sources with the same text: the one listed first in extends is kept and shadows the other', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const second = join(dir, 'second');
    mkdirSync(second);
    gitInit(second);
    writeTree(second, {
      [`.agents/global/${OTHER_COPY}.yaml`]: invariantYaml(OTHER_COPY, 'never delete PRODUCTION data', { severity: 'warning' }),
    });
    commitAll(second, 'one');
    const app = consumer(dir, 'app', `  - name: second\n    url: ${second}\n    ref: main\n  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const out = await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json');
    const list = JSON.parse(out.stdout) as { id: string; inherited_from?: string; shadows: { id: string }[] }[];
    // The policy source's copy is locked and stricter (error over warning): the floor wins over the order.
    expect(list.map((e) => [e.id, e.inherited_from ?? null])).toEqual([
      [LOCAL_TESTS, null],
      [NEVER_DELETE, 'policy'],
    ]);
    expect(list[1]!.shadows.map((s) => s.id)).toEqual([OTHER_COPY]);

    // Without a floor, the order of extends decides.
    writeFileSync(join(policy.work, `.agents/global/${NEVER_DELETE}.yaml`), invariantYaml(NEVER_DELETE, 'Never delete production data'));
    commitAll(policy.work, 'unlock');
    git(policy.work, 'tag', 'v2');
    git(dir, 'clone', '-q', '--bare', policy.work, join(dir, 'policy2.git'));
    writeFileSync(
      join(app, '.agents/config.yaml'),
      `extends:\n  - name: second\n    url: ${second}\n    ref: main\n  - name: policy\n    url: file://${join(dir, 'policy2.git')}\n    ref: v2\n`,
    );
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const ordered = JSON.parse((await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout);
    expect(ordered.map((e: { id: string }) => e.id)).toEqual([LOCAL_TESTS, OTHER_COPY]);
  });

  it('a locked invariant weakened locally is a validate error naming the source; the effective set keeps the locked copy', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`, {
      [`.agents/global/${LOCAL_WEAK}.yaml`]: invariantYaml(LOCAL_WEAK, 'never delete production data', { severity: 'info' }),
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const v = await run(app, 'validate', '--format', 'json');
    expect(v.code).toBe(1);
    const diags = JSON.parse(v.stdout).diagnostics as { code: string; file: string; message: string }[];
    const locked = diags.filter((d) => d.code === 'locked-weakened');
    expect(locked.map((d) => d.file)).toEqual([`global/${LOCAL_WEAK}.yaml`]);
    expect(locked[0]!.message).toContain('policy source policy');
    const list = JSON.parse((await run(app, 'invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json')).stdout);
    expect(list.map((e: { id: string; severity: string }) => [e.id, e.severity])).toEqual([
      [LOCAL_TESTS, 'error'],
      [NEVER_DELETE, 'error'],
    ]);
  });

  it('two extends fetch at once take turns on the cache and both succeed', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    rmSync(join(app, '.git', 'agents'), { recursive: true, force: true });
    const [a, b] = await Promise.all([
      agentsAsync(['extends', 'fetch', '--format', 'json'], { cwd: app }),
      agentsAsync(['extends', 'fetch', '--format', 'json'], { cwd: app }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const statuses = [JSON.parse(a.stdout)[0].status, JSON.parse(b.stdout)[0].status].sort();
    expect(statuses).toEqual(['cached', 'fetched']);
    expect(readdirSync(join(app, '.git', 'agents', 'extends')).sort()).toEqual(['policy.git']);
  });

  it('an export to standard output says the precedence with inherited last, as the set it prints holds inherited invariants', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const r = await run(app, 'export', '--stdout', '--project', 'myapp', '--target', 'agents-md');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('project > global > inherited');
  });
});

describe('extends: near-duplicates of inherited texts', () => {
  it('validate warns of a text of the store one character from an inherited one, as invariant add does, in a full run and in hook mode; not of an action template', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`, {
      [`.agents/projects/myapp/${OTHER_COPY}.yaml`]: invariantYaml(OTHER_COPY, 'Never delete production dat'),
      [`.agents/actions/ops/deploy/${LOCAL_WEAK}.yaml`]: invariantYaml(LOCAL_WEAK, 'Never delete production dat'),
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const near = async (...args: string[]) => {
      const r = await run(app, 'validate', ...args, '--format', 'json');
      return (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string; message: string }[] }).diagnostics
        .filter((d) => d.code === 'near-duplicate')
        .map((d) => ({ file: d.file, names: d.message.includes(NEVER_DELETE) }));
    };
    const expected = [{ file: `projects/myapp/${OTHER_COPY}.yaml`, names: true }];
    expect(await near()).toEqual(expected);
    // Hook mode: the project's copy staged, now the inherited text but for punctuation.
    commitAll(app, 'pinned');
    writeFileSync(join(app, `.agents/projects/myapp/${OTHER_COPY}.yaml`), invariantYaml(OTHER_COPY, 'Never delete production data!'));
    git(app, 'add', '-A');
    expect(await near('--staged')).toEqual(expected);
    const add = await run(app, 'invariant', 'add', '--project', 'myapp', 'Never delete production data.', '--format', 'json');
    expect(JSON.parse(add.stdout).near_duplicates.map((n: { id: string }) => n.id)).toContain(NEVER_DELETE);
  });
});

describe('extends: the memo of the checks that read inherited texts', () => {
  it('a warm validate of a store that extends a source answers near-duplicates and overrides from the memo, the same report as --no-cache after a pin moved, the cache fetched again and a local edit', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir, join(dir, 'PWNED'));
    const app = consumer(dir, 'app', `  - url: ${policy.url}\n    ref: v1\n`, {
      [`.agents/projects/myapp/${OTHER_COPY}.yaml`]: invariantYaml(OTHER_COPY, 'Never delete production dat'),
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const report = async (...args: string[]) => {
      const r = await run(app, 'validate', '--format', 'json', ...args);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string; message: string }[] }).diagnostics;
    };
    /** The report of a run with the cache (and the memo the run before kept), checked against one that reads none. */
    const same = async () => {
      const cached = await report();
      expect(cached).toEqual(await report('--no-cache'));
      return cached.filter((d) => d.code === 'near-duplicate').map((d) => d.file);
    };
    const near = [`projects/myapp/${OTHER_COPY}.yaml`];
    expect(await same()).toEqual(near);
    // Kept: a warm run does not pay the pair search again.
    const memo = JSON.parse(readFileSync(join(app, '.git/agents/validate-worktree.cache.checks'), 'utf8'));
    expect(Object.keys(memo.checks)).toEqual(expect.arrayContaining(['near-duplicates', 'overrides']));
    expect(await same()).toEqual(near);
    // The pin moved to a commit whose text is no longer one character from the store's.
    writeFileSync(join(policy.work, `.agents/global/${NEVER_DELETE}.yaml`), invariantYaml(NEVER_DELETE, 'Never drop production tables'));
    commitAll(policy.work, 'v2');
    git(policy.work, 'tag', 'v2');
    git(policy.work, 'push', '-q', join(dir, 'policy.git'), 'v2');
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: v2\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect(await same()).toEqual([]);
    // The sources' cache made again: the same texts, the same report.
    rmSync(join(app, '.git/agents/extends'), { recursive: true, force: true });
    expect((await run(app, 'extends', 'fetch')).code).toBe(0);
    expect(await same()).toEqual([]);
    // A local edit brings the store's text one character from the inherited one again.
    writeFileSync(join(app, `.agents/projects/myapp/${OTHER_COPY}.yaml`), invariantYaml(OTHER_COPY, 'Never drop production table'));
    expect(await same()).toEqual(near);
  });
});
