import { lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportService } from '../../src/service/import-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ScopeService } from '../../src/service/scope-service.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { makeReadOnly } from '../helpers/read-only.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

/** A repository with a store (export to agents-md and claude-md) and the instruction files `tree`, and its import service. */
function repo(tree: Record<string, string>): { top: string; service: ImportService } {
  const top = tempDir('agents-import-replace-');
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    '.agents/projects/': null,
    '.agents/actions/': null,
    '.agents/plans/': null,
    '.agents/config.yaml': 'version: 1\nexport:\n  targets: [agents-md, claude-md]\n',
    ...tree,
  });
  const invariants = new InvariantService(join(top, '.agents'));
  return { top, service: new ImportService(invariants, new ScopeService(invariants)) };
}

/** The file's text outside the managed block. */
function outsideBlock(text: string): string {
  const begin = text.indexOf('<!-- agents:begin');
  if (begin < 0) return text;
  const end = text.indexOf('<!-- agents:end -->\n') + '<!-- agents:end -->\n'.length;
  return text.slice(0, begin) + text.slice(end);
}

describe('import --replace removes only the lines of rules the store now holds', () => {
  it('a copy of a rule dropped in the review stays in its file, as the dropped rule stays in its own', async () => {
    const { top, service } = repo({
      'AGENTS.md': '- Never commit secrets.\n- Use UTC for every timestamp.\n',
      'CLAUDE.md': '- Use UTC for every timestamp.\n- Never commit secrets.\n',
    });
    const plan = await service.plan({ cwd: top });
    const copy = plan.candidates.find((c) => c.file === 'CLAUDE.md' && c.text === 'Never commit secrets.')!;
    expect(copy.status).toBe('duplicate');
    // The review keeps the UTC rule and drops "Never commit secrets." (its first copy, in AGENTS.md).
    const chosen = plan.candidates.filter((c) => c.status === 'new' && c.text !== 'Never commit secrets.');
    const written = await service.apply(plan, chosen);
    const replaced = await service.replace(plan, written);
    expect(replaced.files).toEqual([
      { file: 'AGENTS.md', removed: [2], block: true },
      { file: 'CLAUDE.md', removed: [1], block: true },
    ]);
    expect(outsideBlock(readFileSync(join(top, 'AGENTS.md'), 'utf8'))).toBe('- Never commit secrets.\n');
    expect(outsideBlock(readFileSync(join(top, 'CLAUDE.md'), 'utf8'))).toBe('- Never commit secrets.\n');
  });
});

describe('import of rules the review made alike', () => {
  it('a kept rule whose text another kept rule of its scope has (both edited alike) is reported as not imported, and its line stays', async () => {
    const { top, service } = repo({ 'AGENTS.md': '- Never commit secrets.\n- Use UTC for every timestamp.\n' });
    const plan = await service.plan({ cwd: top });
    const [first, second] = plan.candidates;
    const written = await service.apply(plan, [first!, { ...second!, text: first!.text }]);
    expect(written.invariants.map((w) => w.n)).toEqual([first!.n]);
    expect(written.refused).toEqual([{ n: second!.n, why: expect.stringContaining('global/') }]);
    const replaced = await service.replace(plan, written);
    expect(replaced.files).toEqual([{ file: 'AGENTS.md', removed: [1], block: true }]);
    expect(outsideBlock(readFileSync(join(top, 'AGENTS.md'), 'utf8'))).toBe('- Use UTC for every timestamp.\n');
  });
});

