import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitInit } from '../helpers/git.ts';
import { PtySession } from '../helpers/pty.ts';
import { tempDir } from '../helpers/tmp.ts';

// `agents init` in a real terminal (tmux) asks who judges plans, and the answer lands in config.yaml.
describe('agents init in a terminal', { timeout: 120_000 }, () => {
  test('asks which actor; a wrong answer is asked again; the choice is written', async () => {
    const repo = tempDir();
    gitInit(repo);
    const pty = PtySession.start(['init'], { cwd: repo });
    await pty.waitFor('Choose 1-8 [8]:');
    pty.type('x');
    pty.keys('Enter');
    await pty.waitFor('"x" is not one of 1-8');
    pty.type('1');
    pty.keys('Enter');
    const { code, mode, screen } = await pty.exit();
    expect(code).toBe(0);
    expect(mode).toBe('icanon echo');
    expect(screen).toContain('plans are judged by the agent actor (claude)');
    const config = readFileSync(join(repo, '.agents/config.yaml'), 'utf8');
    expect(config).toContain('  actor: agent\n  agent: claude\n');
  });
});
