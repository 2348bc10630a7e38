// `agents import` of a CLAUDE.md or GEMINI.md that reads other files in with `@path`: such a line is no rule, and
// `--replace` never moves it, so the agent still reads the file from where the team put it.
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
    it(`${file}: the @ lines are left out as references, kept byte for byte by --replace, and a second import adds nothing`, async () => {
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
      // Only the rule that is all its line says went; every line that reads a file in is where it was.
      expect(r.data.replaced.files).toEqual([{ file, removed: [10], block: true }]);
      const after = readFileSync(join(top, file), 'utf8');
      const lines = text.split('\n');
      for (const n of [3, 5, 9, 11]) expect(after.split('\n')).toContain(lines[n - 1]);
      expect(after.slice(0, after.indexOf('<!-- agents:begin'))).toBe(`${lines.slice(0, 9).join('\n')}\n`);
      expect(after.slice(after.indexOf('<!-- agents:end -->'))).toBe(`<!-- agents:end -->\n${lines.slice(10).join('\n')}`);

      // The round trip: what the file still says is in the store, or no rule.
      const again = await json(top, 'import', '--dry-run');
      expect(again.data.candidates.map((c: { status: string }) => c.status)).toEqual(['exists']);
      const twice = await json(top, 'import', '--yes', '--replace');
      expect(twice.code).toBe(0);
      expect(twice.data.written.invariants).toEqual([]);
      expect(readFileSync(join(top, file), 'utf8')).toBe(after);
    });
  }
});
