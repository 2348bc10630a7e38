// The documentation is read on GitHub and in a clone: every relative link in it
// must lead to a file of the repository, and every `#anchor` to a heading of
// that file (as GitHub makes a heading's anchor), or a reader lands nowhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

/** README.md, CONTRIBUTING.md and every Markdown file under docs/. */
function pages(): string[] {
  const out = ['README.md', 'CONTRIBUTING.md'].map((p) => join(REPO, p));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk(join(REPO, 'docs'));
  return out;
}

/** The page's lines outside fenced code blocks, with inline code spans blanked (a link shown as code is no link). */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (open) {
      if (fence === undefined) fence = open[1]![0]!;
      else if (open[1]![0] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: raw.replace(/(`+)(?:(?!\1).)+?\1/g, '') });
  });
  return out;
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of proseLines(readFileSync(path, 'utf8').replace(/`/g, ''))) {
    for (const m of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) out.add(m[1]!);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const slug = h[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every relative link of the page that leads nowhere, as `page:line: link (why)`. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const { line, text } of proseLines(readFileSync(page, 'utf8'))) {
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const url = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto: …
      if (url === '…') continue; // a link written as an example of one ("See [the guide](…)")
      const [file, anchor] = url.split('#') as [string, string | undefined];
      const target = file === '' ? page : resolve(dirname(page), decodeURI(file));
      const where = `${relative(REPO, page)}:${line}: ${url}`;
      if (!existsSync(target)) broken.push(`${where} (no such file)`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('relative links in the documentation', () => {
  it('finds the links it checks (the pages and their links are read)', () => {
    const all = pages();
    expect(all.length).toBeGreaterThan(10);
    const links = all.flatMap((p) => proseLines(readFileSync(p, 'utf8')).flatMap((l) => [...l.text.matchAll(/\]\((?![a-z]+:)[^)]+\)/g)]));
    expect(links.length).toBeGreaterThan(100);
  });

  it('each leads to a file of the repository, and each #anchor to a heading of it', () => {
    expect(pages().flatMap(brokenLinks)).toEqual([]);
  });

  it('a broken file or anchor is found (the check is not blind)', () => {
    expect(anchors(join(REPO, 'docs/commands.md'))).toContain('exit-codes');
    expect(anchors(join(REPO, 'docs/commands.md'))).toContain('agents-invariant-move-id---global----project-p----plan-id----action-nsname');
    expect(anchors(join(REPO, 'docs/commands.md'))).not.toContain('no-such-heading');
  });
});

describe('the documentation stands alone', () => {
  /** The lines of a page that name an issue by number: a tracker the repository does not hold. */
  const issueNumbers = (text: string, page: string): string[] =>
    text.split('\n').flatMap((line, i) => (/\bissues? #?\d+/i.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : []));

  it('names no issue by number: what an issue asked is said where it is used', () => {
    expect(pages().flatMap((p) => issueNumbers(readFileSync(p, 'utf8'), relative(REPO, p)))).toEqual([]);
  });

  it('finds an issue named by number (the check is not blind)', () => {
    expect(issueNumbers('Budgets (issue 29; rows)\nas issue #31 allows\nno issue here', 'p.md')).toEqual([
      'p.md:1: Budgets (issue 29; rows)',
      'p.md:2: as issue #31 allows',
    ]);
  });
});
