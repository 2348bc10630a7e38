// Floors that hold (issue 30, B): a waiver of any copy of a locked text, and a
// hand-edited pin of extends.lock.yaml.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

const LOCKED = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const COPY = '01JDQ6X5Z8W4N3B2C1D0E9F8G6';
const LOCAL = '01JDQ6X5Z8W4N3B2C1D0E9F8G5';
const WAIVER = '01JDQ6X5Z8W4N3B2C1D0E9F8H1';

/** A policy repository: v0 without the locked invariant, v1 with it; returns the bare clone's URL. */
function policyRepo(dir: string): { work: string; url: string } {
  const work = join(dir, 'policy');
  mkdirSync(work);
  gitInit(work);
  writeTree(work, { '.agents/global/.keep': '' });
  commitAll(work, 'v0');
  git(work, 'tag', 'v0');
  writeTree(work, { [`.agents/global/${LOCKED}.yaml`]: invariantYaml(LOCKED, 'Never delete production data', { locked: 'true' }) });
  commitAll(work, 'v1');
  git(work, 'tag', 'v1');
  const bare = join(dir, 'policy.git');
  git(dir, 'clone', '-q', '--bare', work, bare);
  return { work, url: `file://${bare}` };
}

function consumer(dir: string, url: string, tree: Record<string, string | null> = {}): string {
  const top = join(dir, 'app');
  mkdirSync(top);
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    [`.agents/projects/myapp/${LOCAL}.yaml`]: invariantYaml(LOCAL, 'All API changes need tests'),
    '.agents/config.yaml': `extends:\n  - url: ${url}\n    ref: v1\n`,
    ...tree,
  });
  commitAll(top, 'consumer');
  return top;
}

const run = (cwd: string, ...args: string[]) => runMain(args, { cwd });
const waiverYaml = (id: string, of: string) =>
  `id: ${id}\ninvariant_id: ${of}\nreason: "busy"\nowner: "me"\nexpires: "2999-01-01"\ncreated_at: "2026-11-29T12:00:00Z"\n`;

describe('a waiver of a locked text, by any of its copies', () => {
  it('a hand-written waiver of a same-severity copy is locked-waived', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, policy.url, {
      [`.agents/projects/myapp/${COPY}.yaml`]: invariantYaml(COPY, 'never delete production data'),
      [`.agents/projects/myapp/waivers/${WAIVER}.yaml`]: waiverYaml(WAIVER, COPY),
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const v = await run(app, 'validate', '--strict', '--format', 'json');
    expect(v.code).toBe(1);
    const diags = JSON.parse(v.stdout).diagnostics as { code: string; file: string; line: number; col: number }[];
    expect(diags.filter((d) => d.code === 'locked-waived').map((d) => d.file)).toEqual([`projects/myapp/waivers/${WAIVER}.yaml`]);
    // Placed at the key it is about, file:line:col, as every other diagnostic: the waiver's invariant_id.
    const at = diags.find((d) => d.code === 'locked-waived')!;
    expect([at.line, at.col]).toEqual([2, 15]);
  });

  it('invariant waive of a locked id, or of a copy of its text, is refused at write time (exit 2)', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, policy.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const args = ['--project', 'myapp', '--reason', 'busy', '--owner', 'me', '--expires', '2999-01-01', '--format', 'json'];
    const own = await run(app, 'invariant', 'waive', LOCKED, ...args);
    expect(own.code).toBe(2);
    expect(JSON.parse(own.stdout).error.code).toBe('locked-waived');
    writeFileSync(join(app, `.agents/projects/myapp/${COPY}.yaml`), invariantYaml(COPY, 'never delete production data'));
    const copy = await run(app, 'invariant', 'waive', COPY, ...args);
    expect(copy.code).toBe(2);
    expect(JSON.parse(copy.stdout).error.code).toBe('locked-waived');
    expect(existsSync(join(app, '.agents/projects/myapp/waivers'))).toBe(false);
    // Another invariant is waived as before.
    expect((await run(app, 'invariant', 'waive', LOCAL, ...args)).code).toBe(0);
    expect(readdirSync(join(app, '.agents/projects/myapp/waivers'))).toHaveLength(1);
  });
  it('plan status does not count a hand-written waiver of a copy of a locked text', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
    const app = consumer(dir, policy.url, {
      [`.agents/projects/myapp/${COPY}.yaml`]: invariantYaml(COPY, 'never delete production data'),
      [`.agents/plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\ngoal: Ship\ncreated_at: "2026-11-29T12:06:00Z"\n`,
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    expect((await run(app, 'invariant', 'violation', 'add', '--plan', PLAN, '--invariant', COPY)).code).toBe(0);
    writeTree(app, { [`.agents/projects/myapp/waivers/${WAIVER}.yaml`]: waiverYaml(WAIVER, COPY) });
    const status = await run(app, 'plan', 'status', PLAN, '--allow', 'not-run', '--format', 'json');
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout).waived_violations).toBe(0);
  });

  it('validate --staged reports a copy held lower when the commit moves the pin to a version that locks its text', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, policy.url, {
      '.agents/config.yaml': `extends:\n  - url: ${policy.url}\n    ref: v0\n`,
      [`.agents/projects/myapp/${COPY}.yaml`]: invariantYaml(COPY, 'never delete production data', { severity: 'warning' }),
    });
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    commitAll(app, 'pin v0');
    writeFileSync(join(app, '.agents/config.yaml'), `extends:\n  - url: ${policy.url}\n    ref: v1\n`);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    git(app, 'add', '-A');
    const hook = await run(app, 'validate', '--staged', '--format', 'json');
    expect(hook.code).toBe(1);
    const diags = JSON.parse(hook.stdout).diagnostics as { code: string; file: string; line: number }[];
    expect(diags.map((d) => [d.code, d.file])).toContainEqual(['locked-weakened', `projects/myapp/${COPY}.yaml`]);
    // At the copy's severity, the line to change.
    const lines = readFileSync(join(app, `.agents/projects/myapp/${COPY}.yaml`), 'utf8').split('\n');
    expect(diags.find((d) => d.code === 'locked-weakened')!.line).toBe(lines.findIndex((l) => l.startsWith('severity:')) + 1);
  });
});

