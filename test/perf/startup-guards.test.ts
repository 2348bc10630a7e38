import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { runMain } from '../helpers/main.ts';
import { bundledIn as contents, ESM_AGENTS, distMeta as meta, staticClosure, traceLoads } from '../helpers/loads.ts';
import { tempDir } from '../helpers/tmp.ts';

/** The command modules (src/cli/commands/*.ts) bundled into the given dist/ outputs. */
function commandModules(outputs: Iterable<string>): string[] {
  const m = meta();
  const found = new Set<string>();
  for (const o of outputs)
    for (const input of Object.keys(m.outputs[o]?.inputs ?? {})) if (input.startsWith('src/cli/commands/')) found.add(input);
  return [...found].sort();
}

/** The dist/ files a real run of the CLI loads. */
function loadedBy(args: string[]): { code: number; loaded: Set<string> } {
  const r = traceLoads([ESM_AGENTS, ...args]);
  return { code: r.code, loaded: new Set(r.dist) };
}

const INTERACTIVE_ONLY = ['ink', 'react', 'react-reconciler', 'yoga-layout', 'ink-testing-library'];
/** What only `agents mcp` loads: the MCP SDK, its zod schemas, and the server. */
const MCP_ONLY = ['@modelcontextprotocol/sdk', 'zod', 'src/mcp'];

