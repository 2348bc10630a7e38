// The layer rules of docs/architecture.md, checked on every import in src/
// (static, dynamic and type-only: a type import is a dependency too), and the
// size of each source (at most 500 lines).
// Prints one line per broken rule as file:line and exits 1; part of npm test.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';

/** Bottom to top. A layer may import its own and lower ones only; layers of one rank never import each other. */
const RANK = { core: 0, git: 1, store: 2, validate: 3, enforce: 3, service: 4, export: 4, present: 5, tui: 6, mcp: 6, cli: 7 };
/** Layers the CLI opens only on demand, by `import()` (or `import type`): start-up loads neither React nor the MCP SDK. */
const LAZY_FROM_CLI = new Set(['tui', 'mcp']);
/** The one module of the CLI that opens the MCP server: `agents mcp` is a command like any other. */
const MCP_COMMAND = 'src/cli/commands/mcp.ts';
const ONLY_IN = { 'simple-git': 'git', ink: 'tui', react: 'tui', 'react-reconciler': 'tui', 'ink-testing-library': 'tui' };
/** What the library entry (src/index.ts) may reach: it must not load the CLI's parser or the TUI. */
const LIBRARY_FORBIDS = new Set(['cli', 'tui', 'mcp']);
/** Folders of use cases behind one module, their face: another layer reaches them only through it. */
const FACES = { 'src/service/invariants/': 'src/service/invariant-service.ts' };
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((d) => {
      const full = join(dir, d.name);
      if (d.isDirectory()) return files(full);
      return /\.(ts|tsx|js|mjs)$/.test(d.name) ? [full] : [];
    });
}

/** Each import specifier of a source, with its line and how it loads (`static`, `type` or `dynamic`); comments are blanked first (keeping line numbers). */
function imports(text) {
  const clean = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
  const found = [];
  const re = /(?:^|[;\s}])(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of clean.matchAll(re))
    found.push({
      spec: m[2] ?? m[3],
      kind: m[3] !== undefined ? 'dynamic' : m[1] ? 'type' : 'static',
      line: clean.slice(0, m.index).split('\n').length + (clean[m.index] === '\n' ? 1 : 0),
    });
  return found;
}

const layerOf = (path) => {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1] : 'api';
};
const pkgOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** One job per file (docs/architecture.md): a source longer than this is split. */
const MAX_LINES = 500;

const problems = [];
/** Each source's imports of other sources (static, type and dynamic alike), for the circles below. */
const edges = new Map();
for (const file of files('src')) {
  const from = relative('.', file);
  const fromLayer = layerOf(from);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  // Generated files (the schema validators) are not written by hand.
  if (lines > MAX_LINES && !from.includes('.generated.'))
    problems.push(`${from}:${MAX_LINES + 1}: ${lines} lines; a source file holds one job in at most ${MAX_LINES}: split it`);
  for (const { spec, kind, line } of imports(text)) {
    const at = `${from}:${line}`;
    if (spec.startsWith('.')) {
      const to = normalize(join(dirname(from), spec));
      // Data beside the sources (schemas/, package.json) belongs to no layer.
      if (!to.startsWith('src/')) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, line);
      const toLayer = layerOf(to);
      if (fromLayer === 'api') {
        if (LIBRARY_FORBIDS.has(toLayer)) problems.push(`${at}: the library entry imports ${to}; it must not load src/${toLayer}`);
        continue;
      }
      if (toLayer === 'api') problems.push(`${at}: ${to} is the library entry; import the module itself`);
      else if (toLayer !== fromLayer && RANK[toLayer] >= RANK[fromLayer])
        problems.push(`${at}: src/${fromLayer} imports ${to}, a layer that is not below it`);
      else if (fromLayer === 'cli' && LAZY_FROM_CLI.has(toLayer) && kind === 'static')
        problems.push(`${at}: src/cli imports ${to} at start-up; open src/${toLayer} with import() where the command needs it`);
      else if (fromLayer === 'cli' && toLayer === 'mcp' && from !== MCP_COMMAND)
        problems.push(`${at}: only the mcp command (${MCP_COMMAND}) opens src/mcp`);
      else if (toLayer !== fromLayer)
        for (const [folder, face] of Object.entries(FACES))
          if (to.startsWith(folder)) problems.push(`${at}: imports ${to} past its folder's face; import it from ${face}`);
    } else if (BUILTINS.has(spec)) {
      if (fromLayer === 'core') problems.push(`${at}: src/core is pure but imports ${spec}`);
    } else {
      const home = ONLY_IN[pkgOf(spec)];
      if (home && fromLayer !== home) problems.push(`${at}: ${pkgOf(spec)} may be imported only in src/${home}`);
    }
  }
}

// No circle of modules (docs/architecture.md): within a layer too, each module depends on the ones below it only.
// Tarjan's strongly connected components; each of more than one module is one circle, named by its modules.
{
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle = [];
    for (let w = stack.pop(); ; w = stack.pop()) {
      on.delete(w);
      circle.push(w);
      if (w === v) break;
    }
    if (circle.length > 1) {
      const members = new Set(circle);
      const [first] = circle.sort();
      const to = [...edges.get(first).keys()].find((t) => members.has(t));
      problems.push(
        `${first}:${edges.get(first).get(to)}: imports ${to}, in a circle of ${circle.length} modules (${circle.join(', ')}): break it`,
      );
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
}

const unknown = files('src')
  .map((f) => layerOf(relative('.', f)))
  .filter((l) => l !== 'api' && !(l in RANK));
for (const l of new Set(unknown))
  problems.push(`src/${l}/: a folder with no place in the layers; add it to scripts/check-layers.mjs and docs/architecture.md`);

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} layer rule(s) broken (docs/architecture.md).\n`);
  process.exit(1);
}
