// docs/json-output.md#errors calls the `code` of the error document stable and
// lists the codes in a table: a script that reads `--format json` failures
// relies on that table. Every code the source gives an error must be in it,
// and every code in it must be one the source gives.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNames } from '../../src/cli/registry.ts';
import { defaultErrorCode, EXIT_CODES } from '../../src/core/errors.ts';
import { type Calls, CLI_FLAGS } from '../../src/service/option-words.ts';
import { REPO } from '../helpers/cli.ts';
import { topLevelParts } from '../helpers/literal-parts.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The top-level arguments of the call whose `(` is at `open`, as text: strings and
 * comments are skipped over, and a template literal's `${…}` is read as code.
 */
function callArguments(text: string, open: number): string[] {
  // What encloses the current character: a template literal, or code nested `depth` brackets deep.
  const stack: ({ kind: 'code'; depth: number } | { kind: 'template' })[] = [{ kind: 'code', depth: 0 }];
  const args: string[] = [];
  let from = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1]!;
    if (top.kind === 'template') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && text[i + 1] === '{') {
        stack.push({ kind: 'code', depth: 1 });
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i) + 1;
    else if (c === "'" || c === '"') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '`') stack.push({ kind: 'template' });
    else if (c === ',' && stack.length === 1 && top.depth === 1) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
    } else if ('([{'.includes(c)) top.depth++;
    else if (')]}'.includes(c) && --top.depth === 0) {
      if (stack.length === 1) {
        const last = text.slice(from, i).trim();
        return last === '' ? args : [...args, last];
      }
      stack.pop(); // the end of a template's ${…}
    }
  }
  throw new Error(`no end to the call at ${open}`);
}

/** The codes an argument names: a literal, or the literals of a conditional (`flag ? 'a' : 'b'`). */
const literals = (arg: string | undefined): string[] =>
  arg !== undefined && /^[\w\s.!?:'-]+$/.test(arg) ? [...arg.matchAll(/'([a-z][a-z0-9-]*)'/g)].map((m) => m[1]!) : [];

/** Each error code the source gives, with where it first does. */
function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(REPO, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new (UsageError|CheckFailedError|AgentsError)\(/g)) {
      const args = callArguments(text, m.index + m[0].length - 1);
      // UsageError and CheckFailedError take the code as their fourth argument; AgentsError in its options, the third.
      const codes =
        m[1] === 'AgentsError'
          ? [...(args[2] ?? '').matchAll(/^\s*code: ([^,\n]+)/gm)].flatMap((c) => literals(c[1]!.trim()))
          : literals(args[3]);
      const where = `${relative(REPO, file)}:${text.slice(0, m.index).split('\n').length}`;
      for (const code of codes) if (!found.has(code)) found.set(code, where);
    }
  }
  // An error that names no code has its exit code's class.
  for (const exit of Object.values(EXIT_CODES)) if (exit !== 0) found.set(defaultErrorCode(exit), 'src/core/errors.ts');
  return found;
}

/** The codes of the table under "## Errors" in docs/json-output.md. */
function codesInDocs(): Set<string> {
  const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
  const section = page.slice(page.indexOf('## Errors'));
  const out = new Set<string>();
  for (const row of section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    // The code cell: the codes in backticks before any parenthesis that explains them.
    const cell = row[2]!.split('(')[0]!;
    for (const c of cell.matchAll(/`([a-z][a-z0-9-]*)`/g)) out.add(c[1]!);
  }
  return out;
}

