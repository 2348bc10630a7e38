import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_CONFIG,
  describeScope,
  EXPORT_TARGETS,
  invariantPath,
  precedence,
  SEVERITIES,
  type Scope,
  sameScope,
  scopeFolder,
} from '../../src/core/model.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const scopes: [Scope, string, string][] = [
  [{ kind: 'global' }, 'global', 'global'],
  [{ kind: 'project', project: 'alpha' }, 'project alpha', 'projects/alpha'],
  [{ kind: 'action', ns: 'local', name: 'deploy' }, 'action local/deploy', 'actions/local/deploy'],
  [{ kind: 'plan', plan: PLAN }, `plan ${PLAN}`, `plans/${PLAN}`],
  [{ kind: 'inherited', source: 'org', order: 0 }, 'inherited org', 'extends/org/global'],
];

describe('scopes', () => {
  test.each(scopes)('%j: described and placed', (scope, described, folder) => {
    expect(describeScope(scope)).toBe(described);
    expect(scopeFolder(scope)).toBe(folder);
    expect(invariantPath(scope, 'X')).toBe(`${folder}/X.yaml`);
  });

  test('plan before project before global before inherited before action', () => {
    expect(['plan', 'project', 'global', 'inherited', 'action'].map((k) => precedence(k as Scope['kind']))).toEqual([0, 1, 2, 3, 4]);
  });

  test('sameScope compares the whole scope, not its kind alone', () => {
    expect(sameScope({ kind: 'project', project: 'a' }, { kind: 'project', project: 'a' })).toBe(true);
    expect(sameScope({ kind: 'project', project: 'a' }, { kind: 'project', project: 'b' })).toBe(false);
    expect(sameScope({ kind: 'action', ns: 'a', name: 'b' }, { kind: 'action', ns: 'a', name: 'c' })).toBe(false);
    expect(sameScope({ kind: 'global' }, { kind: 'global' })).toBe(true);
    expect(sameScope({ kind: 'global' }, { kind: 'plan', plan: PLAN })).toBe(false);
  });
});

describe('DEFAULT_CONFIG', () => {
  test('the defaults docs/store-format.md gives', () => {
    expect(DEFAULT_CONFIG).toMatchObject({
      version: 1,
      reconciliation: { actor: 'command', timeout_ms: 60_000 },
      commit: false,
      projects: { allow_overlap: false },
      export: { severities: ['error', 'warning', 'info'], nested: true },
      mcp: { allow_write: false },
    });
  });
});

describe('the names the schemas allow', () => {
  const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8'));
  test("SEVERITIES are the invariant schema's severities, in its order (the order help and errors list them in)", () => {
    expect(SEVERITIES).toEqual(schema('invariant').properties.severity.enum);
    expect(SEVERITIES).toEqual(['error', 'warning', 'info']);
  });

  test("EXPORT_TARGETS are the config schema's export targets, in its order", () => {
    expect(EXPORT_TARGETS).toEqual(schema('config').properties.export.properties.targets.items.enum);
    expect(EXPORT_TARGETS).toEqual(['agents-md', 'claude-md', 'gemini-md', 'copilot', 'cursor', 'windsurf', 'cline']);
  });
});
