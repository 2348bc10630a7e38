// Export edges (issue 30, E): line endings, hand-edited blocks, empty sets,
// waivers, and the export-check hook without targets.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { B1, B2, G1, G2, G3, inv, monorepo, W1 } from '../export/repo.ts';

const ADMIN = '01JDQ6X5Z8W4N3B2C1D0E9F8H1';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const run = (cwd: string, ...args: string[]) => runAgents(args, { cwd });

describe('export edges', () => {
  it('CRLF line ends (eol=crlf) are not an edit: --check passes and export writes CRLF back', async () => {
    const repo = monorepo();
    expect((await run(repo, 'export', '--target', 'agents-md')).code).toBe(0);
    const path = join(repo, 'AGENTS.md');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\n/g, '\r\n'));
    const check = await run(repo, 'export', '--check', '--target', 'agents-md', '--no-cache');
    expect(check.code, check.stdout + check.stderr).toBe(0);
    // A change in the store: the file is updated, its line ends kept.
    writeFileSync(join(repo, '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8A9.yaml'), 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8A9\ntext: Keep backups\n');
    const r = await run(repo, 'export', '--target', 'agents-md', '--no-cache');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('Keep backups');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('one hand-edited block is left alone, the others are written, exit 1 naming it', async () => {
    const repo = monorepo();
    expect((await run(repo, 'export', '--target', 'agents-md')).code).toBe(0);
    const billing = join(repo, 'services/billing/AGENTS.md');
    writeFileSync(billing, readFileSync(billing, 'utf8').replace('Amounts are integers of cents', 'Amounts are floats'));
    writeFileSync(join(repo, '.agents/global/01JDQ6X5Z8W4N3B2C1D0E9F8A9.yaml'), 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8A9\ntext: Keep backups\n');
    const r = await run(repo, 'export', '--target', 'agents-md', '--format', 'json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('services/billing/AGENTS.md');
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain('Keep backups');
    expect(readFileSync(billing, 'utf8')).toContain('Amounts are floats');
  });

  it('a project whose invariants are all inactive gets no file, and a block that became empty is removed', async () => {
    const repo = monorepo();
    expect((await run(repo, 'export', '--target', 'agents-md')).code).toBe(0);
    const billing = join(repo, 'services/billing/AGENTS.md');
    expect(existsSync(billing)).toBe(true);
    for (const id of [B1, B2]) {
      const f = join(repo, `.agents/projects/billing/${id}.yaml`);
      writeFileSync(f, `${readFileSync(f, 'utf8')}active: false\n`);
    }
    const r = await run(repo, 'export', '--target', 'agents-md', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(billing)).toBe(false);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).not.toContain('(none)');
  });

  it('a file two sets share holds only the one that is not empty: no section says "(none)"', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\nprojects:\n  allow_overlap: true\n');
    // legacy holds every file (the root AGENTS.md, with the global set), admin shares apps/web with web.
    writeFileSync(join(repo, '.agents/projects/legacy/project.yaml'), 'paths:\n  - "**"\n');
    mkdirSync(join(repo, '.agents/projects/admin'));
    writeFileSync(join(repo, '.agents/projects/admin/project.yaml'), 'paths:\n  - apps/web/**\n');
    writeFileSync(join(repo, `.agents/projects/admin/${ADMIN}.yaml`), inv(ADMIN, 'Admin pages need two reviewers'));
    // The global set and web's are empty: every one of their invariants inactive.
    for (const f of [`global/${G1}`, `global/${G2}`, `global/${G3}`, `projects/web/${W1}`]) {
      const path = join(repo, `.agents/${f}.yaml`);
      writeFileSync(path, `${readFileSync(path, 'utf8')}active: false\n`);
    }
    expect((await run(repo, 'export')).code).toBe(0);
    const root = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    const web = readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8');
    for (const text of [root, web]) expect(text).not.toContain('(none)');
    expect(root.match(/^### .*/gm)).toEqual(['### Project legacy']);
    // legacy's ** holds apps/web: its section is there too, for the agents that read only the nearest AGENTS.md.
    expect(web.match(/^### .*/gm)).toEqual(['### Project admin', '### Project legacy']);
    for (const args of [['--no-cache'], ['--project', 'web'], ['--project', 'legacy']])
      expect((await run(repo, 'export', '--check', ...args)).code, args.join(' ')).toBe(0);
  });

  it('a waiver that holds is said in the project file', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const w = await run(
      repo,
      'invariant',
      'waive',
      B1,
      '--project',
      'billing',
      '--reason',
      'Migration window',
      '--owner',
      'Data team',
      '--expires',
      '2999-01-31',
    );
    expect(w.code, w.stderr).toBe(0);
    expect((await run(repo, 'export')).code).toBe(0);
    const text = readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8');
    expect(text).toContain(`\`${B1}\` is waived for this project until 2999-01-31`);
  });

  it('a waiver of a global invariant is said for a project without invariants of its own, in a file of its own; not one of an invariant no file exports', async () => {
    const repo = monorepo();
    writeFileSync(
      join(repo, '.agents/config.yaml'),
      'version: 1\nexport:\n  targets: [agents-md, cursor]\n  severities: [error, warning]\n',
    );
    rmSync(join(repo, `.agents/projects/web/${W1}.yaml`));
    const waive = (id: string) =>
      run(repo, 'invariant', 'waive', id, '--project', 'web', '--reason', 'Legacy', '--owner', 'Web team', '--expires', '2999-01-31');
    // G3 is info, which export.severities leaves out: its waiver alone gives web nothing to say.
    expect((await waive(G3)).code).toBe(0);
    expect((await run(repo, 'export')).code).toBe(0);
    expect(existsSync(join(repo, 'apps/web/AGENTS.md'))).toBe(false);
    expect(existsSync(join(repo, '.cursor/rules/agents-web.mdc'))).toBe(false);
    // G1 binds every file in the root files: an agent in apps/web must learn that it is waived there.
    expect((await waive(G1)).code).toBe(0);
    expect((await run(repo, 'export')).code).toBe(0);
    for (const f of ['apps/web/AGENTS.md', 'packages/ui/AGENTS.md', '.cursor/rules/agents-web.mdc']) {
      const text = readFileSync(join(repo, f), 'utf8');
      expect(text, f).toContain(`\`${G1}\` is waived for this project until 2999-01-31`);
      expect(text, f).not.toContain('(none)');
    }
    expect((await run(repo, 'export', '--check')).code).toBe(0);
  });

  it('a waiver of an invariant the set does not hold (inactive) is said neither in the project file nor by --stdout', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const waive = ['invariant', 'waive', B1, '--project', 'billing', '--reason', 'Migration', '--owner', 'Data team'];
    expect((await run(repo, ...waive, '--expires', '2999-01-31')).code).toBe(0);
    const f = join(repo, `.agents/projects/billing/${B1}.yaml`);
    writeFileSync(f, `${readFileSync(f, 'utf8')}active: false\n`);
    expect((await run(repo, 'export')).code).toBe(0);
    const text = readFileSync(join(repo, 'services/billing/AGENTS.md'), 'utf8');
    expect(text).toContain(B2);
    expect(text).not.toContain(B1);
    const stdout = await run(repo, 'export', '--stdout', '--project', 'billing', '--target', 'agents-md');
    expect(stdout.code, stdout.stderr).toBe(0);
    expect(stdout.stdout).not.toContain(B1);
  });

  it('an export answered from its cache is computed again once a waiver it names expires', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const file = join(repo, 'services/billing/AGENTS.md');
    const sentence = `\`${B1}\` is waived for this project until 2030-01-31`;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const waive = ['invariant', 'waive', B1, '--project', 'billing', '--reason', 'Migration', '--owner', 'Data team'];
      expect((await run(repo, ...waive, '--expires', '2030-01-31')).code).toBe(0);
      expect((await run(repo, 'export')).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain(sentence);
      // Up to date, from the cache (the waiver still holds on its last day).
      vi.setSystemTime(new Date('2030-01-31T23:59:59Z'));
      const fresh = await run(repo, 'export', '--check', '--format', 'json');
      expect(fresh.code, fresh.stdout).toBe(0);
      // The waiver has expired: no input changed, yet the file is out of date, and the export takes the sentence out.
      vi.setSystemTime(new Date('2030-02-01T00:00:00Z'));
      const stale = await run(repo, 'export', '--check', '--format', 'json');
      expect(stale.code, stale.stdout).toBe(1);
      expect(JSON.parse(stale.stdout).files).toContainEqual(expect.objectContaining({ path: 'services/billing/AGENTS.md' }));
      expect((await run(repo, 'export')).code).toBe(0);
      expect(readFileSync(file, 'utf8')).not.toContain(sentence);
      expect((await run(repo, 'export', '--check')).code).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an export answered from its cache sees a waiver added, edited or removed', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    const file = join(repo, 'services/billing/AGENTS.md');
    expect((await run(repo, 'export')).code).toBe(0);
    expect((await run(repo, 'export', '--check')).code).toBe(0);
    const waive = ['invariant', 'waive', B1, '--project', 'billing', '--reason', 'Migration', '--owner', 'Data team'];
    expect((await run(repo, ...waive, '--expires', '2999-01-31')).code).toBe(0);
    const stale = async () => {
      const r = await run(repo, 'export', '--check', '--format', 'json');
      expect(r.code, r.stdout).toBe(1);
      expect(JSON.parse(r.stdout).files).toContainEqual({
        path: 'services/billing/AGENTS.md',
        status: 'out of date',
        line: null,
        diff: null,
      });
      expect((await run(repo, 'export')).code).toBe(0);
      expect((await run(repo, 'export', '--check')).code).toBe(0);
    };
    await stale();
    expect(readFileSync(file, 'utf8')).toContain('Migration');
    const folder = join(repo, '.agents/projects/billing/waivers');
    const [name] = readdirSync(folder);
    writeFileSync(join(folder, name!), readFileSync(join(folder, name!), 'utf8').replace('Migration', 'Cutover'));
    await stale();
    expect(readFileSync(file, 'utf8')).toContain('Cutover');
    rmSync(join(folder, name!));
    await stale();
    expect(readFileSync(file, 'utf8')).not.toContain('waived');
  });

  it('a check the cache answers says the warnings a computed one says, and none of a file an earlier run created', async () => {
    const repo = monorepo();
    const config = join(repo, '.agents/config.yaml');
    writeFileSync(config, 'version: 1\nexport:\n  targets: [agents-md]\n');
    expect((await run(repo, 'export')).code).toBe(0);
    // A glob no nested file holds, a file created that git ignores.
    writeFileSync(join(repo, '.agents/projects/web/project.yaml'), 'paths:\n  - apps/web/**\n  - packages/ui/**\n  - "**/*.css"\n');
    rmSync(join(repo, 'services/billing/AGENTS.md'));
    writeFileSync(join(repo, '.gitignore'), 'services/billing/AGENTS.md\n');
    const wrote = await run(repo, 'export');
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(wrote.stderr).toContain('services/billing/AGENTS.md is ignored by git');
    const computed = await run(repo, 'export', '--check', '--no-cache');
    expect(computed.code).toBe(0);
    expect(computed.stderr).toContain('**/*.css');
    expect(computed.stderr).not.toContain('ignored by git');
    for (let n = 0; n < 2; n++) expect(await run(repo, 'export', '--check')).toEqual(computed);
  });

  it('a check the cache answers finds the files of a target config.yaml does not list that appeared since it was made', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
    expect((await run(repo, 'export')).code).toBe(0);
    expect((await run(repo, 'export', '--check')).code).toBe(0);
    // A one-off export of targets config.yaml does not list: their root files, rule folders and nested files hold blocks,
    // which a whole export takes back, so a check the cache answers calls them obsolete as a computed one does.
    expect((await run(repo, 'export', '--target', 'cursor,gemini-md,copilot')).code).toBe(0);
    const computed = await run(repo, 'export', '--check', '--no-cache');
    expect(computed.code).toBe(1);
    for (const path of ['.cursor/rules/agents-global.mdc', '.github/copilot-instructions.md', 'GEMINI.md', 'apps/web/GEMINI.md'])
      expect(computed.stdout).toContain(`${path}: obsolete`);
    for (let n = 0; n < 2; n++) expect(await run(repo, 'export', '--check')).toEqual(computed);
    expect((await run(repo, 'export')).code).toBe(0);
    expect((await run(repo, 'export', '--check')).code).toBe(0);
    // Only a nested file of a dropped target with a block, copied back by hand since: the cache does not answer.
    expect((await run(repo, 'export', '--target', 'gemini-md', '--project', 'web')).code).toBe(0);
    const nested = await run(repo, 'export', '--check', '--no-cache');
    expect([nested.code, nested.stdout]).toEqual([1, 'apps/web/GEMINI.md: obsolete\npackages/ui/GEMINI.md: obsolete\n']);
    expect(await run(repo, 'export', '--check')).toEqual(nested);
    expect((await run(repo, 'export')).code).toBe(0);
    // A file of a dropped target's name without a block (the team's own Copilot instructions) is no reason to compute.
    mkdirSync(join(repo, '.github'), { recursive: true });
    writeFileSync(join(repo, '.github/copilot-instructions.md'), '# Our own notes\n');
    const own = await run(repo, 'export', '--check');
    expect(own.code).toBe(0);
    expect(own.stderr).toBe('');
    expect(readFileSync(join(repo, '.github/copilot-instructions.md'), 'utf8')).toBe('# Our own notes\n');
  });

  it("a code fence of the owner's that opens above the block and is never closed is said with its line; the export is written", async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), '# Notes\n\n```sh\nnpm test\n');
    const r = await run(repo, 'export', '--no-cache');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/^# Notes\n\n```sh\nnpm test\n\n<!-- agents:begin/);
    expect(r.stderr).toContain('AGENTS.md:3:');
    expect(r.stderr).not.toContain('CLAUDE.md:');
  });

  it('export --check in a store without targets passes (the export-check hook)', async () => {
    const repo = tempDir();
    gitInit(repo);
    expect((await run(repo, 'init')).code).toBe(0);
    const r = await run(repo, 'export', '--check', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).ok).toBe(true);
    // Writing still needs a target.
    expect((await run(repo, 'export')).code).toBe(2);
  });
});

