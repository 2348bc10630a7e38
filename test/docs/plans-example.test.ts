// docs/plans.md's "Try it on the example" gives the commands a reader runs on a copy of the example store, and what
// the first one prints: it must be what it prints, but for the ids of the decision and the run it makes.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const page = readFileSync(join(REPO, 'docs/plans.md'), 'utf8');

/** The demo's commands (their words after `node bin/agents.js --store DIR`) and the output block that follows them. */
function demo(): { commands: string[][]; output: string } {
  const m = /```bash\ncp -r \.agents\.example (\S+)\n([\s\S]*?)```\n\n```\n([\s\S]*?)```\n/.exec(page);
  if (!m) throw new Error('docs/plans.md: no "cp -r .agents.example DIR" block followed by an output block');
  const prefix = `node bin/agents.js --store ${m[1]} `;
  const commands = m[2]!
    .trim()
    .split('\n')
    .map((line) => {
      if (!line.startsWith(prefix)) throw new Error(`docs/plans.md: a demo line that is not "${prefix}…": ${line}`);
      // Words as a shell splits this line: a double-quoted one is one word.
      return [...line.slice(prefix.length).matchAll(/"([^"]*)"|(\S+)/g)].map((w) => w[1] ?? w[2]!);
    });
  return { commands, output: m[3]! };
}

/** The text with each id a run makes (new at each run) written ULID; the ids of `known` kept. */
const newIds = (text: string, known: Set<string>) => text.replace(/\b01[0-9A-HJKMNP-TV-Z]{24}\b/g, (id) => (known.has(id) ? id : 'ULID'));

describe("docs/plans.md's demo on the example store", () => {
  it('runs as written, and its first command prints what the page shows', async () => {
    const { commands, output } = demo();
    expect(commands[0]!.slice(0, 2)).toEqual(['plan', 'strategize']);
    const store = join(tempDir(), 'agents-demo');
    cpSync(join(REPO, '.agents.example'), store, { recursive: true });
    // The example's ids stay as the page gives them; only those the run makes differ.
    const known = new Set([...page.matchAll(/\b01M8K[0-9A-Z]{21}\b/g)].map((m) => m[0]));
    const results = [];
    for (const words of commands) results.push(await runAgents(['--store', store, ...words]));
    expect(results.map((r) => [r.code, r.stderr])).toEqual(commands.map(() => [0, '']));
    expect(newIds(results[0]!.stdout, known)).toBe(newIds(output, known));
  });
});
