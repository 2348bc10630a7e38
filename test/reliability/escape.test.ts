import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';

const SECRET = 'OUTSIDE-SECRET-7f3a';
const OUT_ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const PLAN_ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const ACTION_INV = '01KA6X5Z8W4N3B2C1D0E9F8G7A';

/** Every path under `dir` with its content (files) or link target: to prove nothing outside changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = lstatSync(full);
      const rel = relative(dir, full);
      if (st.isDirectory()) {
        out[`${rel}/`] = '';
        walk(full);
      } else out[rel] = st.isSymbolicLink() ? '<link>' : readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/**
 * A sandbox: `outside/` is a sentinel folder shaped like a store (valid
 * invariant files whose text is a secret) beside the real store `repo/.agents`.
 */
function sandbox(): { root: string; repo: string; store: string; outside: string } {
  const root = tempDir();
  const outside = join(root, 'outside');
  const repo = join(root, 'repo');
  const store = join(repo, '.agents');
  writeTree(outside, {
    [`${OUT_ID}.yaml`]: invariantYaml(OUT_ID, SECRET),
    [`global/${OUT_ID}.yaml`]: invariantYaml(OUT_ID, SECRET),
    [`x/${OUT_ID}.yaml`]: invariantYaml(OUT_ID, SECRET),
    'plan.yaml': `id: ${PLAN_ID}\ncreated_at: 2026-11-29T12:00:00Z\n`,
    'secret.txt': `${SECRET}\n`,
  });
  writeTree(store, {
    'global/': null,
    'projects/app/': null,
    [`actions/local/cov/${ACTION_INV}.yaml`]: `# yaml-language-server: $schema=../../../schemas/invariant.schema.json\n${invariantYaml(ACTION_INV, 'Run the tests')}`,
    'plans/': null,
  });
  return { root, repo, store, outside };
}

