import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO } from './cli.ts';
import { tempDir } from './tmp.ts';

/** esbuild's record of the built dist/: which source files each output holds, and what it imports. */
export interface DistMeta {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
  /** Each bundled source, with what it imports (a path of another input, or a built-in's name). */
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

/**
 * bin/agents.js's routes over the ES module build (test/helpers/esm-agents.mjs):
 * what each command loads shows there module by module.
 */
export const ESM_AGENTS = join(REPO, 'test/helpers/esm-agents.mjs');

/** The last parse of dist/meta.json (1.4 MB, asked for dozens of times a file), with the stamp of the file it read. */
let metaRead: { stamp: string; meta: DistMeta } | undefined;

export function distMeta(): DistMeta {
  const path = join(REPO, 'dist/meta.json');
  const s = statSync(path);
  // A build between two calls (the stamp changes) is read again.
  const stamp = `${s.ino} ${s.size} ${s.mtimeMs}`;
  if (metaRead?.stamp !== stamp) metaRead = { stamp, meta: JSON.parse(readFileSync(path, 'utf8')) as DistMeta };
  return metaRead.meta;
}

export interface TracedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Every module the process loaded: file: URLs in the order V8 parsed them, then the node: built-ins it loaded. */
  urls: string[];
  /** The dist/ files among them, relative to the repository: `dist/cli.js`, `dist/chunks/…`. */
  dist: string[];
}

/**
 * Runs `node NODE_ARGS…` with test/helpers/trace-loads.mjs preloaded (after
 * `preload`), and returns what it printed and every module it resolved.
 */
export function traceLoads(
  nodeArgs: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; preload?: readonly string[]; input?: string } = {},
): TracedRun {
  const trace = join(tempDir(), 'loads.txt');
  const r = spawnSync(
    process.execPath,
    [...(options.preload ?? []).flatMap((p) => ['--import', p]), '--import', join(REPO, 'test/helpers/trace-loads.mjs'), ...nodeArgs],
    {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, NO_COLOR: '1', CI: 'true', ...options.env, TRACE_LOADS_FILE: trace },
      encoding: 'utf8',
      input: options.input ?? '',
      timeout: 30_000,
    },
  );
  let urls: string[] = [];
  try {
    urls = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  } catch {
    // Nothing loaded through the hook.
  }
  const distDir = `${join(REPO, 'dist')}/`;
  const dist = urls
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u))
    .filter((p) => p.startsWith(distDir))
    .map((p) => p.slice(REPO.length));
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, urls, dist };
}

/** npm packages (and src/ folders) bundled into the given dist/ outputs. */
export function bundledIn(outputs: Iterable<string>): Set<string> {
  const m = distMeta();
  const found = new Set<string>();
  for (const o of outputs) {
    for (const input of Object.keys(m.outputs[o]?.inputs ?? {})) {
      const parts = input.split('/');
      const i = parts.lastIndexOf('node_modules');
      if (i >= 0) found.add(parts[i + 1]!.startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1]!);
      else if (parts[0] === 'src') found.add(`src/${parts[1]}`);
    }
  }
  return found;
}

/** The outputs loaded at start-up: dist/cli.js and what it imports statically. */
export function staticClosure(entry: string): Set<string> {
  const m = distMeta();
  const seen = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const i of m.outputs[o]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  return seen;
}
