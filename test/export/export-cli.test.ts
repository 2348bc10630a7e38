import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyPatch } from 'diff';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { END_MARKER } from '../../src/core/export.ts';
import { globProblem } from '../../src/core/globs.ts';
import { REPO } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { B1, G1, G2, inv, monorepo, PLAN, snapshot, W1, writtenSince } from './repo.ts';
import { errorOf, runAgents } from '../helpers/main.ts';
import { EXPORT_TARGETS } from '../../src/core/model.ts';

const GOLDEN = join(REPO, 'test/golden/export');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** What `export` writes for every target of the monorepo, by path. */
const EXPECTED_FILES = [
  '.clinerules/agents-billing.md',
  '.clinerules/agents-global.md',
  '.clinerules/agents-web.md',
  '.cursor/rules/agents-billing.mdc',
  '.cursor/rules/agents-global.mdc',
  '.cursor/rules/agents-web.mdc',
  '.github/copilot-instructions.md',
  '.github/instructions/agents-billing.instructions.md',
  '.github/instructions/agents-web.instructions.md',
  '.windsurf/rules/agents-billing.md',
  '.windsurf/rules/agents-global.md',
  '.windsurf/rules/agents-web.md',
  'AGENTS.md',
  'CLAUDE.md',
  'GEMINI.md',
  'apps/web/AGENTS.md',
  'apps/web/CLAUDE.md',
  'apps/web/GEMINI.md',
  'packages/ui/AGENTS.md',
  'packages/ui/CLAUDE.md',
  'packages/ui/GEMINI.md',
  'services/billing/AGENTS.md',
  'services/billing/CLAUDE.md',
  'services/billing/GEMINI.md',
];

/** The documented front matter keys of each target's files (docs/export.md). */
const FRONT_MATTER: Record<string, (path: string) => string[] | undefined> = {
  'agents-md': () => undefined,
  'claude-md': () => undefined,
  'gemini-md': () => undefined,
  copilot: (p) => (p.startsWith('.github/instructions/') ? ['applyTo'] : undefined),
  cursor: (p) => (p.endsWith('agents-global.mdc') ? ['description', 'alwaysApply'] : ['description', 'globs', 'alwaysApply']),
  windsurf: (p) => (p.endsWith('agents-global.md') ? ['trigger'] : ['trigger', 'globs']),
  cline: (p) => (p.endsWith('agents-global.md') ? undefined : ['paths']),
};

function targetOf(path: string): string {
  if (path.startsWith('.clinerules/')) return 'cline';
  if (path.startsWith('.cursor/')) return 'cursor';
  if (path.startsWith('.github/')) return 'copilot';
  if (path.startsWith('.windsurf/')) return 'windsurf';
  return { 'AGENTS.md': 'agents-md', 'CLAUDE.md': 'claude-md', 'GEMINI.md': 'gemini-md' }[path.slice(path.lastIndexOf('/') + 1)]!;
}

function splitFrontMatter(text: string): { front: Record<string, unknown> | undefined; body: string } {
  // The front matter and the blank line after it (prettier prints one there).
  const m = /^---\n([\s\S]*?)\n---\n\n?/.exec(text);
  if (!m) return { front: undefined, body: text };
  return { front: parse(m[1]!) as Record<string, unknown>, body: text.slice(m[0].length) };
}

