import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO } from './cli.ts';
import { tempDir } from './tmp.ts';

/** The seed's example plan (targets project myapp). */
export const EXAMPLE_PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** A private copy of `.agents.example/`, so tests never dirty the committed example. */
export function exampleStore(): string {
  const root = join(tempDir(), '.agents');
  cpSync(join(REPO, '.agents.example'), root, { recursive: true });
  return root;
}

/** Parsed YAML of a store file. */
export function readYaml<T = Record<string, unknown>>(root: string, rel: string): T {
  return parse(readFileSync(join(root, rel), 'utf8')) as T;
}

/** Record files of one kind under a plan, parsed, in id order. */
export function records<T = Record<string, unknown>>(root: string, plan: string, kind: 'decisions' | 'enforcement' | 'violations'): T[] {
  const dir = join(root, 'plans', plan, kind);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => readYaml<T>(root, `plans/${plan}/${kind}/${f}`));
}

/** Writes an actor script into the store's actors/ folder and points config.yaml at it. */
export function useActor(root: string, script: string, timeoutMs = 20_000): void {
  writeFileSync(join(root, 'actors', 'fixture-actor.mjs'), script);
  writeFileSync(
    join(root, 'config.yaml'),
    [
      'version: 1',
      'reconciliation:',
      '  actor: command',
      '  command: [node, actors/fixture-actor.mjs]',
      `  timeout_ms: ${timeoutMs}`,
      '',
    ].join('\n'),
  );
}

/** Files under a folder, store-relative, sorted (to prove nothing was written). */
export function fileList(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out.sort();
}

export interface EnforcementFile {
  id: string;
  decision_id: string;
  actor: string;
  error?: string;
  records: { invariant_id: string; enforced: boolean; actor_response: string; decision_id: string; digest?: string }[];
}

export interface DecisionFile {
  id: string;
  type: string;
  parent_id: string | null;
  summary: string;
  enforcement_id: string;
  created_at: string;
}

/** The example plan's effective set, in order (id, text), and its goal: what an actor is asked to judge. */
export const EXAMPLE_PLAN_SET: [string, string][] = [
  ['01M8KK3EF09G9ET4TAJAHQWPMN', 'Use Python 3.13 only'],
  ['01M8KJXYP0GVPRF8KRRE9G8474', 'All API changes need tests'],
  ['01M8KJZS90J6DRJJ8E264B9DFX', 'Log all changes'],
  ['01M8KJT9G0XNWEM589ZS7FV0VT', 'Never delete production data'],
];
export const EXAMPLE_PLAN_GOAL = 'Upgrade the myapp API to Python 3.13';

/** Points a store made by `init` at the example actor, copied into its actors/ folder. */
export function useExampleActor(store: string): void {
  mkdirSync(join(store, 'actors'), { recursive: true });
  copyFileSync(join(REPO, '.agents.example/actors/example-actor.mjs'), join(store, 'actors/example-actor.mjs'));
  const config = readFileSync(join(store, 'config.yaml'), 'utf8');
  writeFileSync(
    join(store, 'config.yaml'),
    config.replace('  actor: command\n', '  actor: command\n  command: [node, actors/example-actor.mjs]\n'),
  );
}
