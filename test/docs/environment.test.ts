// An environment variable the tool reads changes what it does without a word on
// the command line: a reader can only learn of it from the docs. Every variable
// the source reads must be named in docs/, the tool's own (`AGENTS_…`) in the
// "Environment" paragraph of docs/commands.md, and that paragraph must name no
// variable the source has stopped reading.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The variables a text reads, with the line of the first read: `env.NAME` (not assigned), `env['NAME']`, a reader's
 * `millisecondsFromEnv(env, 'NAME'` or `envSwitchOn(env, 'NAME'` and a constant `…_ENV = 'NAME'`.
 */
function variablesRead(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g,
    /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
    /\b(?:millisecondsFromEnv|envSwitchOn)\((?:[\w.]*\.)?env, '([A-Z][A-Z0-9_]*)'/g,
    /\b[A-Z_]+_ENV = '([A-Z][A-Z0-9_]*)'/g,
  ];
  for (const pattern of patterns)
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split('\n').length;
      if (!found.has(m[1]!)) found.set(m[1]!, line);
    }
  return found;
}

/** Reads of an environment the tool made itself, not the user's: git's config count, which gitEnv has just set. */
const OWN_READS = new Set(['src/git/runner.ts GIT_CONFIG_COUNT']);

/** Each variable the source reads, with where it first does. */
function readInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(REPO, 'src')))
    for (const [name, line] of variablesRead(readFileSync(file, 'utf8')))
      if (!found.has(name) && !OWN_READS.has(`${relative(REPO, file)} ${name}`)) found.set(name, `${relative(REPO, file)}:${line}`);
  return found;
}

/** The pages a reader looks in (the ADRs and the performance log record history). */
function docsText(): string {
  return readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'performance-log.md')
    .map((f) => readFileSync(join(REPO, 'docs', f), 'utf8'))
    .join('\n');
}

/** The paragraph of docs/commands.md that starts "Environment:". */
function environmentParagraph(): string {
  const page = readFileSync(join(REPO, 'docs/commands.md'), 'utf8');
  const at = page.indexOf('\nEnvironment: ');
  if (at < 0) throw new Error('docs/commands.md: no "Environment:" paragraph');
  return page.slice(at, page.indexOf('\n\n', at + 1));
}

/** The tool's own variables the source names anywhere (a hint naming one, a constant), but the build's `__AGENTS_BUILD_ID__`. */
function ownInSource(): Set<string> {
  const own = new Set<string>();
  for (const file of sources(join(REPO, 'src')))
    for (const m of readFileSync(file, 'utf8').matchAll(/(?<![\w])AGENTS_[A-Z0-9_]*[A-Z0-9](?![\w])/g)) own.add(m[0]);
  return own;
}

describe('the environment variables in the documentation', () => {
  it('the source is read (variables of every kind of read are found)', () => {
    const read = readInSource();
    expect([...read.keys()]).toEqual(
      expect.arrayContaining(['AGENTS_STORE', 'AGENTS_LOCK_TIMEOUT_MS', 'AGENTS_NO_CACHE', 'AGENTS_SAFE_DIRECTORY', 'NO_COLOR', 'CI']),
    );
    expect(ownInSource()).toContain('AGENTS_PLAN');
  });

  it('names every variable the source reads', () => {
    const docs = docsText();
    const missing = [...readInSource()].filter(([name]) => !new RegExp(`\\b${name}\\b`).test(docs)).map(([n, where]) => `${n} (${where})`);
    expect(missing).toEqual([]);
  });

  it('names each of the tool\'s own variables in the "Environment" paragraph of docs/commands.md, and none it does not read', () => {
    const paragraph = environmentParagraph();
    const own = ownInSource();
    expect([...own].filter((name) => !paragraph.includes(`\`${name}`))).toEqual([]);
    const named = new Set([...paragraph.matchAll(/\bAGENTS_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]));
    expect([...named].filter((name) => !own.has(name))).toEqual([]);
  });

  it('reads the ways the source reads a variable (the check is not blind)', () => {
    const text = [
      'const a = io.env.FOO_BAR;',
      "env.GIT_WRITTEN = '1';",
      "if (env.SAME === 'x') {}",
      "const b = env['QUOTED'];",
      "millisecondsFromEnv(env, 'TIME_MS', 5);",
      "envSwitchOn(this.io.env, 'SWITCH');",
      "identityFromEnvironment(env, 'AUTHOR');",
      "export const SAFE_ENV = 'CONSTANT';",
    ].join('\n');
    expect([...variablesRead(text).keys()].sort()).toEqual(['CONSTANT', 'FOO_BAR', 'QUOTED', 'SAME', 'SWITCH', 'TIME_MS']);
  });
});
