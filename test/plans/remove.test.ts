import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { AgentsError } from '../../src/core/errors.ts';
import { type Actor, InvariantService, PlanService } from '../../src/index.ts';
import { clearActive } from '../../src/service/plans/remove.ts';
import { removeFolder, takeFolderOut } from '../../src/store/atomic-write.ts';
import { changeActivePlan, readActivePlan } from '../../src/store/guard-files.ts';
import { withFolderLock } from '../../src/store/lock.ts';
import { agents } from '../helpers/cli.ts';
import { commitAll, GIT_ENV, git, gitInit } from '../helpers/git.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { EXAMPLE_PLAN, exampleStore, fileList } from '../helpers/plans.ts';
import { PtySession } from '../helpers/pty.ts';

/** The example store in a git repository of its own, committed: the repository's folder and the store's. */
function repoStore(): { repo: string; root: string } {
  const root = exampleStore();
  const repo = dirname(root);
  gitInit(repo);
  commitAll(repo, 'store');
  return { repo, root };
}

const yesActor: Actor = {
  kind: 'command',
  description: 'test',
  evaluate: async (r) => ({
    ok: true,
    response: { results: r.invariants.map((i) => ({ invariant_id: i.id, enforced: true, response: 'ok' })) },
  }),
};

describe('plan remove', () => {
  it('removes the plan folder whole, commits the removal, and clears the active plan that named it', async () => {
    const { repo, root } = repoStore();
    const files = fileList(join(root, 'plans', EXAMPLE_PLAN)).map((f) => `plans/${EXAMPLE_PLAN}/${f}`);
    expect((await runAgents(['plan', 'activate', EXAMPLE_PLAN], { cwd: repo })).code).toBe(0);
    const r = await runAgents(['plan', 'rm', EXAMPLE_PLAN.slice(0, 8), '--yes', '--commit', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      plan: { id: EXAMPLE_PLAN, project: 'myapp' },
      folder: `plans/${EXAMPLE_PLAN}`,
      left: null,
      active_cleared: true,
      active_error: null,
    });
    expect(out.removed).toEqual(files);
    expect(out.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'show', '--name-status', '--format=%s', 'HEAD').trim().split('\n')).toEqual([
      `plan: remove ${EXAMPLE_PLAN}`,
      '',
      ...files.map((f) => `D\t.agents/${f}`),
    ]);
    expect(readFileSync(join(repo, '.git/agents/active-plan'), 'utf8')).toBe('');
    expect((await runAgents(['validate', '--format', 'json'], { cwd: repo })).code).toBe(0);
  });

  it('--commit commits the deletion of a tracked file whose name is not UTF-8', async () => {
    const root = exampleStore();
    const repo = dirname(root);
    // A name of bytes no UTF-8 reading keeps (Linux allows any but / and NUL), committed with the plan.
    const odd = Buffer.concat([Buffer.from(join(root, 'plans', EXAMPLE_PLAN, 'notes-')), Buffer.from([0xff]), Buffer.from('.txt')]);
    writeFileSync(odd, 'x\n');
    gitInit(repo);
    commitAll(repo, 'store');
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--commit', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'ls-files', '.agents/plans')).toBe('');
  });

  it('a commit of a folder given whole leaves a lock made in it again, or a try at it, out', async () => {
    const { repo, root } = repoStore();
    const { commitPaths } = await import('../../src/git/commit.ts');
    const folder = join(root, 'plans', EXAMPLE_PLAN);
    rmSync(folder, { recursive: true });
    // A writer waiting for the plan's lock makes the folder again, with its lock or its try at it.
    mkdirSync(join(folder, 'waivers'), { recursive: true });
    writeFileSync(join(folder, '.lock'), 'pid 1\n');
    writeFileSync(join(folder, 'waivers', '..lock.123.abc.tmp'), '');
    const done = await commitPaths(repo, [`.agents/plans/${EXAMPLE_PLAN}/`], 'plan: remove');
    expect(done?.id).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, 'ls-files', '.agents/plans')).toBe('');
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all').trim().split('\n').sort()).toEqual([
      `?? .agents/plans/${EXAMPLE_PLAN}/.lock`,
      `?? .agents/plans/${EXAMPLE_PLAN}/waivers/..lock.123.abc.tmp`,
    ]);
  });

  it('clears an active plan written as a prefix of the plan’s id, in any case, as the guard hook reads it', async () => {
    const { repo } = repoStore();
    mkdirSync(join(repo, '.git/agents'), { recursive: true });
    writeFileSync(join(repo, '.git/agents/active-plan'), `${EXAMPLE_PLAN.slice(0, 10).toLowerCase()}\n`);
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ active_cleared: true, active_error: null });
    expect(readFileSync(join(repo, '.git/agents/active-plan'), 'utf8')).toBe('');
  });

  it('leaves an active plan that names another plan as it is', async () => {
    const { repo, root } = repoStore();
    const other = `${EXAMPLE_PLAN.slice(0, 25)}Z`;
    expect((await runAgents(['plan', 'activate', EXAMPLE_PLAN], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, '.git/agents/active-plan'), `${other}\n`);
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ active_cleared: false, commit: null });
    expect(readFileSync(join(repo, '.git/agents/active-plan'), 'utf8')).toBe(`${other}\n`);
    expect(existsSync(join(root, 'plans', EXAMPLE_PLAN))).toBe(false);
  });

  it('says in its JSON why the active plan could not be checked, and removes the plan all the same', async () => {
    const { repo, root } = repoStore();
    // Something no one can read as the active plan: a folder where its file goes.
    mkdirSync(join(repo, '.git/agents/active-plan'), { recursive: true });
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ active_cleared: false, left: null, active_failure: 'read' });
    expect(out.active_error).toContain('.git/agents/active-plan');
    expect(existsSync(join(root, 'plans', EXAMPLE_PLAN))).toBe(false);
    const other = repoStore();
    const fine = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--format', 'json'], { cwd: other.repo });
    expect(JSON.parse(fine.stdout)).toMatchObject({ active_cleared: false, active_error: null, active_failure: null });
  });

  it('refuses an unknown id (exit 2, the closest ids) and, with no terminal, a removal not confirmed: nothing changed', async () => {
    const { repo, root } = repoStore();
    const before = fileList(root);
    const unknown = await runAgents(['plan', 'remove', `${EXAMPLE_PLAN.slice(0, 10)}ZZ`, '--yes', '--format', 'json'], { cwd: repo });
    expect(errorOf(unknown)).toMatchObject({ code: 'unknown-id', exit_code: 2, detail: { suggestions: [EXAMPLE_PLAN] } });
    const unasked = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--format', 'json'], { cwd: repo });
    expect(errorOf(unasked)).toMatchObject({ code: 'confirmation-needed', exit_code: 2, detail: { flag: '--yes', plan: EXAMPLE_PLAN } });
    expect(fileList(root)).toEqual(before);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });
});