describe('a copy of a locked text held lower, at write time', () => {
  it('invariant add and edit refuse a copy that lowers or deactivates a locked text (exit 2, nothing written); other edits of it go through', async () => {
    const dir = tempDir();
    const policy = policyRepo(dir);
    const app = consumer(dir, policy.url);
    expect((await run(app, 'extends', 'update')).code).toBe(0);
    const store = join(app, '.agents');
    const files = () => readdirSync(join(store, 'projects/myapp')).sort();
    const before = files();
    for (const scope of [['--project', 'myapp'], ['--global'], ['--action', 'local/ship']]) {
      const r = await run(app, 'invariant', 'add', ...scope, 'NEVER delete production data', '--severity', 'warning', '--format', 'json');
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('locked-weakened');
    }
    expect(files()).toEqual(before);
    expect(readdirSync(join(store, 'global'))).toEqual([]);
    expect(existsSync(join(store, 'actions/local'))).toBe(false);
    // A text edited into the locked one, held lower, is such a copy too.
    const other = await run(app, 'invariant', 'edit', LOCAL, '--text', 'never delete PRODUCTION data', '--severity', 'warning');
    expect(other.code).toBe(2);
    expect(files()).toEqual(before);
    // At the locked severity it is added; lowering or deactivating it later is refused, and the file stays as it was.
    const added = await run(app, 'invariant', 'add', '--project', 'myapp', 'Never delete production data', '--format', 'json');
    expect(added.code).toBe(0);
    const id = JSON.parse(added.stdout).id as string;
    const file = join(store, `projects/myapp/${id}.yaml`);
    const bytes = readFileSync(file);
    for (const change of [['--severity', 'info'], ['--deactivate']]) {
      const r = await run(app, 'invariant', 'edit', id, ...change, '--format', 'json');
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('locked-weakened');
      expect(readFileSync(file)).toEqual(bytes);
    }
    expect((await run(app, 'invariant', 'edit', id, '--tag', 'data')).code).toBe(0);
    expect((await run(app, 'validate', '--strict', '--format', 'json')).code).toBe(0);
  });
});
