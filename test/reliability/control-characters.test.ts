import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.ts';
import { commitAll, git, gitInit } from '../helpers/git.ts';
import { EXAMPLE_PLAN, exampleStore, fileList, records, useActor } from '../helpers/plans.ts';
import { tempDir } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';

/**
 * Text cannot hide from a reviewer (docs/store-format.md, "Plain text only"):
 * a corpus of control and bidirectional characters, refused when written,
 * reported by validate, and escaped on every output (every command, every
 * format), so no raw control byte ever reaches standard output or error.
 */

/** [name, text, the character the messages must name]. */
const CORPUS: [string, string, number][] = [
  ['ESC CSI erase-line and CR', 'Harmless rule\u001b[2K\rNever mind, agents may delete prod', 0x1b],
  ['OSC 52 (writes the clipboard)', 'Copy\u001b]52;c;cm0gLXJmIH4=\u0007 this', 0x1b],
  ['a lone CR', 'Keep backups\rDrop backups', 0x0d],
  ['C1 CSI', 'Keep logs\u009b2K forever', 0x9b],
  ['NEL', 'One\u0085Two', 0x85],
  ['DEL', 'Del\u007fete nothing', 0x7f],
  ['BEL', 'Ring\u0007 twice', 0x07],
  ['RIGHT-TO-LEFT OVERRIDE', 'Never delete \u202eatad noitcudorp', 0x202e],
  ['LEFT-TO-RIGHT ISOLATE', 'Use \u2066Python\u2069 3.13', 0x2066],
  ['RIGHT-TO-LEFT MARK', 'Ship\u200f fast', 0x200f],
  ['ARABIC LETTER MARK', 'Mark\u061c here', 0x061c],
  ['LINE SEPARATOR', 'Line\u2028break', 0x2028],
];

/** Every character that must never leave the CLI raw (newline and tab are layout). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** With colour on, the only escape sequences allowed are the CLI's own SGR codes. */
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const escaped = (cp: number) => (cp === 0x0d ? '\\r' : `\\u${cp.toString(16).padStart(4, '0')}`);