describe('plan remove of a plan that cannot be read', () => {
  it('removes a plan whose plan.yaml is invalid by its id, and says AGENTS_PLAN still names it', async () => {
    const { repo, root } = repoStore();
    writeFileSync(join(root, 'plans', EXAMPLE_PLAN, 'plan.yaml'), 'id: [\n');
    const shown = await runAgents(['plan', 'show', EXAMPLE_PLAN, '--format', 'json'], { cwd: repo });
    expect(shown.code).toBe(3);
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN.slice(0, 6), '--yes', '--format', 'json'], {
      cwd: repo,
      env: { AGENTS_PLAN: EXAMPLE_PLAN.slice(0, 8).toLowerCase() },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ plan: { id: EXAMPLE_PLAN, project: null, goal: null } });
    expect(r.stderr).toContain('AGENTS_PLAN');
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
    expect((await runAgents(['validate'], { cwd: repo })).code).toBe(0);
  });

  it('removes a plan folder that holds no file (plan-missing, which stops plan list) by its id, as validate says to', async () => {
    const { repo, root } = repoStore();
    // Nothing in one but empty folders, nothing at all in the other: plans whose files were deleted by hand.
    const [hollow, empty] = [`${EXAMPLE_PLAN.slice(0, 20)}ZZZZZZ`, `${EXAMPLE_PLAN.slice(0, 20)}ZZZZZY`];
    mkdirSync(join(root, 'plans', hollow, 'decisions'), { recursive: true });
    mkdirSync(join(root, 'plans', empty));
    expect((await runAgents(['plan', 'list', '--format', 'json'], { cwd: repo })).code).toBe(3);
    for (const id of [hollow, empty]) {
      const r = await runAgents(['plan', 'remove', id, '--yes', '--format', 'json'], { cwd: repo });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ plan: { id }, removed: [], commit: null });
    }
    expect(readdirSync(join(root, 'plans'))).toEqual([EXAMPLE_PLAN]);
    expect((await runAgents(['plan', 'list', '--format', 'json'], { cwd: repo })).code).toBe(0);
  });

  it('removes a plan folder whose plan.yaml is missing by its id, with the files it holds', async () => {
    const { repo, root } = repoStore();
    const folder = join(root, 'plans', EXAMPLE_PLAN);
    const files = fileList(folder).filter((f) => f !== 'plan.yaml');
    rmSync(join(folder, 'plan.yaml'));
    const r = await runAgents(['plan', 'remove', EXAMPLE_PLAN, '--yes', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      plan: { id: EXAMPLE_PLAN, goal: null },
      removed: files.map((f) => `plans/${EXAMPLE_PLAN}/${f}`).sort(),
    });
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
  });

  it('a library confirm that says no removes nothing (null)', async () => {
    const { root } = repoStore();
    const s = new PlanService(new InvariantService(root, { author: async () => undefined }));
    const asked: string[] = [];
    expect(await s.remove(EXAMPLE_PLAN.slice(0, 8), { confirm: (p) => (asked.push(p.id), false) })).toBeNull();
    expect(asked).toEqual([EXAMPLE_PLAN]);
    expect(readdirSync(join(root, 'plans'))).toEqual([EXAMPLE_PLAN]);
  });

  it('a library commit that is no boolean is refused before confirm is asked', async () => {
    const { root } = repoStore();
    const s = new PlanService(new InvariantService(root, { author: async () => undefined }));
    const asked: string[] = [];
    const bad = { commit: 'yes' as unknown as boolean, confirm: (p: { id: string }) => (asked.push(p.id), true) };
    await expect(s.remove(EXAMPLE_PLAN, bad)).rejects.toMatchObject({ exitCode: 2, detail: { field: 'commit' } });
    expect(asked).toEqual([]);
    expect(readdirSync(join(root, 'plans'))).toEqual([EXAMPLE_PLAN]);
  });
});

