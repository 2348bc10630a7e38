// Command patterns match the command's text as written (docs/guard.md, "Writing a guard"): shell quoting that
// leaves the command the same to the shell is other text to the pattern.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { guardedYaml, tempDir } from '../helpers/tmp.ts';

const INV = '01JGGEBWJTQ6P08NTXZQ7TKM2Q';

describe('a command guard', () => {
  it('matches the text as written: quoting evades it, as the docs say', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
    writeFileSync(
      join(dir, '.agents/global', `${INV}.yaml`),
      guardedYaml(INV, 'Never apply terraform', { command: ['\\bterraform\\s+apply\\b', '\\bsecrets\\b'] }),
    );
    const decide = async (command: string) =>
      JSON.parse((await runAgents(['--format', 'json', 'guard', 'try', '--command', command], { cwd: dir })).stdout).decision;
    expect(await decide('terraform apply')).toBe('deny');
    expect(await decide('rm -rf secrets')).toBe('deny');
    expect(await decide("terraform 'apply'")).toBe('none');
    expect(await decide('rm -rf sec""rets')).toBe('none');
  });
});

describe('guard try with an empty value', () => {
  it('is missing-value naming the option (an unset shell variable names no action)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
    for (const option of ['path', 'command', 'tool', 'cwd']) {
      // --cwd goes with an action: empty, it would judge the command in the current folder instead of the one meant.
      const action = option === 'cwd' ? ['--command', 'terraform apply'] : [];
      const r = await runAgents(['--format', 'json', 'guard', 'try', ...action, `--${option}`, ' '], { cwd: dir });
      expect(errorOf(r), option).toEqual({ code: 'missing-value', exit_code: 2, detail: { option } });
    }
  });
});
