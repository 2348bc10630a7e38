// The package as a dependent meets it: the tarball `npm pack` makes, installed
// into an empty project with no registry, its command, its library and its
// types under the two module resolutions TypeScript users pick.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { gitInit } from '../helpers/git.ts';
import { bundledIn, traceLoads } from '../helpers/loads.ts';
import { tempDir } from '../helpers/tmp.ts';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
  dependencies?: Record<string, string>;
  bin: Record<string, string>;
  exports: Record<string, string | { types?: string }>;
};
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { version: string };

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The compiler options of the strictest consumer the declarations are checked in (an optional field is not `| undefined`). */
const STRICT_CONSUMER = {
  strict: true,
  exactOptionalPropertyTypes: true,
  target: 'ES2022',
  skipLibCheck: false,
  types: ['node'],
  typeRoots: [join(REPO, 'node_modules/@types')],
};

describe('the library entry', () => {
  it('loads neither yargs, Ink, React nor simple-git, and answers', () => {
    const script = [
      "const lib = await import('./dist/index.js');",
      "const service = await lib.InvariantService.open({ store: '.agents.example' });",
      "const r = await service.effective({ project: 'myapp' });",
      // Every exported class and function by its own name, as a caller's console.log of a service or an error shows it.
      "const renamed = Object.entries(lib).filter(([k, v]) => typeof v === 'function' && v.name !== k).map(([k, v]) => k + ' ' + v.name);",
      'console.log(JSON.stringify({ texts: r.entries.map((e) => e.invariant.text), renamed }));',
    ].join('\n');
    const r = traceLoads(['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      texts: ['All API changes need tests', 'Log all changes', 'Never delete production data'],
      renamed: [],
    });
    const bundled = bundledIn(r.dist);
    for (const heavy of ['yargs', 'ink', 'react', 'react-reconciler', 'simple-git', 'src/cli', 'src/tui'])
      expect(bundled, heavy).not.toContain(heavy);
  });
});

