import { lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { commitAll, gitInit } from '../helpers/git.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';
import { runAgents } from '../helpers/main.ts';

export const G1 = '01JDQ6X5Z8W4N3B2C1D0E9F8A1';
export const G2 = '01JDQ6X5Z8W4N3B2C1D0E9F8A2';
export const G3 = '01JDQ6X5Z8W4N3B2C1D0E9F8A3';
export const B1 = '01JDQ6X5Z8W4N3B2C1D0E9F8B1';
export const B2 = '01JDQ6X5Z8W4N3B2C1D0E9F8B2';
export const W1 = '01JDQ6X5Z8W4N3B2C1D0E9F8C1';
export const P1 = '01JDQ6X5Z8W4N3B2C1D0E9F8D1';
export const PLAN = '01JDQ6X5Z8W4N3B2C1D0E9F8E1';

export const ALL_TARGETS = ['agents-md', 'claude-md', 'gemini-md', 'copilot', 'cursor', 'windsurf', 'cline'] as const;

export function inv(id: string, text: string, severity = 'error'): string {
  return `# yaml-language-server: $schema=../../schemas/invariant.schema.json\nid: ${id}\ntext: ${JSON.stringify(text)}\nseverity: ${severity}\n`;
}

/**
 * A monorepo with a store: three global invariants (one of each severity),
 * project billing (one folder), project web (two folders), project legacy
 * (no project.yaml), a plan for billing, and every target in config.yaml.
 */
export function monorepo(): string {
  const repo = tempDir();
  gitInit(repo);
  writeTree(repo, {
    '.agents/config.yaml': `version: 1\nexport:\n  targets: [${ALL_TARGETS.join(', ')}]\n`,
    [`.agents/global/${G1}.yaml`]: inv(G1, 'Never delete production data').replace('../../', '../'),
    [`.agents/global/${G2}.yaml`]: inv(G2, 'Log all changes', 'warning').replace('../../', '../'),
    [`.agents/global/${G3}.yaml`]: inv(G3, 'Prefer small pull requests', 'info').replace('../../', '../'),
    '.agents/projects/billing/project.yaml': 'description: Payments and invoices\npaths:\n  - services/billing/**\n',
    [`.agents/projects/billing/${B1}.yaml`]: inv(B1, 'Amounts are integers of cents'),
    [`.agents/projects/billing/${B2}.yaml`]: inv(B2, 'Log all changes'),
    '.agents/projects/web/project.yaml': 'paths:\n  - apps/web/**\n  - packages/ui/**\n',
    [`.agents/projects/web/${W1}.yaml`]: inv(W1, 'Never ship UI copy without review', 'warning'),
    [`.agents/projects/legacy/${'01JDQ6X5Z8W4N3B2C1D0E9F8F1'}.yaml`]: inv('01JDQ6X5Z8W4N3B2C1D0E9F8F1', 'Do not touch the mainframe'),
    [`.agents/plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: billing\ngoal: Refund flow\n`,
    [`.agents/plans/${PLAN}/${P1}.yaml`]: inv(P1, 'Refunds never exceed the charge'),
    'services/billing/src/main.ts': 'export {};\n',
    'apps/web/index.ts': 'export {};\n',
    'packages/ui/button.ts': 'export {};\n',
    'README.md': '# Monorepo\n',
  });
  return repo;
}

/** Every file under `root` except .git, with its bytes (or link target): to prove nothing was written. */
export function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      if (rel === '' && name === '.git') continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(root, path));
      if (st.isSymbolicLink()) out.set(path, `-> ${readlinkSync(join(root, path))}`);
      else if (st.isDirectory()) walk(path);
      else out.set(path, readFileSync(join(root, path), 'latin1'));
    }
  };
  walk('');
  return out;
}

/** The files an export wrote: those not in `before`, or changed. */
export function writtenSince(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after]
    .filter(([p, c]) => before.get(p) !== c)
    .map(([p]) => p)
    .sort();
}

/** The monorepo exporting AGENTS.md only, exported and committed. */
export async function exportedRepo(): Promise<string> {
  const repo = monorepo();
  writeFileSync(join(repo, '.agents/config.yaml'), 'version: 1\nexport:\n  targets: [agents-md]\n');
  expect((await runAgents(['export'], { cwd: repo })).code).toBe(0);
  commitAll(repo, 'store and its exported files');
  return repo;
}