/** Markdown headings of a body (ATX), as [level, text]. */
function headings(body: string): [number, string][] {
  return body
    .split('\n')
    .map((l) => /^(#{1,6}) (.+)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!.length, m[2]!]);
}

describe('agents export: every target, from a monorepo', () => {
  it('writes the golden files of each target, and a second export writes nothing', async () => {
    const repo = monorepo();
    const before = snapshot(repo);
    const r = await runAgents(['export'], { cwd: repo });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const after = snapshot(repo);
    expect(writtenSince(before, after)).toEqual(EXPECTED_FILES);
    for (const path of EXPECTED_FILES) {
      const golden = join(GOLDEN, `${path}.golden`);
      if (UPDATE) {
        mkdirSync(dirname(golden), { recursive: true });
        writeFileSync(golden, after.get(path)!, 'latin1');
      }
      expect(after.get(path), path).toBe(readFileSync(golden, 'latin1'));
    }
    const again = await runAgents(['export', '--format', 'json'], { cwd: repo });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ changes: [], unchanged: EXPECTED_FILES.length, refused: [] });
    expect(snapshot(repo)).toEqual(after);
  });

  it('is deterministic: the same store gives the same bytes in another clone', async () => {
    const a = monorepo();
    const b = monorepo();
    expect((await runAgents(['export'], { cwd: a })).code).toBe(0);
    expect((await runAgents(['export'], { cwd: b })).code).toBe(0);
    const sa = snapshot(a);
    const sb = snapshot(b);
    for (const p of EXPECTED_FILES) expect(sa.get(p), p).toBe(sb.get(p));
  });

  it("parses back by each format's rules: front matter YAML with the documented keys, valid globs, markdown headings", async () => {
    const repo = monorepo();
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const projectPaths: Record<string, string[]> = { billing: ['services/billing/**'], web: ['apps/web/**', 'packages/ui/**'] };
    for (const path of EXPECTED_FILES) {
      const text = readFileSync(join(repo, path), 'utf8');
      const target = targetOf(path);
      const { front, body } = splitFrontMatter(text);
      const keys = FRONT_MATTER[target]!(path);
      if (keys === undefined) expect(front, path).toBeUndefined();
      else expect(Object.keys(front ?? {}), path).toEqual(keys);
      const project = /agents-(billing|web)\./.exec(path)?.[1];
      if (front && project) {
        // The globs, read as each agent reads them, are the project's paths and valid globs.
        const globs = target === 'cline' ? (front.paths as string[]) : String(front.applyTo ?? front.globs).split(',');
        expect(globs, path).toEqual(projectPaths[project]);
        for (const g of globs) expect(globProblem(g), g).toBeUndefined();
      }
      if (target === 'cursor') expect(typeof front!.alwaysApply).toBe('boolean');
      if (target === 'windsurf') expect(front!.trigger).toBe(path.endsWith('agents-global.md') ? 'always_on' : 'glob');
      // One block; headings nest one level at a time below "## Invariants".
      expect(body.startsWith('<!-- agents:begin')).toBe(true);
      expect(body.endsWith(`${END_MARKER}\n`)).toBe(true);
      const h = headings(body);
      expect(h[0], path).toEqual([2, 'Invariants']);
      for (let i = 1; i < h.length; i++) expect(h[i]![0] - h[i - 1]![0], `${path}: ${h[i]![1]}`).toBeLessThanOrEqual(1);
      expect(
        h.filter(([level]) => level === 3).map(([, t]) => t),
        path,
      ).toEqual([
        project
          ? `Project ${project}`
          : path.includes('/') && !path.startsWith('.')
            ? `Project ${path.startsWith('services') ? 'billing' : 'web'}`
            : 'Global',
      ]);
    }
    // Ids are there to trace each invariant back; a project's copy says what it shadows.
    const billing = readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8');
    expect(billing).toContain(`- Amounts are integers of cents (\`${B1}\`)`);
    expect(billing).toContain(`shadows global \`${G2}\``);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain(`- Never delete production data (\`${G1}\`)`);
  });

  it('keeps text around the block byte for byte over repeated exports and store changes', async () => {
    const repo = monorepo();
    const head = '# Our repository\r\n\r\nBuild with `make`.\r\n';
    const tail = '\n## Notes by hand\n\nKeep this, with trailing spaces   \nand no newline at the end';
    writeFileSync(join(repo, 'AGENTS.md'), head);
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    let text = readFileSync(join(repo, 'AGENTS.md'), 'latin1');
    // The file's line ends are CRLF: the block is written with them (a blank line, then the block).
    expect(text.startsWith(`${head}\r\n<!-- agents:begin`)).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    writeFileSync(join(repo, 'AGENTS.md'), text + tail);
    for (let round = 0; round < 3; round++) {
      writeFileSync(
        join(repo, `.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8G${round}.yaml`),
        inv(`01JDQ6X5Z8W4N3B2C1D0E9F8G${round}`, `Rule number ${round}`).replace('../../', '../'),
      );
      expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
      text = readFileSync(join(repo, 'AGENTS.md'), 'latin1');
      expect(text.startsWith(`${head}\r\n<!-- agents:begin`)).toBe(true);
      expect(text.endsWith(`${END_MARKER}\r\n${tail}`)).toBe(true);
      expect(text).toContain(`Rule number ${round}`);
    }
  });

  it('keeps a byte order mark at the start of a target, byte for byte, before text or before the block itself', async () => {
    const repo = monorepo();
    const head = Buffer.from('\uFEFF# Notes\n\nWritten by hand.\n', 'utf8');
    writeFileSync(join(repo, 'AGENTS.md'), head);
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md')).subarray(0, head.length)).toEqual(head);
    expect((await runAgents(['export', '--check', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    // A file that is the block alone, to which an editor added the mark: the block is still found, and kept as it is.
    writeFileSync(join(repo, 'CLAUDE.md'), '');
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(repo, 'CLAUDE.md'))]);
    writeFileSync(join(repo, 'CLAUDE.md'), marked);
    expect((await runAgents(['export', '--check', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'CLAUDE.md'))).toEqual(marked);
  });

  it('a path with a wildcard folder (services/*/api/**) gets the nested file in each folder of the repository it names, and --check finds a new one', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/billing/project.yaml'), 'paths:\n  - services/*/api/**\n  - "**/*.sql"\n');
    for (const f of ['services/billing/api/a.ts', 'services/ledger/api/b.ts', 'services/ledger/docs/c.md', 'services/clone/api/e.ts']) {
      mkdirSync(dirname(join(repo, f)), { recursive: true });
      writeFileSync(join(repo, f), 'x\n');
    }
    // A clone inside the repository, untracked: a repository of its own, none of whose folders the wildcard names.
    gitInit(join(repo, 'services/clone/api'));
    const r = await runAgents(['export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const nested = (dir: string) => existsSync(join(repo, dir, 'AGENTS.md'));
    expect(
      ['services/billing/api', 'services/ledger/api', 'services/ledger/docs', 'services/billing', 'services/clone/api'].map(nested),
    ).toEqual([true, true, false, false, false]);
    expect(readFileSync(join(repo, 'services/ledger/api/AGENTS.md'), 'utf8')).toContain('Amounts are integers of cents');
    // The glob that is no folder is still said; the wildcard folder, which names two, is not.
    const warned = r.stderr.split('\n').filter((l) => l.startsWith('agents: warning: project billing'));
    expect(warned.map((l) => l.split(' ')[5])).toEqual(['**/*.sql']);
    expect((await runAgents(['export', '--check', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    // A new service (untracked: git lists it all the same) is a nested file missing, not an export answered from the cache.
    mkdirSync(join(repo, 'services/audit/api'), { recursive: true });
    writeFileSync(join(repo, 'services/audit/api/d.ts'), 'x\n');
    const check = await runAgents(['--format', 'json', 'export', '--check', '--target', 'agents-md'], { cwd: repo });
    expect(check.code).toBe(1);
    expect((JSON.parse(check.stdout) as { files: { path: string; status: string }[] }).files).toEqual([
      { path: 'services/audit/api/AGENTS.md', status: 'missing', line: null, diff: null },
    ]);
  });

  it("outside a git repository, a path with a wildcard folder names the folders on disk below the store's folder", async () => {
    const top = tempDir();
    writeTree(top, {
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md]\n',
      '.agents/projects/billing/project.yaml': 'paths:\n  - services/*/api/**\n',
      [`.agents/projects/billing/${B1}.yaml`]: inv(B1, 'Amounts are integers of cents'),
      'services/billing/api/a.ts': 'x\n',
      'services/ledger/docs/c.md': 'x\n',
      // A repository of its own (a clone) is no folder of this one's.
      'services/clone/.git/HEAD': 'ref: refs/heads/main\n',
      'services/clone/api/e.ts': 'x\n',
      // Nor are the folders import never searches outside git (installed packages).
      'services/node_modules/api/f.js': 'x\n',
    });
    const r = await runAgents(['--format', 'json', 'export'], { cwd: top });
    expect([r.code, JSON.parse(r.stdout).changes.map((c: { path: string }) => c.path)]).toEqual([0, ['services/billing/api/AGENTS.md']]);
    mkdirSync(join(top, 'services/audit/api'), { recursive: true });
    const check = await runAgents(['--format', 'json', 'export', '--check'], { cwd: top });
    expect([check.code, JSON.parse(check.stdout).files]).toEqual([
      1,
      [{ path: 'services/audit/api/AGENTS.md', status: 'missing', line: null, diff: null }],
    ]);
  });

  it('judges a file a sparse checkout leaves out by the text git holds: no missing file when that is up to date, written when stale', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const nested = join(repo, 'services/billing/AGENTS.md');
    writeFileSync(nested, `# Billing\n\n${readFileSync(nested, 'utf8')}`);
    // A repository copied in whole with a store and an export of its own: its block is that store's, in or out of the checkout.
    writeTree(repo, { 'vendor/kit/.agents/global/.gitkeep': '', 'vendor/kit/src/AGENTS.md': readFileSync(nested, 'utf8') });
    commitAll(repo, 'exported');
    // The checkout keeps the top folder's files and the store only.
    git(repo, 'sparse-checkout', 'set', '--cone', '.agents');
    expect(existsSync(join(repo, 'vendor'))).toBe(false);
    expect(existsSync(nested)).toBe(false);
    const check = await runAgents(['--format', 'json', 'export', '--check'], { cwd: repo });
    expect([check.code, JSON.parse(check.stdout).files]).toEqual([0, []]);
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    expect(existsSync(nested)).toBe(false);
    // A stale one is written, with the text around the block git holds.
    writeFileSync(join(repo, `.agents/projects/billing/${B1}.yaml`), inv(B1, 'Amounts are integers of cents, never floats'));
    const stale = await runAgents(['--format', 'json', 'export', '--check', '--no-cache'], { cwd: repo });
    expect([stale.code, JSON.parse(stale.stdout).files]).toEqual([
      1,
      [{ path: 'services/billing/AGENTS.md', status: 'missing', line: null, diff: null }],
    ]);
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(nested, 'utf8')).toMatch(/^# Billing\n\n<!-- agents:begin[\s\S]*never floats/);
    // The copy's store alone left out: its nested file, on disk, is still that store's.
    git(repo, 'sparse-checkout', 'set', '--no-cone', '/*', '!/vendor/kit/.agents/');
    expect([existsSync(join(repo, 'vendor/kit/src/AGENTS.md')), existsSync(join(repo, 'vendor/kit/.agents'))]).toEqual([true, false]);
    const alone = await runAgents(['--format', 'json', 'export', '--check', '--no-cache'], { cwd: repo });
    expect(JSON.parse(alone.stdout).files).toEqual([]);
  });

  it("judges the obsolete files a sparse checkout leaves out by the text git holds: the owner's text is written back without the block, a file of the block alone is left for git rm --sparse", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md, cursor]\n');
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const nested = join(repo, 'services/billing/AGENTS.md');
    writeFileSync(nested, `# Billing\n\n${readFileSync(nested, 'utf8')}`);
    commitAll(repo, 'exported');
    git(repo, 'sparse-checkout', 'set', '--cone', 'apps', '.agents');
    // The project no longer names its folder: its nested file and its Cursor rule are obsolete, though not on disk.
    writeFileSync(join(repo, '.agents/projects/billing/project.yaml'), 'description: Payments and invoices\n');
    const obsolete = [
      { path: '.cursor/rules/agents-billing.mdc', status: 'obsolete', line: null, diff: null },
      { path: 'services/billing/AGENTS.md', status: 'obsolete', line: null, diff: null },
    ];
    const check = await runAgents(['--format', 'json', 'export', '--check'], { cwd: repo });
    expect([check.code, JSON.parse(check.stdout).files]).toEqual([1, obsolete]);
    const run = await runAgents(['--format', 'json', 'export'], { cwd: repo });
    expect([run.code, JSON.parse(run.stdout).changes, JSON.parse(run.stdout).refused]).toEqual([
      1,
      [{ path: 'services/billing/AGENTS.md', target: 'agents-md', action: 'update' }],
      [{ path: '.cursor/rules/agents-billing.mdc', status: 'obsolete', line: null }],
    ]);
    expect(readFileSync(nested, 'utf8')).toBe('# Billing\n');
    git(repo, 'rm', '-q', '--sparse', '--', '.cursor/rules/agents-billing.mdc');
    expect((await runAgents(['export', '--check'], { cwd: repo })).code).toBe(0);
  });

  it('refuses a file a sparse checkout leaves out whose text git holds is not UTF-8, as on disk, instead of writing the block alone in its place', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const nested = join(repo, 'services/billing/AGENTS.md');
    writeFileSync(nested, Buffer.concat([Buffer.from('Caf\xe9 notes\n\n', 'latin1'), readFileSync(nested)]));
    commitAll(repo, 'exported');
    git(repo, 'sparse-checkout', 'set', '--cone', 'apps', '.agents');
    expect(existsSync(nested)).toBe(false);
    for (const args of [['export', '--check', '--no-cache'], ['export']]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'export-target-refused',
        detail: { path: 'services/billing/AGENTS.md', reason: 'not-utf8' },
      });
    }
    expect(existsSync(nested)).toBe(false);
  });

  it('refuses a file a sparse checkout leaves out that git holds as a symbolic link, as on disk, instead of writing its target path and the block there', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const nested = join(repo, 'services/billing/AGENTS.md');
    symlinkSync('/etc/passwd', nested);
    commitAll(repo, 'a link where the export writes');
    git(repo, 'sparse-checkout', 'set', '--cone', 'apps', '.agents');
    expect(existsSync(join(repo, 'services'))).toBe(false);
    for (const args of [['export', '--check', '--no-cache'], ['export']]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'export-target-refused', detail: { path: 'services/billing/AGENTS.md' } });
    }
    expect(lstatSync(nested, { throwIfNoEntry: false })).toBeUndefined();
  });

  it('names the git rm --sparse of an obsolete file left out of the checkout as a shell reads it, a folder with a space quoted', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    writeFileSync(join(repo, '.agents/projects/billing/project.yaml'), 'paths:\n  - services/my billing/**\n');
    writeTree(repo, { 'services/my billing/main.ts': 'export {};\n' });
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    expect(existsSync(join(repo, 'services/my billing/AGENTS.md'))).toBe(true);
    commitAll(repo, 'exported');
    git(repo, 'sparse-checkout', 'set', '--cone', 'apps', '.agents');
    writeFileSync(join(repo, '.agents/projects/billing/project.yaml'), 'description: Payments and invoices\n');
    const run = await runAgents(['export'], { cwd: repo });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("`git rm --sparse -- 'services/my billing/AGENTS.md'`");
  });

  it('warns when a CLAUDE.md has its agent read (@path) another file the export writes: the rules would reach it twice', async () => {
    const repo = monorepo();
    writeFileSync(
      join(repo, 'CLAUDE.md'),
      '# Claude\n\nRead @AGENTS.md first; `@docs/x.md` is code, and @docs/notes.md is written by no export.\n',
    );
    const r = await runAgents(['export', '--target', 'agents-md,claude-md'], { cwd: repo });
    expect(r.code).toBe(0);
    const warned = r.stderr.split('\n').filter((l) => l.startsWith('agents: warning: CLAUDE.md'));
    expect(warned.map((l) => l.split(' ').slice(2, 8).join(' '))).toEqual(['CLAUDE.md:3 has its agent read AGENTS.md']);
    // Without the AGENTS.md target, nothing is read twice.
    writeFileSync(join(repo, 'CLAUDE.md'), '# Claude\n\nRead @AGENTS.md first.\n');
    const alone = await runAgents(['export', '--target', 'claude-md'], { cwd: repo });
    expect(alone.stderr).not.toContain('agents: warning: CLAUDE.md');
  });

  it("keeps a file's permissions when it puts the new text in its place", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), '# Ours\n');
    chmodSync(join(repo, 'AGENTS.md'), 0o600);
    writeFileSync(join(repo, 'CLAUDE.md'), '# Ours\n');
    chmodSync(join(repo, 'CLAUDE.md'), 0o754);
    expect((await runAgents(['export', '--target', 'agents-md,claude-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain('<!-- agents:begin');
    expect(statSync(join(repo, 'AGENTS.md')).mode & 0o777).toBe(0o600);
    expect(statSync(join(repo, 'CLAUDE.md')).mode & 0o777).toBe(0o754);
  });
});

