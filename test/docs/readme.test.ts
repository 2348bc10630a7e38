import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';

// The README's quick start shows what `npm start` prints: it must be what it prints.
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The command the README says `npm start` runs, and the block of output it shows after it. */
function quickStart(): { command: string; output: string } {
  const m = /`npm start` runs `agents ([^`]+)`:\n\n```\n([\s\S]*?)```\n/.exec(readme);
  if (!m) throw new Error('README.md: no "`npm start` runs `agents …`:" followed by a block of output');
  return { command: m[1]!, output: m[2]! };
}

describe("the README's quick start", () => {
  it('names the command package.json runs as `npm start`', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node bin/agents.js ${quickStart().command}`);
  });

  it('shows, byte for byte, what that command prints on the example store', async () => {
    const { command, output } = quickStart();
    const r = await runAgents(command.split(' '), { cwd: REPO });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(output);
  });
});
