// The documentation shows commands as a reader types them: every option an
// `agents COMMAND …` line of the docs gives must be one that command takes
// (its --help lists it), or the reader copies a line the tool refuses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNames, GROUPS } from '../../src/cli/registry.ts';
import { positionalNames } from '../../src/cli/unknown-option.ts';
import { REPO } from '../helpers/cli.ts';
import { runAgents } from '../helpers/main.ts';

/** README.md and the pages of docs/ that show commands (the ADRs record history, not usage). */
function pages(): string[] {
  return [
    'README.md',
    ...readdirSync(join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

type CommandHelp = { words: string[]; options: Set<string>; alias: boolean; help: string };
let helps: Promise<CommandHelp[]> | undefined;

/** Each command's words (aliases included), its --help and the options it names; asked once for the file's tests. */
function commandOptions(): Promise<CommandHelp[]> {
  helps ??= (async () => {
    const out: CommandHelp[] = [];
    for (const c of COMMANDS) {
      const names = commandNames(c);
      const help = await runAgents([...(c.group ? c.group.split(' ') : []), names[0]!, '--help'], { cwd: REPO });
      const options = new Set([...help.stdout.matchAll(/(?<![\w-])(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1]!));
      for (const [i, name] of names.entries())
        out.push({ words: [...(c.group ? c.group.split(' ') : []), name], options, alias: i > 0, help: help.stdout });
    }
    // Longest first, so that `invariant violation add` is found before a shorter command could be.
    return out.sort((a, b) => b.words.length - a.words.length);
  })();
  return helps;
}

/**
 * The `agents …` command lines of a text: the code spans of prose and the lines of code blocks, each cut where the
 * shell's next command or a comment starts, and before `--` (the words after it are arguments, `-x` a file's name).
 */
function commandLines(text: string): { line: number; words: string[] }[] {
  const out: { line: number; words: string[] }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      return;
    }
    const pieces = fenced ? [raw] : [...raw.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    for (const piece of pieces)
      for (const m of piece.matchAll(/(?:^|[\s(])agents ((?:[^\s&|;#>`]+ ?)+)/g)) {
        const words = m[1]!.trim().split(/\s+/);
        const end = words.indexOf('--');
        out.push({ line: i + 1, words: end < 0 ? words : words.slice(0, end) });
      }
  });
  return out;
}

/** The options of the lines of `text` that their command does not take, as `page:line: agents COMMAND --option`. */
function unknownOptions(page: string, text: string, commands: { words: string[]; options: Set<string> }[]): string[] {
  const found: string[] = [];
  for (const { line, words } of commandLines(text)) {
    const command = commands.find((c) => c.words.every((w, j) => words[j] === w));
    if (!command) continue;
    for (const word of words.slice(command.words.length)) {
      const option = /^(--?[a-zA-Z][\w-]*)(=.*)?$/.exec(word)?.[1];
      if (option === undefined || command.options.has(option)) continue;
      // A --no-X form is the negation of a boolean X.
      if (option.startsWith('--no-') && command.options.has(`--${option.slice(5)}`)) continue;
      found.push(`${page}:${line}: agents ${command.words.join(' ')} ${option}`);
    }
  }
  return found;
}

describe('options in the documentation', () => {
  it('each `agents COMMAND --option` of README.md and docs/ is an option of that command', async () => {
    const commands = await commandOptions();
    const lines = pages().flatMap((p) => commandLines(readFileSync(join(REPO, p), 'utf8')));
    expect(lines.length).toBeGreaterThan(200);
    expect(pages().flatMap((p) => unknownOptions(p, readFileSync(join(REPO, p), 'utf8'), commands))).toEqual([]);
  });

  it('finds an option a command does not take (the check is not blind)', async () => {
    const commands = await commandOptions();
    const text = [
      'Run `agents invariant add --global --bogus "x"`, then `agents invariant list --effective`.',
      '```bash',
      'agents guard try --path a.ts --reason x   # guard try takes no --reason',
      'agents action add r/s && agents invariant add --action r/s "Tag it"',
      'agents which -- -x',
      '```',
    ].join('\n');
    expect(unknownOptions('page.md', text, commands)).toEqual([
      'page.md:1: agents invariant add --bogus',
      'page.md:3: agents guard try --reason',
    ]);
  });
});

/** The sections of a page whose heading names a command (`agents plan use …`): each heading's words and the text up to the next heading of its level or above. */
function commandSections(text: string): { heading: string; text: string }[] {
  const lines = text.split('\n');
  const heads: { at: number; level: number; heading: string }[] = [];
  let fenced = false;
  lines.forEach((line, at) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^(#+) (.*)$/.exec(line);
    if (m) heads.push({ at, level: m[1]!.length, heading: m[2]! });
  });
  return heads.map((h, i) => {
    const end = heads.slice(i + 1).find((n) => n.level <= h.level)?.at ?? lines.length;
    return { heading: h.heading, text: lines.slice(h.at, end).join('\n') };
  });
}

/** The options of each command's --help that no section of the docs headed by that command names, as `agents COMMAND --option`. */
function undocumentedOptions(commands: CommandHelp[], sections: { heading: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const c of commands) {
    if (c.alias) continue;
    const words = c.words.join(' ');
    const own = sections.filter((s) => s.heading.includes(`\`agents ${words} `) || s.heading.includes(`\`agents ${words}\``));
    if (own.length === 0) {
      found.push(`agents ${words}: no section`);
      continue;
    }
    const text = own.map((s) => s.text).join('\n');
    const options = c.help.slice(c.help.indexOf('\nOptions:\n'));
    for (const m of options.matchAll(/^ {2}(?:-\w, | {4})?(--[\w-]+)/gm)) {
      const option = m[1]!;
      if (GLOBAL.has(option)) continue;
      // A boolean on by default is written as its --no- form (--no-cache).
      const named = (o: string) => new RegExp(`${o}(?![\\w-])`).test(text);
      if (!named(option) && !named(`--no-${option.slice(2)}`)) found.push(`agents ${words} ${option}`);
    }
    // A one-letter form (`-y` of --yes) is named as code, as `-i` is beside --interactive.
    for (const m of options.matchAll(/^ {2}(-\w), (--[\w-]+)/gm))
      if (!GLOBAL.has(m[2]!) && !text.includes(`\`${m[1]}\``)) found.push(`agents ${words} ${m[1]}`);
  }
  return found;
}

/** The options every command takes (docs/commands.md, "Global options"). */
const GLOBAL = new Set(['--store', '--format', '--input', '--color', '--quiet', '--version', '--help']);

describe('each command in the documentation', () => {
  it('has a section headed by its name, which names every option its --help lists', async () => {
    const sections = pages().flatMap((p) => commandSections(readFileSync(join(REPO, p), 'utf8')));
    expect(undocumentedOptions(await commandOptions(), sections)).toEqual([]);
  });

  it('finds an option no section names, and a command with no section (the check is not blind)', async () => {
    const commands = (await commandOptions()).filter((c) => ['which', 'project add'].includes(c.words.join(' ')));
    const sections = commandSections('## `agents project add NAME`\n\n`--description TEXT`, `--commit`.\n\n## Other\n\n`--path`\n');
    expect(undocumentedOptions(commands, sections)).toEqual(['agents project add --path', 'agents which: no section']);
    const remove = (await commandOptions()).filter((c) => c.words.join(' ') === 'invariant remove');
    expect(undocumentedOptions(remove, commandSections('## `agents invariant remove ID`\n\n`--yes`, `--commit`.\n'))).toEqual([
      'agents invariant remove -y',
    ]);
  });
});

/** The aliases of each command (`ls` of `invariant list`) that no section headed by the command names as `` `alias` ``. */
function undocumentedAliases(commands: { group?: string; names: string[] }[], sections: { heading: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const c of commands) {
    const words = [c.group, c.names[0]].filter(Boolean).join(' ');
    const text = sections
      .filter((s) => s.heading.includes(`\`agents ${words} `) || s.heading.includes(`\`agents ${words}\``))
      .map((s) => s.text)
      .join('\n');
    for (const alias of c.names.slice(1))
      if (!new RegExp(`\\balias\\b[^.]*\`${alias}\``, 'i').test(text)) found.push(`agents ${words}: ${alias}`);
  }
  return found;
}

describe("each command's aliases", () => {
  it('are named in the section headed by the command (`agents invariant list`: "Alias `ls`")', () => {
    const sections = pages().flatMap((p) => commandSections(readFileSync(join(REPO, p), 'utf8')));
    const commands = COMMANDS.map((c) => ({ group: c.group, names: commandNames(c) }));
    expect(commands.filter((c) => c.names.length > 1).length).toBeGreaterThan(5);
    expect(undocumentedAliases(commands, sections)).toEqual([]);
  });

  it('finds an alias no section names (the check is not blind)', () => {
    const sections = commandSections('## `agents invariant list [REGEX]`\n\nLists.\n\n## `agents invariant move ID`\n\nAlias `mv`.\n');
    expect(
      undocumentedAliases(
        [
          { group: 'invariant', names: ['list', 'ls'] },
          { group: 'invariant', names: ['move', 'mv'] },
        ],
        sections,
      ),
    ).toEqual(['agents invariant list: ls']);
  });
});

describe("a command's arguments", () => {
  it('are none of its options: an argument written as an option is refused (src/cli/unknown-option.ts)', async () => {
    const both: string[] = [];
    for (const c of COMMANDS) {
      const options = (await commandOptions()).find((h) => h.words.join(' ') === [c.group, commandNames(c)[0]].filter(Boolean).join(' '))!;
      for (const name of positionalNames(c)) if (options.options.has(`--${name}`)) both.push(`${options.words.join(' ')} --${name}`);
    }
    expect(both).toEqual([]);
  });
});

describe('the options of --help', () => {
  it('are described alike in every command (lower-case words, as the tables of docs/commands.md), -h named', async () => {
    const unlike: string[] = [];
    for (const c of await commandOptions()) {
      if (c.alias) continue;
      const options = c.help.slice(c.help.indexOf('\nOptions:\n'));
      for (const m of options.matchAll(/^ {2}(?:-\w, )?(--[\w-]+) +(\S+)/gm))
        if (/^[A-Z][a-z]/.test(m[2]!)) unlike.push(`agents ${c.words.join(' ')} ${m[1]}: ${m[2]}`);
      expect(options, c.words.join(' ')).toMatch(/--help .*-h\b/);
    }
    expect(unlike).toEqual([]);
  });
});

describe('every --help', () => {
  it('fits 80 columns, the top level, the groups and completion included', async () => {
    const helps = (await commandOptions()).filter((c) => !c.alias).map((c) => ({ words: c.words, help: c.help }));
    for (const words of [[], ['completion'], ...GROUPS.map((g) => g.name.split(' '))]) {
      helps.push({ words, help: (await runAgents([...words, '--help'], { cwd: REPO })).stdout });
    }
    const wide = helps.flatMap((h) =>
      h.help
        .split('\n')
        .filter((l) => l.length > 80)
        .map((l) => `agents ${h.words.join(' ')}: ${l}`),
    );
    expect(wide).toEqual([]);
  });
});

describe('the commands that take --commit', () => {
  it('are the ones "Committing with --commit" of docs/commands.md and the schema of config.yaml name', async () => {
    const withCommit = (await commandOptions())
      .filter((c) => c.options.has('--commit') && !c.alias)
      .map((c) => c.words.join(' '))
      .sort();
    const page = readFileSync(join(REPO, 'docs/commands.md'), 'utf8');
    const section = page.slice(page.indexOf('## Committing with `--commit`'));
    const listed = section.slice(0, section.indexOf('take `--commit`'));
    expect([...listed.matchAll(/`([a-z ]+)`/g)].map((m) => m[1]!).sort()).toEqual(withCommit);
    // The schema names them as a list of the group's words: "invariant add, edit, …, violation resolve, plan use, …".
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas/config.schema.json'), 'utf8')) as {
      properties: { commit: { description: string } };
    };
    const named = /\(([^)]+)\)/.exec(schema.properties.commit.description)![1]!.split(', ');
    let group = '';
    const expanded = named.map((n) => {
      const words = n.split(' ');
      if (words.length === 1) return `${group} ${n}`;
      if (words[0] === 'violation') return `invariant ${n}`;
      group = words[0]!;
      return n;
    });
    expect(expanded.sort()).toEqual(withCommit);
  });
});
