// `agents import` of a CLAUDE.md or GEMINI.md that reads other files in with `@path`: such a line is no rule, and
// `--replace` never moves it, so the agent still reads the file from where the team put it; a rule that names its file
// itself moves to the block, which then reads the file in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

function repo(tree: Record<string, string | null>): string {
  const top = tempDir('agents-import-refs-');
  gitInit(top);
  writeTree(top, { '.agents/global/': null, '.agents/projects/': null, '.agents/actions/': null, '.agents/plans/': null, ...tree });
  return top;
}

const json = async (top: string, ...args: string[]) => {
  const r = await runAgents(['--format', 'json', ...args], { cwd: top });
  return { code: r.code, stderr: r.stderr, data: JSON.parse(r.stdout) };
};

const CLAUDE = [
  '# Project', // 1
  '', // 2
  'See @README.md for the overview.', // 3
  '', // 4
  '@docs/style.md', // 5
  '', // 6
  '## Rules', // 7
  '', // 8
  '- Read @docs/style.md before editing.', // 9
  '- Never push to main.', // 10
  '- Run the tests before pushing, see @docs/testing.md.', // 11
  '', // 12
].join('\n');

describe('import of @path lines', () => {
  for (const [file, kind, text] of [
    ['CLAUDE.md', 'claude-md', CLAUDE],
    // Gemini CLI writes its imports relative to the file, `@./…`.
    ['GEMINI.md', 'gemini-md', CLAUDE.replaceAll('@docs/', '@./docs/').replace('@README.md', '@./README.md')],
  ] as const) {
    it(`${file}: the @ lines are left out as references, kept byte for byte by --replace (a rule naming its file moves, once), and a second import adds nothing`, async () => {
      const top = repo({
        [file]: text,
        'README.md': '# Readme\n',
        'docs/style.md': '- Use tabs.\n',
        'docs/testing.md': '- Use vitest.\n',
        '.agents/config.yaml': `export:\n  targets: [${kind}]\n`,
      });
      const dry = await json(top, 'import', '--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.data.candidates.map((c: { line: number; text: string }) => [c.line, c.text])).toEqual([
        [10, 'Never push to main.'],
        [11, `Run the tests before pushing, see @${file === 'GEMINI.md' ? './' : ''}docs/testing.md.`],
      ]);
      const refs = dry.data.files[0].left_out.filter((l: { reason: string }) => l.reason === 'reference');
      expect(refs.map((l: { line: number }) => l.line)).toEqual([3, 5, 9]);

      const r = await json(top, 'import', '--yes', '--replace');
      expect(r.code).toBe(0);
      // The rules went, also the one that names its file with @: the block says it once, and its agent reads the file
      // in from there. Every line that only points at a file to read is where it was.
      expect(r.data.replaced.files).toEqual([{ file, removed: [10, 11], block: true }]);
      const after = readFileSync(join(top, file), 'utf8');
      const lines = text.split('\n');
      for (const n of [3, 5, 9]) expect(after.split('\n')).toContain(lines[n - 1]);
      expect(after.slice(0, after.indexOf('<!-- agents:begin'))).toBe(`${lines.slice(0, 9).join('\n')}\n`);
      expect(after.slice(after.indexOf('<!-- agents:end -->'))).toBe(`<!-- agents:end -->\n${lines.slice(11).join('\n')}`);
      const block = after.slice(after.indexOf('<!-- agents:begin'), after.indexOf('<!-- agents:end -->'));
      expect(block.split(lines[10]!.slice(2)).length - 1).toBe(1);
      expect(after.split(lines[10]!.slice(2)).length - 1).toBe(1);

      // The round trip: what the file still says is in the store, or no rule.
      const again = await json(top, 'import', '--dry-run');
      expect(again.data.candidates).toEqual([]);
      const twice = await json(top, 'import', '--yes', '--replace');
      expect(twice.code).toBe(0);
      expect(twice.data.written.invariants).toEqual([]);
      expect(readFileSync(join(top, file), 'utf8')).toBe(after);
    });
  }

  it('a rule naming its file with @ moves only into the block of its own folder, where the @ reads the same file', async () => {
    const web = '# Web\n\n- Run the tests, see @docs/t.md.\n- Use tabs.\n';
    const tree = {
      'apps/web/CLAUDE.md': web,
      'apps/web/docs/t.md': '- Use vitest.\n',
      '.agents/config.yaml': 'export:\n  targets: [claude-md]\n',
    };
    // Its folder's project: the line goes, and the block of that file says the rule, and its @, once.
    const own = repo(tree);
    const r = await json(own, 'import', '--yes', '--replace');
    expect(r.code).toBe(0);
    expect(r.data.replaced.files).toEqual([{ file: 'apps/web/CLAUDE.md', removed: [3, 4], block: true }]);
    const after = readFileSync(join(own, 'apps/web/CLAUDE.md'), 'utf8');
    expect(after.startsWith('# Web\n\n<!-- agents:begin')).toBe(true);
    expect(after.split('Run the tests, see @docs/t.md.').length - 1).toBe(1);
    // Moved to the top's block, its @ would read docs/t.md of the top: the line stays byte for byte, the other goes.
    const moved = repo(tree);
    const g = await json(moved, 'import', '--yes', '--replace', '--global');
    expect(g.code).toBe(0);
    expect(g.data.replaced.files).toEqual([{ file: 'apps/web/CLAUDE.md', removed: [4], block: false }]);
    expect(readFileSync(join(moved, 'apps/web/CLAUDE.md'), 'utf8')).toBe('# Web\n\n- Run the tests, see @docs/t.md.\n');
  });
});