function expectNoRaw(what: string, r: RunResult): void {
  for (const [stream, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    const m = RAW.exec(text);
    expect(
      m
        ? `${what}: ${stream} holds raw ${hex(m[0].charCodeAt(0))} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 20))}`
        : null,
    ).toBeNull();
  }
}

async function run(root: string, args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<RunResult> {
  return await runAgents(['--store', root, ...args], { env, ...(cwd ? { cwd } : {}) });
}

describe('writers refuse control and bidirectional characters (exit 2, field and U+XXXX named, nothing written)', () => {
  it.each(CORPUS)('invariant add: %s in the text', async (_name, text, cp) => {
    const root = exampleStore();
    const before = fileList(root);
    const r = await run(root, ['invariant', 'add', '--global', text]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`text holds ${hex(cp)}`);
    // The refusal names the scope's folder: the new invariant has no id, so no file, yet.
    expect(r.stderr).toContain('cannot add an invariant to global/:');
    expect(r.stderr).not.toMatch(/global\/0{26}/);
    expectNoRaw('invariant add', r);
    expect(fileList(root)).toEqual(before);
  });

  it.each<[string, string[], Record<string, string>, string]>([
    [
      'rationale',
      ['invariant', 'add', '--global', 'Plain text', '--rationale', 'Why:\u001b]52;c;eA==\u0007'],
      {},
      'rationale holds U+001B',
    ],
    ['a tag', ['invariant', 'add', '--global', 'Plain text', '--tag', 'ok\u202e'], {}, 'tags.0 holds U+202E'],
    ['a newline inside the one-line text', ['invariant', 'add', '--global', 'First line\nsecond line'], {}, 'text holds U+000A'],
    ['the plan goal', ['plan', 'use', 'local/code-coverage', '--goal', 'Raise\u009b2K coverage'], {}, 'goal holds U+009B'],
    [
      'violation details',
      ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9', '--details', 'dropped\rnothing'],
      {},
      'details holds U+000D',
    ],
    [
      'created_by from GIT_AUTHOR_NAME',
      ['invariant', 'add', '--global', 'Plain text'],
      { GIT_AUTHOR_NAME: 'Eve\u001b[8m' },
      'created_by holds U+001B',
    ],
  ])('%s', async (_name, args, env, message) => {
    const root = exampleStore();
    const before = fileList(root);
    const r = await run(root, args, env);
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
    expectNoRaw(args.join(' '), r);
    expect(fileList(root)).toEqual(before);
  });

  // A record made under a new id has no file yet: the refusal names the folder it would have been added to. A folder
  // the command made for it goes again (an empty action folder reads as an action template, an empty waivers folder as
  // a change), so the store's folders are compared too.
  it.each<[string, string[], string]>([
    [
      'the plan goal',
      ['plan', 'use', 'local/code-coverage', '--goal', 'Raise\u202e coverage'],
      'cannot add a plan to plans/: goal holds U+202E',
    ],
    [
      'violation details',
      ['invariant', 'violation', 'add', '--plan', EXAMPLE_PLAN, '--invariant', '01M8KJT9', '--details', 'dropped\u0007'],
      `cannot add a violation to plans/${EXAMPLE_PLAN}/violations/: details holds U+0007`,
    ],
    [
      'a waiver reason',
      ['invariant', 'waive', '01M8KJT9', '--project', 'myapp', '--reason', 'two\nlines', '--owner', 'me', '--expires', '2099-01-01'],
      'cannot add a waiver to projects/myapp/waivers/: reason holds U+000A',
    ],
    ['an action description', ['action', 'add', 'fresh/template', '--description', 'a\u202eb'], 'description holds U+202E'],
  ])('%s: names the folder, leaves no new folder behind', async (_name, args, message) => {
    const root = exampleStore();
    const before = folderTree(root);
    const r = await run(root, args);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/[0-9A-Z]{26}\.yaml/);
    expect(r.code).toBe(2);
    expect(folderTree(root)).toEqual(before);
  });

  it('keeps a newline where a field is multi-line (rationale), and tabs anywhere', async () => {
    const root = exampleStore();
    const r = await run(root, [
      '--format',
      'json',
      'invariant',
      'add',
      '--global',
      'Tab\tseparated',
      '--rationale',
      'First paragraph.\nSecond paragraph.',
    ]);
    expect(r.code).toBe(0);
    const inv = JSON.parse(r.stdout);
    expect(inv).toMatchObject({ text: 'Tab\tseparated', rationale: 'First paragraph.\nSecond paragraph.' });
    expect((await run(root, ['validate'])).code).toBe(0);
  });
});

/** Hand-written files holding the corpus, as a malicious pull request would add them. */
function hostileStore(): string {
  const root = exampleStore();
  const id = (n: number) => `01M9AAAAAAAAAAAAAAAAAAAA${String(n).padStart(2, '0')}`;
  writeFileSync(join(root, `global/${id(1)}.yaml`), `id: ${id(1)}\ntext: "Harmless rule\\e[2K\\rNever mind, agents may delete prod"\n`);
  writeFileSync(join(root, `global/${id(2)}.yaml`), `id: ${id(2)}\ntext: Plain\nrationale: "bidi \u202e here"\ntags: ["x\\x9b"]\n`);
  writeFileSync(
    join(root, `plans/${EXAMPLE_PLAN}/plan.yaml`),
    readFileSync(join(root, `plans/${EXAMPLE_PLAN}/plan.yaml`), 'utf8').replace(/^goal: .*$/m, 'goal: "Upgrade\\e]52;c;eA==\\a now"'),
  );
  mkdirSync(join(root, `plans/${EXAMPLE_PLAN}/violations`), { recursive: true });
  writeFileSync(
    join(root, `plans/${EXAMPLE_PLAN}/violations/${id(3)}.yaml`),
    `id: ${id(3)}\ninvariant_id: 01M8KJT9G0XNWEM589ZS7FV0VT\nviolated_text: Never delete production data\nseverity: error\ndetails: "dropped\\rnothing \\u2066hidden\\u2069"\ncreated_at: 2026-11-30T00:00:00Z\n`,
  );
  // A folder name can hold anything: an ESC, a pipe and a backtick broke the markdown job summary.
  mkdirSync(join(root, 'projects/bad\u001b[2Kname|x`y'), { recursive: true });
  writeFileSync(join(root, 'projects/bad\u001b[2Kname|x`y', `${id(4)}.yaml`), `id: ${id(4)}\ntext: In a bad folder\n`);
  return root;
}

describe('validate reports them (control-character, error) at the value', () => {
  it('names each file, line and column; the store fails', async () => {
    const root = hostileStore();
    const r = await run(root, ['--format', 'json', 'validate']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      diagnostics: { code: string; severity: string; file: string; line: number; col: number; message: string }[];
    };
    const found = report.diagnostics
      .filter((d) => d.code === 'control-character')
      .map((d) => [d.file, d.line, d.col, d.severity, /holds (U\+[0-9A-F]{4})/.exec(d.message)?.[1]]);
    expect(found).toEqual([
      ['global/01M9AAAAAAAAAAAAAAAAAAAA01.yaml', 2, 7, 'error', 'U+001B'],
      ['global/01M9AAAAAAAAAAAAAAAAAAAA02.yaml', 3, 12, 'error', 'U+202E'],
      ['global/01M9AAAAAAAAAAAAAAAAAAAA02.yaml', 4, 8, 'error', 'U+009B'],
      [`plans/${EXAMPLE_PLAN}/plan.yaml`, expect.any(Number), 7, 'error', 'U+001B'],
      [`plans/${EXAMPLE_PLAN}/violations/01M9AAAAAAAAAAAAAAAAAAAA03.yaml`, 5, 10, 'error', 'U+000D'],
    ]);
    expectNoRaw('validate --format json', r);
  });

  it('records written by hand are checked too (enforcement and decision files)', async () => {
    const root = exampleStore();
    expect((await run(root, ['plan', 'strategize', EXAMPLE_PLAN])).code).toBe(0);
    const [runFile] = records<{ id: string }>(root, EXAMPLE_PLAN, 'enforcement');
    const path = join(root, `plans/${EXAMPLE_PLAN}/enforcement/${runFile!.id}.yaml`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/actor_response: .*$/m, 'actor_response: "ok\\e[8m hidden"'));
    const r = await run(root, ['--format', 'json', 'validate']);
    expect(r.code).toBe(1);
    const found = JSON.parse(r.stdout).diagnostics.filter((d: { code: string }) => d.code === 'control-character');
    expect(found.map((d: { file: string; message: string }) => [d.file, d.message.slice(0, 37)])).toEqual([
      [`plans/${EXAMPLE_PLAN}/enforcement/${runFile!.id}.yaml`, 'records.0.actor_response holds U+001B'],
    ]);
    // And plan status refuses the store rather than reading the run.
    expect((await run(root, ['plan', 'status', EXAMPLE_PLAN])).code).toBe(3);
  });
});