describe('agents export --check and --dry-run', () => {
  it('lists missing, stale and hand-edited files with a one-line fix, and writes nothing', async () => {
    const repo = monorepo();
    const before = snapshot(repo);
    const missing = await runAgents(['export', '--check', '--format', 'json'], { cwd: repo });
    expect(missing.code).toBe(1);
    const report = JSON.parse(missing.stdout) as { ok: boolean; files: { path: string; status: string }[] };
    expect(report.ok).toBe(false);
    expect(report.files.map((f) => f.path)).toEqual(EXPECTED_FILES);
    expect(new Set(report.files.map((f) => f.status))).toEqual(new Set(['missing']));
    expect(missing.stderr.trim().split('\n')).toEqual([
      `${EXPECTED_FILES.length} exported files are missing or out of date; fix: run \`agents export\` and commit the files`,
    ]);
    expect(snapshot(repo)).toEqual(before);

    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const fresh = await runAgents(['export', '--check'], { cwd: repo });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain(`${EXPECTED_FILES.length} exported files up to date`);

    // Stale: the store changed.
    writeFileSync(join(repo, `.agents/projects/web/${W1}.yaml`), inv(W1, 'Never ship UI copy without a review', 'warning'));
    // Missing: a file was deleted. Edited by hand: a block changed.
    rmSync(join(repo, 'CLAUDE.md'));
    const cursor = join(repo, '.cursor/rules/agents-billing.mdc');
    writeFileSync(cursor, readFileSync(cursor, 'utf8').replace('integers of cents', 'integers of pennies'));
    const edit =
      readFileSync(cursor, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('integers of pennies')) + 1;
    const snap = snapshot(repo);
    const stale = await runAgents(['export', '--check'], { cwd: repo });
    expect(stale.code).toBe(1);
    const out = stale.stdout.trim().split('\n');
    // Below the hand-edited file, indented: the diff --force would apply, from the edit back to the store's text.
    const shown = out.slice(out.indexOf(`.cursor/rules/agents-billing.mdc:${edit}: edited by hand`) + 1).filter((l) => l.startsWith('  '));
    expect(shown.slice(0, 2)).toEqual(['  --- a/.cursor/rules/agents-billing.mdc', '  +++ b/.cursor/rules/agents-billing.mdc']);
    expect(shown.filter((l) => /^ {2}[-+]- /.test(l))).toEqual([
      expect.stringMatching(/^ {2}-- .*integers of pennies/),
      expect.stringMatching(/^ {2}\+- .*integers of cents/),
    ]);
    expect(out.filter((l) => !l.startsWith('  '))).toEqual([
      '.clinerules/agents-web.md: out of date',
      // The line where the edit starts: the billing set did not change, so what the export wrote is known.
      `.cursor/rules/agents-billing.mdc:${edit}: edited by hand`,
      '.cursor/rules/agents-web.mdc: out of date',
      '.github/instructions/agents-web.instructions.md: out of date',
      '.windsurf/rules/agents-web.md: out of date',
      'CLAUDE.md: missing',
      'apps/web/AGENTS.md: out of date',
      'apps/web/CLAUDE.md: out of date',
      'apps/web/GEMINI.md: out of date',
      'packages/ui/AGENTS.md: out of date',
      'packages/ui/CLAUDE.md: out of date',
      'packages/ui/GEMINI.md: out of date',
    ]);
    expect(stale.stderr).toMatch(
      /^12 exported files are not up to date; fix: run `agents export` and commit the files; edited blocks: .*`agents export --force` to rewrite them as their diff shows\n$/,
    );
    expect(snapshot(repo)).toEqual(snap);
  });

  it('--dry-run with a block edited by hand: the diff of the files export would write, and that file named, exit 1', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'agents-md,claude-md'], { cwd: repo })).code).toBe(0);
    const file = join(repo, 'CLAUDE.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Never delete', 'Please never delete'));
    writeFileSync(join(repo, `.agents/projects/billing/${B1}.yaml`), inv(B1, 'Amounts are integers of cents, never floats'));
    const snap = snapshot(repo);
    const r = await runAgents(['export', '--dry-run', '--target', 'agents-md,claude-md'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('+++ '))).toEqual([
      '+++ b/services/billing/AGENTS.md',
      '+++ b/services/billing/CLAUDE.md',
    ]);
    // The global set did not change: what the export wrote is known, and the line where the edit starts is named.
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('Please never delete')) + 1;
    expect(r.stderr).toContain(`CLAUDE.md:${line}: its agents block was edited by hand`);
    const json = await runAgents(['export', '--dry-run', '--target', 'agents-md,claude-md', '--format', 'json'], { cwd: repo });
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc.changes.map((c: { path: string }) => c.path)).toEqual(['services/billing/AGENTS.md', 'services/billing/CLAUDE.md']);
    expect(doc.refused).toEqual([{ path: 'CLAUDE.md', status: 'edited by hand', line }]);
    expect(snapshot(repo)).toEqual(snap);
  });

  it('--dry-run prints the unified diff it would apply and writes nothing', async () => {
    const repo = monorepo();
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, `.agents/projects/billing/${B1}.yaml`), inv(B1, 'Amounts are integers of cents, never floats'));
    const snap = snapshot(repo);
    const r = await runAgents(['export', '--dry-run', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(snapshot(repo)).toEqual(snap);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['--- a/services/billing/AGENTS.md', '+++ b/services/billing/AGENTS.md']);
    expect(lines.filter((l) => /^[-+]- /.test(l))).toEqual([
      `-- Amounts are integers of cents (\`${B1}\`)`,
      `+- Amounts are integers of cents, never floats (\`${B1}\`)`,
    ]);
    expect(lines.filter((l) => l.startsWith('@@'))).toHaveLength(2);
    // The diff applies with git to give exactly what an export writes.
    writeFileSync(join(repo, 'change.diff'), r.stdout);
    const applied = await runAgents(['export', '--target', 'agents-md'], { cwd: repo });
    expect(applied.code).toBe(0);
    const exported = readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8');
    writeFileSync(join(repo, 'services/billing/AGENTS.md'), snap.get('services/billing/AGENTS.md')!, 'latin1');
    expect(spawnSync('git', ['apply', 'change.diff'], { cwd: repo }).status).toBe(0);
    expect(readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8')).toBe(exported);
  });
});

describe('agents export --check answered from the cache', () => {
  it('is used only while inputs and files are unchanged: a hand edit, a deleted file or a new project file is still found', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'agents-md,cursor'], { cwd: repo })).code).toBe(0);
    expect(existsSync(join(repo, '.git/agents/export.cache'))).toBe(true);
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).code).toBe(0);
    // The store is unchanged: only the files tell.
    const file = join(repo, 'services/billing/AGENTS.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('integers of cents', 'integers of pennies'));
    const edit = text.split('\n').findIndex((l) => l.includes('integers of cents')) + 1;
    const edited = await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo });
    expect(edited.stdout).toMatch(
      new RegExp(`^services/billing/AGENTS\\.md:${edit}: edited by hand\n {2}--- a/services/billing/AGENTS\\.md\n`),
    );
    // The fix names the command that rewrites it, with the targets the check was given.
    expect(edited.stderr).toContain('`agents export --target agents-md,cursor --force`');
    // Given a store by --store, the command names it: pasted from another folder, it rewrites the same store's files.
    const named = await runAgents(['--store', '.agents', 'export', '--check', '--target', 'agents-md'], { cwd: repo });
    expect(named.stderr).toContain('`agents --store .agents export --target agents-md --force`');
    writeFileSync(file, `${text}Text of my own after the block.\n`);
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).code).toBe(0);
    rmSync(join(repo, 'AGENTS.md'));
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).stdout).toBe('AGENTS.md: missing\n');
    expect((await runAgents(['export', '--target', 'agents-md,cursor'], { cwd: repo })).code).toBe(0);
    const stray = readFileSync(join(repo, '.cursor/rules/agents-web.mdc'), 'utf8');
    writeFileSync(join(repo, '.cursor/rules/agents-gone.mdc'), stray);
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).stdout).toBe(
      '.cursor/rules/agents-gone.mdc: obsolete\n',
    );
    rmSync(join(repo, '.cursor/rules/agents-gone.mdc'));
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).code).toBe(0);
    // So is a block copied by hand into a folder no project names (a nested file the export would take back).
    mkdirSync(join(repo, 'docs/old'), { recursive: true });
    writeFileSync(join(repo, 'docs/old/AGENTS.md'), readFileSync(join(repo, 'AGENTS.md'), 'utf8'));
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor'], { cwd: repo })).stdout).toBe(
      'docs/old/AGENTS.md: obsolete\n',
    );
    // A changed input (here the targets asked for) is never answered from the cache.
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor,cline', '--no-cache'], { cwd: repo })).code).toBe(1);
    expect((await runAgents(['export', '--check', '--target', 'agents-md,cursor,cline'], { cwd: repo })).code).toBe(1);
  });
});

