import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG, describeScope, invariantPath, precedence, type Scope, sameScope, scopeFolder } from '../../src/core/model.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const scopes: [Scope, string, string][] = [
  [{ kind: 'global' }, 'global', 'global'],
  [{ kind: 'project', project: 'alpha' }, 'project alpha', 'projects/alpha'],
  [{ kind: 'action', ns: 'local', name: 'deploy' }, 'action local/deploy', 'actions/local/deploy'],
  [{ kind: 'plan', plan: PLAN }, `plan ${PLAN}`, `plans/${PLAN}`],
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