describe('plan remove racing the plan’s other writers', () => {
  it('a strategize whose plan is removed while its actor runs waits for the plan’s lock, then writes nothing (store-changed)', async () => {
    const { root } = repoStore();
    const s = new PlanService(new InvariantService(root, { author: async () => undefined }));
    let removed: string[] = [];
    const removing: Actor = {
      ...yesActor,
      evaluate: async (r) => {
        removed = (await s.remove(EXAMPLE_PLAN, { commit: false }))!.removed;
        return yesActor.evaluate(r);
      },
    };
    const refused = await s.strategize(EXAMPLE_PLAN, { actor: removing }).then(
      () => undefined,
      (error: unknown) => error as AgentsError,
    );
    expect(refused).toMatchObject({ exitCode: 2, code: 'store-changed', detail: { changed: [`plans/${EXAMPLE_PLAN}/`] } });
    expect(removed).toContain(`plans/${EXAMPLE_PLAN}/plan.yaml`);
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
  });

  it('waits for a writer that holds the plan’s lock, then removes what it wrote too', async () => {
    const { root } = repoStore();
    const s = new PlanService(new InvariantService(root, { author: async () => undefined }));
    let removal: Promise<{ removed: string[] } | null> | undefined;
    const late = `plans/${EXAMPLE_PLAN}/violations/01M9AAAAAAAAAAAAAAAAAAAAAA.yaml`;
    await withFolderLock(root, `plans/${EXAMPLE_PLAN}`, async () => {
      removal = s.remove(EXAMPLE_PLAN, { commit: false });
      // Written under the lock, as a writer holding it does: the removal, waiting, lists the folder after it.
      mkdirSync(join(root, dirname(late)), { recursive: true });
      writeFileSync(join(root, late), 'id: x\n');
    });
    expect((await removal!)?.removed).toContain(late);
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
  });
});