describe('agents export: files git ignores', () => {
  it('writes them and warns with the rule (never committed: a fresh clone calls them missing); the others say nothing', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\nCLAUDE.md\n');
    const r = await runAgents(['export', '--target', 'agents-md,claude-md'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, 'services/billing/CLAUDE.md'), 'utf8')).toContain('agents:begin');
    const warned = r.stderr.split('\n').filter((l) => l.includes('.gitignore:2'));
    expect(warned.map((l) => l.split(' ')[2])).toEqual([
      'CLAUDE.md',
      'apps/web/CLAUDE.md',
      'packages/ui/CLAUDE.md',
      'services/billing/CLAUDE.md',
    ]);
    expect(r.stderr).not.toMatch(/AGENTS\.md is ignored/);
  });
});

describe('agents export: files it leaves alone', () => {
  it('refuses a block edited by hand (exit 1, naming the file, left alone; the others written) unless --force', async () => {
    const repo = monorepo();
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const file = join(repo, 'GEMINI.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Never delete', 'Please never delete'));
    writeFileSync(join(repo, `.agents/global/${G1}.yaml`), inv(G1, 'Never drop production data').replace('../../', '../'));
    const edited = readFileSync(file, 'utf8');
    const r = await runAgents(['export'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('GEMINI.md: its agents block was edited by hand');
    // The edited file is left alone; the others are written (one hand edit does not stop the export).
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain('Never drop production data');
    // The JSON document names the file left alone, as --check names it: exit 1 alone does not say which.
    const json = await runAgents(['export', '--format', 'json'], { cwd: repo });
    expect(json.code).toBe(1);
    // The store changed since: what the export wrote is not known, nor where the edit starts.
    expect(JSON.parse(json.stdout).refused).toEqual([{ path: 'GEMINI.md', status: 'edited by hand', line: null }]);
    // --check writes nothing: with --force too it names the edited block as it is, not as a file `export` would update.
    const check = await runAgents(['export', '--check', '--force', '--format', 'json'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).files).toEqual([
      { path: 'GEMINI.md', status: 'edited by hand', line: null, diff: expect.stringContaining('\n-- Please never delete') },
    ]);
    // The diff is what --force writes: applied to the edited file, it gives the forced file.
    const diff = JSON.parse(check.stdout).files[0].diff as string;
    const forced = await runAgents(['export', '--force'], { cwd: repo });
    expect(forced.code).toBe(0);
    expect(applyPatch(edited, diff)).toBe(readFileSync(file, 'utf8'));
    expect(readFileSync(file, 'utf8')).toContain('Never drop production data');
    expect(readFileSync(file, 'utf8')).not.toContain('Please never delete');
  });

  it('leaves a damaged block alone (exit 1), even with --force', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    const file = join(repo, 'CLAUDE.md');
    const damaged = `${readFileSync(file, 'utf8').replace(`${END_MARKER}\n`, '')}my own text\n`;
    writeFileSync(file, damaged);
    for (const args of [
      ['export', '--target', 'claude-md'],
      ['export', '--target', 'claude-md', '--force'],
    ]) {
      const r = await runAgents(args, { cwd: repo });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('CLAUDE.md: it holds an "agents:begin" marker (line 1) without its "agents:end"');
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    }
    expect((await runAgents(['export', '--check', '--target', 'claude-md'], { cwd: repo })).stdout).toContain('CLAUDE.md:1: damaged');
  });

  it('leaves a file that holds an unresolved merge conflict alone (exit 1), even with --force; once resolved, exports', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    const file = join(repo, 'CLAUDE.md');
    const exported = readFileSync(file, 'utf8');
    // Both sides of a merge changed the block: git leaves both, between its marker lines.
    const theirs = exported.replace(/sha256:[0-9a-f]{64}/, `sha256:${'0'.repeat(64)}`);
    const conflicted = `<<<<<<< HEAD\n${exported}=======\n${theirs}>>>>>>> feature\n`;
    writeFileSync(file, conflicted);
    for (const args of [
      ['export', '--target', 'claude-md'],
      ['export', '--target', 'claude-md', '--force'],
    ]) {
      const r = await runAgents(args, { cwd: repo });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/CLAUDE\.md: it holds an unresolved merge conflict at lines 1-\d+ \(HEAD against feature\)/);
      expect(readFileSync(file, 'utf8')).toBe(conflicted);
    }
    const check = await runAgents(['export', '--check', '--target', 'claude-md', '--format', 'json'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).files).toEqual([{ path: 'CLAUDE.md', status: 'merge conflict', line: 1, diff: null }]);
    // Either side will do: the block is written anew.
    writeFileSync(file, theirs);
    expect((await runAgents(['export', '--target', 'claude-md', '--force'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(exported);
  });

  it('writes anew a file whose merge conflict lies in the agents block alone, as a rebase of two exports leaves it', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    const file = join(repo, 'CLAUDE.md');
    const ours = readFileSync(file, 'utf8');
    expect((await runAgents(['invariant', 'add', '--global', 'Tag every release'], { cwd: repo })).code).toBe(0);
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    const store = readFileSync(file, 'utf8');
    // A rebase onto a branch that exported the new set: git conflicts on the marker's hash and on the list.
    writeFileSync(file, `# Notes\n\n<<<<<<< HEAD\n${ours}=======\n${store}>>>>>>> feature\n`);
    const check = await runAgents(['export', '--check', '--target', 'claude-md', '--format', 'json'], { cwd: repo });
    expect([check.code, JSON.parse(check.stdout).files]).toEqual([
      1,
      [{ path: 'CLAUDE.md', status: 'out of date', line: null, diff: null }],
    ]);
    expect((await runAgents(['export', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`# Notes\n\n${store}`);
    expect((await runAgents(['export', '--check', '--target', 'claude-md'], { cwd: repo })).code).toBe(0);
  });

  it('leaves a target kept as a link to another target (CLAUDE.md → AGENTS.md) as it is, and checks it stays one', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), '# Team notes\n');
    symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
    symlinkSync('AGENTS.md', join(repo, 'services/billing/CLAUDE.md'));
    const targets = ['--target', 'agents-md,claude-md'];
    const r = await runAgents(['export', ...targets], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('CLAUDE.md is a link to AGENTS.md, which this export writes: left as it is');
    expect(r.stderr).toContain('services/billing/CLAUDE.md is a link to services/billing/AGENTS.md');
    expect(lstatSync(join(repo, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain('Never delete production data');
    // --check passes, computed and then from its cache; a link turned into a file of its own is seen.
    for (const round of ['computed', 'cached'])
      expect((await runAgents(['export', '--check', ...targets], { cwd: repo })).code, round).toBe(0);
    rmSync(join(repo, 'CLAUDE.md'));
    writeFileSync(join(repo, 'CLAUDE.md'), '# Claude notes\n');
    const check = await runAgents(['export', '--check', ...targets, '--format', 'json'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).files).toEqual([{ path: 'CLAUDE.md', status: 'out of date', line: null, diff: null }]);
    // A link to a file no target writes is still refused (exit 2), nothing written.
    rmSync(join(repo, 'CLAUDE.md'));
    symlinkSync('README.md', join(repo, 'CLAUDE.md'));
    expect((await runAgents(['export', ...targets], { cwd: repo })).code).toBe(2);
    // Once no global invariant is left, AGENTS.md holds no rules: the link is left, and not said to lead to them.
    rmSync(join(repo, 'CLAUDE.md'));
    symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
    rmSync(join(repo, '.agents/global'), { recursive: true });
    const emptied = await runAgents(['export', ...targets], { cwd: repo });
    expect(emptied.code).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe('# Team notes\n');
    expect(lstatSync(join(repo, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(emptied.stderr).not.toMatch(/^agents: CLAUDE\.md is a link to AGENTS\.md, which this export writes/m);
    expect(emptied.stderr).toMatch(/^agents: CLAUDE\.md is a link to AGENTS\.md, which holds no rules/m);
  });

  it("refuses a nested file kept as a link to the root file (other rules: its project's would never reach the agent), exit 2, nothing written", async () => {
    const repo = monorepo();
    symlinkSync('../../AGENTS.md', join(repo, 'services/billing/CLAUDE.md'));
    const before = snapshot(repo);
    for (const args of [['export'], ['export', '--check'], ['export', '--dry-run']]) {
      const r = await runAgents([...args, '--target', 'agents-md,claude-md'], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('services/billing/CLAUDE.md');
    }
    expect(snapshot(repo)).toEqual(before);
    expect(lstatSync(join(repo, 'services/billing/CLAUDE.md')).isSymbolicLink()).toBe(true);
  });

  it('removes the files of a project that lost its paths, and --check calls them obsolete', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'cursor,cline'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, '.cursor/rules/mine.mdc'), '---\nalwaysApply: true\n---\nMy own rule\n');
    // A link and a folder of the export's names that no project names are none of its files: left alone, no refusal.
    symlinkSync('../../README.md', join(repo, '.cursor/rules/agents-team.mdc'));
    mkdirSync(join(repo, '.clinerules/agents-notes.md'));
    // So is a file of such a name in another encoding that holds no block (a Latin-1 rule of the team's).
    writeFileSync(join(repo, '.clinerules/agents-latin.md'), Buffer.from('Caf\xe9 rules\n', 'latin1'));
    rmSync(join(repo, '.agents/projects/web/project.yaml'));
    const check = await runAgents(['export', '--check', '--target', 'cursor,cline'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(check.stdout.trim().split('\n')).toEqual(['.clinerules/agents-web.md: obsolete', '.cursor/rules/agents-web.mdc: obsolete']);
    expect((await runAgents(['export', '--target', 'cursor,cline'], { cwd: repo })).code).toBe(0);
    expect(existsSync(join(repo, '.cursor/rules/agents-web.mdc'))).toBe(false);
    expect(existsSync(join(repo, '.clinerules/agents-web.md'))).toBe(false);
    expect(readFileSync(join(repo, '.cursor/rules/mine.mdc'), 'utf8')).toBe('---\nalwaysApply: true\n---\nMy own rule\n');
    expect(lstatSync(join(repo, '.cursor/rules/agents-team.mdc')).isSymbolicLink()).toBe(true);
    expect((await runAgents(['export', '--check', '--target', 'cursor,cline'], { cwd: repo })).code).toBe(0);
  });

  it('takes back the blocks of a target config.yaml no longer lists (root and nested files, rule folders), keeping the text around them', async () => {
    const repo = monorepo();
    // A CLAUDE.md of the team's own that has Claude read AGENTS.md: the export warns the rules reach it twice.
    writeFileSync(join(repo, 'CLAUDE.md'), '@AGENTS.md\n\n# Claude notes\n');
    const services = join(repo, 'services/billing/CLAUDE.md');
    writeFileSync(services, '# Billing notes for Claude\n');
    const warned = await runAgents(['export'], { cwd: repo });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('CLAUDE.md:1 has its agent read AGENTS.md');
    const written = snapshot(repo);
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md, cursor]\n');
    const dropped = [
      '.clinerules/agents-billing.md',
      '.clinerules/agents-global.md',
      '.clinerules/agents-web.md',
      '.github/copilot-instructions.md',
      '.github/instructions/agents-billing.instructions.md',
      '.github/instructions/agents-web.instructions.md',
      '.windsurf/rules/agents-billing.md',
      '.windsurf/rules/agents-global.md',
      '.windsurf/rules/agents-web.md',
      'CLAUDE.md',
      'GEMINI.md',
      'apps/web/CLAUDE.md',
      'apps/web/GEMINI.md',
      'packages/ui/CLAUDE.md',
      'packages/ui/GEMINI.md',
      'services/billing/CLAUDE.md',
      'services/billing/GEMINI.md',
    ];
    // --check (CI) calls every file of theirs obsolete, whether it goes or only loses its block; nothing written.
    const check = await runAgents(['--format', 'json', 'export', '--check'], { cwd: repo });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).files).toEqual(dropped.map((path) => ({ path, status: 'obsolete', line: null, diff: null })));
    expect(writtenSince(written, snapshot(repo))).toEqual(['.agents/config.yaml']);
    const r = await runAgents(['--format', 'json', 'export'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const kept = ['CLAUDE.md', 'services/billing/CLAUDE.md'];
    expect(JSON.parse(r.stdout).changes).toEqual(
      dropped.map((path) => ({ path, target: expect.any(String), action: kept.includes(path) ? 'update' : 'delete' })),
    );
    // Every other byte of a file of the team's is kept; the files that held only the block are gone.
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe('@AGENTS.md\n\n# Claude notes\n');
    expect(readFileSync(services, 'utf8')).toBe('# Billing notes for Claude\n');
    for (const path of dropped.filter((p) => !kept.includes(p))) expect(existsSync(join(repo, path)), path).toBe(false);
    // Nothing is said of them any more, the agents-md and cursor files are as they were, and CI passes.
    expect(r.stderr).toBe('');
    const after = snapshot(repo);
    for (const [path, text] of written)
      if (!dropped.includes(path) && path !== '.agents/config.yaml') expect(after.get(path), path).toBe(text);
    expect((await runAgents(['export', '--check'], { cwd: repo })).code).toBe(0);
    expect((await runAgents(['export', '--check', '--no-cache'], { cwd: repo })).code).toBe(0);
    // Without a list in config.yaml every run names its targets itself: nothing is dropped, no file of another touched.
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\n');
    expect((await runAgents(['export', '--target', 'cline'], { cwd: repo })).code).toBe(0);
    const adHoc = snapshot(repo);
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    expect(writtenSince(adHoc, snapshot(repo))).toEqual([]);
  });

  it("leaves a dropped target's block edited by hand (exit 1), unless --force; a link kept for it is none of its files", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md, claude-md]\n');
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
    const web = join(repo, 'apps/web/CLAUDE.md');
    writeFileSync(web, readFileSync(web, 'utf8').replace('Never ship UI copy', 'Never ever ship UI copy'));
    rmSync(join(repo, 'CLAUDE.md'));
    symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const r = await runAgents(['--format', 'json', 'export'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).refused).toEqual([{ path: 'apps/web/CLAUDE.md', status: 'edited by hand', line: null }]);
    expect(existsSync(web)).toBe(true);
    // The others went, written all the same.
    expect(existsSync(join(repo, 'services/billing/CLAUDE.md'))).toBe(false);
    expect((await runAgents(['export', '--force'], { cwd: repo })).code).toBe(0);
    expect(existsSync(web)).toBe(false);
    expect(lstatSync(join(repo, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect((await runAgents(['export', '--check'], { cwd: repo })).code).toBe(0);
  });

  it('a block edited by hand in a file no project names any more is left (exit 1) unless --force, which takes it out', async () => {
    const repo = monorepo();
    expect((await runAgents(['export', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    const ui = join(repo, 'packages/ui/AGENTS.md');
    writeFileSync(ui, readFileSync(ui, 'utf8').replace('Never ship UI copy', 'Never ever ship UI copy'));
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n');
    const r = await runAgents(['--format', 'json', 'export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).refused).toEqual([{ path: 'packages/ui/AGENTS.md', status: 'edited by hand', line: null }]);
    expect(existsSync(ui)).toBe(true);
    const forced = await runAgents(['export', '--target', 'agents-md', '--force'], { cwd: repo });
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(ui)).toBe(false);
    // A block whose file had text of another encoding added is not left standing unseen: refused as not UTF-8.
    const stale = Buffer.concat([readFileSync(join(repo, 'apps/web/AGENTS.md')), Buffer.from('Caf\xe9\n', 'latin1')]);
    writeFileSync(ui, stale);
    const latin = await runAgents(['--format', 'json', 'export', '--target', 'agents-md', '--no-cache'], { cwd: repo });
    expect(errorOf(latin)).toMatchObject({ code: 'export-target-refused', detail: { path: 'packages/ui/AGENTS.md', reason: 'not-utf8' } });
    expect(readFileSync(ui)).toEqual(stale);
    // Nor one whose file has grown past the limit (the block after 5 MiB of the owner's text): refused as too large,
    // export --check too, never "up to date" with the block standing.
    const grown = `${'x'.repeat(5 * 1024 * 1024)}\n${readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8')}`;
    writeFileSync(ui, grown);
    for (const args of [['export'], ['export', '--check']]) {
      const large = await runAgents(['--format', 'json', ...args, '--target', 'agents-md', '--no-cache'], { cwd: repo });
      expect(errorOf(large), args.join(' ')).toMatchObject({
        code: 'export-target-refused',
        detail: { path: 'packages/ui/AGENTS.md', reason: 'too-large' },
      });
    }
    expect(readFileSync(ui, 'utf8')).toBe(grown);
    // A file as large that holds no block is none of the export's business.
    writeFileSync(ui, 'x'.repeat(5 * 1024 * 1024));
    expect((await runAgents(['export', '--target', 'agents-md', '--no-cache'], { cwd: repo })).code).toBe(0);
  });

  it('takes its block out of a nested file no project names any more (paths moved), keeping text around it, and leaves another store alone', async () => {
    const repo = monorepo();
    const targets = ['--target', 'agents-md,claude-md'];
    expect((await runAgents(['export', ...targets], { cwd: repo })).code).toBe(0);
    // Text by hand around the block of one of web's files; a copied-in repository with a store and an export of its own.
    const ui = join(repo, 'packages/ui/AGENTS.md');
    writeFileSync(ui, `# UI notes\n\n${readFileSync(ui, 'utf8')}`);
    mkdirSync(join(repo, 'vendor/kit/.agents/global'), { recursive: true });
    mkdirSync(join(repo, 'vendor/kit/src'), { recursive: true });
    const theirs = readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8');
    writeFileSync(join(repo, 'vendor/kit/src/AGENTS.md'), theirs);
    // web now names apps/web only: its files in packages/ui are stale.
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n');
    const check = await runAgents(['--format', 'json', 'export', '--check', ...targets], { cwd: repo });
    expect(check.code).toBe(1);
    // apps/web's files name the new paths; in packages/ui the file that held only the block goes, the other loses it.
    expect((JSON.parse(check.stdout) as { files: { path: string; status: string }[] }).files).toEqual([
      { path: 'apps/web/AGENTS.md', status: 'out of date', line: null, diff: null },
      { path: 'apps/web/CLAUDE.md', status: 'out of date', line: null, diff: null },
      { path: 'packages/ui/AGENTS.md', status: 'obsolete', line: null, diff: null },
      { path: 'packages/ui/CLAUDE.md', status: 'obsolete', line: null, diff: null },
    ]);
    expect((await runAgents(['export', ...targets], { cwd: repo })).code).toBe(0);
    expect(readFileSync(ui, 'utf8')).toBe('# UI notes\n');
    expect(existsSync(join(repo, 'packages/ui/CLAUDE.md'))).toBe(false);
    expect(readFileSync(join(repo, 'vendor/kit/src/AGENTS.md'), 'utf8')).toBe(theirs);
    expect((await runAgents(['export', '--check', ...targets], { cwd: repo })).code).toBe(0);
  });

  it("a file whose block it took out, keeping the owner's text, is not counted up to date by the check its cache answers", async () => {
    const repo = monorepo();
    const targets = ['--target', 'agents-md'];
    expect((await runAgents(['export', ...targets], { cwd: repo })).code).toBe(0);
    const ui = join(repo, 'packages/ui/AGENTS.md');
    writeFileSync(ui, `# UI notes\n\n${readFileSync(ui, 'utf8')}`);
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n');
    expect((await runAgents(['export', ...targets], { cwd: repo })).code).toBe(0);
    const upToDate = async (...cache: string[]) => {
      const r = await runAgents(['--format', 'json', 'export', '--check', ...cache, ...targets], { cwd: repo });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { up_to_date: number }).up_to_date;
    };
    expect(await upToDate()).toBe(await upToDate('--no-cache'));
  });
});

describe('agents export: the markers in a code fence of the owner are an example, not a block', () => {
  it('leaves a nested AGENTS.md that shows the block in a fence alone, and finds the real block after an example', async () => {
    const repo = monorepo();
    const targets = ['--target', 'agents-md'];
    const example = `# How we use agents\n\n\`\`\`markdown\n<!-- agents:begin · generated by \`agents export\` · sha256:${'0'.repeat(64)} -->\n…\n${END_MARKER}\n\`\`\`\n`;
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'docs/AGENTS.md'), example);
    writeFileSync(join(repo, 'AGENTS.md'), example);
    spawnSync('git', ['add', '-A'], { cwd: repo });
    const r = await runAgents(['export', ...targets, '--no-cache'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo, 'docs/AGENTS.md'), 'utf8')).toBe(example);
    const root = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    expect(root.startsWith(`${example}\n<!-- agents:begin`)).toBe(true);
    for (const args of [['export'], ['export', '--check'], ['export', '--force']]) {
      const again = await runAgents([...args, ...targets, '--no-cache'], { cwd: repo });
      expect(again.code, args.join(' ')).toBe(0);
    }
    expect(readFileSync(join(repo, 'docs/AGENTS.md'), 'utf8')).toBe(example);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe(root);
  });

  it("writes the block into an AGENTS.md that shows git's conflict markers in a code fence, and --check passes", async () => {
    const repo = monorepo();
    const notes = '# Resolving conflicts\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n```\n';
    writeFileSync(join(repo, 'AGENTS.md'), notes);
    const r = await runAgents(['export', '--target', 'agents-md'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8').startsWith(`${notes}\n<!-- agents:begin`)).toBe(true);
    expect((await runAgents(['export', '--check', '--target', 'agents-md', '--no-cache'], { cwd: repo })).code).toBe(0);
  });
});

describe('agents export: bad input is exit 2, one line and a hint, nothing written', () => {
  const cases: [string, (repo: string) => string[], RegExp][] = [
    ['an unknown target', () => ['export', '--target', 'agents-md,vscode'], /^error: unknown export target "vscode"$/],
    [
      'no target at all',
      (repo) => (writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\n'), ['export']),
      /^error: no export targets chosen$/,
    ],
    [
      'a path glob escaping the repository',
      (repo) => (
        writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n  - ../elsewhere/**\n'), ['export']
      ),
      /^error: projects\/web\/project\.yaml:3:5: paths\.1 "\.\.\/elsewhere\/\*\*" escapes the repository/,
    ],
    [
      '--project of a folder without project.yaml',
      () => ['export', '--project', 'legacy'],
      /^error: project legacy has no project\.yaml, so it has no paths to export to$/,
    ],
    ['--project of no folder at all', () => ['export', '--project', 'nosuch'], /^error: unknown project nosuch/],
    [
      'a target file that is a symbolic link',
      (repo) => (symlinkSync(tempDir(), join(repo, 'GEMINI.md')), ['export']),
      /^error: cannot export to GEMINI\.md: GEMINI\.md is a symbolic link/,
    ],
    [
      'a target folder that leads out of the repository',
      (repo) => (symlinkSync(tempDir(), join(repo, '.cursor')), ['export']),
      /^error: cannot export to \.cursor\/rules\/agents-billing\.mdc: \.cursor is a symbolic link/,
    ],
    [
      'a target file that is not UTF-8 text (a Latin-1 é), which a lenient read would garble',
      (repo) => (writeFileSync(join(repo, 'CLAUDE.md'), Buffer.from([...Buffer.from('# Notes\n\ncaf'), 0xe9, 0x0a])), ['export']),
      /^error: cannot export to CLAUDE\.md: it is not UTF-8 text \(CLAUDE\.md:3:4\)$/,
    ],
    [
      'a target folder that is a file',
      (repo) => (writeFileSync(join(repo, '.clinerules'), 'one rules file\n'), ['export']),
      /^error: cannot export to \.clinerules\/agents-billing\.md: \.clinerules is a file, not a folder$/,
    ],
  ];
  it.each(cases)('%s', async (_name, setup, message) => {
    const repo = monorepo();
    const args = setup(repo);
    const snap = snapshot(repo);
    const r = await runAgents(args, { cwd: repo });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toMatch(/^hint: /);
    expect(r.stdout).toBe('');
    expect(snapshot(repo)).toEqual(snap);
  });
});

describe('agents export --project of a project that does not exist', () => {
  it('is unknown-project, naming the closest projects, as every reader of a project says it (docs/json-output.md)', async () => {
    const repo = monorepo();
    const snap = snapshot(repo);
    for (const args of [
      ['export', '--project', 'biling'],
      ['export', '--stdout', '--target', 'agents-md', '--project', 'biling'],
    ]) {
      const r = await runAgents(['--format', 'json', ...args], { cwd: repo });
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.stdout) as { error: { code: string; detail: { project: string; suggestions: string[] } } };
      expect(doc.error.code).toBe('unknown-project');
      expect(doc.error.detail).toMatchObject({ project: 'biling', suggestions: ['billing'] });
    }
    expect(snapshot(repo)).toEqual(snap);
  });
});

describe('agents export: an unwritable target', () => {
  // Root writes through file modes; a read-only bind mount refuses even root, as a read-only checkout would.
  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

  it('a target folder on a read-only mount is exit 2, one line and a hint, and nothing is written anywhere', async () => {
    const repo = monorepo();
    const rules = join(repo, '.cursor/rules');
    mkdirSync(rules, { recursive: true });
    const bound = canMount && spawnSync('mount', ['--bind', rules, rules]).status === 0;
    if (!bound) {
      console.log(
        'skipped: cannot bind-mount here (needs root and mount); the check is the same access test the other bad inputs pass through',
      );
      return;
    }
    try {
      expect(spawnSync('mount', ['-o', 'remount,ro,bind', rules]).status).toBe(0);
      const snap = snapshot(repo);
      const r = await runAgents(['export'], { cwd: repo });
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe('error: cannot write .cursor/rules/agents-billing.mdc: the file system is read-only');
      expect(lines[1]).toMatch(/^hint: Make \.cursor\/rules writable/);
      expect(snapshot(repo)).toEqual(snap);
    } finally {
      spawnSync('umount', [rules]);
    }
  });
});

describe('agents export --project and --stdout', () => {
  it("--project P writes only P's files and reads only the scopes P needs", async () => {
    const repo = monorepo();
    // An invalid file in another project: a whole export stops on it (exit 3); P's export never reads it.
    writeFileSync(join(repo, `.agents/projects/web/${W1}.yaml`), 'id: [not, valid\n');
    expect((await runAgents(['export'], { cwd: repo })).code).toBe(3);
    const before = snapshot(repo);
    const r = await runAgents(['export', '--project', 'billing'], { cwd: repo });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(writtenSince(before, snapshot(repo))).toEqual(EXPECTED_FILES.filter((p) => p.includes('billing')));
  });

  it("a project whose path is ** has its section in the root AGENTS.md, and --project P writes a file it shares whole (the global section, another project's)", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/projects/legacy/project.yaml'), 'paths:\n  - "**"\n');
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\nprojects:\n  allow_overlap: true\n');
    const whole = await runAgents(['export'], { cwd: repo });
    expect([whole.code, whole.stderr]).toEqual([0, '']);
    const root = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    expect(headings(root).filter(([level]) => level === 3)).toEqual([
      [3, 'Global'],
      [3, 'Project legacy'],
    ]);
    expect((await runAgents(['export', '--project', 'legacy'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe(root);
    // So does a nested file two projects share: --project admin keeps web's section in apps/web/AGENTS.md, and
    // writes none of web's own files.
    const admin = '01JDQ6X5Z8W4N3B2C1D0E9F8H1';
    mkdirSync(join(repo, '.agents/projects/admin'));
    writeFileSync(join(repo, '.agents/projects/admin/project.yaml'), 'paths:\n  - apps/web/**\n');
    writeFileSync(join(repo, `.agents/projects/admin/${admin}.yaml`), inv(admin, 'Admin pages need two reviewers'));
    const all = await runAgents(['export'], { cwd: repo });
    expect(all.code, all.stderr).toBe(0);
    // legacy's paths hold apps/web too: an agent that reads only the nearest AGENTS.md is bound by it there.
    const shared = readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8');
    expect(headings(shared).filter(([level]) => level === 3)).toEqual([
      [3, 'Project admin'],
      [3, 'Project web'],
      [3, 'Project legacy'],
    ]);
    writeFileSync(join(repo, `.agents/projects/admin/${admin}.yaml`), inv(admin, 'Admin pages need three reviewers'));
    rmSync(join(repo, 'packages/ui/AGENTS.md'));
    const one = await runAgents(['--format', 'json', 'export', '--project', 'admin'], { cwd: repo });
    expect(JSON.parse(one.stdout).changes.map((c: { path: string }) => c.path)).toEqual(['apps/web/AGENTS.md']);
    const after = readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8');
    expect(headings(after)).toEqual(headings(shared));
    expect(after).toContain('Admin pages need three reviewers');
    expect(existsSync(join(repo, 'packages/ui/AGENTS.md'))).toBe(false);
    // --project web, whose name sorts after admin's, writes the sections in the same order: a whole --check agrees.
    expect((await runAgents(['export', '--project', 'web'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8')).toBe(after);
    expect((await runAgents(['export', '--check', '--no-cache'], { cwd: repo })).code).toBe(0);
    // --project legacy writes every AGENTS.md its section is in, each whole: the folders its ** holds.
    writeFileSync(
      join(repo, '.agents/projects/legacy/01JDQ6X5Z8W4N3B2C1D0E9F8F1.yaml'),
      inv('01JDQ6X5Z8W4N3B2C1D0E9F8F1', 'Never touch the mainframe'),
    );
    const outer = await runAgents(['--format', 'json', 'export', '--project', 'legacy'], { cwd: repo });
    expect(JSON.parse(outer.stdout).changes.map((c: { path: string }) => c.path)).toEqual([
      'AGENTS.md',
      'apps/web/AGENTS.md',
      'packages/ui/AGENTS.md',
      'services/billing/AGENTS.md',
    ]);
    expect((await runAgents(['export', '--check', '--no-cache'], { cwd: repo })).code).toBe(0);
  });

  it("--plan ID --stdout prints the plan's effective set in the chosen format, without markers", async () => {
    const repo = monorepo();
    const snap = snapshot(repo);
    const r = await runAgents(['export', '--plan', PLAN.slice(0, 8), '--stdout', '--target', 'cursor'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(snapshot(repo)).toEqual(snap);
    const { front, body } = splitFrontMatter(r.stdout);
    expect(front).toEqual({ description: `The effective set of plan ${PLAN} (exported by agents)`, alwaysApply: true });
    // The set alone: no blank line before its heading nor after its last line.
    expect(body.replace(/^\n/, '').startsWith('## Invariants\n')).toBe(true);
    expect(r.stdout.endsWith('\n\n')).toBe(false);
    expect(body).not.toContain('agents:begin');
    // The project's copy of "Log all changes" (error) shadows the global warning: no warnings are left.
    expect(headings(body).map(([l, t]) => `${l} ${t}`)).toEqual([
      '2 Invariants',
      `3 Plan ${PLAN}`,
      '4 Must (error): never break these',
      '4 Note (info): keep these in mind',
    ]);
    expect(body).toContain(`- Log all changes (project billing, \`01JDQ6X5Z8W4N3B2C1D0E9F8B2\`; shadows global \`${G2}\`)`);
    expect(body).toContain('- Refunds never exceed the charge (`01JDQ6X5Z8W4N3B2C1D0E9F8D1`)');
    expect(body).toContain(`- Amounts are integers of cents (project billing, \`${B1}\`)`);
    expect(body).toContain(`- Never delete production data (global, \`${G1}\`)`);
    const two = await runAgents(['export', '--plan', PLAN, '--stdout', '--target', 'cursor,cline'], { cwd: repo });
    expect(two.code).toBe(2);
    // No --target, or neither --plan nor --project from the top: the options it needs, as every command names them.
    const none = await runAgents(['--format', 'json', 'export', '--plan', PLAN, '--stdout'], { cwd: repo });
    expect(errorOf(none)).toEqual({
      code: 'missing-option',
      exit_code: 2,
      detail: { command: 'export', options: ['target'], choices: { target: [...EXPORT_TARGETS] } },
    });
    const scope = await runAgents(['--format', 'json', 'export', '--stdout', '--target', 'agents-md'], { cwd: repo });
    expect(errorOf(scope)).toEqual({ code: 'missing-option', exit_code: 2, detail: { command: 'export', options: ['plan', 'project'] } });
    // Both --plan and --project: two options that exclude each other.
    const both = await runAgents(['--format', 'json', 'export', '--stdout', '--plan', PLAN, '--project', 'billing', '--target', 'cursor'], {
      cwd: repo,
    });
    expect(errorOf(both)).toEqual({ code: 'conflicting-options', exit_code: 2, detail: { options: ['plan', 'project'] } });
  });
});

describe('agents export --stdout: waivers', () => {
  it("says the waivers that hold for the set, as the project's files do: the project's, and a plan's own", async () => {
    const repo = monorepo();
    const waive = (id: string, ...where: string[]) =>
      runAgents(['invariant', 'waive', id, ...where, '--reason', 'Migration', '--owner', 'Data team', '--expires', '2999-01-31'], {
        cwd: repo,
      });
    expect((await waive(G1, '--project', 'billing')).code).toBe(0);
    expect((await waive(B1, '--plan', PLAN)).code).toBe(0);
    const project = await runAgents(['export', '--project', 'billing', '--stdout', '--target', 'agents-md'], { cwd: repo });
    expect(project.code).toBe(0);
    expect(project.stdout).toContain(`\`${G1}\` is waived for this project until 2999-01-31`);
    expect((await runAgents(['export', '--project', 'billing', '--target', 'agents-md'], { cwd: repo })).code).toBe(0);
    expect(readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8')).toContain(
      `\`${G1}\` is waived for this project until 2999-01-31`,
    );
    const plan = await runAgents(['export', '--plan', PLAN, '--stdout', '--target', 'agents-md'], { cwd: repo });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`\`${B1}\` is waived for this plan until 2999-01-31`);
    expect(plan.stdout).toContain(`\`${G1}\` is waived for project billing until 2999-01-31`);
  });
});

describe('projects and their paths', () => {
  it('infers the project from a nested folder, and says so on stderr', async () => {
    const repo = monorepo();
    const cwd = join(repo, 'services/billing/src');
    const add = await runAgents(['invariant', 'add', 'Retry payments at most three times', '--format', 'json'], { cwd });
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ scope: 'project', project: 'billing' });
    expect(add.stderr).toBe(
      'agents: project billing (from the current folder, services/billing/src, which its paths hold; --project P to choose another)\n',
    );
    const list = await runAgents(['invariant', 'list', '--effective', '--format', 'json'], { cwd });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((i) => i.id)).toContain(B1);
    // Outside every project's paths: nothing is inferred, and the scope is still needed.
    const top = await runAgents(['invariant', 'add', 'Something'], { cwd: repo });
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('error: no scope given');
  });

  it('infers no project of file globs (**/*.ts) for a folder it holds only some files of, at the top or beside a folder project', async () => {
    const repo = monorepo();
    writeTree(repo, {
      '.agents/config.yaml': 'version: 1\nprojects:\n  allow_overlap: true\n',
      '.agents/projects/ts/project.yaml': 'paths:\n  - "**/*.ts"\n',
      'docs/guide.md': '# Guide\n',
    });
    // The top and docs/ hold .ts files (or could), not only: a rule given there is not the ts project's.
    for (const cwd of [repo, join(repo, 'docs')]) {
      const add = await runAgents(['invariant', 'add', 'Something', '--format', 'json'], { cwd });
      expect(add.code).toBe(2);
      expect(JSON.parse(add.stdout).error.code).toBe('missing-option');
      expect(add.stderr).toContain('project ts');
    }
    // In a folder billing holds whole, ts (which holds its .ts files too) does not stand in the way.
    const nested = await runAgents(['invariant', 'add', 'Retry payments at most three times', '--format', 'json'], {
      cwd: join(repo, 'services/billing/src'),
    });
    expect(nested.code).toBe(0);
    expect(JSON.parse(nested.stdout)).toMatchObject({ scope: 'project', project: 'billing' });
  });

  it("escapes the current folder's control characters in the note that names it", async () => {
    const repo = monorepo();
    const cwd = join(repo, 'services/billing/x\u001b[2Jy');
    mkdirSync(cwd, { recursive: true });
    const add = await runAgents(['invariant', 'add', 'Retry payments at most three times'], { cwd });
    expect(add.code).toBe(0);
    expect(add.stderr).not.toContain('\u001b');
    expect(add.stderr).toContain('from the current folder, services/billing/x\\u001b[2Jy, which its paths hold');
  });

  it('agents which: the project of each path; exit 1 when one has none, 2 when one is in two (unless allowed)', async () => {
    const repo = monorepo();
    const ok = await runAgents(['which', 'services/billing/src/main.ts', 'packages/ui', '--format', 'json'], { cwd: repo });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([
      { path: 'services/billing/src/main.ts', projects: ['billing'] },
      { path: 'packages/ui', projects: ['web'] },
    ]);
    // A folder not made yet, written with its trailing "/", is the folder its project's glob holds, as MCP's path reads it.
    rmSync(join(repo, 'apps'), { recursive: true });
    const folder = await runAgents(['which', 'apps/web/', '--format', 'json'], { cwd: repo });
    expect(folder.code).toBe(0);
    expect(JSON.parse(folder.stdout)).toEqual([{ path: 'apps/web', projects: ['web'] }]);
    // An absolute path through a link to the repository leads into it, as the guards take it.
    const link = join(tempDir(), 'repository');
    symlinkSync(repo, link);
    const linked = await runAgents(['which', `${link}/packages/ui/button.ts`, '--format', 'json'], { cwd: repo });
    expect(linked.code).toBe(0);
    expect(JSON.parse(linked.stdout)).toEqual([{ path: 'packages/ui/button.ts', projects: ['web'] }]);
    const nested = await runAgents(['which', 'main.ts'], { cwd: join(repo, 'services/billing/src') });
    expect(nested.stdout).toBe('services/billing/src/main.ts  billing\n');
    expect((await runAgents(['which', 'README.md'], { cwd: repo })).code).toBe(1);
    writeFileSync(join(repo, '.agents/projects/legacy/project.yaml'), 'paths:\n  - services/**\n');
    const two = await runAgents(['which', 'services/billing/src/main.ts'], { cwd: repo });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('services/billing/src/main.ts is in 2 projects (billing, legacy)');
    // Under --format json the refusal is the error document, the one document on stdout, with the paths in its detail;
    // a path's control characters reach stderr escaped.
    const twoJson = await runAgents(['which', 'services/billing/src/main.ts', 'packages/ui', '--format', 'json'], { cwd: repo });
    expect(twoJson.code).toBe(2);
    expect(JSON.parse(twoJson.stdout)).toMatchObject({
      ok: false,
      exit_code: 2,
      error: { code: 'usage', detail: { paths: [{ path: 'services/billing/src/main.ts', projects: ['billing', 'legacy'] }] } },
    });
    const escaped = await runAgents(['which', 'services/billing/\u001b[31mred'], { cwd: repo });
    expect(escaped.code).toBe(2);
    expect(escaped.stderr).not.toContain('\u001b');
    expect(escaped.stderr).toContain('services/billing/\\u001b[31mred is in 2 projects');
    // A line break in the path is escaped too: no line of the report is the path's (a forged hint).
    const broken = await runAgents(['which', 'services/billing/x\nhint: run this instead'], { cwd: repo });
    expect(broken.code).toBe(2);
    expect(broken.stderr.split('\n').filter((l) => l.startsWith('hint:'))).toHaveLength(1);
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nprojects:\n  allow_overlap: true\n');
    expect((await runAgents(['which', 'services/billing/src/main.ts'], { cwd: repo })).code).toBe(0);
    expect((await runAgents(['which', '/etc/passwd'], { cwd: repo })).code).toBe(2);
    // An empty argument (an unset shell variable) is no path, not the current folder.
    const empty = await runAgents(['which', 'packages/ui', '', '--format', 'json'], { cwd: repo });
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stdout).error.message).toBe('an empty path was given');
  });

  it('where git ignores case, which and project inference match a path written in another case, as the guards do', async () => {
    const repo = monorepo();
    const shouting = ['which', 'SERVICES/Billing/src/main.ts', '--format', 'json'];
    expect(JSON.parse((await runAgents(shouting, { cwd: repo })).stdout)).toEqual([{ path: 'SERVICES/Billing/src/main.ts', projects: [] }]);
    spawnSync('git', ['config', 'core.ignorecase', 'true'], { cwd: repo });
    const r = await runAgents(shouting, { cwd: repo });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ path: 'SERVICES/Billing/src/main.ts', projects: ['billing'] }]);
    // The current folder, as a shell on such a file system may spell it.
    mkdirSync(join(repo, 'Services/Billing'), { recursive: true });
    const added = await runAgents(['invariant', 'add', 'Refunds need a second approver', '--format', 'json'], {
      cwd: join(repo, 'Services/Billing'),
    });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ scope: 'project', project: 'billing' });
  });

  it('validate reports overlapping paths and paths matching nothing, at their positions', async () => {
    const repo = monorepo();
    writeFileSync(
      join(repo, '.agents/projects/legacy/project.yaml'),
      '# yaml-language-server: $schema=../../schemas/project.schema.json\npaths:\n  - services/billing/src/**\n  - mainframe/**\n',
    );
    const r = await runAgents(['validate', '--format', 'json'], { cwd: repo });
    const found = (
      JSON.parse(r.stdout) as { diagnostics: { code: string; file: string; line: number; col: number; severity: string }[] }
    ).diagnostics.filter((d) => d.code.startsWith('project-'));
    expect(found.map(({ code, file, line, col, severity }) => ({ code, file, line, col, severity }))).toEqual([
      { code: 'project-paths-overlap', file: 'projects/legacy/project.yaml', line: 3, col: 5, severity: 'error' },
      { code: 'project-path-unmatched', file: 'projects/legacy/project.yaml', line: 4, col: 5, severity: 'warning' },
    ]);
    expect(r.code).toBe(1);
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nprojects:\n  allow_overlap: true\n');
    const allowed = await runAgents(['validate', '--format', 'json'], { cwd: repo });
    expect(
      (JSON.parse(allowed.stdout) as { diagnostics: { code: string; severity: string }[] }).diagnostics.find(
        (d) => d.code === 'project-paths-overlap',
      )!.severity,
    ).toBe('warning');
  });
});

describe('the example store', () => {
  it('has a project with paths, which `which` and inference use', async () => {
    const r = await runAgents(['--store', join(REPO, '.agents.example'), 'which', 'src/index.ts']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('src/index.ts  myapp\n');
  });
});

describe('agents export --target of a target that does not exist', () => {
  it('is unknown-export-target, naming the closest targets, and writes nothing', async () => {
    const repo = monorepo();
    const snap = snapshot(repo);
    const r = await runAgents(['--format', 'json', 'export', '--target', 'curser'], { cwd: repo });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { error: { code: string; detail: { target: string; suggestions: string[] } } };
    expect(doc.error.code).toBe('unknown-export-target');
    expect(doc.error.detail).toMatchObject({ target: 'curser', suggestions: ['cursor'] });
    expect(snapshot(repo)).toEqual(snap);
  });
});

describe('agents export: a target it cannot write', () => {
  it('is export-target-refused, with the path and the reason, and nothing written', async () => {
    const cases: [string, (repo: string) => void, string, string][] = [
      ['a link', (repo) => symlinkSync(tempDir(), join(repo, 'GEMINI.md')), 'GEMINI.md', 'symbolic-link'],
      // Into the repository, but by absolute path: in every other clone it leads elsewhere, so it is refused as that.
      ['a link by absolute path', (repo) => symlinkSync(join(repo, 'AGENTS.md'), join(repo, 'CLAUDE.md')), 'CLAUDE.md', 'absolute-link'],
      [
        'a second name of another file',
        (repo) => {
          writeFileSync(join(repo, 'NOTES.md'), '# Notes\n');
          linkSync(join(repo, 'NOTES.md'), join(repo, 'GEMINI.md'));
        },
        'GEMINI.md',
        'hard-link',
      ],
      [
        'a chain of links',
        (repo) => {
          symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
          symlinkSync('CLAUDE.md', join(repo, 'GEMINI.md'));
        },
        'GEMINI.md',
        'link-chain',
      ],
      ['not UTF-8', (repo) => writeFileSync(join(repo, 'GEMINI.md'), Buffer.from([0x66, 0xff, 0x0a])), 'GEMINI.md', 'not-utf8'],
      // Readable, but over the limit: said as what it is, not as a file to make readable.
      ['over 4 MiB', (repo) => writeFileSync(join(repo, 'GEMINI.md'), 'a'.repeat(4 * 1024 * 1024 + 1)), 'GEMINI.md', 'too-large'],
      [
        'a file where a folder goes',
        (repo) => writeFileSync(join(repo, '.cursor'), 'x'),
        '.cursor/rules/agents-billing.mdc',
        'not-a-folder',
      ],
    ];
    for (const [name, setup, path, reason] of cases) {
      const repo = monorepo();
      setup(repo);
      const snap = snapshot(repo);
      const r = await runAgents(['--format', 'json', 'export'], { cwd: repo });
      expect(r.code, name).toBe(2);
      expect(JSON.parse(r.stdout).error, name).toMatchObject({ code: 'export-target-refused', detail: { path, reason } });
      expect(snapshot(repo), name).toEqual(snap);
    }
  });
});

describe('agents export: the Windsurf rule file limit', () => {
  it('counts characters as Windsurf does: an emoji is one, a CRLF line end one; over 12,000 it warns with that count', async () => {
    const repo = tempDir();
    gitInit(repo);
    // Four rules of 1,500 emoji: 6,000 characters and about 500 more of markup, though 12,000 UTF-16 units.
    const emoji = '\u{1F680}'.repeat(1500);
    const ids = ['01JDQ6X5Z8W4N3B2C1D0E9F8G1', '01JDQ6X5Z8W4N3B2C1D0E9F8G2', '01JDQ6X5Z8W4N3B2C1D0E9F8G3', '01JDQ6X5Z8W4N3B2C1D0E9F8G4'];
    writeTree(repo, {
      '.agents/config.yaml': 'version: 1\nexport:\n  targets: [windsurf]\n',
      ...Object.fromEntries(ids.map((id, i) => [`.agents/global/${id}.yaml`, inv(id, `${i} ${emoji}`).replace('../../', '../')])),
      // The user's own text with CRLF line ends: the block is written with them too.
      '.windsurf/rules/agents-global.md': `---\r\ntrigger: always_on\r\n---\r\n${'Keep it short.\r\n'.repeat(200)}`,
    });
    const r = await runAgents(['export'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(join(repo, '.windsurf/rules/agents-global.md'), 'utf8');
    expect(written).toContain('\r\n<!-- agents:begin');
    expect(written.length).toBeGreaterThan(12_000);
    expect(r.stderr).not.toMatch(/reads at most/);
    // Three more rules take it over the limit: the count given is the characters', CRLF one each.
    const more = ['01JDQ6X5Z8W4N3B2C1D0E9F8G5', '01JDQ6X5Z8W4N3B2C1D0E9F8G6', '01JDQ6X5Z8W4N3B2C1D0E9F8G7'];
    writeTree(
      repo,
      Object.fromEntries(more.map((id, i) => [`.agents/global/${id}.yaml`, inv(id, `${i + 4} ${emoji}`).replace('../../', '../')])),
    );
    const over = await runAgents(['export'], { cwd: repo });
    expect(over.code, over.stderr).toBe(0);
    const text = readFileSync(join(repo, '.windsurf/rules/agents-global.md'), 'utf8');
    const chars = [...text.replaceAll('\r\n', '\n')].length;
    expect(chars).toBeGreaterThan(12_000);
    expect(over.stderr).toContain(`.windsurf/rules/agents-global.md is ${chars} characters; windsurf reads at most 12000 of a rule file`);
  });
});
