// The README's table of commands is where a new user looks for what the tool
// can do: every command of the CLI must be in it, and nothing that is not one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNames } from '../../src/cli/registry.ts';
import { GATE_REASON_CODES, type GateReasonCode } from '../../src/core/plan-gate.ts';
import { REPO } from '../helpers/cli.ts';

/** The commands the README's table names: `agents plan use\|list ID` names `plan use` and `plan list`. */
function tableCommands(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Commands'), readme.indexOf('\n## ', readme.indexOf('## Commands') + 1));
  return [...table.matchAll(/^\| `agents ([^`]+)` \|/gm)].flatMap((m) => {
    // The command's words come first (lower case, alternatives joined by `\|`); its arguments and options follow.
    const words: string[] = [];
    for (const token of m[1]!.split(' ')) {
      if (!/^[a-z]+(\\\|[a-z]+)*$/.test(token)) break;
      words.push(token);
    }
    const last = words.pop()!;
    return last.split('\\|').map((name) => [...words, name].join(' '));
  });
}

describe("the README's table of commands", () => {
  const cli = [...COMMANDS.map((c) => [c.group, commandNames(c)[0]].filter(Boolean).join(' ')), 'completion'];

  it('is read (the table holds commands of every group)', () => {
    expect(tableCommands()).toEqual(expect.arrayContaining(['init', 'invariant add', 'invariant violation resolve', 'plan status']));
  });

  it('lists every command of the CLI', () => {
    const listed = new Set(tableCommands());
    expect(cli.filter((c) => !listed.has(c))).toEqual([]);
  });

  it('lists no command the CLI does not have', () => {
    expect(tableCommands().filter((c) => !cli.includes(c))).toEqual([]);
  });
});

describe("the README's summary of plan status", () => {
  /** The words that name each reason that can fail the gate (docs/plans.md); those that only report have none. */
  const WORDS: Record<GateReasonCode, string | null> = {
    'error-violation': 'standing error violation',
    'not-run': 'never reconciled',
    'run-failed': 'failed',
    'run-incomplete': 'incomplete',
    stale: 'stale',
    unenforced: 'unenforced',
    'unknown-project': 'project is gone',
    violation: null,
    'unfinished-run': null,
    drift: null,
  };

  it('names every reason the gate fails on', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `agents plan use'))!;
    const said = row.slice(row.indexOf('`status` exits 1'));
    expect(Object.keys(WORDS).sort()).toEqual([...GATE_REASON_CODES].sort());
    expect(GATE_REASON_CODES.filter((c) => WORDS[c] !== null && !said.includes(WORDS[c]!))).toEqual([]);
  });
});