describe('project paths into .git/ or the store', () => {
  it.each(['.git/**', '.agents/**', 'vendor/lib/.git/**'])(
    '%s is refused: export exit 2 naming project.yaml, validate an error, nothing written',
    async (glob) => {
      const repo = monorepo();
      writeFileSync(join(repo, '.agents/projects/web/project.yaml'), `paths:\n  - ${JSON.stringify(glob)}\n`);
      const r = await run(repo, 'export', '--target', 'agents-md');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('projects/web/project.yaml:2:');
      expect(existsSync(join(repo, '.git/AGENTS.md'))).toBe(false);
      expect(existsSync(join(repo, '.agents/AGENTS.md'))).toBe(false);
      const v = await run(repo, 'validate', '--format', 'json');
      expect(JSON.parse(v.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('project-path-invalid');
    },
  );
});

/** One character of a ULID for each of the texts below: an id of 26. */
const ULID_DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('exported Markdown is what prettier prints', () => {
  it('prettier --write changes nothing, and export --check still passes after it', async () => {
    const repo = monorepo();
    writeFileSync(
      join(repo, '.agents/projects/web/01JDQ6X5Z8W4N3B2C1D0E9F8C9.yaml'),
      'id: 01JDQ6X5Z8W4N3B2C1D0E9F8C9\ntext: "Use *strict* mode, never __proto__, keep `a*b` as code"\n',
    );
    // Texts that open a block of their own inside the list item, or hold blank runs, which prettier would rewrite.
    const edges = [
      '+ plus marker',
      '1) ordered marker',
      '~~~ tilde fence',
      'a\\ttab and  two  spaces, `kept  in  code`',
      '> a quote',
      '[WIP]: never merge a draft',
      'Name it ``x`` or ` y `, never \\\\*z\\\\*',
      '1. + nested marker',
      '`` ` `` and ``a`b``',
      // HTML blocks that only a mark the line lacks would end: raw HTML past the item, and a blank line from prettier.
      '<style> rules only in CSS files',
      '<?xml declarations come first',
      '<!DOCTYPE html first',
      '1. <textarea> never',
      '$$ is the shell, never a temporary file name',
      'Link the [docs]() in every PR, not `[x]()`',
      // A backtick no span closes, which the id's opening backtick would close.
      'Quote with one ` only',
      // A block tag, which would make the item raw HTML.
      '<div> wrappers only in layouts',
      // A heading, and character references, which would render as the invisible characters they name.
      '# Migrations are append-only',
      'Never name a file exe&#x202E;txt.doc or &rlm;x',
    ];
    for (const [i, text] of edges.entries())
      writeFileSync(
        join(repo, `.agents/projects/web/01JDQ6X5Z8W4N3B2C1D0E9F8D${ULID_DIGITS[i]}.yaml`),
        `id: 01JDQ6X5Z8W4N3B2C1D0E9F8D${ULID_DIGITS[i]}\ntext: "${text}"\n`,
      );
    // A waiver's reason and owner are said in the project's notes: their blanks too are folded as prettier prints them.
    const waive = ['invariant', 'waive', G1, '--project', 'web', '--expires', '2999-01-31'];
    expect((await run(repo, ...waive, '--reason', 'legacy\tcode,  moved  later ', '--owner', ' Web\tteam')).code).toBe(0);
    expect((await run(repo, 'export')).code).toBe(0);
    expect(readFileSync(join(repo, 'apps/web/AGENTS.md'), 'utf8')).toContain('(owner: Web team; legacy code, moved later).');
    const files = [
      'AGENTS.md',
      'CLAUDE.md',
      'GEMINI.md',
      'apps/web/AGENTS.md',
      'services/billing/AGENTS.md',
      '.github/copilot-instructions.md',
      '.windsurf/rules/agents-web.md',
      '.clinerules/agents-web.md',
    ];
    for (const f of files) expect(existsSync(join(repo, f)), f).toBe(true);
    const prettier = join(REPO, 'node_modules/.bin/prettier');
    const check = spawnSync(prettier, ['--check', '--no-config', ...files], { cwd: repo, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    spawnSync(prettier, ['--write', '--no-config', ...files], { cwd: repo, encoding: 'utf8' });
    const after = await run(repo, 'export', '--check', '--no-cache');
    expect(after.code, after.stdout + after.stderr).toBe(0);
    // A configuration that re-wraps prose folds the block's lines and its front matter: the same words, up to date.
    const rules = [...files, '.cursor/rules/agents-web.mdc'];
    for (const wrap of ['always', 'never']) {
      const before = rules.map((f) => readFileSync(join(repo, f), 'utf8'));
      const p = spawnSync(prettier, ['--write', '--no-config', '--parser', 'markdown', '--prose-wrap', wrap, ...rules], { cwd: repo });
      expect(p.status).toBe(0);
      expect(rules.map((f) => readFileSync(join(repo, f), 'utf8'))).not.toEqual(before);
      const wrapped = await run(repo, 'export', '--check', '--no-cache');
      expect(wrapped.code, wrap + wrapped.stdout + wrapped.stderr).toBe(0);
      const again = await run(repo, 'export', '--no-cache', '--format', 'json');
      expect(JSON.parse(again.stdout).changes).toEqual([]);
    }
  });
});

describe('temporaries of a killed export', () => {
  it('are removed by the next export when their process is gone; a running one is left alone', async () => {
    const repo = monorepo();
    expect((await run(repo, 'export', '--target', 'claude-md')).code).toBe(0);
    const gone = spawnSync('true').pid!;
    const stale = join(repo, `.CLAUDE.md.${gone}.1a2b3c4d.tmp`);
    const nested = join(repo, `services/billing/.CLAUDE.md.${gone}.5e6f7a8b.tmp`);
    const running = join(repo, `.CLAUDE.md.${process.ppid}.99aa00bb.tmp`);
    const other = join(repo, `.notes.md.${gone}.1a2b3c4d.tmp`);
    for (const f of [stale, nested, running, other]) writeFileSync(f, 'half');
    const r = await run(repo, 'export', '--target', 'claude-md');
    expect(r.code, r.stderr).toBe(0);
    expect([stale, nested, running, other].map((f) => existsSync(f))).toEqual([false, false, true, true]);
  });
});