describe('plan remove cut short after its one rename', () => {
  it('leaves no plan for a reader, only a temporary it skips', async () => {
    const { repo, root } = repoStore();
    const away = takeFolderOut(root, `plans/${EXAMPLE_PLAN}`);
    expect(existsSync(join(root, away))).toBe(true);
    const listed = await runAgents(['plan', 'list', '--format', 'json'], { cwd: repo });
    expect([listed.code, JSON.parse(listed.stdout)]).toEqual([0, []]);
    const shown = await runAgents(['plan', 'show', EXAMPLE_PLAN, '--format', 'json'], { cwd: repo });
    expect(errorOf(shown)).toMatchObject({ code: 'unknown-id', exit_code: 2 });
  });

  it('a temporary whose file cannot be unlinked (immutable) is refused naming that file and its cause, not ENOTDIR', async (ctx) => {
    const { root } = repoStore();
    const away = takeFolderOut(root, `plans/${EXAMPLE_PLAN}`);
    const stuck = join(root, away, 'plan.yaml');
    // Only root may make a file immutable, on a file system that keeps the flag (ext4, xfs, btrfs; not tmpfs).
    if (spawnSync('chattr', ['+i', stuck]).status !== 0) {
      console.log('skipped: chattr +i is not available here (needs root and a file system that keeps the flag)');
      ctx.skip();
      return;
    }
    onTestFinished(() => {
      spawnSync('chattr', ['-i', stuck]);
    });
    let error: AgentsError | undefined;
    try {
      removeFolder(root, away);
    } catch (e) {
      error = e as AgentsError;
    }
    expect([error?.code, error?.exitCode]).toEqual(['write-failed', 2]);
    expect(error?.message).toContain(`${away}/plan.yaml`);
    expect(error?.message).not.toContain('ENOTDIR');
    expect(existsSync(stuck)).toBe(true);
  });
});

describe('plan remove in a real terminal', () => {
  it('names the plan and asks: n keeps it (exit 1), y removes it', async () => {
    const root = exampleStore();
    const ask = () =>
      PtySession.start(['--store', root, 'plan', 'remove', EXAMPLE_PLAN.slice(0, 8)], { cwd: root, columns: 100, rows: 20 });
    const no = ask();
    await no.waitFor(
      /Plan 01M8KK5920RS6CGAVDFVYYJ0B4 \(project myapp\)[\s\S]*Remove this plan with its invariants, records and waivers\? \[y\/N\]/,
    );
    no.type('n');
    expect((await no.exit()).code).toBe(1);
    expect(readdirSync(join(root, 'plans'))).toEqual([EXAMPLE_PLAN]);
    const yes = ask();
    await yes.waitFor(/\[y\/N\]/);
    yes.type('y');
    expect((await yes.exit()).code).toBe(0);
    expect(readdirSync(join(root, 'plans'))).toEqual([]);
  });
});

describe('plan activate racing plan remove', () => {
  it('an activation that waited for the plan’s lock while its removal ran refuses (store-changed), never naming a plan that is gone', async () => {
    const { repo, root } = repoStore();
    const folder = join(root, 'plans', EXAMPLE_PLAN);
    // A lock a dead writer left: the moment the activation clears it, the removal it stands for is done.
    writeFileSync(join(folder, '.lock'), `999999999 ${hostname()} 2026-11-29T12:00:00Z\n`);
    let stdout = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await main(['plan', 'activate', EXAMPLE_PLAN, '--format', 'json'], {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: {
        write: (c: string) => {
          if (c.includes('cleared a stale lock')) removeFolder(root, takeFolderOut(root, `plans/${EXAMPLE_PLAN}`));
        },
      },
      stdin,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true', AGENTS_STORE: undefined },
      cwd: repo,
    });
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error).toMatchObject({ code: 'store-changed', detail: { changed: [`plans/${EXAMPLE_PLAN}/`] } });
    expect(existsSync(join(repo, '.git/agents/active-plan')) ? readFileSync(join(repo, '.git/agents/active-plan'), 'utf8') : '').toBe('');
    expect(existsSync(folder)).toBe(false);
  });
});

