import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';
import { COMMANDS, GROUPS, commandNames, guessCommand } from '../../src/cli/registry.ts';

/** esbuild's record of which source files each output file of dist/ holds. */
interface Meta {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }>;
}
const meta = (): Meta => JSON.parse(readFileSync(join(REPO, 'dist/meta.json'), 'utf8')) as Meta;

/** npm packages (and src/ folders) bundled into the given dist/ outputs. */
function contents(outputs: Iterable<string>): Set<string> {
  const m = meta();
  const found = new Set<string>();
  for (const o of outputs) {
    for (const input of Object.keys(m.outputs[o]?.inputs ?? {})) {
      const parts = input.split('/');
      const i = parts.lastIndexOf('node_modules');
      if (i >= 0) found.add(parts[i + 1]!.startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1]!);
      else if (parts[0] === 'src') found.add(`src/${parts[1]}`);
    }
  }
  return found;
}

/** The outputs loaded at start-up: dist/cli.js and what it imports statically. */
function staticClosure(entry: string): Set<string> {
  const m = meta();
  const seen = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const i of m.outputs[o]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  return seen;
}

/** The dist/ files a real run of the CLI loads, from a module-resolution hook. */
function loadedBy(args: string[]): { code: number; loaded: Set<string> } {
  const trace = join(tempDir(), 'loads.txt');
  const r = spawnSync(process.execPath, ['--import', join(REPO, 'test/helpers/trace-loads.mjs'), BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, TRACE_LOADS_FILE: trace, NO_COLOR: '1', CI: 'true' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  let lines: string[] = [];
  try {
    lines = readFileSync(trace, 'utf8').split('\n');
  } catch {
    // Nothing loaded through the hook.
  }
  const prefix = `file://${REPO}`;
  const loaded = new Set(lines.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)));
  return { code: r.status ?? -1, loaded };
}

const INTERACTIVE_ONLY = ['ink', 'react', 'react-reconciler', 'yoga-layout', 'ink-testing-library'];

describe('start-up', () => {
  it('loads only yargs and the command table: no store reader, YAML, validators, git or Ink', () => {
    const startup = contents(staticClosure('dist/cli.js'));
    for (const heavy of [...INTERACTIVE_ONLY, 'simple-git', 'yaml', 'ajv', 'ajv-formats', 'src/store', 'src/service', 'src/git', 'src/tui']) {
      expect(startup, heavy).not.toContain(heavy);
    }
    expect(startup).toContain('yargs');
  });

  it.each([
    [['--help']],
    [['invariant', '--help']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--plan', '01M8KK5920RS6CGAVDFVYYJ0B4', '--format', 'yaml']],
    [['--store', '.agents.example', 'invariant', 'list']],
    [['--store', '.agents.example', 'invariant', 'show', '01M8KJT9']],
    [['--store', '.agents.example', 'validate']],
    [['--store', '.agents.example', 'validate', '--format', 'sarif']],
  ])('agents %j never loads Ink or React', (args) => {
    const { code, loaded } = loadedBy(args);
    expect(code).toBe(0);
    expect(loaded.has('dist/cli.js')).toBe(true);
    const bundled = contents(loaded);
    // The trace sees the chunks loaded on demand (yargs at least; the store reader when a store is read).
    expect(bundled).toContain('yargs');
    if (args[0] === '--store') expect(bundled).toContain('src/store');
    for (const pkg of INTERACTIVE_ONLY) expect(bundled, pkg).not.toContain(pkg);
  });

  it('lists each command in the table as its module defines it', async () => {
    for (const entry of COMMANDS) {
      const spec = (await entry.load()).default;
      expect({ command: spec.command, describe: spec.describe }).toEqual({ command: entry.command, describe: entry.describe });
      if (entry.group !== undefined) expect(GROUPS.map((g) => g.name)).toContain(entry.group);
    }
  });

  it('guesses the command from the first words, skipping global options and their values', () => {
    const names = (args: string[]) => {
      const c = guessCommand(args);
      return c ? `${c.group ?? ''} ${commandNames(c)[0]}`.trim() : undefined;
    };
    expect(names(['invariant', 'list', '--effective'])).toBe('invariant list');
    expect(names(['--store', 'invariant', 'invariant', 'ls'])).toBe('invariant list');
    expect(names(['--format', 'json', 'init'])).toBe('init');
    expect(names(['--store=x', 'invariant', 'rm', 'ID'])).toBe('invariant remove');
    expect(names(['invariant'])).toBeUndefined();
    expect(names(['--help'])).toBeUndefined();
    expect(names(['nothing'])).toBeUndefined();
  });
});
