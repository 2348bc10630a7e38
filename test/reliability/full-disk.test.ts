import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { appendAudit } from '../../src/store/guard-files.ts';
import { invariantYaml, tempDir, writeTree } from '../helpers/tmp.ts';

/**
 * Every writer on a nearly full disk: a real tmpfs filled so that it has
 * room for 0, 1, 2, … pages (tmpfs hands out space a page at a time, so these
 * are all the points from "no room for the temporary" to "room for all but
 * the last byte", and then room for everything). At each point a write
 * either lands whole and exits 0, or fails naming the file, exits non-zero
 * and leaves the old file byte for byte and no temporary behind. Mounting
 * needs root: CI runs the suite as root.
 */

const isRoot = process.geteuid?.() === 0;
const PAGE = 4096;
const GLOBAL_ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const PLAN_ID = '01M8KK5920RS6CGAVDFVYYJ0B4';
const LONG = `${'Why this rule exists, at length. '.repeat(280)}End.`; // about 9 KB: three pages
/** A rule long enough that its invariant file takes more than a page. */
const RULE = `Always keep ${'every public function documented, tested and reviewed, '.repeat(25)}before it is merged.`;

let mnt = '';

beforeAll(() => {
  if (!isRoot) return;
  mnt = mkdtempSync(join(tmpdir(), 'agents-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
});

afterAll(() => {
  if (!mnt) return;
  execFileSync('umount', [mnt]);
  rmSync(mnt, { recursive: true, force: true });
});

/** Leaves exactly `pages` free pages on the tmpfs (the filler takes the rest). */
function leaveFree(pages: number): void {
  const filler = join(mnt, 'filler');
  rmSync(filler, { force: true });
  const s = statfsSync(mnt);
  const free = Number(s.bavail) - pages;
  if (free > 0) writeFileSync(filler, Buffer.alloc(free * PAGE));
  expect(Number(statfsSync(mnt).bavail)).toBe(pages);
}

/** Every file under `dir` with its bytes (git's own folder left out, but not the tool's files in it). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (e.isDirectory()) {
        if (rel === '.git/objects' || rel === '.git/refs' || rel === '.git/hooks' || rel === '.git/logs') continue;
        walk(p);
      } else out.set(rel, readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

/** A repository on the tmpfs, holding the store `tree` and the files `top`. */
function repo(tree: Record<string, string>, top: Record<string, string> = {}): string {
  rmSync(join(mnt, 'filler'), { force: true });
  const dir = join(mnt, 'repo');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  gitInit(dir);
  writeTree(join(dir, '.agents'), { 'global/': null, 'projects/': null, 'actions/': null, 'plans/': null, ...tree });
  writeTree(dir, top);
  return dir;
}

/**
 * `make`'s repository (at mnt/repo), made at the first fill point and copied back from a template for each
 * later one: every point starts from the same files, which need no new git repository or policy-source fetch.
 */
function eachPoint(make: () => string | Promise<string>): () => Promise<string> {
  let template = '';
  return async () => {
    if (!template) {
      const made = await make();
      template = join(tempDir('agents-full-disk-template-'), 'repo');
      cpSync(made, template, { recursive: true, verbatimSymlinks: true });
      return made;
    }
    const dir = join(mnt, 'repo');
    rmSync(join(mnt, 'filler'), { force: true });
    rmSync(dir, { recursive: true, force: true });
    cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
    return dir;
  };
}

interface Writer {
  /** The store and files the command starts from. */
  setup: () => string | Promise<string>;
  args: string[];
  /** The file the command writes, repository-relative. */
  file: string;
  /** What the files it wrote (under `file`) must hold after a success. */
  written: (texts: string[]) => void;
}

const modeline = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const globalFile = `.agents/global/${GLOBAL_ID}.yaml`;

/** One policy source for every fill point of a test (read only): its repository, tagged v1, and its commit. */
let policyMade: { policy: string; commit: string } | undefined;
function policySource(): { policy: string; commit: string } {
  if (policyMade) return policyMade;
  const policy = join(tempDir('agents-policy-'), 'policy');
  mkdirSync(policy);
  gitInit(policy);
  writeTree(policy, { [`.agents/global/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, 'Never delete production data')}` });
  const commit = commitAll(policy, 'v1');
  git(policy, 'tag', 'v1');
  policyMade = { policy, commit };
  // Its folder goes when the test ends (tempDir): the next test makes its own.
  onTestFinished(() => {
    policyMade = undefined;
  });
  return policyMade;
}

const WRITERS: Record<string, Writer> = {
  'init (a store made whole, then renamed into place)': {
    setup: () => {
      const dir = repo({});
      rmSync(join(dir, '.agents'), { recursive: true });
      return dir;
    },
    args: ['init', '--actor', 'command'],
    file: '.agents',
    written: (texts) => {
      // Four .gitkeep files, config.yaml, the example actor and every schema.
      expect(texts.some((t) => t.startsWith('# yaml-language-server: $schema=schemas/config.schema.json'))).toBe(true);
      expect(texts.length).toBeGreaterThan(10);
    },
  },
  'invariant add (a new file)': {
    setup: () => repo({}),
    args: ['--format', 'json', 'invariant', 'add', '--global', 'Never delete production data', '--rationale', LONG],
    file: '.agents/global',
    written: ([text]) => expect(text).toContain('End.'),
  },
  'invariant edit (a file replaced)': {
    setup: () => repo({ [`global/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, 'Never delete production data')}` }),
    args: ['invariant', 'edit', GLOBAL_ID, '--rationale', LONG],
    file: globalFile,
    written: ([text]) => expect(text).toMatch(/End\.\n/),
  },
  'export (hand-written notes around the managed block)': {
    setup: () =>
      repo(
        {
          'config.yaml': 'version: 1\nexport:\n  targets: [claude-md]\n',
          [`global/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, 'Never delete production data')}`,
        },
        { 'CLAUDE.md': `# Notes written by hand\n\n${'Keep these notes. '.repeat(400)}\n` },
      ),
    args: ['export', '--target', 'claude-md'],
    file: 'CLAUDE.md',
    written: ([text]) => {
      expect(text).toContain('# Notes written by hand');
      expect(text).toContain('Never delete production data');
    },
  },
  'validate --fix (a batch of modelines)': {
    setup: () =>
      repo({ [`global/${GLOBAL_ID}.yaml`]: invariantYaml(GLOBAL_ID, 'Never delete production data', { rationale: JSON.stringify(LONG) }) }),
    args: ['validate', '--fix'],
    file: globalFile,
    written: ([text]) => expect(text!.startsWith(modeline) && text!.endsWith('End."\n')).toBe(true),
  },
  'invariant violation add (a record)': {
    setup: () =>
      repo({
        [`global/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, 'Never delete production data')}`,
        [`plans/${PLAN_ID}/plan.yaml`]: `id: ${PLAN_ID}\ncreated_at: 2026-11-29T12:00:00Z\n`,
      }),
    args: ['--format', 'json', 'invariant', 'violation', 'add', '--plan', PLAN_ID, '--invariant', GLOBAL_ID, '--details', LONG],
    file: `.agents/plans/${PLAN_ID}/violations`,
    written: ([text]) => expect(text).toContain('End.'),
  },
  'plan use (a plan folder made whole, then renamed into place)': {
    setup: () =>
      repo({
        'actions/local/coverage/action.yaml': 'description: Raise test coverage\n',
        [`actions/local/coverage/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, 'Keep coverage above 80%', { rationale: JSON.stringify(LONG) })}`,
      }),
    args: ['--format', 'json', 'plan', 'use', 'local/coverage', '--goal', 'Raise coverage'],
    file: '.agents/plans',
    written: (texts) => {
      // plan.yaml and the promoted invariant, whole.
      expect(texts).toHaveLength(2);
      expect(texts.some((t) => t.includes('End.'))).toBe(true);
    },
  },
  'project add (a project folder made whole, then renamed into place)': {
    setup: () => repo({}),
    args: ['project', 'add', 'web', '--description', LONG],
    file: '.agents/projects/web',
    written: ([text]) => expect(text).toContain('End.'),
  },
  'import --yes (new projects and their invariants, and global ones, in one batch)': {
    setup: () =>
      repo(
        {},
        {
          'AGENTS.md': `- Never commit secrets.\n- ${RULE}\n`,
          'apps/web/AGENTS.md': `- Use function components.\n- ${RULE}\n`,
          'apps/api/AGENTS.md': `- Validate every request body.\n- ${RULE}\n`,
        },
      ),
    args: ['import', '--yes'],
    file: '.agents',
    written: (texts) => {
      // Two projects' project.yaml, and the invariants of the three scopes (the long rule once: the global copy holds everywhere).
      expect(texts.filter((t) => t.includes('paths:'))).toHaveLength(2);
      expect(texts.filter((t) => t.includes('Never commit secrets'))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('Validate every request body'))).toHaveLength(1);
    },
  },
  'extends update (the lock file of the policy sources)': {
    setup: async () => {
      const { policy } = policySource();
      const names = Array.from({ length: 3 }, (_, i) => `org-policy-${i}`);
      const dir = repo({ 'config.yaml': `extends:\n${names.map((n) => `  - name: ${n}\n    url: ${policy}\n    ref: v1\n`).join('')}` });
      // The commits are cached beforehand, so what the full disk meets is the lock file's write.
      const first = await runAgents(['extends', 'update'], { cwd: dir });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      rmSync(join(dir, '.agents/extends.lock.yaml'));
      return dir;
    },
    args: ['extends', 'update'],
    file: '.agents/extends.lock.yaml',
    written: ([text]) => expect(text).toContain('org-policy-2'),
  },
  'extends fetch (a policy source fetched into its cache in the git folder)': {
    setup: () => {
      const { policy, commit } = policySource();
      return repo({
        'config.yaml': `extends:\n  - name: org\n    url: ${policy}\n    ref: main\n`,
        'extends.lock.yaml': `version: 1\nsources:\n  - name: org\n    url: ${policy}\n    ref: main\n    kind: branch\n    commit: ${commit}\n`,
      });
    },
    args: ['extends', 'fetch'],
    file: '.git/agents/extends',
    written: (texts) => expect(texts.length).toBeGreaterThan(0),
  },
};

/** The files under `rel` (a folder) or `rel` itself, as `snapshot` holds them. */
function under(s: Map<string, string>, rel: string): Map<string, string> {
  return new Map([...s].filter(([k]) => k === rel || k.startsWith(`${rel}/`)));
}

describe.skipIf(!isRoot)('a nearly full disk (a real tmpfs, as root)', () => {
  for (const [name, w] of Object.entries(WRITERS)) {
    it(`${name}: whole or not at all, at every fill point`, async () => {
      const outcomes: string[] = [];
      const setup = eachPoint(w.setup);
      // From no free page up to the first point where the command has room enough, and one page more.
      for (let pages = 0; pages < 80 && outcomes.at(-2) !== 'written'; pages++) {
        const dir = await setup();
        const before = snapshot(dir);
        leaveFree(pages);
        const r = await runAgents(w.args, { cwd: dir });
        rmSync(join(mnt, 'filler'), { force: true });
        const after = snapshot(dir);
        // No temporary of the tool is ever left behind, whatever happened.
        expect([...after.keys()].filter((k) => k.endsWith('.tmp'))).toEqual([]);
        if (r.code === 0) {
          outcomes.push('written');
          const changed = [...under(after, w.file)].filter(([k, v]) => before.get(k) !== v);
          expect(changed.length).toBeGreaterThan(0);
          w.written(changed.map(([, v]) => v));
        } else {
          outcomes.push(`exit ${r.code}`);
          expect(r.code).toBe(2);
          expect(r.stderr).toContain('the disk is full');
          // It names the file as the user would find it, never a temporary (gone again by now).
          expect(r.stderr).not.toMatch(/\.tmp\b/);
          // Nothing of the store or the exported files changed (git's own files aside).
          const mine = (s: Map<string, string>) => new Map([...s].filter(([k]) => !k.startsWith('.git/')));
          expect(mine(after)).toEqual(mine(before));
        }
      }
      // Some points fail, and once there is room enough the write lands.
      expect(outcomes[0]).toBe('exit 2');
      expect(outcomes.slice(-2)).toEqual(['written', 'written']);
    });
  }
});

describe.skipIf(!isRoot)('validate --fix --format json on a full disk', () => {
  it('is the error document (write-failed, the fixes in its detail), the one document on stdout, exit 2', async () => {
    const dir = repo({ [`global/${GLOBAL_ID}.yaml`]: invariantYaml(GLOBAL_ID, 'Never delete production data') });
    leaveFree(0);
    const r = await runAgents(['validate', '--fix', '--no-cache', '--format', 'json'], { cwd: dir });
    rmSync(join(mnt, 'filler'), { force: true });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; detail: { fixes: { file: string; done: boolean }[] } } };
    expect(doc.ok).toBe(false);
    expect(doc.error.code).toBe('write-failed');
    expect(doc.error.detail.fixes).toEqual([expect.objectContaining({ file: `global/${GLOBAL_ID}.yaml`, done: false })]);
  });
});

describe.skipIf(!isRoot)('writers of several files outside the store on a nearly full disk', () => {
  it.each([
    [['export', '--target', 'agents-md,claude-md,cursor,copilot']],
    [['guard', 'install', '--client', 'claude,codex,gemini,cursor']],
  ])('%j: a failure part-way names the files it wrote before (detail.written), and only those changed', async (args) => {
    const kinds = new Set<string>();
    const setup = eachPoint(() => repo({ [`global/${GLOBAL_ID}.yaml`]: `${modeline}${invariantYaml(GLOBAL_ID, RULE)}` }));
    for (let pages = 0; pages < 40 && !kinds.has('written'); pages++) {
      const dir = await setup();
      const before = snapshot(dir);
      leaveFree(pages);
      const r = await runAgents(['--format', 'json', ...args], { cwd: dir });
      rmSync(join(mnt, 'filler'), { force: true });
      const after = snapshot(dir);
      const changed = [...after.keys()].filter((k) => !k.startsWith('.git/') && before.get(k) !== after.get(k)).sort();
      if (r.code === 0) {
        kinds.add('written');
        continue;
      }
      expect(r.code).toBe(2);
      const error = JSON.parse(r.stdout).error as { code: string; detail: { written?: string[] } | null };
      expect(error.code).toBe('write-failed');
      expect([...(error.detail?.written ?? [])].sort()).toEqual(changed);
      kinds.add(changed.length === 0 ? 'none' : 'part');
    }
    // Failures with nothing written and with some files written, then room enough for all.
    expect([...kinds].sort()).toEqual(['none', 'part', 'written']);
  });
});

describe.skipIf(!isRoot)('import --replace on a nearly full disk', () => {
  it('a failure after the rules went into the store lists what it wrote (detail.written); a second run finishes', async () => {
    const prose = (n: number) => Array.from({ length: n }, (_, i) => `A line of notes for people, number ${i}.`).join('\n');
    const kinds = new Set<string>();
    const setup = eachPoint(() =>
      repo(
        {},
        {
          'AGENTS.md': `# Notes\n\n${prose(400)}\n\n## Rules\n\n- Never push to main directly.\n- Always run the tests first.\n`,
          'apps/web/AGENTS.md': `${prose(300)}\n\n- Never use var in web code.\n`,
        },
      ),
    );
    for (let pages = 0; pages < 60 && !kinds.has('written'); pages++) {
      const dir = await setup();
      const before = snapshot(dir);
      leaveFree(pages);
      const r = await runAgents(['--format', 'json', 'import', '--yes', '--replace'], { cwd: dir });
      rmSync(join(mnt, 'filler'), { force: true });
      if (r.code === 0) {
        kinds.add('written');
        continue;
      }
      expect(r.code, r.stderr).toBe(2);
      const after = snapshot(dir);
      const changed = [...after.keys()].filter((k) => !k.startsWith('.git/') && before.get(k) !== after.get(k));
      const error = JSON.parse(r.stdout).error as { code: string; detail: { written?: string[] } | null };
      expect(error.code).toBe('write-failed');
      const listed = error.detail?.written ?? [];
      // Every file that changed is listed, itself or by the new folder that holds it; and nothing else.
      for (const k of changed)
        expect(
          listed.some((w) => w === k || (w.endsWith('/') && k.startsWith(w))),
          k,
        ).toBe(true);
      for (const w of listed)
        expect(
          changed.some((k) => k === w || (w.endsWith('/') && k.startsWith(w))),
          w,
        ).toBe(true);
      kinds.add(changed.length === 0 ? 'none' : 'part');
      if (changed.length > 0) {
        // The command the error names (detail.rerun) finishes it: the rules in the store once, their lines in the
        // managed block and out of the text around it.
        const rerun = (error.detail as { rerun: string }).rerun.split(' ').slice(1);
        const again = await runAgents(rerun[0] === 'import' ? [...rerun, '--yes'] : rerun, { cwd: dir });
        expect(again.code, again.stderr).toBe(0);
        const text = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
        expect(text.slice(0, text.indexOf('<!-- agents:begin'))).not.toContain('Never push to main directly.');
        expect(text.slice(text.indexOf('<!-- agents:begin'))).toContain('Never push to main directly.');
        expect((await runAgents(['validate'], { cwd: dir })).code).toBe(0);
      }
    }
    expect([...kinds].sort()).toEqual(['none', 'part', 'written']);
  });
});

describe.skipIf(!isRoot)('locks on a full disk', () => {
  it.each([
    [['invariant', 'add', '--global', 'Never delete production data', '--commit'], '.agents/.lock'],
    [['invariant', 'add', '--global', 'Never delete production data'], '.agents/global/.lock'],
  ])('%j names the lock it cannot take where the user finds it', async (args, lock) => {
    const dir = repo({});
    leaveFree(0);
    const r = await runAgents(['--format', 'json', ...args], { cwd: dir });
    rmSync(join(mnt, 'filler'), { force: true });
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error as { code: string; message: string };
    expect(error.code).toBe('write-failed');
    expect(error.message).toBe(`cannot write ${lock}: the disk is full`);
  });

  it('a lock that cannot be taken in a scope folder it made takes the folder back: no new project or action template is left', async () => {
    const dir = repo({});
    leaveFree(0);
    const added = await runAgents(['--format', 'json', 'invariant', 'add', '--project', 'fresh', 'Run the tests'], { cwd: dir });
    const action = await runAgents(['--format', 'json', 'action', 'add', 'local/fresh'], { cwd: dir });
    rmSync(join(mnt, 'filler'), { force: true });
    for (const r of [added, action]) {
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe('write-failed');
    }
    expect(readdirSync(join(dir, '.agents/projects'))).toEqual([]);
    expect(readdirSync(join(dir, '.agents/actions'))).toEqual([]);
  });
});

describe.skipIf(!isRoot)('init --hooks on a full disk', () => {
  it('names the hook it cannot write by its path, exit 2, no hook left', async () => {
    const dir = repo({});
    leaveFree(0);
    const r = await runAgents(['--format', 'json', 'init', '--hooks'], { cwd: dir });
    rmSync(join(mnt, 'filler'), { force: true });
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error as { code: string; message: string };
    expect(error.code).toBe('write-failed');
    expect(error.message).toContain(join(dir, '.git/hooks/pre-commit'));
    expect(readdirSync(join(dir, '.git/hooks')).filter((n) => n === 'pre-commit' || n.startsWith('.pre-commit'))).toEqual([]);
  });
});

describe.skipIf(!isRoot)('caches on a nearly full disk', () => {
  it('the validation cache is written whole or not at all, and `validate` still answers', async () => {
    const ids = Array.from({ length: 80 }, (_, i) => `01M8KJT9G0XNWEM589ZS7F${i.toString().padStart(4, '0')}`);
    const tree = Object.fromEntries(ids.map((id, i) => [`global/${id}.yaml`, `${modeline}${invariantYaml(id, `Rule number ${i}`)}`]));
    const expected = await runAgents(['--format', 'json', 'validate', '--no-cache'], { cwd: repo(tree) });
    expect(expected.code).toBe(0);
    const outcomes: number[] = [];
    const setup = eachPoint(() => repo(tree));
    for (let pages = 0; pages < 80 && (outcomes.length < 2 || outcomes.at(-1) === 0); pages++) {
      const dir = await setup();
      leaveFree(pages);
      const r = await runAgents(['--format', 'json', 'validate'], { cwd: dir });
      rmSync(join(mnt, 'filler'), { force: true });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(expected.stdout));
      const files = snapshot(dir);
      expect([...files.keys()].filter((k) => k.endsWith('.tmp'))).toEqual([]);
      const cache = [...files].find(([k]) => k === '.git/agents/validate-worktree.cache');
      // The memo of the whole-store checks beside it is whole too, or absent.
      const memo = files.get('.git/agents/validate-worktree.cache.checks');
      if (memo !== undefined) expect(() => JSON.parse(memo)).not.toThrow();
      outcomes.push(cache === undefined ? 0 : 1);
      if (cache) {
        // Whole: one line per file read, and the run that reads it answers as a cold run does.
        expect(cache[1].endsWith('\n')).toBe(true);
        expect(cache[1].split('\n').length).toBeGreaterThan(ids.length);
        const again = await runAgents(['--format', 'json', 'validate'], { cwd: dir });
        expect(JSON.parse(again.stdout)).toEqual(JSON.parse(expected.stdout));
      }
    }
    // No cache where there was no room, and a whole one once there was.
    expect(outcomes[0]).toBe(0);
    expect(outcomes.at(-1)).toBe(1);
  });

  it('the parses kept of settled files are written whole or not at all, and reads still answer', async () => {
    const ids = Array.from({ length: 80 }, (_, i) => `01M8KJT9G0XNWEM589ZS7F${i.toString().padStart(4, '0')}`);
    const tree = Object.fromEntries(ids.map((id, i) => [`global/${id}.yaml`, `${modeline}${invariantYaml(id, `Rule number ${i}`)}`]));
    const dir = repo(tree);
    const args = ['--format', 'json', 'invariant', 'list'];
    const expected = await runAgents(args, { cwd: dir, env: { AGENTS_NO_CACHE: '1' } });
    expect(expected.code).toBe(0);
    // Only files left alone for 2 s are kept (ADR 0503): the store is made once, and the cache removed before each fill point.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const parsed = join(dir, '.git', 'agents', 'parsed');
    const outcomes: number[] = [];
    for (let pages = 0; pages < 80 && (outcomes.length < 2 || outcomes.at(-1) === 0); pages++) {
      rmSync(parsed, { recursive: true, force: true });
      leaveFree(pages);
      const r = await runAgents(args, { cwd: dir });
      rmSync(join(mnt, 'filler'), { force: true });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(expected.stdout);
      const kept = [...snapshot(dir)].filter(([k]) => k.startsWith('.git/agents/parsed/'));
      expect(kept.filter(([k]) => k.endsWith('.tmp'))).toEqual([]);
      outcomes.push(kept.length);
      for (const [, text] of kept) {
        // Whole: the header and a line per global invariant.
        expect(text.endsWith('\n')).toBe(true);
        expect(text.split('\n').length).toBe(ids.length + 2);
      }
      if (kept.length > 0) expect((await runAgents(args, { cwd: dir })).stdout).toBe(expected.stdout);
    }
    expect(outcomes[0]).toBe(0);
    expect(outcomes.at(-1)).toBeGreaterThan(0);
  });
});

describe.skipIf(!isRoot)('the guard audit log on a full disk', () => {
  it('a line the disk takes only part of is taken back whole, so the next line is one JSON object of its own', () => {
    const dir = join(mnt, 'audit');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const log = join(dir, 'guard-audit.jsonl');
    // The log ends 100 bytes before a page ends: a longer line needs a page the full disk does not have.
    writeFileSync(log, `${JSON.stringify({ decision: 'allow', pad: 'x'.repeat(PAGE - 130) })}\n`);
    const before = readFileSync(log, 'utf8');
    expect(before.length).toBe(PAGE - 100);
    leaveFree(0);
    expect(appendAudit(dir, { decision: 'deny', files: ['secret/a'], reason: 'y'.repeat(400) })).toBeUndefined();
    rmSync(join(mnt, 'filler'), { force: true });
    expect(readFileSync(log, 'utf8')).toBe(before);
    expect(appendAudit(dir, { decision: 'deny', files: ['secret/b'] })).toBe(log);
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l).decision)).toEqual(['allow', 'deny']);
  });
});