describe('plan remove, the active plan it could not clear', () => {
  const id = EXAMPLE_PLAN;
  it('says which failed: the read (whether it named the plan unknown) or the write (it names the plan still)', async () => {
    const refused = () => {
      throw new Error('EROFS: read-only file system');
    };
    // A change that reads as changeActivePlan does, and writes nothing (or is refused).
    const change =
      (read: () => string | undefined, write: () => void) =>
      async (_dir: string, decide: (read: () => string | undefined) => null | undefined) => {
        if (decide(read) !== undefined) write();
      };
    const named = () => id;
    expect(await clearActive('/git/agents', id, named, change(named, refused))).toMatchObject({
      activeCleared: false,
      activeFailure: 'write',
    });
    // Its lock not taken: it names the plan still.
    expect(await clearActive('/git/agents', id, named, refused)).toMatchObject({ activeCleared: false, activeFailure: 'write' });
    expect(await clearActive('/git/agents', id, refused, refused)).toMatchObject({ activeCleared: false, activeFailure: 'read' });
    // Readable at first, not when read again under the lock.
    expect(await clearActive('/git/agents', id, named, change(refused, refused))).toMatchObject({
      activeCleared: false,
      activeFailure: 'read',
    });
    const prefix = () => id.slice(0, 8).toLowerCase();
    expect(
      await clearActive(
        '/git/agents',
        id,
        prefix,
        change(prefix, () => undefined),
      ),
    ).toStrictEqual({ activeCleared: true });
    expect(await clearActive('/git/agents', id, () => undefined, refused)).toStrictEqual({ activeCleared: false });
  });
});

describe('plan remove racing plan activate of another plan', () => {
  /** The store with a second plan, B, and the example plan, A, made active. */
  function twoPlans(): { repo: string; dir: string; b: string } {
    const { repo, root } = repoStore();
    const b = `${EXAMPLE_PLAN.slice(0, 25)}Z`;
    mkdirSync(join(root, 'plans', b));
    writeFileSync(join(root, 'plans', b, 'plan.yaml'), `id: ${b}\n`);
    expect(agents(['plan', 'activate', EXAMPLE_PLAN], { cwd: repo }).code).toBe(0);
    return { repo, dir: join(repo, '.git/agents'), b };
  }
  const activeFile = (dir: string) => readFileSync(join(dir, 'active-plan'), 'utf8');

  it('an activation of B made after the removal of A read the active plan is kept, never cleared', async () => {
    const { repo, dir, b } = twoPlans();
    const read = (d: string | undefined) => {
      const named = readActivePlan(d);
      // Between the removal's read and its clearing: another process makes B active.
      expect(agents(['plan', 'activate', b], { cwd: repo }).code).toBe(0);
      return named;
    };
    expect(await clearActive(dir, EXAMPLE_PLAN, read, changeActivePlan)).toStrictEqual({ activeCleared: false });
    expect(activeFile(dir)).toBe(`${b}\n`);
  });

  it('an activation of B while the removal of A clears the active plan waits for it (here refused as locked), never lost', async () => {
    const { repo, dir, b } = twoPlans();
    let activation: { code: number; stdout: string } | undefined;
    const change = (d: string, decide: (read: () => string | undefined) => null | undefined) =>
      changeActivePlan(d, (readNow) => {
        const next = decide(readNow);
        // Between the removal's read under the lock and its write: another process tries to make B active, with no wait.
        activation = agents(['plan', 'activate', b, '--format', 'json'], { cwd: repo, env: { AGENTS_LOCK_TIMEOUT_MS: '0' } });
        return next;
      });
    expect(await clearActive(dir, EXAMPLE_PLAN, readActivePlan, change)).toStrictEqual({ activeCleared: true });
    expect(activation?.code).toBe(2);
    expect(JSON.parse(activation!.stdout).error.code).toBe('locked');
    expect(activeFile(dir)).toBe('');
    expect(existsSync(join(dir, 'active-plan-lock'))).toBe(false);
    // Its turn come, it is made active.
    expect(agents(['plan', 'activate', b], { cwd: repo }).code).toBe(0);
    expect(activeFile(dir)).toBe(`${b}\n`);
  });
});
