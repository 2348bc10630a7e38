// docs/export.md's "A monorepo, step by step" is a session a reader repeats: the repository its tree draws, then
// each `$ agents …` with what it prints. Built from that tree, the session must print what the page shows (an id
// written `01J…` being any id), and the AGENTS.md it shows must be the file written, but for the ids and the hash.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

const page = readFileSync(join(REPO, 'docs/export.md'), 'utf8');
const section = page.slice(page.indexOf('## A monorepo, step by step'), page.indexOf('## Projects and their paths'));

/** The blocks of the section, in order: their info string and their text. */
const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));

/** The repository the tree draws: each project's paths, each invariant's scope and text, and the export targets. */
function tree() {
  const lines = blocks[0]!.text.split('\n');
  const targets = /targets: \[([^\]]+)\]/.exec(lines.find((l) => l.includes('config.yaml'))!)![1]!.split(/,\s*/);
  const paths = new Map<string, string[]>();
  const invariants: { scope: string[]; text: string }[] = [];
  for (const line of lines) {
    const project = /projects\/([a-z]+)\/project\.yaml\s+# paths: \[([^\]]+)\]/.exec(line);
    if (project) paths.set(project[1]!, project[2]!.split(/,\s*/));
    const invariant = /(global|projects\/([a-z]+))\/01J….yaml\s+# "([^"]+)"/.exec(line);
    if (invariant) invariants.push({ scope: invariant[2] ? ['--project', invariant[2]] : ['--global'], text: invariant[3]! });
  }
  return { targets, paths, invariants };
}

/** A line of the page as a pattern: `01J…` is any id, the rest as written. */
const linePattern = (line: string) =>
  new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/01J…/g, '01[0-9A-HJKMNP-TV-Z]{24}')}$`);

/** The session: each `$ …` command (its words, quotes read as one) and the lines the page shows under it. */
function session(): { words: string[]; shown: string[] }[] {
  const text = blocks.find((b) => b.lang === 'bash' && b.text.startsWith('$ agents export'))!.text;
  return text
    .split(/^\$ /m)
    .filter(Boolean)
    .map((part) => {
      const [command, ...shown] = part.trimEnd().split('\n');
      return { words: [...command!.matchAll(/"([^"]*)"|(\S+)/g)].map((w) => w[1] ?? w[2]!), shown: shown.filter(Boolean) };
    });
}

describe("docs/export.md's monorepo, step by step", () => {
  it('prints what the page shows, and writes the AGENTS.md it shows', async () => {
    const dir = tempDir();
    gitInit(dir);
    const run = async (cwd: string, words: string[]) => runAgents(words, { cwd });
    const { targets, paths, invariants } = tree();
    expect(targets).toEqual(['agents-md', 'claude-md', 'cursor']);
    expect((await run(dir, ['init'])).code).toBe(0);
    // As the page says: the `# ` taken off the two `export:` lines `agents init` wrote as comments.
    const config = join(dir, '.agents/config.yaml');
    const commented = readFileSync(config, 'utf8');
    expect(section).toContain('delete the `# ` at the start of `# export:` and of the `targets:` line');
    writeFileSync(config, commented.replace(/^# (export:\n)# ( {2}targets: .*)$/m, '$1$2'));
    expect(parse(readFileSync(config, 'utf8')).export).toEqual({ targets });
    // Each project as the page's `project add` lines make it (the words of each line, its globs quoted for the shell).
    const adds = [...section.matchAll(/`agents project\s+add ([^`]+)`/g)].map((m) =>
      [...m[1]!.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((w) => w[1] ?? w[2] ?? w[3]!),
    );
    expect(adds.map((a) => a[0])).toEqual([...paths.keys()]);
    for (const words of adds) {
      for (const glob of paths.get(words[0]!)!) mkdirSync(join(dir, glob.replace(/\/\*\*$/, '')), { recursive: true });
      const r = await run(dir, ['project', 'add', ...words]);
      expect(r.code, r.stderr).toBe(0);
    }
    // The billing project's project.yaml is the one the page shows.
    const billing = blocks.find((b) => b.lang === 'yaml')!.text;
    expect(readFileSync(join(dir, '.agents/projects/billing/project.yaml'), 'utf8')).toBe(billing);
    for (const { scope, text } of invariants) expect((await run(dir, ['invariant', 'add', ...scope, text])).code).toBe(0);

    let cwd = dir;
    const steps = session();
    expect(steps.map((s) => s.words.slice(0, 2).join(' '))).toEqual([
      'agents export',
      'cd services/billing/src',
      'agents invariant',
      'agents export',
    ]);
    for (const { words, shown } of steps) {
      if (words[0] === 'cd') {
        cwd = join(cwd, words[1]!);
        mkdirSync(cwd, { recursive: true });
        continue;
      }
      const r = await run(cwd, words.slice(1));
      const printed = `${r.stderr}${r.stdout}`.split('\n').filter(Boolean);
      // Every line the page shows is printed; an export prints no line the page leaves out.
      expect(
        shown.filter((line) => !printed.some((p) => linePattern(line).test(p))),
        words.join(' '),
      ).toEqual([]);
      if (words[1] === 'export')
        expect(
          printed.filter((p) => !shown.some((line) => linePattern(line).test(p))),
          words.join(' '),
        ).toEqual([]);
    }

    expect((await run(dir, ['export'])).code).toBe(0);
    const shownFile = blocks.find((b) => b.lang === 'markdown')!.text;
    const written = readFileSync(join(dir, 'services/billing/AGENTS.md'), 'utf8');
    const masked = (text: string) => text.replace(/\b01[0-9A-HJKMNP-TV-Z]{24}\b/g, 'ID').replace(/sha256:[0-9a-f…]+/, 'sha256:HASH');
    expect(masked(written)).toBe(masked(shownFile));
    // The Cursor rule of billing: the same block under the front matter the page gives it.
    const frontMatter = blocks.filter((b) => b.lang === 'yaml')[1]!.text;
    expect(readFileSync(join(dir, '.cursor/rules/agents-billing.mdc'), 'utf8').startsWith(frontMatter)).toBe(true);
  });
});