function expectNoLeak(r: RunResult): void {
  expect(r.stdout + r.stderr).not.toContain(SECRET);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('names, ids and paths never reach outside the store', () => {
  it('refuses traversal in every name, id and path argument (exit 2), touching nothing', async () => {
    const { root, store, outside } = sandbox();
    const before = snapshot(root);
    const cases: string[][] = [
      ['invariant', 'add', '--project', '../x', 'rule'],
      ['invariant', 'add', '--project', '../../outside', 'rule'],
      ['invariant', 'add', '--project', '..', 'rule'],
      ['invariant', 'add', '--project', 'a/b', 'rule'],
      ['invariant', 'add', '--action', 'a/../../b', 'rule'],
      ['invariant', 'add', '--action', '../outside/x', 'rule'],
      ['invariant', 'add', '--action', '../..', 'rule'],
      ['invariant', 'add', '--plan', '../../etc', 'rule'],
      ['invariant', 'add', '--plan', `../../outside`, 'rule'],
      ['invariant', 'list', '--project', '../../outside'],
      ['invariant', 'list', '--project', '../outside', '--effective'],
      ['invariant', 'list', '--action', 'x/../../../outside'],
      ['invariant', 'list', '--plan', '../../etc'],
      ['invariant', 'list', '--plan', '../../outside', '--effective'],
      ['invariant', 'show', '../../x'],
      ['invariant', 'show', `../../outside/${OUT_ID}`],
      ['invariant', 'show', '/etc/passwd'],
      ['invariant', 'remove', '--yes', '../../x'],
      ['invariant', 'remove', '--yes', `../outside/global/${OUT_ID}`],
      ['plan', 'use', '../../x'],
      ['plan', 'use', 'a/../../b'],
      ['plan', 'use', '../outside', '--project', 'app'],
      ['plan', 'use', 'local/cov', '--project', '../x'],
      ['plan', 'show', '../../etc'],
      ['plan', 'show', `../../outside/${PLAN_ID}`],
      ['plan', 'strategize', '../x'],
      ['plan', 'strategize', '/etc'],
      ['plan', 'status', '../..'],
      ['plan', 'decisions', '../../outside'],
      ['invariant', 'violation', 'add', '--plan', '../..', '--invariant', OUT_ID],
      ['invariant', 'violation', 'add', '--plan', PLAN_ID, '--invariant', '../../x'],
      ['invariant', 'violation', 'list', '--plan', '../../outside'],
      ['validate', `../../outside/${OUT_ID}.yaml`],
      ['validate', join(outside, `global/${OUT_ID}.yaml`)],
      ['validate', '--fix', join(outside, 'x')],
    ];
    for (const args of cases) {
      const r = await runAgents(['--store', store, ...args]);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expectNoLeak(r);
    }
    expect(snapshot(root)).toEqual(before);
    expect(readdirSync(outside).sort()).toEqual([`${OUT_ID}.yaml`, 'global', 'plan.yaml', 'secret.txt', 'x']);
  });

  it('a scope folder that is a symbolic link to outside is never read or written through (exit 3)', async () => {
    const { root, store, outside } = sandbox();
    symlinkSync(join(outside, 'x'), join(store, 'projects/evil'));
    const before = snapshot(root);
    const cases: [string[], number][] = [
      [['invariant', 'list'], 3],
      [['invariant', 'list', '--all', '--format', 'json'], 3],
      [['invariant', 'list', '--project', 'evil'], 3],
      [['invariant', 'list', '--project', 'evil', '--effective'], 3],
      [['invariant', 'add', '--project', 'evil', 'Written through a link'], 3],
      // The id is found behind the link: said as the invalid store it is (exit 3), never read through.
      [['invariant', 'show', OUT_ID], 3],
      [['invariant', 'show', OUT_ID.slice(0, 8)], 3],
      [['invariant', 'remove', '--yes', OUT_ID], 3],
      [['validate'], 1],
      [['validate', '--fix'], 1],
      [['validate', join(store, 'projects/evil')], 1],
      [['validate', join(store, `projects/evil/${OUT_ID}.yaml`)], 2],
    ];
    for (const [args, code] of cases) {
      const r = await runAgents(['--store', store, ...args]);
      expect({ args, code: r.code }).toEqual({ args, code });
      expectNoLeak(r);
    }
    const listed = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list']);
    expect(JSON.parse(listed.stdout).error.detail.diagnostics).toMatchObject([{ code: 'symlink', file: 'projects/evil' }]);
    expect(snapshot(root)).toEqual(before);
  });

  it('the global folder, the projects folder, an action folder or a plan folder as a link: refused (exit 3)', async () => {
    const cases: { link: string; target: string; runs: [string[], number][] }[] = [
      {
        link: 'global',
        target: 'global',
        runs: [
          [['invariant', 'add', '--global', 'rule'], 3],
          [['invariant', 'list', '--project', 'app', '--effective'], 3],
          [['invariant', 'list', '--global'], 3],
        ],
      },
      {
        link: 'projects',
        target: '',
        runs: [
          [['invariant', 'add', '--project', 'x', 'rule'], 3],
          [['invariant', 'add', '--project', 'new', 'rule'], 3],
          [['invariant', 'list', '--project', 'x'], 3],
        ],
      },
      {
        link: 'actions/ns',
        target: '',
        runs: [
          [['invariant', 'add', '--action', 'ns/x', 'rule'], 3],
          [['invariant', 'list', '--action', 'ns/x'], 3],
          [['invariant', 'list'], 3],
        ],
      },
      {
        link: `plans/${PLAN_ID}`,
        target: '',
        runs: [
          [['invariant', 'add', '--plan', PLAN_ID, 'rule'], 3],
          [['invariant', 'list', '--plan', PLAN_ID, '--effective'], 3],
          [['plan', 'show', PLAN_ID], 3],
          [['plan', 'status', PLAN_ID], 3],
          // The plan is read before the actor is looked for (none is configured in the sandbox): refused as the others.
          [['plan', 'strategize', PLAN_ID], 3],
          [['plan', 'decisions', PLAN_ID], 3],
          [['plan', 'list'], 3],
          [['invariant', 'violation', 'add', '--plan', PLAN_ID, '--invariant', OUT_ID], 3],
          [['invariant', 'violation', 'list', '--plan', PLAN_ID], 3],
        ],
      },
      {
        link: 'plans',
        target: '',
        runs: [
          [['plan', 'list'], 3],
          [['plan', 'show', PLAN_ID], 3],
          [['plan', 'use', 'local/cov', '--project', 'app'], 3],
        ],
      },
      { link: 'actions/local/cov', target: 'x', runs: [[['plan', 'use', 'local/cov', '--project', 'app'], 3]] },
    ];
    for (const c of cases) {
      const { root, store, outside } = sandbox();
      const linkPath = join(store, c.link);
      rmSync(linkPath, { recursive: true, force: true });
      mkdirSync(join(linkPath, '..'), { recursive: true });
      symlinkSync(join(outside, c.target), linkPath);
      const before = snapshot(root);
      for (const [args, code] of c.runs) {
        const r = await runAgents(['--store', store, ...args]);
        expect({ link: c.link, args, code: r.code }).toEqual({ link: c.link, args, code });
        expectNoLeak(r);
      }
      expect(snapshot(root)).toEqual(before);
    }
  });

  it('an invariant file that is a link to a file outside is reported, never read', async () => {
    const { root, store, outside } = sandbox();
    symlinkSync(join(outside, `${OUT_ID}.yaml`), join(store, `global/${OUT_ID}.yaml`));
    const before = snapshot(root);
    for (const [args, code] of [
      [['invariant', 'list'], 3],
      [['invariant', 'list', '--project', 'app', '--effective'], 3],
      [['invariant', 'add', '--global', 'rule'], 3],
      [['invariant', 'show', OUT_ID], 3],
      [['invariant', 'remove', '--yes', OUT_ID], 3],
    ] as [string[], number][]) {
      const r = await runAgents(['--store', store, ...args]);
      expect({ args, code: r.code }).toEqual({ args, code });
      expectNoLeak(r);
    }
    const r = await runAgents(['--store', store, '--format', 'json', 'invariant', 'list']);
    expect(JSON.parse(r.stdout).error.detail.diagnostics).toMatchObject([{ code: 'symlink', file: `global/${OUT_ID}.yaml` }]);
    expect(snapshot(root)).toEqual(before);
  });

  it('an invariant file that is a folder is reported by show, edit, move and remove as list reports it (exit 3), not as an unknown id', async () => {
    const { root, store } = sandbox();
    mkdirSync(join(store, `global/${OUT_ID}.yaml`));
    const before = snapshot(root);
    for (const args of [
      ['invariant', 'show', OUT_ID],
      ['invariant', 'edit', OUT_ID.slice(0, 8), '--text', 'Another rule'],
      ['invariant', 'move', OUT_ID, '--project', 'app'],
      ['invariant', 'remove', '--yes', OUT_ID],
    ]) {
      const r = await runAgents(['--store', store, '--format', 'json', ...args]);
      expect({ args, code: r.code }).toEqual({ args, code: 3 });
      expect(JSON.parse(r.stdout).error.detail.diagnostics).toMatchObject([{ code: 'not-a-file', file: `global/${OUT_ID}.yaml` }]);
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('--store naming a link uses the folder it names and nothing beside it; a .agents link found by searching is refused', async () => {
    const { root, repo, store, outside } = sandbox();
    symlinkSync(store, join(root, 'store-link'));
    const outsideBefore = snapshot(outside);
    const added = await runAgents([
      '--store',
      join(root, 'store-link'),
      '--format',
      'json',
      'invariant',
      'add',
      '--global',
      'Through the named link',
    ]);
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    expect(readdirSync(join(store, 'global'))).toContain(`${id}.yaml`);
    expect(snapshot(outside)).toEqual(outsideBefore);

    // A checked-out repository whose .agents is a link to somewhere else.
    const clone = join(root, 'clone');
    mkdirSync(join(clone, '.git'), { recursive: true });
    symlinkSync(outside, join(clone, '.agents'));
    const r = await runAgents(['invariant', 'list'], { cwd: clone });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a symbolic link; a store found by searching is never followed through a link');
    expectNoLeak(r);
    const w = await runAgents(['invariant', 'add', '--global', 'rule'], { cwd: clone });
    expect(w.code).toBe(2);
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(repo).toBeTruthy();
  });
});
