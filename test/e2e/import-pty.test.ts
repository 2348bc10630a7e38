import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { PtySession } from '../helpers/pty.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

// `agents import` in a real terminal (tmux): the review screen keeps, drops and edits candidates; n writes nothing.

function repo(): string {
  const top = tempDir('agents-import-pty-');
  gitInit(top);
  writeTree(top, {
    '.agents/global/': null,
    '.agents/projects/': null,
    'AGENTS.md': '## Rules\n\n- Never commit secrets.\n- Use UTC everywhere.\n- Prefer small pull requests.\n',
  });
  return top;
}

const texts = (top: string) =>
  readdirSync(join(top, '.agents/global'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => /text: (.*)\n/.exec(readFileSync(join(top, '.agents/global', f), 'utf8'))![1])
    .sort();

// Named slow tests: each drives the real binary in a tmux pseudo-terminal, polling the screen.
describe('agents import (the review screen, in a pseudo-terminal)', { timeout: 120_000 }, () => {
  test('space drops, e edits, s changes the severity, Enter writes the rest', async () => {
    const top = repo();
    const pty = PtySession.start(['import'], { cwd: top, columns: 100, rows: 30 });
    await pty.waitFor('Import 3 rules as invariants (3 kept)');
    pty.type(' '); // drop "Never commit secrets."
    await pty.waitFor('(2 kept)');
    pty.keys('Down');
    pty.type('e');
    await pty.waitFor('Enter saves the text');
    // Clear the field; a key sent in the same instant the field appears can reach the list instead,
    // so the clear is sent again until the field shows empty.
    for (let tries = 0; ; tries++) {
      pty.keys('C-u');
      try {
        await pty.waitFor(/^(?![\s\S]*Use UTC everywhere)/, 5_000);
        break;
      } catch (error) {
        if (tries === 2) throw error;
      }
    }
    pty.type('Use UTC for every timestamp');
    pty.keys('Enter');
    await pty.waitFor('Use UTC for every timestamp');
    pty.keys('Down');
    await pty.waitFor('[x] warning  global  AGENTS.md:5');
    pty.type('s');
    await pty.waitFor('[x] info  global  AGENTS.md:5');
    pty.keys('Enter');
    const { code, screen } = await pty.exit();
    expect(code).toBe(0);
    expect(screen).toContain('imported 2 invariants');
    expect(texts(top)).toEqual(['Prefer small pull requests.', 'Use UTC for every timestamp']);
    const prefer = readdirSync(join(top, '.agents/global')).find((f) =>
      readFileSync(join(top, '.agents/global', f), 'utf8').includes('Prefer'),
    )!;
    expect(readFileSync(join(top, '.agents/global', prefer), 'utf8')).toContain('severity: info');
  });

  test('--prune: the invariants gone from the file are rows of the review; space keeps one, Enter imports and removes the rest', async () => {
    const top = repo();
    expect((await runAgents(['import', '--yes'], { cwd: top })).code).toBe(0);
    // Two rules taken out of the file, one added.
    writeFileSync(join(top, 'AGENTS.md'), '## Rules\n\n- Use UTC everywhere.\n- Keep the changelog current.\n');
    const pty = PtySession.start(['import', '--prune'], { cwd: top, columns: 120, rows: 30 });
    await pty.waitFor('Import 1 rule as invariants (1 kept); remove 2 invariants gone from their files (2 to remove)');
    pty.keys('Down');
    await pty.waitFor(/› \[x\] remove {2}\w{26} {2}was AGENTS\.md:3/);
    pty.type(' '); // keep "Never commit secrets."
    await pty.waitFor('(1 to remove)');
    pty.keys('Enter');
    const { code, screen } = await pty.exit();
    expect(code).toBe(0);
    expect(screen).toContain('removed 1 of them (--prune); 1 not removed');
    expect(texts(top)).toEqual(['Keep the changelog current.', 'Never commit secrets.', 'Use UTC everywhere.']);
  });

  test('n writes nothing (exit 1)', async () => {
    const top = repo();
    const pty = PtySession.start(['import'], { cwd: top, columns: 100, rows: 30 });
    await pty.waitFor('Import 3 rules');
    pty.type('n');
    const { code, screen } = await pty.exit();
    expect(code).toBe(1);
    expect(screen).toContain('Nothing imported.');
    expect(texts(top)).toEqual([]);
  });
});