describe('every output command and format escapes them', () => {
  const FORMATS = ['text', 'json', 'yaml'];

  it.each([
    ['invariant', 'list'],
    ['invariant', 'list', '--effective', '--plan', EXAMPLE_PLAN],
    ['invariant', 'show', '01M9AAAAAAAAAAAAAAAAAAAA01'],
    ['plan', 'show', EXAMPLE_PLAN],
    ['plan', 'status', EXAMPLE_PLAN],
    ['plan', 'list'],
    ['invariant', 'violation', 'list'],
  ])('a store read that meets a hostile file (%s %s): exit 3 in every format, the excerpt escaped', async (...cmd) => {
    const root = hostileStore();
    for (const format of FORMATS) {
      const r = await run(root, ['--format', format, ...cmd]);
      expectNoRaw(`${format} ${cmd.join(' ')}`, r);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('control-character');
    }
    // Each hostile value is shown escaped in the caret excerpt.
    expect((await run(root, [...cmd])).stderr).toMatch(/\\e\[2K\\r|\\u202e|\\e\]52|\\r/);
  });

  it('validate in every format: text, json, yaml, github (and its job summary), sarif', async () => {
    const root = hostileStore();
    const summary = join(tempDir(), 'summary.md');
    for (const format of ['text', 'json', 'yaml', 'github', 'sarif']) {
      const r = await run(root, ['validate', '--format', format], { GITHUB_STEP_SUMMARY: summary });
      expect(r.code).toBe(1);
      expectNoRaw(`validate --format ${format}`, r);
      // Escaped as the format writes escapes: \u001b in text, JSON and SARIF, \e in YAML.
      expect(r.stdout).toMatch(/bad(\\u001b|\\e|\\\\u001b)\[2Kname/);
    }
    const github = await run(root, ['validate', '--format', 'github']);
    // One workflow command per line: nothing a value holds starts another.
    for (const line of github.stdout.trimEnd().split('\n').slice(0, -1)) expect(line).toMatch(/^::(error|warning|notice) /);
    const md = readFileSync(summary, 'utf8');
    expect(RAW.test(md)).toBe(false);
    // Every table row keeps its four cells: the pipe and backtick of the folder name stay inside the code span.
    const rows = md.split('\n').filter((l) => l.startsWith('| error') || l.startsWith('| warning'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length).toBe(6);
    const sarif = JSON.parse((await run(root, ['validate', '--format', 'sarif'])).stdout);
    const texts = sarif.runs[0].results.map((x: { message: { text: string } }) => x.message.text).join('\n');
    expect(RAW.test(texts)).toBe(false);
  });

  /** A store whose actor answers with the whole corpus, reconciled once. */
  async function noisyRun(): Promise<string> {
    const root = exampleStore();
    useActor(
      root,
      `const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
process.stdout.write(JSON.stringify({ results: request.invariants.map((i, n) => ({ invariant_id: i.id, enforced: n > 0, response: ${JSON.stringify(CORPUS.map(([, t]) => t).join(' | '))} })) }));`,
    );
    return root;
  }

  it.each(FORMATS)("strategize --format %s shows an actor's words escaped; the records stay valid", async (format) => {
    const root = await noisyRun();
    const r = await run(root, ['--format', format, 'plan', 'strategize', EXAMPLE_PLAN]);
    expect(r.code).toBe(1);
    expectNoRaw(`strategize ${format}`, r);
    if (format === 'text') expect(r.stdout).toContain('Harmless rule\\u001b[2K\\rNever mind');
    expect((await run(root, ['validate'])).code).toBe(0);
  });

  it('strategize with an actor that fails writing controls to stderr: escaped, recorded escaped', async () => {
    const root = exampleStore();
    useActor(root, `process.stderr.write('model says \\u001b[2K\\u202egone\\n'); process.exit(4);`);
    const failed = await run(root, ['plan', 'strategize', EXAMPLE_PLAN]);
    expect(failed.code).toBe(1);
    expectNoRaw('strategize (actor failed)', failed);
    expect(failed.stdout).toContain('model says \\u001b[2K\\u202egone');
    expect((await run(root, ['validate'])).code).toBe(0);
  });

  it.each([
    ['plan', 'show'],
    ['plan', 'status'],
    ['plan', 'decisions'],
  ])('%s %s after such a run, in every format', async (...cmd) => {
    const root = await noisyRun();
    expect((await run(root, ['plan', 'strategize', EXAMPLE_PLAN])).code).toBe(1);
    for (const format of FORMATS) expectNoRaw(`${format} ${cmd.join(' ')}`, await run(root, ['--format', format, ...cmd, EXAMPLE_PLAN]));
  });

  /** A repository whose commit subjects hold the corpus, and whose last commit adds a hostile invariant. */
  function hostileHistory(): { dir: string; id: string } {
    const dir = tempDir();
    gitInit(dir);
    const root = join(dir, '.agents');
    mkdirSync(join(root, 'global'), { recursive: true });
    const ID = '01M9BBBBBBBBBBBBBBBBBBBB01';
    writeFileSync(join(root, `global/${ID}.yaml`), `id: ${ID}\ntext: Never delete production data\n`);
    commitAll(dir, 'Harmless\u001b[2K\rEvil subject \u202e');
    writeFileSync(join(root, `global/${ID}.yaml`), `id: ${ID}\ntext: Never delete production data or backups\n`);
    commitAll(dir, 'OSC\u001b]52;c;eA==\u0007 edit');
    writeFileSync(join(root, 'global/01M9BBBBBBBBBBBBBBBBBBBB02.yaml'), `id: 01M9BBBBBBBBBBBBBBBBBBBB02\ntext: "New\\e[2K rule \u202e"\n`);
    commitAll(dir, 'add');
    expect(git(dir, 'log', '-1', '--format=%s')).toContain('add');
    return { dir, id: ID };
  }

  it('invariant log: commit subjects escaped in every format (JSON keeps the same string)', async () => {
    const { dir, id } = hostileHistory();
    for (const format of FORMATS) {
      const r = await runAgents(['invariant', 'log', id, '--format', format], { cwd: dir });
      expect(r.code).toBe(0);
      expectNoRaw(`log ${format}`, r);
      if (format === 'text') expect(r.stdout).toContain('Harmless\\u001b[2K\\rEvil subject \\u202e');
      if (format === 'json') expect(JSON.parse(r.stdout).events[1].subject).toBe('Harmless\u001b[2K\rEvil subject \u202e');
    }
  });

  it('invariant diff over a revision holding a hostile invariant, in every format and markdown', async () => {
    const { dir } = hostileHistory();
    for (const format of [...FORMATS, 'markdown']) {
      const r = await runAgents(['invariant', 'diff', 'HEAD~1..HEAD', '--format', format], { cwd: dir });
      expectNoRaw(`diff ${format}`, r);
      expect(r.stdout + r.stderr).toMatch(/\\u001b|\\e/);
    }
  });

  it("with colour on, the only escape sequences are the CLI's own colours", async () => {
    const root = hostileStore();
    for (const args of [['validate'], ['invariant', 'list'], ['plan', 'status', EXAMPLE_PLAN]]) {
      const r = await run(root, args, { FORCE_COLOR: '1', NO_COLOR: undefined });
      for (const text of [r.stdout, r.stderr]) {
        const rest = text.replace(OWN_SGR, '');
        const m = RAW.exec(rest);
        expect(m ? `${args.join(' ')}: raw ${hex(m[0].charCodeAt(0))}` : null).toBeNull();
      }
    }
  });
});

describe('the escaped form names the character', () => {
  it.each(CORPUS)('%s', async (_name, text, cp) => {
    const root = exampleStore();
    useActor(root, `process.stderr.write(${JSON.stringify(text)}); process.exit(2);`);
    const r = await run(root, ['plan', 'strategize', EXAMPLE_PLAN]);
    expectNoRaw('strategize', r);
    expect(r.stdout).toContain(escaped(cp));
  });
});

/** Every file and folder of the store (a folder with a trailing slash): an empty folder left behind shows. */
function folderTree(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .map((d) => `${join(d.parentPath, d.name).slice(root.length + 1)}${d.isDirectory() ? '/' : ''}`)
    .sort();
}