// Slow by design (a named slow test): npm pack (with its build), an offline install, two tsc runs, publint and attw.
describe('the tarball', { timeout: 240_000 }, () => {
  let tarball = '';
  let consumer = '';
  let packOut = '';
  /** The declarations package.json names that the install scripts left unbuilt. */
  let installBuilt: string[] = [];

  const made: string[] = [];
  /** Folders for the whole describe (tempDir's are removed after each test). */
  const lasting = () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agents-pack-')));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(() => {
    const dest = lasting();
    // A copy of the package, so that prepack cannot replace the dist/ other tests are running. The build
    // comes along with the digest of its inputs, so prepack finds it current and does not build again,
    // as after `npm ci` (a build from a clean clone is the pre-commit framework's test, validate/hooks).
    const copy = lasting();
    for (const entry of [
      'bin',
      'dist',
      'THIRD-PARTY-NOTICES',
      'schemas',
      'scripts',
      'src',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.types.json',
      '.npmrc',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
    ]) {
      cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    // What an install from git builds: npm runs the install scripts in its clone (preprepare), and packs it
    // with no prepack. The declarations this checkout may hold are left behind, so that the scripts make them.
    rmSync(join(copy, 'dist/types'), { recursive: true, force: true });
    rmSync(join(copy, 'dist/.types-inputs'), { force: true });
    execFileSync('npm', ['run', '--silent', 'preprepare'], { cwd: copy, stdio: 'ignore' });
    installBuilt = Object.values(pkg.exports)
      .map((e) => (typeof e === 'object' ? e.types : undefined))
      .filter((t): t is string => t !== undefined)
      .filter((t) => !existsSync(join(copy, t)));
    // Exactly what the pre-commit framework runs: it reads the tarball's name from standard output.
    packOut = execFileSync('npm', ['pack', '--pack-destination', dest], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    tarball = join(dest, packOut.trim());
    consumer = lasting();
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: consumer,
      stdio: 'ignore',
    });
  }, 240_000);

  it('an install from git builds the declarations too, though npm runs no prepack there', () => {
    expect(installBuilt).toEqual([]);
  });

  it('npm pack prints only the tarball name (prepack builds silently)', () => {
    expect(packOut).toBe(`${pkg.name}-${pkg.version}.tgz\n`);
  });

  it('holds the build, the schemas and the declarations, and nothing only tests or sources need', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'THIRD-PARTY-NOTICES',
        'bin/agents.js',
        'dist/cli.js',
        'dist/index.js',
        'dist/types/index.d.ts',
        'dist/types/cli/main.d.ts',
        'schemas/invariant.schema.json',
      ]),
    );
    for (const f of files) {
      expect(f, f).not.toMatch(/^(src|test|fixtures|bench|scripts|docs|\.agents\.example)\//);
      expect(f, f).not.toMatch(/\.map$|meta\.json$/);
    }
    // The digest of the build's inputs stays home (scripts/build-inputs.mjs).
    expect(files).not.toContain('dist/.inputs');
    // The plumbing the command line hands the services (its option words, its caches) is no part of the declarations:
    // no public constructor or field names it (tsconfig.types.json strips what is marked @internal).
    const declarations = files.filter((f) => f.endsWith('.d.ts'));
    for (const plumbing of ['service/option-words', 'store/parse-cache', 'store/export-cache'])
      expect(declarations).not.toContain(`dist/types/${plumbing}.d.ts`);
    const installed = join(consumer, 'node_modules', pkg.name);
    const named = declarations.filter((f) =>
      /\b(OptionWords|ExportCache\w*|ParseCache|ParseKeeping|inRun)\b/.test(readFileSync(join(installed, f), 'utf8')),
    );
    expect(named).toEqual([]);
  });

  it('names no file it leaves out: a shipped script points at no source map', () => {
    // A map it names and lacks makes a consumer's bundler (source-map-loader, Vite) and debugger warn at each load.
    const installed = join(consumer, 'node_modules', pkg.name);
    const dangling: string[] = [];
    const walk = (dir: string) => {
      for (const d of readdirSync(join(installed, dir), { withFileTypes: true })) {
        const rel = dir === '' ? d.name : `${dir}/${d.name}`;
        if (d.isDirectory()) walk(rel);
        else if (/\.[cm]?js$/.test(d.name)) {
          const named = /^\/\/# sourceMappingURL=(.+)$/m.exec(readFileSync(join(installed, rel), 'utf8'))?.[1];
          if (named !== undefined && !existsSync(join(installed, dir, named))) dangling.push(`${rel} -> ${named}`);
        }
      }
    };
    walk('');
    expect(dangling).toEqual([]);
  });

  it('ships the notices of the packages its bundle holds', () => {
    // The build in the copy made them from its own bundle: the same list as this checkout's build.
    const shipped = readFileSync(join(consumer, 'node_modules', pkg.name, 'THIRD-PARTY-NOTICES'), 'utf8');
    const listed = (text: string) =>
      text
        .slice(0, text.indexOf(`\n${'-'.repeat(78)}\n`))
        .split('\n')
        .filter((l) => l.startsWith('- '));
    expect(listed(shipped)).toEqual(listed(readFileSync(join(REPO, 'THIRD-PARTY-NOTICES'), 'utf8')));
    expect(listed(shipped)).toContain(`- yargs@${readJson(join(REPO, 'node_modules/yargs/package.json')).version} (MIT)`);
  });

  it('loads from CommonJS too: require() of either entry gives the module import() gives', () => {
    // Node.js requires an ES module with no top-level await (20.19 and later, every version engines allows).
    writeFileSync(
      join(consumer, 'use.cjs'),
      [
        "const lib = require('agents-invariants');",
        "const { main } = require('agents-invariants/cli');",
        "import('agents-invariants').then((esm) => console.log(typeof main, esm.InvariantService === lib.InvariantService));",
        '',
      ].join('\n'),
    );
    const r = run(process.execPath, ['use.cjs'], consumer);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function true\n');
  });

  it('installs alone: every dependency is bundled', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(consumer, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual([pkg.name]);
  });

  it('runs the README quick start from the installed command', () => {
    const repo = tempDir();
    gitInit(repo);
    const agents = join(consumer, 'node_modules/.bin/agents');
    expect(run(agents, ['--version'], repo).stdout).toBe(`${pkg.version}\n`);
    expect(run(agents, ['init'], repo).code).toBe(0);
    expect(run(agents, ['invariant', 'add', '--global', 'Never delete production data'], repo).code).toBe(0);
    expect(run(agents, ['invariant', 'add', '--project', 'myapp', 'All API changes need tests'], repo).code).toBe(0);
    const list = run(agents, ['invariant', 'list', '--effective', '--project', 'myapp', '--format', 'json'], repo);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as { text: string; scope: string }[];
    expect(listed.map((i) => [i.text, i.scope])).toEqual([
      ['All API changes need tests', 'project'],
      ['Never delete production data', 'global'],
    ]);
    expect(run(agents, ['validate', '--strict'], repo).code).toBe(0);
    // The guard hook keeps its own installed code from an agent's file tools, as it keeps the store.
    const hookFile = join(consumer, 'node_modules/agents-invariants/dist/hook.cjs');
    const input = JSON.stringify({
      session_id: 's',
      cwd: repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: hookFile, content: 'process.exit(0)' },
    });
    const hook = spawnSync(agents, ['guard', 'hook'], { cwd: repo, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it.each(['NodeNext', 'Bundler'])('type-checks a strict consumer under %s module resolution', (resolution) => {
    const dir = join(consumer, `check-${resolution}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import { InvariantService, resolveEffective, EXIT_CODES, type Invariant, type EffectiveEntry } from 'agents-invariants';",
        "import { main, type CliIo } from 'agents-invariants/cli';",
        "import meta from 'agents-invariants/package.json' with { type: 'json' };",
        // The types of the options and results a caller names: a fixed clock for `deps`, a guard, the decision tree.
        "import type { ServiceDeps, Guard, DecisionTreeNode, ShadowInfo, KeptProject, DiffSide, DiffTargetOptions, PlainTextDocument } from 'agents-invariants';",
        // The results of a listing and a removal (docs/library.md).
        "import { ScopeService, type ListResult, type RemoveResult, type ActionList } from 'agents-invariants';",
        "export const clock: Partial<ServiceDeps> = { clock: () => new Date('2030-01-01T00:00:00Z') };",
        'export const atTime = (store: string) => InvariantService.open({ store, deps: clock });',
        // An author answering at once, null for none, as docs/library.md says deps.author may.
        "import { PlanService, type ServiceDepsInput } from 'agents-invariants';",
        'export const anonymous: ServiceDepsInput = { author: () => null };',
        'export const unsigned = (store: string) => InvariantService.open({ store, deps: anonymous });',
        // sync with no options says the drift; a confirm may answer at once.
        'export const drift = (plans: PlanService, id: string) => plans.sync(id);',
        'export const synced = (plans: PlanService, id: string) => plans.sync(id, { apply: true, confirm: () => true });',
        // A writer of store files answering at once, as withCommit awaits it either way.
        "import { withCommit } from 'agents-invariants';",
        "export const wrote = (root: string) => withCommit(root, false, () => ({ value: { n: 1 }, paths: ['global/x.yaml'], message: 'm' }));",
        'export type Named = [Guard, DecisionTreeNode, ShadowInfo, KeptProject, DiffSide, DiffTargetOptions, PlainTextDocument];',
        'export async function effective(store: string): Promise<string[]> {',
        '  const service = await InvariantService.open({ store });',
        "  const result = await service.effective({ project: 'myapp' });",
        '  return result.entries.map((e: EffectiveEntry) => e.invariant.text);',
        '}',
        // A listing short of the policy sources says so, on the array itself.
        'export async function short(store: string): Promise<(string | undefined)[]> {',
        '  const service = InvariantService.open({ store });',
        '  const listed: ListResult = await service.list();',
        '  const actions: ActionList = await new ScopeService(service).listActions();',
        "  const removed: RemoveResult = await service.remove(listed[0]?.invariant.id ?? 'none');",
        '  return [listed.inheritedMissing, actions.inheritedMissing, removed.path, removed.keptProject?.path, removed.commit];',
        '}',
        // An edit's field given as null is left as it is (a form's empty field), but the guard's, which removes it.
        'export const unchanged = (store: string, id: string) =>',
        '  InvariantService.open({ store }).edit({ id, text: null, severity: null, tags: null, active: null, guard: null });',
        // The documented constructors, as docs/library.md writes them.
        "import { ExportService, ReviewService, WorkingTreeSource } from 'agents-invariants';",
        'export const exported = (s: InvariantService) => new ExportService(s).plan({});',
        "export const reviewed = (root: string) => new ReviewService(root).diff({ range: 'main...HEAD' });",
        'export const tree = (root: string) => new WorkingTreeSource(root, { now: () => 0 });',
        'export const built = (root: string) => new InvariantService(root, { clock: () => new Date(0) });',
        'export const first = (i: Invariant): string => i.text;',
        'export const usage: number = EXIT_CODES.usage;',
        'export const run: (argv: readonly string[], io?: CliIo) => Promise<number> = main;',
        'export const resolver: typeof resolveEffective = resolveEffective;',
        'export const version: string = meta.version;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...STRICT_CONSUMER,
          noEmit: true,
          module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext',
          moduleResolution: resolution,
          resolveJsonModule: true,
        },
        // Under NodeNext a CommonJS file of the consumer's imports it too, as Node.js requires it (below).
        files: resolution === 'NodeNext' ? ['use.ts', 'use.cts'] : ['use.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'use.cts'),
      [
        "import { InvariantService, type ListResult } from 'agents-invariants';",
        "import { main } from 'agents-invariants/cli';",
        'export const listed = (store: string): Promise<ListResult> => InvariantService.open({ store }).list();',
        'export const run = main;',
        '',
      ].join('\n'),
    );
    // NodeNext reads "type" from the nearest package.json: the consumer's says module. One thread:
    // the same check, for less CPU than tsc's parallel checkers take (0.3 s a check, measured here).
    const r = run(process.execPath, [TSC, '--singleThreaded', '-p', join(dir, 'tsconfig.json')], dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  // A consumer that emits declarations (a library over this one) writes out the types its exports infer: each must be
  // one the package exports, or tsc refuses the file (TS2883: "cannot be named without a reference to ... core/errors.js").
  it('exports the types its public types name, so a consumer emitting declarations infers only nameable ones', () => {
    const dir = join(consumer, 'declarations');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'wrap.ts'),
      [
        'import {',
        '  type AgentsError, type ActorRequest, type ActorResponse, type Actor, type Diagnostic, type ExportPlan, type GateFacts,',
        '  type Invariant, type StoreConfig, type StoreDiff, type DriftItem, type TargetDiff, type TreeEntry, type DiffResult,',
        '  type InvariantService, WorkingTreeSource, affectedTargets, diffStores, mergeBlock, nearPairs, parseRecord, planExport,',
        '  reconcile, renderSections, setDigestInput,',
        "} from 'agents-invariants';",
        'export const exitCode = (e: AgentsError) => e.exitCode;',
        'export const hint = (e: ConstructorParameters<typeof AgentsError>[2]) => e?.hint;',
        'export const related = (d: Diagnostic) => d.related;',
        'export const sources = (c: StoreConfig) => c.extends;',
        'export const model = (c: StoreConfig) => c.reconciliation;',
        'export const imported = (i: Invariant) => i.imported_from;',
        'export const entryType = (e: TreeEntry) => e.type;',
        'export const treeOptions = (o: ConstructorParameters<typeof WorkingTreeSource>[1]) => o;',
        'export const kind = (a: Actor) => a.kind;',
        'export const requested = (r: ActorRequest) => r.invariants[0];',
        'export const answered = (r: ActorResponse) => r.results[0];',
        'export const reconciled = (...a: Parameters<typeof reconcile>) => reconcile(...a);',
        'export const recordKind = (k: Parameters<typeof parseRecord>[0]) => k;',
        'export const parsed = (...a: Parameters<typeof parseRecord>) => parseRecord(...a);',
        'export const record = (...a: Parameters<typeof parseRecord>) => parseRecord(...a).value;',
        'export const drift = (d: DriftItem) => d.kind;',
        'export const stats = (s: Parameters<typeof nearPairs>[1]) => s;',
        'export const changedMeta = (c: Parameters<typeof diffStores>[0]) => c;',
        'export const side = (s: Parameters<typeof affectedTargets>[1]) => s;',
        'export const edits = (t: TargetDiff) => t.changed[0];',
        'export const shadowed = (t: TargetDiff) => t.newlyShadowed[0];',
        'export const invariantChange = (d: StoreDiff) => d.invariants[0];',
        'export const field = (d: StoreDiff) => d.invariants[0]?.fields[0];',
        'export const waiverField = (d: StoreDiff) => d.waivers[0]?.fields[0];',
        'export const policyMoves = (d: DiffResult) => d.policySources;',
        'export const exportInput = (i: Parameters<typeof planExport>[0]) => i.projects[0];',
        'export const rendered = (r: Parameters<typeof renderSections>[2]) => r;',
        'export const merged = (...a: Parameters<typeof mergeBlock>) => mergeBlock(...a);',
        'export const refusal = (p: ExportPlan) => p.refused[0]?.reason;',
        'export const digested = (e: Parameters<typeof setDigestInput>[0]) => e[0];',
        'export const gate = (f: GateFacts) => [f.effective[0], f.expired?.[0]] as const;',
        'export const abbreviations = (s: InvariantService) => s.abbreviations();',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...STRICT_CONSUMER,
          declaration: true,
          emitDeclarationOnly: true,
          outDir: 'out',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
        },
        files: ['wrap.ts'],
      }),
    );
    const r = run(process.execPath, [TSC, '--singleThreaded', '-p', join(dir, 'tsconfig.json')], dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
    // What it wrote names the package's entry, never a file inside it.
    expect(readFileSync(join(dir, 'out/wrap.d.ts'), 'utf8')).not.toMatch(/dist\/types/);
  });

  it('passes publint --strict and are-the-types-wrong (ESM-only profile)', () => {
    const lint = run(process.execPath, [join(REPO, 'node_modules/publint/src/cli.js'), '--strict', tarball], REPO);
    expect(lint.stdout + lint.stderr).toContain('All good!');
    expect(lint.code).toBe(0);
    const attw = run(
      process.execPath,
      [join(REPO, 'node_modules/@arethetypeswrong/cli/dist/index.js'), '--profile', 'esm-only', '--format', 'json', tarball],
      REPO,
    );
    expect(attw.code, attw.stderr).toBe(0);
    const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems.filter((p) => !/node10|cjs/i.test(JSON.stringify(p)))).toEqual([]);
  });

  it('states the Node.js versions its bundled parts need', () => {
    // yargs 18 needs ^20.19 || >=22.12; the rest less.
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});