describe('start-up', () => {
  it('loads only yargs and the command table: no command module, no store reader, YAML, validators, git or Ink', () => {
    const startup = contents(staticClosure('dist/cli.js'));
    for (const heavy of [
      ...INTERACTIVE_ONLY,
      ...MCP_ONLY,
      'simple-git',
      'yaml',
      'ajv',
      'ajv-formats',
      'src/service',
      'src/git',
      'src/tui',
    ]) {
      expect(startup, heavy).not.toContain(heavy);
    }
    expect(startup).toContain('yargs');
    // Of the store's modules, only the one that reads the current folder, which every run asks first.
    const storeModules = [...staticClosure('dist/cli.js')].flatMap((o) =>
      Object.keys(meta().outputs[o]?.inputs ?? {}).filter((input) => input.startsWith('src/store/')),
    );
    expect(storeModules).toEqual(['src/store/current-folder.ts']);
    // Every command module is loaded on demand, by the builder yargs calls for the command chosen.
    expect(commandModules(staticClosure('dist/cli.js'))).toEqual([]);
  });

  it.each([
    [['--help', '--no-color'], undefined],
    [['invariant', '--help'], undefined],
    [['invariant', 'list', '--help'], 'invariant-list'],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp'], 'invariant-list'],
    [
      ['--store', '.agents.example', 'invariant', 'list', '--effective', '--plan', '01M8KK5920RS6CGAVDFVYYJ0B4', '--format', 'yaml'],
      'invariant-list',
    ],
    [['--store', '.agents.example', 'invariant', 'ls'], 'invariant-list'],
    [['--store', '.agents.example', 'invariant', 'show', '01M8KJT9'], 'invariant-show'],
    [['--store', '.agents.example', 'plan', 'list'], 'plan-list'],
    [['--store', '.agents.example', 'validate'], 'validate'],
    [['--store', '.agents.example', 'validate', '--format', 'sarif'], 'validate'],
  ])(
    'agents %j goes through the parser, loads the module of the command it runs and no other, and never Ink, React or the MCP SDK',
    (args, command) => {
      const { code, loaded } = loadedBy(args);
      expect(code).toBe(0);
      expect(loaded.has('dist/cli.js')).toBe(true);
      const bundled = contents(loaded);
      expect(bundled).toContain('yargs');
      if (args[0] === '--store') expect(bundled).toContain('src/store');
      for (const pkg of [...INTERACTIVE_ONLY, ...MCP_ONLY]) expect(bundled, pkg).not.toContain(pkg);
      // Help lists every command from the table without loading any command's module.
      expect(commandModules(loaded)).toEqual(command ? [`src/cli/commands/${command}.ts`] : []);
    },
  );

  it("a command through the parser does not load Node's assert module (yargs' two assertions are bundled)", () => {
    const preload = join(tempDir(), 'loads.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nLOADED ${JSON.stringify(process.moduleLoadList)}\\n`));\n");
    for (const args of [['--help'], ['--store', '.agents.example', 'invariant', 'list']]) {
      const r = spawnSync(process.execPath, ['--require', preload, BIN, ...args], { cwd: REPO, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const loaded = JSON.parse(/LOADED (.*)/.exec(r.stderr)![1]!) as string[];
      // The preload itself loads nothing: what is listed is what the run loaded.
      expect(loaded).toContain('NativeModule internal/util/inspect');
      expect(loaded.filter((m) => /^NativeModule (assert|internal\/assert\/)/.test(m))).toEqual([]);
    }
  });

  it("the bundled assertions serve yargs alone: every other importer of assert (the terminal UI's signal-exit) keeps Node's", () => {
    const importers = (target: string) =>
      Object.entries(meta().inputs)
        .filter(([, v]) => v.imports.some((i) => i.path === target))
        .map(([k]) => k);
    expect(importers('src/cli/yargs-assert.ts')).toEqual(['node_modules/yargs/lib/platform-shims/esm.mjs']);
    expect(importers('assert')).toContain('node_modules/signal-exit/index.js');
  });

  it.each([['--version'], ['-V']])(
    'agents %s is answered before the parser: no module of dist/ loads, and it prints the version',
    async (flag) => {
      const r = traceLoads([BIN, flag]);
      expect(r.code).toBe(0);
      expect(r.dist).toEqual([]);
      // The parser answers `--version` with the same line.
      const parsed = await runMain(['--version'], { cwd: REPO });
      expect(parsed.code).toBe(0);
      expect(r.stdout).toBe(parsed.stdout);
      expect(r.stdout).toBe(`${JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version}\n`);
    },
  );

  it('agents --version with any other argument goes to the parser', () => {
    const r = traceLoads([ESM_AGENTS, '--version', '--no-color']);
    expect(r.code).toBe(0);
    expect(r.dist).toContain('dist/cli.js');
  });

  it('agents mcp starts without the argument parser (neither dist/cli.js nor yargs loads), loads the MCP SDK and no other command; it ends with exit 0 when its client closes stdin', () => {
    for (const args of [
      ['--store', '.agents.example', 'mcp'],
      ['mcp', '--store', '.agents.example'],
      ['--store=.agents.example', '--no-color', 'mcp'],
    ]) {
      const { code, loaded } = loadedBy(args);
      expect(code, args.join(' ')).toBe(0);
      expect(loaded.has('dist/direct-main.js')).toBe(true);
      expect(loaded.has('dist/cli.js')).toBe(false);
      const bundled = contents(loaded);
      expect(bundled).not.toContain('yargs');
      for (const pkg of MCP_ONLY) expect(bundled, pkg).toContain(pkg);
      for (const pkg of INTERACTIVE_ONLY) expect(bundled, pkg).not.toContain(pkg);
      expect(commandModules(loaded)).toEqual(['src/cli/commands/mcp.ts']);
    }
  });

  it.each([
    [['validate', '--staged'], 'validate'],
    [['--store', '.agents.example', 'validate', '--staged', '--no-color'], 'validate'],
    [['guard', 'hook', '--client', 'claude'], 'guard-hook'],
    [['--store=.agents.example', 'guard', 'hook'], 'guard-hook'],
  ])('agents %j starts without the argument parser and loads only its command module', (args, command) => {
    const r = traceLoads([ESM_AGENTS, ...args], { input: '{}' });
    const loaded = new Set(r.dist);
    expect(loaded.has('dist/direct-main.js')).toBe(true);
    expect(loaded.has('dist/cli.js')).toBe(false);
    expect(contents(loaded)).not.toContain('yargs');
    expect(commandModules(loaded)).toEqual([`src/cli/commands/${command}.ts`]);
  });

  it.each([
    [['mcp', '--help']],
    [['validate']],
    [['validate', '--staged', '--format', 'json']],
    [['validate', '--staged', '--all-files']],
    [['guard', 'hook', '--client', 'nobody']],
    [['guard', 'check', '--staged']],
    [['mcp', '--store', '.agents.example', '--format', 'json']],
    [['--format', 'json', '--store', '.agents.example', 'mcp']],
    [['mcp', '--bogus']],
  ])('agents %j (anything the direct start does not take) goes to the parser', (args) => {
    const { loaded } = loadedBy(args);
    expect(loaded.has('dist/cli.js')).toBe(true);
  });

  it('agents mcp answers initialize before loading the store reader, the services, YAML or the validators', () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'guard', version: '1' } },
    };
    // Only `initialize`, then stdin ends: no request after it needs the tools.
    const r = traceLoads([ESM_AGENTS, '--store', '.agents.example', 'mcp'], { input: `${JSON.stringify(init)}\n` });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!).result.serverInfo.name).toBe('agents');
    const bundled = contents(r.dist);
    expect(bundled).toContain('@modelcontextprotocol/sdk');
    for (const heavy of ['yaml', 'ulid', 'src/service']) expect(bundled, heavy).not.toContain(heavy);
    const sources = new Set(r.dist.flatMap((o) => Object.keys(meta().outputs[o]?.inputs ?? {})));
    expect(sources).toContain('src/store/discover.ts');
    for (const file of ['src/store/read.ts', 'src/core/parse-core.ts', 'src/mcp/tools.ts', 'src/core/schema-validators.generated.js']) {
      expect(sources, file).not.toContain(file);
    }
  });

  it("bundles the MCP SDK into chunks of its own, reached only by the mcp command's dynamic import", () => {
    const m = meta();
    const withSdk = Object.keys(m.outputs).filter(
      (o) => o.endsWith('.js') && [...contents([o])].some((c) => c === '@modelcontextprotocol/sdk' || c === 'zod'),
    );
    expect(withSdk.length).toBeGreaterThan(0);
    for (const o of withSdk) {
      // Nothing another command needs shares a chunk with the SDK.
      expect(
        [...contents([o])].filter((c) => c.startsWith('src/')),
        o,
      ).toEqual(['src/mcp']);
      const importers = Object.entries(m.outputs).filter(([, v]) => v.imports.some((i) => i.path === o));
      for (const [from, v] of importers) {
        const how = v.imports.find((i) => i.path === o)!.kind;
        if (how === 'import-statement') expect(withSdk, `${from} imports ${o} statically`).toContain(from);
        else expect(Object.keys(m.outputs[from]!.inputs)).toContain('src/cli/commands/mcp.ts');
      }
    }
  });

  it("the guard hook's own bundle holds what a call with a current index runs, and takes the rest from the full bundle", () => {
    const held = contents(['dist/hook.cjs']);
    for (const heavy of ['yargs', 'yaml', 'ajv', 'simple-git', 'src/validate', 'src/mcp', 'src/tui', ...INTERACTIVE_ONLY, ...MCP_ONLY])
      expect(held, heavy).not.toContain(heavy);
    const inputs = Object.keys(meta().outputs['dist/hook.cjs']!.inputs);
    expect(inputs).toContain('src/service/guard-service.ts');
    expect(inputs).not.toContain('src/service/guard-build.ts');
    expect(inputs).not.toContain('src/core/schema-validators.generated.js');
    // Everything it asks of the full bundle, the full bundle hands it.
    const asked = inputs.filter((i) => i.startsWith('full-bundle:')).map((i) => i.slice('full-bundle:'.length));
    expect(asked).toContain('src/service/guard-build.ts');
    const listed = /fullModules=\{([^}]*)\}/.exec(readFileSync(join(REPO, 'dist/agents.cjs'), 'latin1'))?.[1] ?? '';
    for (const key of asked) expect(listed, key).toContain(JSON.stringify(key));
  });

  it("the commit hook's own bundle holds what a commit staging no store file runs, and takes the checks from the full bundle", () => {
    const held = contents(['dist/commit-hook.cjs']);
    for (const heavy of ['yargs', 'yaml', 'ajv', 'simple-git', 'src/mcp', 'src/tui', 'src/service', ...INTERACTIVE_ONLY, ...MCP_ONLY])
      expect(held, heavy).not.toContain(heavy);
    const inputs = Object.keys(meta().outputs['dist/commit-hook.cjs']!.inputs);
    // Of the checks, only a constant of the report's.
    expect(inputs.filter((i) => i.startsWith('src/validate/'))).toEqual(['src/validate/limits.ts']);
    expect(inputs).toEqual(expect.arrayContaining(['src/cli/commands/validate.ts', 'src/git/index-tree.ts', 'src/store/discover.ts']));
    const asked = inputs.filter((i) => i.startsWith('full-bundle:')).map((i) => i.slice('full-bundle:'.length));
    expect(asked).toContain('src/validate/run.ts');
    const listed = /fullModules=\{([^}]*)\}/.exec(readFileSync(join(REPO, 'dist/agents.cjs'), 'latin1'))?.[1] ?? '';
    for (const key of asked) expect(listed, key).toContain(JSON.stringify(key));
  });

  it('validate answered from its cache loads neither the YAML parser, the schema validators nor git; a changed file loads the checker', () => {
    const store = join(tempDir(), '.agents');
    const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
    mkdirSync(join(store, 'global'), { recursive: true });
    const file = join(store, 'global', `${A}.yaml`);
    writeFileSync(file, `id: ${A}\ntext: Never delete production data\n`);
    gitInit(dirname(store));
    const heavy = ['yaml', 'ajv', 'ajv-formats', 'simple-git'];
    const first = loadedBy(['--store', store, 'validate']);
    expect(first.code).toBe(0);
    expect(contents(first.loaded)).toContain('ajv-formats'); // nothing cached yet: every file is checked
    const warm = loadedBy(['--store', store, 'validate']);
    expect(warm.code).toBe(0);
    const bundled = contents(warm.loaded);
    expect(bundled).toContain('src/validate');
    for (const pkg of heavy) expect(bundled, pkg).not.toContain(pkg);
    writeFileSync(file, `id: ${A}\ntext: Never delete production data\nseverity: fatal\n`);
    const changed = loadedBy(['--store', store, 'validate']);
    expect(changed.code).toBe(1);
    expect(contents(changed.loaded)).toContain('ajv-formats');
  });

  it('validate answered from its cache places its warnings without the YAML parser or the schema validators', () => {
    const store = join(tempDir(), '.agents');
    const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
    const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
    mkdirSync(join(store, 'global'), { recursive: true });
    writeFileSync(join(store, 'global', `${A}.yaml`), `id: ${A}\ntext: Never delete production data\n`);
    writeFileSync(join(store, 'global', `${B}.yaml`), `# a comment first\nid: ${B}\ntext: Never delete production date\n`);
    const C = join(store, 'global', '01JDQ6X5Z8W4N3B2C1D0E9F8G9.yaml');
    writeFileSync(C, 'id: 01JDQ6X5Z8W4N3B2C1D0E9F8G9\ntext: Never push on Fridays\n');
    gitInit(dirname(store));
    expect(loadedBy(['--store', store, 'validate']).code).toBe(0);
    // One file fewer: every file left is answered from the cache, and the whole-store checks run again.
    rmSync(C);
    const r = traceLoads([ESM_AGENTS, '--store', store, '--format', 'json', 'validate']);
    expect(r.code).toBe(0);
    const near = (
      JSON.parse(r.stdout) as {
        diagnostics: { code: string; file: string; line: number; col: number; related?: { line: number; col: number }[] }[];
      }
    ).diagnostics.find((d) => d.code === 'near-duplicate');
    expect(near).toMatchObject({ file: `global/${B}.yaml`, line: 3, col: 7, related: [{ line: 2, col: 7 }] });
    const bundled = contents(new Set(r.dist));
    for (const pkg of ['yaml', 'ajv', 'ajv-formats']) expect(bundled, pkg).not.toContain(pkg);
  });

  it('validate --staged checks a staged invariant and plan record in the canonical shape without loading the YAML parser', () => {
    const store = join(tempDir(), '.agents');
    const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
    const P = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
    const N = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
    mkdirSync(join(store, 'global'), { recursive: true });
    mkdirSync(join(store, 'plans', P, 'decisions'), { recursive: true });
    writeFileSync(join(store, 'global', `${A}.yaml`), `id: ${A}\ntext: Never delete production data\n`);
    writeFileSync(join(store, 'plans', P, 'plan.yaml'), `id: ${P}\ncreated_at: 2026-01-01T00:00:00Z\ngoal: Ship it\n`);
    const repo = dirname(store);
    gitInit(repo);
    spawnSync('git', ['-C', repo, 'add', '-A']);
    spawnSync('git', ['-C', repo, 'commit', '-qm', 'store']);
    expect(loadedBy(['--store', store, 'validate', '--staged', '--all-files']).code).toBe(0);
    writeFileSync(join(store, 'global', `${A}.yaml`), `id: ${A}\ntext: Never delete production data, ever\n`);
    writeFileSync(
      join(store, 'plans', P, 'decisions', `${N}.yaml`),
      `id: ${N}\ntype: invariant_enforced\nparent_id: null\ncreated_at: 2026-01-01T00:00:00Z\nsummary: Checked\n`,
    );
    spawnSync('git', ['-C', repo, 'add', '-A']);
    const staged = loadedBy(['--store', store, 'validate', '--staged']);
    expect(staged.code).toBe(0);
    const bundled = contents(staged.loaded);
    expect(bundled).toContain('ajv-formats'); // the changed files are checked
    expect(bundled).not.toContain('yaml');
    // The record is checked: one that breaks its schema fails, and its diagnostic's position loads the parser.
    writeFileSync(join(store, 'plans', P, 'decisions', `${N}.yaml`), `id: ${N}\ntype: invariant_enforced\nparent_id: null\n`);
    spawnSync('git', ['-C', repo, 'add', '-A']);
    const broken = loadedBy(['--store', store, 'validate', '--staged']);
    expect(broken.code).toBe(1);
    expect(contents(broken.loaded)).toContain('yaml');
  });
});

