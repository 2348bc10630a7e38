import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/model.ts';
import { REPO } from '../helpers/cli.ts';

/**
 * `src/core` holds no mutable module state (docs/architecture.md): what a
 * call needs is passed in or made per call, so two callers in one process
 * (the MCP server, a library user, the tests) never see each other's state.
 * Read line by line: Biome formats every source, so a module's top-level
 * statements, and only those, start in column 0.
 */
const RULES: { what: string; re: RegExp }[] = [
  { what: 'a top-level let or var', re: /^(export\s+)?(let|var)\s/ },
  {
    what: 'a top-level Map, Set, WeakMap or WeakSet (a module cache or registry)',
    re: /^(export\s+)?const\s+[\w$]+(\s*:[^=]+)?\s*=\s*new\s+(Map|Set|WeakMap|WeakSet)\b/,
  },
  { what: 'a top-level assignment', re: /^[A-Za-z_$][\w$.]*(\[[^\]]*\])?\s*([-+*/|&]?=)(?!=|>)/ },
  {
    what: 'a top-level call run at load (a registration or other side effect)',
    re: /^(await\s+)?(?!(for|if|while|switch)\b)[A-Za-z_$][\w$.]*\s*\(/,
  },
  { what: 'a top-level loop or branch run at load', re: /^(for|while|if|switch|do)\b/ },
];

function problems(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const rule of RULES) if (rule.re.test(line)) out.push(`${file}:${i + 1}: ${rule.what}`);
  });
  return out;
}

function deeplyFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('src/core holds no mutable module state', () => {
  it('no core module has a top-level let/var, module cache, assignment or load-time call', () => {
    const dir = join(REPO, 'src/core');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => problems(`src/core/${f}`, readFileSync(join(dir, f), 'utf8')))).toEqual([]);
  });

  it('the check catches each kind', () => {
    const bad = [
      'let syntax: YamlSyntax | undefined;',
      'export var count = 0;',
      'const cache = new Map<string, RegExp>();',
      'export const seen: WeakSet<object> = new WeakSet();',
      'registry.default = parser;',
      'counts[0] += 1;',
      'registerYamlSyntax({ parseFull });',
      "for (const c of '!?') TABLE[c.charCodeAt(0)] = 1;",
      '  let inside = 1; // indented: inside a function, allowed',
      'const LIMITS = { a: 1 };',
      'export function f(): void {}',
      'const f = (x: number) => x;',
      'a === b;',
    ].join('\n');
    expect(problems('x.ts', bad).map((p) => p.split(': ')[0])).toEqual([
      'x.ts:1',
      'x.ts:2',
      'x.ts:3',
      'x.ts:4',
      'x.ts:5',
      'x.ts:6',
      'x.ts:7',
      'x.ts:8',
    ]);
  });

  it('the shared defaults are frozen, nested parts too', () => {
    expect(deeplyFrozen(DEFAULT_CONFIG)).toBe(true);
  });
});
