// docs/mcp.md's table of tools is what a harness author codes against: every
// tool the server lists must be a row of it, with the arguments its
// inputSchema takes (no more, no fewer), and marked "(writes)" when it writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools.ts';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';

const page = readFileSync(join(REPO, 'docs/mcp.md'), 'utf8');

/** The arguments a cell names: its code spans outside parentheses, `global: true` read as `global`. */
function cellArguments(cell: string): string[] {
  let text = cell;
  // Explanations in parentheses name values, not arguments; inner ones (a link's target) go first.
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\([^()]*\)/g, '');
  }
  return [...text.matchAll(/`([a-z_]+)(?::[^`]*)?`/g)].map((m) => m[1]!);
}

/** The rows of the table under "## Tools": the tool's name, whether it is marked as writing, and its arguments. */
function tableRows(): Map<string, { writes: boolean; args: string[] }> {
  const section = page.slice(page.indexOf('## Tools'), page.indexOf('### Errors'));
  const rows = new Map<string, { writes: boolean; args: string[] }>();
  for (const m of section.matchAll(/^\| `([a-z_]+)`( \(writes\))? \| ([^|]*) \|/gm))
    rows.set(m[1]!, { writes: m[2] !== undefined, args: cellArguments(m[3]!) });
  return rows;
}

describe("docs/mcp.md's table of tools", () => {
  it('has a row for each tool the server lists, and none for a tool it does not', () => {
    expect([...tableRows().keys()].sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  it('gives each tool the arguments of its inputSchema, and says which tools write', () => {
    const rows = tableRows();
    for (const tool of TOOLS) {
      const row = rows.get(tool.name)!;
      expect(row.args.sort(), tool.name).toEqual(Object.keys(tool.inputSchema.properties ?? {}).sort());
      expect(row.writes, tool.name).toBe(tool.writes);
    }
  });

  it('reads the arguments of a cell as written (the check is not blind)', () => {
    expect(
      cellArguments('at most one of `global: true`, `project`, `action` (`ns/name`, or `source:ns/name`); optional `pattern`'),
    ).toEqual(['global', 'project', 'action', 'pattern']);
    expect(cellArguments('`plan`, `answer` (the answer, [x](../schemas/x.json))')).toEqual(['plan', 'answer']);
  });
});

describe('where writing is turned on', () => {
  it('names every tool that writes: `agents mcp --help`, the schema of config.yaml and its example in docs/store-format.md', async () => {
    const help = (await runAgents(['mcp', '--help'])).stdout.replace(/\s+/g, ' ');
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas/config.schema.json'), 'utf8')) as {
      properties: { mcp: { properties: { allow_write: { description: string } } } };
    };
    const example = /^ {2}allow_write: .*$/m.exec(readFileSync(join(REPO, 'docs/store-format.md'), 'utf8'))![0];
    const places = {
      help: help.slice(help.indexOf('--allow-write ')),
      schema: schema.properties.mcp.properties.allow_write.description,
      example,
    };
    const writing = TOOLS.filter((t) => t.writes).map((t) => t.name);
    expect(writing.length).toBeGreaterThan(1);
    for (const [place, text] of Object.entries(places))
      expect(
        writing.filter((name) => !text.includes(name)),
        place,
      ).toEqual([]);
  });
});