/** Every module URL a real run of the CLI resolves (dist/ files and node: built-ins). */
function resolvedBy(args: string[], preload: string[] = []): { code: number; urls: string[] } {
  const r = traceLoads([ESM_AGENTS, ...args], { preload });
  return { code: r.code, urls: r.urls };
}

describe('read-only commands load only what reading needs', () => {
  it.each([
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--plan', '01M8KK5920RS6CGAVDFVYYJ0B4', '--format', 'json']],
  ])('agents %j (every file in the canonical shape) loads neither yaml nor node:crypto', (args) => {
    const { code, urls } = resolvedBy(args);
    expect(code).toBe(0);
    const prefix = `file://${REPO}`;
    const bundled = contents(urls.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)));
    expect(bundled).toContain('src/store');
    expect(bundled).not.toContain('yaml');
    expect(bundled).not.toContain('ulid');
    expect(urls).not.toContain('node:crypto');
  });

  it('loads yaml once a file needs the full parser, and still answers', () => {
    const store = join(tempDir(), 'store');
    for (const d of ['global', 'projects/app']) spawnSync('mkdir', ['-p', join(store, d)]);
    writeFileSync(
      join(store, 'global', '01M8KJT9G0XNWEM589ZS7FV0VT.yaml'),
      '# hand-written\n{id: 01M8KJT9G0XNWEM589ZS7FV0VT, text: "Never delete production data"}\n',
    );
    const { code, urls } = resolvedBy(['--store', store, 'invariant', 'list', '--effective', '--project', 'app', '--format', 'json']);
    expect(code).toBe(0);
    const prefix = `file://${REPO}`;
    expect(contents(urls.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)))).toContain('yaml');
  });

  it('a store as init writes it, with guards, loads yaml never and the regular-expression engine only for a command pattern', () => {
    const dir = tempDir();
    gitInit(dir);
    expect(spawnSync(process.execPath, [BIN, 'init'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const store = join(dir, '.agents');
    const A = '01M8KJT9G0XNWEM589ZS7FV0VT';
    const B = '01M8KJT9G0XNWEM589ZS7FV0VV';
    writeFileSync(join(store, 'global', `${A}.yaml`), `id: ${A}\ntext: Never write secrets\nguard:\n  write:\n    - secrets/**\n`);
    const bundledBy = () => {
      const { code, urls } = resolvedBy(['--store', store, 'invariant', 'list', '--format', 'json']);
      expect(code).toBe(0);
      const prefix = `file://${REPO}`;
      return contents(urls.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)));
    };
    const globs = bundledBy();
    expect(globs).toContain('src/store');
    expect(globs).not.toContain('yaml');
    expect(globs).not.toContain('re2js');
    writeFileSync(join(store, 'global', `${B}.yaml`), `id: ${B}\ntext: Never force-push\nguard:\n  command:\n    - git push .*--force\n`);
    const patterns = bundledBy();
    expect(patterns).toContain('re2js');
    expect(patterns).not.toContain('yaml');
  });

  it.each([
    [['invariant', 'list']],
    [['invariant', 'show', '01M8KJT9']],
    [['plan', 'list']],
    [['plan', 'show', '01M8KK59']],
    [['plan', 'status', '01M8KK59']],
    [['invariant', 'violation', 'list']],
    [['project', 'list']],
    [['which', 'src/index.ts']],
    // Its warnings (a shadowed copy) are placed from the files' own lines.
    [['validate', '--no-cache']],
  ])('agents %j on the example store reads without the yaml package (no writer, no full parser)', (args) => {
    const { urls } = resolvedBy(['--store', '.agents.example', ...args]);
    const prefix = `file://${REPO}`;
    expect(contents(urls.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)))).not.toContain('yaml');
  });

  it('--format yaml loads yaml for the output', () => {
    const { code, urls } = resolvedBy(['--store', '.agents.example', 'invariant', 'list', '--format', 'yaml']);
    expect(code).toBe(0);
    const prefix = `file://${REPO}`;
    expect(contents(urls.filter((u) => u.startsWith(`${prefix}dist/`)).map((u) => u.slice(prefix.length)))).toContain('yaml');
  });

  it.each([
    [['--help']],
    [['invariant', 'list', '--help']],
    [['--store', '.agents.example', 'invariant', 'list', '--effective', '--project', 'myapp']],
  ])("agents %j never builds string-width's Unicode segmenter", (args) => {
    const dir = tempDir();
    const record = join(dir, 'segmenters.txt');
    const preload = join(dir, 'count-segmenters.mjs');
    writeFileSync(
      preload,
      `import { appendFileSync } from 'node:fs';\n` +
        `const Real = Intl.Segmenter;\n` +
        `Intl.Segmenter = class extends Real { constructor(...a) { appendFileSync(${JSON.stringify(record)}, 'built\\n'); super(...a); } };\n`,
    );
    const { code } = resolvedBy(args, [preload]);
    expect(code).toBe(0);
    expect(existsSync(record)).toBe(false);
  });

  it('the bundled string-width answers printable ASCII as its length, as both real versions do', async () => {
    const v8 = (await import('string-width')).default;
    const v7 = (await import(join(REPO, 'node_modules/wrap-ansi/node_modules/string-width/index.js'))).default as (s: string) => number;
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    const samples = [
      ...ascii,
      ascii.join(''),
      '',
      'agents invariant list [pattern]',
      '  --store  store folder (default: .agents/ found upwards; env AGENTS_STORE)  [string]',
    ];
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      let s = '';
      for (let k = 0; k < n % 40; k++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        s += ascii[seed % ascii.length];
      }
      samples.push(s);
    }
    for (const s of samples) {
      expect(v8(s), JSON.stringify(s)).toBe(s.length);
      expect(v7(s), JSON.stringify(s)).toBe(s.length);
    }
    // The bundle holds the real modules behind the lazy wrapper, never evaluated at start-up.
    const chunks = [...staticClosure('dist/cli.js')].map((o) => readFileSync(join(REPO, o), 'utf8')).join('\n');
    expect(chunks).toContain('lazy-string-width:');
  });
});
