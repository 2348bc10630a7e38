import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

const CHECK = join(REPO, 'scripts/check-layers.mjs');

function check(cwd: string) {
  const r = spawnSync(process.execPath, [CHECK], { cwd, encoding: 'utf8' });
  return { code: r.status, lines: r.stderr.trim().split('\n').filter(Boolean) };
}

function tree(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the layer rules (docs/architecture.md)', () => {
  it('hold for the sources', () => {
    expect(check(REPO)).toEqual({ code: 0, lines: [] });
  });

  it('catch each kind of broken rule, by file and line', () => {
    const dir = tree({
      'src/core/pure.ts': "import { x } from './ok.ts';\nimport { readFileSync } from 'node:fs';\nimport path from 'path';\n",
      'src/core/ok.ts': 'export const x = 1;\n',
      'src/store/up.ts':
        "// import { no } from '../cli/main.ts';\nimport type { T } from '../service/t.ts';\nconst m = await import('../tui/App.tsx');\n",
      'src/service/git-use.ts':
        "import { simpleGit } from 'simple-git';\nimport { Box } from 'ink';\nimport { ok } from '../store/up.ts';\n",
      'src/index.ts': "export { main } from './cli/main.ts';\nexport { x } from './core/ok.ts';\n",
      'src/cli/main.ts': "import { y } from '../index.ts';\nimport { App } from '../tui/App.tsx';\n",
      'src/tui/App.tsx': "import { Box } from 'ink';\nimport { z } from '../cli/main.ts';\n",
      'src/plugins/p.ts': 'export {};\n',
    });
    const r = check(dir);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => l.split(': ')[0])).toEqual([
      'src/cli/main.ts:1',
      'src/cli/main.ts:2',
      'src/core/pure.ts:2',
      'src/core/pure.ts:3',
      'src/index.ts:1',
      'src/service/git-use.ts:1',
      'src/service/git-use.ts:2',
      'src/store/up.ts:2',
      'src/store/up.ts:3',
      'src/tui/App.tsx:2',
      // The library entry, the CLI and the TUI import each other: one circle, named once.
      'src/cli/main.ts:1',
      'src/plugins/',
      '12 layer rule(s) broken (docs/architecture.md).',
    ]);
  });

  it('refuse a circle of modules within one layer, a type or dynamic import closing it too', () => {
    const dir = tree({
      'src/service/a.ts': "import { b } from './b.ts';\nexport const a = 1;\n",
      'src/service/b.ts': "export const b = async () => (await import('./c.ts')).c;\n",
      'src/service/c.ts': "import type { A } from './a.ts';\nexport const c = 1;\n",
      'src/service/d.ts': "import { a } from './a.ts';\n",
    });
    const r = check(dir);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => l.split(': ')[0])).toEqual(['src/service/a.ts:1', '1 layer rule(s) broken (docs/architecture.md).']);
  });

  it('refuse a new import from src/mcp into src/cli, of any kind; src/cli opens src/mcp only from the mcp command, by import()', () => {
    const dir = tree({
      'src/cli/report.ts': 'export const lines = 1;\n',
      'src/cli/commands/mcp.ts':
        "const { serve } = await import('../../mcp/server.ts');\nimport type { Opts } from '../../mcp/server.ts';\n",
      'src/cli/main.ts': "import { serve } from '../mcp/server.ts';\n",
      'src/cli/context.ts': "export const serve = () => import('../mcp/server.ts');\n",
      'src/mcp/server.ts':
        "import { lines } from '../cli/report.ts';\nimport type { T } from '../cli/report.ts';\nexport const serve = () => import('../cli/report.ts');\n",
      'src/present/shape.ts': "import { lines } from '../cli/report.ts';\n",
    });
    const r = check(dir);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => l.split(': ')[0])).toEqual([
      'src/cli/context.ts:1',
      'src/cli/main.ts:1',
      'src/mcp/server.ts:1',
      'src/mcp/server.ts:2',
      'src/mcp/server.ts:3',
      'src/present/shape.ts:1',
      '6 layer rule(s) broken (docs/architecture.md).',
    ]);
  });

  it('refuse a module of another layer reaching into src/service/invariants/ past its face, invariant-service.ts', () => {
    const dir = tree({
      'src/service/invariants/query.ts': 'export const listShown = 1;\n',
      'src/service/invariant-service.ts': "export { listShown } from './invariants/query.ts';\n",
      // The service layer's own modules use the use cases' parts directly.
      'src/service/plans/use.ts': "import { listShown } from '../invariants/query.ts';\n",
      'src/cli/list.ts':
        "import { listShown } from '../service/invariant-service.ts';\nconst q = await import('../service/invariants/query.ts');\n",
      'src/present/shown.ts': "import type { T } from '../service/invariants/types.ts';\n",
    });
    const r = check(dir);
    expect(r.lines.map((l) => l.split(': ')[0])).toEqual([
      'src/cli/list.ts:2',
      'src/present/shown.ts:1',
      '2 layer rule(s) broken (docs/architecture.md).',
    ]);
  });

  it('refuse a source over 500 lines (one job per file), but not a generated one', () => {
    const lines = (n: number) => 'export const x = 1;\n'.repeat(n);
    const dir = tree({
      'src/core/long.ts': lines(501),
      'src/core/full.ts': lines(500),
      'src/core/schema-validators.generated.js': lines(3000),
    });
    const r = check(dir);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => l.split(': ')[0])).toEqual(['src/core/long.ts:501', '1 layer rule(s) broken (docs/architecture.md).']);
  });
});
