import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, readSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';
import { docsRef } from '../../src/core/docs-link.ts';

const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const id = (n: number) => `01JDQ6X5Z8W4N3B2C1D0E9F${String(n).padStart(3, '0')}`;

/** A store in a git repository with 12 duplicate errors, one shadow warning, an info and an unknown file. */
function messyStore(): { repo: string; store: string } {
  const tree: Record<string, string> = {};
  for (let i = 0; i <= 12; i++)
    tree[`global/${id(i)}.yaml`] =
      ML + invariantYaml(id(i), `Never delete, data: "${'x'.repeat(0)}"`.replace(/"/g, '') + (i === 0 ? '' : ' '));
  tree[`projects/web/${id(20)}.yaml`] =
    `# yaml-language-server: $schema=../../schemas/invariant.schema.json\n${invariantYaml(id(20), 'Use TLS everywhere')}`;
  tree[`global/${id(21)}.yaml`] = ML + invariantYaml(id(21), 'use  tls everywhere');
  tree[`global/${id(22)}.yaml`] = invariantYaml(id(22), 'Keep a changelog');
  tree['global/notes, draft.txt'] = 'later\n';
  const store = testStore(tree);
  gitInit(dirname(store));
  return { repo: dirname(store), store };
}

describe('validate output formats', () => {
  it('json parses and holds the documented fields', async () => {
    const { repo } = messyStore();
    const r = await runMain(['validate', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['version', 'ok', 'strict', 'store', 'source', 'files', 'summary', 'diagnostics', 'fixes']);
    expect(out.summary).toEqual({ error: 12, warning: 2, info: 1 });
    expect(out.files).toBe(17);
    const dup = out.diagnostics.find((d: { code: string }) => d.code === 'duplicate-text');
    expect(dup).toMatchObject({ severity: 'error', file: `global/${id(1)}.yaml`, path: `.agents/global/${id(1)}.yaml`, line: 3, col: 7 });
    expect(dup.related).toEqual([
      { file: `global/${id(0)}.yaml`, path: `.agents/global/${id(0)}.yaml`, line: 3, col: 7, message: `the copy that is kept: ${id(0)}` },
    ]);
  });

  it('sarif validates against the SARIF 2.1.0 JSON schema', async () => {
    const { repo } = messyStore();
    const r = await runMain(['validate', '--format', 'sarif'], { cwd: repo });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    // The published schema (draft-04) shipped by @microsoft/jest-sarif, checked with the ajv it depends on.
    const req = createRequire(require.resolve('@microsoft/jest-sarif/package.json'));
    const Ajv = req('ajv');
    const ajv = new Ajv({ schemaId: 'auto', allErrors: true });
    ajv.addMetaSchema(req('ajv/lib/refs/json-schema-draft-04.json'));
    const schema = JSON.parse(
      readFileSync(join(dirname(req.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
    );
    const valid = ajv.validate(schema, log);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The check has teeth: a result with a level SARIF does not know is refused.
    const broken = structuredClone(log);
    broken.runs[0].results[0].level = 'fatal';
    expect(ajv.validate(schema, broken)).toBe(false);
    const run = log.runs[0];
    // The tool's page is the project's own (package.json's homepage): the package is not on the npm registry.
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { homepage: string };
    expect(run.tool.driver.informationUri).toBe(pkg.homepage);
    expect(run.results).toHaveLength(15);
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual([
      'duplicate-text',
      'modeline-missing',
      'shadowed',
      'unknown-path',
    ]);
    const first = run.results.find((x: { ruleId: string }) => x.ruleId === 'duplicate-text');
    expect(first.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: `.agents/global/${id(1)}.yaml` },
      region: { startLine: 3, startColumn: 7 },
    });
    expect(
      run.results.find((x: { ruleId: string }) => x.ruleId === 'unknown-path').locations[0].physicalLocation.artifactLocation.uri,
    ).toBe('.agents/global/notes,%20draft.txt');
  });

  it('github prints workflow commands, most severe first, and the full count', async () => {
    const { repo } = messyStore();
    const summaryFile = join(tempDir(), 'summary.md');
    const r = await runMain(['validate', '--format', 'github'], { cwd: repo, env: { GITHUB_STEP_SUMMARY: summaryFile } });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const annotations = lines.slice(0, -1);
    expect(annotations).toHaveLength(15);
    const command = /^::(error|warning|notice) file=[^,:\n]+(?:,line=[1-9]\d*,col=[1-9]\d*)?,title=[^,:\n]+::[^\n\r]+$/;
    for (const a of annotations) expect(a).toMatch(command);
    const kinds = annotations.map((a) => /^::(\w+)/.exec(a)![1]);
    expect(kinds).toEqual([...Array(12).fill('error'), 'warning', 'warning', 'notice']);
    expect(annotations[0]).toBe(
      `::error file=.agents/global/${id(1)}.yaml,line=3,col=7,title=agents duplicate-text::same text as ${id(0)} (global/${id(0)}.yaml) in global; a scope holds each text once%0ADelete one of the two files (resolution keeps the older, ${id(0)}).`,
    );
    expect(annotations).toContain(
      `::warning file=.agents/global/notes%2C draft.txt,title=agents unknown-path::global/notes, draft.txt fits no place in the store layout and is never read%0AMove it out of the store, or see ${docsRef('store-format.md')} for where files go.`,
    );
    expect(lines.at(-1)).toBe(
      'agents validate: failed: 12 errors, 2 warnings, 1 info in 17 files (working tree) (GitHub shows at most 10 annotations of each kind per step; all 15 are listed above)',
    );
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toMatch(/^### agents validate: failed\n\n12 errors, 2 warnings, 1 info in 17 files \(working tree\)\./);
    expect(summary.split('\n').filter((l) => l.startsWith('| error |'))).toHaveLength(12);
  });

  it('github writes no step summary into a named pipe or a missing folder at GITHUB_STEP_SUMMARY, and says so on stderr', async () => {
    const { repo } = messyStore();
    const fifo = join(tempDir(), 'summary.md');
    execFileSync('mkfifo', [fifo]);
    // A reader that is already there: a writer that opens the pipe is let in at once, and what it writes waits here.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await runMain(['validate', '--format', 'github'], { cwd: repo, env: { GITHUB_STEP_SUMMARY: fifo } });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('::error file=');
      let got = 0;
      try {
        got = readSync(reader, Buffer.alloc(4096));
      } catch (error) {
        // Nothing in the pipe and no writer holds it open.
        expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
      }
      expect(got).toBe(0);
      // Said on stderr, as the summary asked for is not there; the verdict is the log's.
      expect(r.stderr).toContain(fifo);
    } finally {
      closeSync(reader);
    }
    // A folder that does not exist (a runner's summary path mistyped) is said the same way, and not made.
    const missing = join(tempDir(), 'missing', 'summary.md');
    const r = await runMain(['validate', '--format', 'github'], { cwd: repo, env: { GITHUB_STEP_SUMMARY: missing } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(missing);
    expect(existsSync(join(missing, '..'))).toBe(false);
  });

  it('github and sarif name a store reached through a link by the folder the repository holds, where annotations attach', async () => {
    const repo = tempDir();
    gitInit(repo);
    const store = join(repo, 'tools/agents');
    mkdirSync(join(store, 'global'), { recursive: true });
    writeFileSync(join(store, `global/${id(1)}.yaml`), `${ML}id: ${id(1)}\ntext: x\nseverity: fatal\n`);
    symlinkSync('tools/agents', join(repo, '.agents'));
    const github = await runMain(['--store', '.agents', 'validate', '--format', 'github'], { cwd: repo });
    expect(github.stdout).toMatch(new RegExp(`^::error file=tools/agents/global/${id(1)}\\.yaml,line=4,col=11,`));
    const sarif = await runMain(['--store', '.agents', 'validate', '--format', 'sarif'], { cwd: repo });
    expect(JSON.parse(sarif.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      `tools/agents/global/${id(1)}.yaml`,
    );
  });

  it('text shows path:line:col  severity  code  message, a caret excerpt and a summary', async () => {
    const { repo } = messyStore();
    const r = await runMain(['validate'], { cwd: repo });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    const i = lines.indexOf(
      `.agents/global/${id(1)}.yaml:3:7  error  duplicate-text  same text as ${id(0)} (global/${id(0)}.yaml) in global; a scope holds each text once`,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    expect(lines.slice(i + 1, i + 3)).toEqual(['    3 | text: "Never delete, data:  "', '      |       ^']);
    expect(lines).toContain(
      '.agents/global/notes, draft.txt  warning  unknown-path  global/notes, draft.txt fits no place in the store layout and is never read',
    );
    expect(lines.at(-2)).toBe('failed  12 errors, 2 warnings, 1 info in 17 files (working tree)');
  });

  it('yaml is the json document as YAML', async () => {
    const r = await runMain(['--store', join(REPO, 'fixtures/valid/minimal'), 'validate', '--format', 'yaml'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^version: 1\nok: true\nstrict: false\n/);
  });
});