describe('import --replace and a file edited since the plan read it', () => {
  it('a file whose lines moved keeps every line; the others are replaced', async () => {
    const { top, service } = repo({
      'AGENTS.md': '- Never commit secrets.\n- Use UTC for every timestamp.\n',
      'CLAUDE.md': '# Notes\n\n- Keep pull requests small.\n',
    });
    const plan = await service.plan({ cwd: top });
    // Someone adds a line on top while the review is open: the plan's line 1 is now the new line.
    const edited = '- Write the changelog by hand.\n- Never commit secrets.\n- Use UTC for every timestamp.\n';
    writeTree(top, { 'AGENTS.md': edited });
    const written = await service.apply(
      plan,
      plan.candidates.filter((c) => c.status === 'new'),
    );
    const replaced = await service.replace(plan, written);
    expect(replaced.changed).toEqual(['AGENTS.md']);
    expect(replaced.files).toEqual([{ file: 'CLAUDE.md', removed: [3], block: true }]);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).toBe(edited);
  });

  it('a CLAUDE.md that is a symbolic link to AGENTS.md is not named as changed: the file it leads to is replaced', async () => {
    const { top, service } = repo({ 'AGENTS.md': '- Never commit secrets.\n' });
    symlinkSync('AGENTS.md', join(top, 'CLAUDE.md'));
    const plan = await service.plan({ cwd: top });
    const replaced = await service.replace(
      plan,
      await service.apply(
        plan,
        plan.candidates.filter((c) => c.status === 'new'),
      ),
    );
    expect(replaced.changed).toEqual([]);
    expect(replaced.files).toEqual([{ file: 'AGENTS.md', removed: [1], block: true }]);
    // Its rule reaches Claude through the block of the file the link leads to: not a rule the export writes nowhere.
    expect(replaced.unexported).toEqual([]);
    expect(lstatSync(join(top, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
  });

  it('an edit that leaves the rules on their lines does not stop the replacement', async () => {
    const { top, service } = repo({ 'AGENTS.md': '- Never commit secrets.\n\nNotes.\n' });
    const plan = await service.plan({ cwd: top });
    writeTree(top, { 'AGENTS.md': '- Never commit secrets.\n\nNotes, and more notes.\n' });
    const replaced = await service.replace(plan, await service.apply(plan, plan.candidates));
    expect(replaced.changed).toEqual([]);
    expect(outsideBlock(readFileSync(join(top, 'AGENTS.md'), 'utf8'))).toBe('\nNotes, and more notes.\n');
  });
});

describe('import --replace and a rule the store keeps inactive', () => {
  it('is not new, but its line stays: the export leaves it out, so the file is all that still says it', async () => {
    const inactive = '01K0000000000000000000000A';
    const { top, service } = repo({
      'AGENTS.md': '- Never push to main.\n- Use tabs.\n',
      [`.agents/global/${inactive}.yaml`]: `id: ${inactive}\ntext: Never push to main.\nseverity: error\nactive: false\ncreated_at: 2026-01-01T00:00:00Z\n`,
    });
    const plan = await service.plan({ cwd: top });
    expect(plan.candidates.map((c) => [c.text, c.status, c.same_as])).toEqual([
      ['Never push to main.', 'exists', { id: inactive, path: `global/${inactive}.yaml`, inactive: true }],
      ['Use tabs.', 'new', undefined],
    ]);
    const replaced = await service.replace(plan, await service.apply(plan, [plan.candidates[1]!]));
    expect(replaced.files).toEqual([{ file: 'AGENTS.md', removed: [2], block: true }]);
    expect(outsideBlock(readFileSync(join(top, 'AGENTS.md'), 'utf8'))).toBe('- Never push to main.\n');
  });
});

describe('import --replace and rules the export writes nowhere', () => {
  it('a rule put into a project without paths (or with paths AGENTS.md cannot express) keeps its line', async () => {
    const { top, service } = repo({ 'AGENTS.md': '- Never commit secrets.\n', 'CLAUDE.md': '- Use UTC for every timestamp.\n' });
    const plan = await service.plan({ cwd: top, project: 'billing', paths: ['AGENTS.md'] });
    const replaced = await service.replace(plan, await service.apply(plan, plan.candidates));
    expect(replaced.files).toEqual([]);
    expect(replaced.unexported).toEqual([{ file: 'AGENTS.md', line: 1, target: 'agents-md' }]);
    expect(readFileSync(join(top, 'AGENTS.md'), 'utf8')).toBe('- Never commit secrets.\n');
    // A project whose path is a glob: AGENTS.md files are per folder, so that export writes it nowhere either.
    writeTree(top, {
      '.agents/projects/tsonly/project.yaml': 'paths:\n  - src/**/*.ts\n',
      'src/a.ts': '',
      'GEMINI.md': '- Keep it short.\n',
    });
    const glob = await service.plan({ cwd: top, project: 'tsonly', paths: ['GEMINI.md'] });
    const kept = await service.replace(glob, await service.apply(glob, glob.candidates));
    expect(kept.unexported).toEqual([{ file: 'GEMINI.md', line: 1, target: 'gemini-md' }]);
    expect(readFileSync(join(top, 'GEMINI.md'), 'utf8')).toBe('- Keep it short.\n');
    // A global rule the export writes into CLAUDE.md goes, as before.
    const global = await service.plan({ cwd: top, paths: ['CLAUDE.md'] });
    const moved = await service.replace(global, await service.apply(global, global.candidates));
    expect(moved.files).toEqual([{ file: 'CLAUDE.md', removed: [1], block: true }]);
    expect(moved.unexported).toEqual([]);
  });
});

describe('import --replace and a file it cannot write', () => {
  it('a read-only source file is exit 2 before anything is written: no invariant, the file as it was', async () => {
    const { top } = repo({ 'AGENTS.md': '- Never commit secrets.\n- Use UTC for every timestamp.\n' });
    const file = join(top, 'AGENTS.md');
    const undo = makeReadOnly(file);
    if (undo === undefined) {
      console.log('skipped: cannot bind-mount here (needs mount)');
      return;
    }
    try {
      const r = await runAgents(['--format', 'json', 'import', 'AGENTS.md', '--replace', '--yes'], { cwd: top });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).ok).toBe(false);
      expect(readdirSync(join(top, '.agents/global'))).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe('- Never commit secrets.\n- Use UTC for every timestamp.\n');
    } finally {
      undo();
    }
  });

  it('a .clinerules that is a file, where the export writes its folder, is exit 2 before anything is written, and its way round is one import takes', async () => {
    const tree = { 'AGENTS.md': '- Never commit secrets.\n', '.clinerules': '- Use tabs.\n' };
    const { top } = repo(tree);
    const r = await runAgents(['--format', 'json', 'import', '--replace', '--yes'], { cwd: top });
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stdout);
    expect(error.code).toBe('export-target-refused');
    expect(error.detail).toEqual({ path: '.clinerules/agents-global.md', reason: 'not-a-folder' });
    // Not the export's --target, which import refuses as an unknown option.
    expect(error.hint).not.toContain('--target');
    expect(readdirSync(join(top, '.agents/global'))).toEqual([]);
    for (const [file, text] of Object.entries(tree)) expect(readFileSync(join(top, file), 'utf8')).toBe(text);
    // Without --replace, as the hint offers, the rules are imported and the files left as they are.
    expect((await runAgents(['import', '--yes'], { cwd: top })).code).toBe(0);
    expect(readdirSync(join(top, '.agents/global'))).toHaveLength(2);
  });
});
