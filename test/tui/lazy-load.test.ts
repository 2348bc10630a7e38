import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GIT_ENV } from '../helpers/git.ts';
import { distMeta, ESM_AGENTS, traceLoads, type DistMeta } from '../helpers/loads.ts';
import { REPO } from '../helpers/cli.ts';
import { G1, exampleStore } from './helpers.ts';

const UI_PACKAGES = /^node_modules\/(ink|react|react-reconciler|scheduler|yoga-layout)\//;

type Meta = DistMeta;
const meta = distMeta;

/** Output files (dist/…) holding Ink, React or their renderer. */
function uiOutputs(m: Meta): Set<string> {
  return new Set(
    Object.entries(m.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((i) => UI_PACKAGES.test(i)))
      .map(([f]) => f),
  );
}

/** Runs the built CLI with the load recorder; returns the dist files it loaded (relative, e.g. dist/chunks/x.js). */
function loadedBy(args: string[], cwd: string): { code: number; stderr: string; loaded: string[] } {
  const r = traceLoads([ESM_AGENTS, ...args], { cwd, env: GIT_ENV });
  return { code: r.code, stderr: r.stderr, loaded: r.dist };
}

describe('Ink and React are loaded only on interactive paths', () => {
  test('the bundle: Ink sits in chunks reached only through dynamic imports', () => {
    const m = meta();
    const ui = uiOutputs(m);
    expect(ui.size).toBeGreaterThan(0);
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of m.outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && i.path.startsWith('dist/')) walk(i.path);
    };
    walk('dist/cli.js');
    walk('dist/index.js');
    expect([...seen].filter((f) => ui.has(f))).toEqual([]);
    // The TUI's entry chunks are imported dynamically (by the command modules).
    const dynamic = Object.values(m.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
    for (const entry of ['src/tui/add.tsx', 'src/tui/browse.tsx', 'src/tui/remove.tsx']) {
      const chunk = Object.entries(m.outputs).find(([, o]) => Object.keys(o.inputs).includes(entry))?.[0];
      expect(chunk, entry).toBeDefined();
      expect(dynamic).toContain(chunk);
      expect(seen.has(chunk!)).toBe(false);
    }
    // react-devtools-core stays an external import of a chunk that is never loaded (DEV is false).
    expect(readdirSync(join(REPO, 'dist/chunks')).some((f) => f.startsWith('react-devtools-core'))).toBe(false);
  });

  test.each([
    [['invariant', 'list'], 0],
    [['invariant', 'list', '--effective', '--project', 'myapp'], 0],
    [['invariant', 'show', G1], 0],
    [['invariant', 'add', '--global', 'Keep secrets out of logs'], 0],
    [['invariant', 'add', '--global'], 2],
    [['invariant', 'remove', G1], 2],
    [['invariant', 'list', '--interactive'], 2],
    [['tui'], 2],
    [['--help'], 0],
  ])('agents %j (not a TTY) loads no Ink chunk, exit %i', (args, exit) => {
    const store = exampleStore();
    const { code, loaded } = loadedBy(['--store', store, ...args], join(store, '..'));
    expect(code).toBe(exit);
    expect(loaded).toContain('dist/cli.js');
    const ui = uiOutputs(meta());
    expect(loaded.filter((f) => ui.has(f))).toEqual([]);
  });

  test('the recorder sees Ink when a TUI chunk is loaded (control)', () => {
    const r = traceLoads(['--input-type=module', '-e', `await import(${JSON.stringify(join(REPO, 'dist/tui.js'))})`]);
    expect(r.code).toBe(0);
    const loaded = r.dist;
    const ui = uiOutputs(meta());
    expect(loaded.filter((f) => ui.has(f)).length).toBeGreaterThan(0);
  });
});