describe('the error codes of docs/json-output.md', () => {
  it('the source and the table are read (neither side is empty)', () => {
    expect(codesInSource().size).toBeGreaterThan(20);
    expect(codesInDocs().size).toBeGreaterThan(20);
    expect(codesInSource().get('value-too-long')).toMatch(/^src\//);
    expect(codesInDocs()).toContain('unknown-project');
  });

  it('lists every code an error of the source carries', () => {
    const documented = codesInDocs();
    const missing = [...codesInSource()].filter(([code]) => !documented.has(code)).map(([code, where]) => `${code} (${where})`);
    expect(missing).toEqual([]);
  });

  it('lists no code that no error of the source carries', () => {
    const given = codesInSource();
    expect([...codesInDocs()].filter((code) => !given.has(code))).toEqual([]);
  });
});

/** The row of the table under "## Errors" in docs/json-output.md whose code cell names `code`. */
function errorRow(code: string): string {
  const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
  const row = page
    .slice(page.indexOf('## Errors'))
    .split('\n')
    .find((line) => line.startsWith(`| `) && line.split('|')[2]?.includes(`\`${code}\``));
  if (row === undefined) throw new Error(`docs/json-output.md: no row for ${code}`);
  return row;
}

/**
 * The commands whose refusal part-way gives `detail.written` and `detail.rerun` (a `failedPartWay(…)` of the source),
 * by the command its `rerun` names: `agents plan sync ${plan.id}` is `plan sync`.
 */
function partWayCommands(): Map<string, string> {
  const found = new Map<string, string>();
  const files = sources(join(REPO, 'src')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  // A rerun may be a constant of any module: its literal.
  const constants = new Map(
    files.flatMap(({ text }) => [...text.matchAll(/const ([A-Z_]+) = ('[^']*'|`[^`]*`)/g)].map((c) => [c[1]!, c[2]!])),
  );
  for (const { file, text } of files) {
    for (const m of text.matchAll(/\bfailedPartWay\(/g)) {
      if (/function\s+$/.test(text.slice(0, m.index))) continue; // its definition
      const arg = callArguments(text, m.index + m[0].length - 1)[2] ?? '';
      const words = rerunWords(constants.get(arg) ?? arg);
      if (words[0] !== 'agents') throw new Error(`${relative(REPO, file)}: a rerun that is no agents command: ${arg}`);
      const command = words.slice(1, words.findIndex((w, i) => i > 0 && !/^[a-z]+$/.test(w)) >>> 0).join(' ');
      found.set(command, `${relative(REPO, file)}:${text.slice(0, m.index).split('\n').length}`);
    }
  }
  return found;
}

/**
 * The words of a rerun as the source writes it: a literal; a template started by the run's agents
 * (`${ctx.agentsCommand()} init --schemas`); a call of the command line's words (`calls.syncPlan(plan.id)`), said
 * with a bare agents; or a parameter its caller gives (GIVEN_BY_CALLER).
 */
function rerunWords(rerun: string): string[] {
  const call = /\bcalls\.(\w+)\b/.exec(rerun);
  if (call) {
    const made = CLI_FLAGS.calls[call[1] as keyof Calls] as string | ((given: unknown) => string);
    // ['X'] is said X as a name and as a list of targets.
    return (typeof made === 'function' ? made(['X']) : made).split(' ');
  }
  if (GIVEN_BY_CALLER[rerun] !== undefined) return `agents ${GIVEN_BY_CALLER[rerun]}`.split(' ');
  return rerun
    .slice(1, -1)
    .replace(/^\$\{ctx\.agentsCommand\(\)\}/, 'agents')
    .split(' ');
}

/** The reruns a caller gives: writeSchemas's `refresh`, `${ctx.agentsCommand()} init --schemas` (cli/commands/init.ts). */
const GIVEN_BY_CALLER: Record<string, string> = { refresh: 'init --schemas' };

describe('write-failed refused part-way', () => {
  it('the source is read (the commands refused part-way are found)', () => {
    expect([...partWayCommands().keys()]).toEqual(expect.arrayContaining(['plan sync', 'export', 'import']));
  });

  it('the row of write-failed names every command whose refusal part-way gives {written, rerun}', () => {
    const row = errorRow('write-failed');
    const missing = [...partWayCommands()].filter(([command]) => !row.includes(`\`${command}`)).map(([c, where]) => `${c} (${where})`);
    expect(missing).toEqual([]);
  });
});

describe('the exit codes of docs/commands.md', () => {
  it('the row of exit 1 names each command an error of exit 1 in docs/json-output.md names', () => {
    const json = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
    const commands = new Set(COMMANDS.map((c) => [c.group, commandNames(c)[0]].filter(Boolean).join(' ')));
    // The commands named in the explanation of each code of exit 1: `project remove` of project-in-use.
    const named = [...json.slice(json.indexOf('## Errors')).matchAll(/^\| 1 \| `([a-z-]+)` \(([^|]*)\|/gm)].flatMap((row) =>
      [...row[2]!.matchAll(/`([a-z ]+)`/g)].filter((c) => commands.has(c[1]!)).map((c) => ({ code: row[1]!, command: c[1]! })),
    );
    expect(named.map((n) => n.code)).toContain('project-in-use');
    const page = readFileSync(join(REPO, 'docs/commands.md'), 'utf8');
    const exit1 = /^\| 1 \| (.*)$/m.exec(page.slice(page.indexOf('## Exit codes')))![1]!;
    expect(named.filter((n) => !exit1.includes(`\`${n.command}`)).map((n) => `${n.code}: ${n.command}`)).toEqual([]);
  });
});

/** The entries of an object literal's text (`{ a, b: x, 'c': y }`: a, b: x, c: y), or undefined for anything else or a spread. */
function literalEntries(text: string): [string, string][] | undefined {
  const body = text.trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return undefined;
  const entries: [string, string][] = [];
  for (const part of topLevelParts(body)) {
    if (part.startsWith('...')) return undefined;
    const key = /^['"]?([\w$]+)['"]?\s*(?::\s*([\s\S]*))?$/.exec(part);
    if (key) entries.push([key[1]!, key[2] ?? key[1]!]);
  }
  return entries;
}

const literalKeys = (text: string): string[] | undefined => literalEntries(text)?.map(([k]) => k);

describe('the detail of each error code in docs/json-output.md', () => {
  it('names every key of a detail the source gives as an object literal', () => {
    const page = readFileSync(join(REPO, 'docs/json-output.md'), 'utf8');
    // Each code's rows, whole: a code may have two (not-a-store), and a cell may name a key its command adds.
    const rows = new Map<string, string>();
    for (const row of page.slice(page.indexOf('## Errors')).matchAll(/^\| \d+ \| ([^|]+) \| (.*) \|$/gm))
      for (const c of row[1]!.split('(')[0]!.matchAll(/`([a-z][a-z0-9-]*)`/g)) rows.set(c[1]!, `${rows.get(c[1]!) ?? ''} ${row[0]}`);
    const missing: string[] = [];
    let read = 0;
    for (const file of sources(join(REPO, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new (UsageError|CheckFailedError|AgentsError)\(/g)) {
        const args = callArguments(text, m.index + m[0].length - 1);
        // UsageError and CheckFailedError take the detail third and the code fourth; AgentsError both in its options.
        const options = m[1] === 'AgentsError' ? new Map(literalEntries(args[2] ?? '') ?? []) : undefined;
        const keys = literalKeys((options ? options.get('detail') : args[2]) ?? '');
        const codes = literals(options ? options.get('code') : args[3]);
        if (keys === undefined) continue;
        for (const code of codes) {
          read++;
          const row = rows.get(code) ?? '';
          for (const key of keys)
            if (!new RegExp(`\\b${key}\\b`).test(row))
              missing.push(`${code}: ${key} (${relative(REPO, file)}:${text.slice(0, m.index).split('\n').length})`);
        }
      }
    }
    expect(read).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('reads the keys of an object literal (the check is not blind)', () => {
    expect(literalKeys("{ arguments: all, suggestions: [], 'x': f(a, b) }")).toEqual(['arguments', 'suggestions', 'x']);
    expect(literalKeys('{ path }')).toEqual(['path']);
    expect(literalKeys('{ ...rest, a }')).toBeUndefined();
    expect(literalKeys('detail')).toBeUndefined();
    expect(literalEntries("{ hint, code: 'locked', detail: { lock, pid } }")).toEqual([
      ['hint', 'hint'],
      ['code', "'locked'"],
      ['detail', '{ lock, pid }'],
    ]);
  });
});
