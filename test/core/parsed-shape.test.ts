import { describe, expect, it } from 'vitest';
import type { Parsed } from '../../src/core/diagnostics.ts';
import type { Scope } from '../../src/core/model.ts';
import { parseActionMeta, parseInvariant, parsePlan, parseProjectMeta } from '../../src/core/parse.ts';
import { isCachedActionMeta, isCachedInvariant, isCachedParse, isCachedPlan, isCachedProjectMeta } from '../../src/core/parsed-shape.ts';

const ID = '01M8KJT9G0XNWEM589ZS7FV0VT';
const OTHER = '01M8KJT9G0XNWEM589ZS7FV0VV';
const PLAN = '01M8KJT9G0XNWEM589ZS7FV0VW';
const enc = (s: string) => new TextEncoder().encode(s);
/** What the parse cache hands back: the parse as JSON text, parsed again. */
const kept = (p: Parsed<unknown>): unknown => JSON.parse(JSON.stringify(p));

describe('the shape checks of the parse cache (core/parsed-shape.ts)', () => {
  it('passes every field each parser gives, and its diagnostics, so that a kept parse is never a miss of its own', () => {
    const plan: Scope = { kind: 'plan', plan: PLAN };
    const path = `plans/${PLAN}/${ID}.yaml`;
    const full = parseInvariant(
      path,
      enc(
        [
          `id: ${ID}`,
          'text: Never delete production data',
          'severity: warning',
          'active: false',
          'tags: [data, safety]',
          'rationale: It cannot be restored.',
          `overrides: ${OTHER}`,
          'locked: true',
          'guard:',
          '  write: ["db/**"]',
          '  command: ["rm -rf"]',
          '  content: ["secret"]',
          '  tool: ["Bash"]',
          'created_at: "2026-01-01T00:00:00Z"',
          'created_by: Jane <jane@example.com>',
          'source: {kind: action, ref: ops/deploy, origin_id: 01M8KJT9G0XNWEM589ZS7FV0VX}',
          'imported_from: {file: AGENTS.md, line: 3, text_hash: 2548bcxobko}',
          '',
        ].join('\n'),
      ),
      plan,
      ID,
    );
    expect(full.diagnostics).toEqual([]);
    expect(Object.keys(full.value!).length).toBe(15);
    const fitsInvariant = (v: unknown) => isCachedInvariant(v, ID, path);
    expect(isCachedParse(kept(full), fitsInvariant, 0)).toBe(true);
    // A file that does not parse is kept with its diagnostics (a position, an excerpt, a hint).
    const broken = parseInvariant(path, enc(`id: ${ID}\ntext: [unclosed\n`), plan, ID);
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(isCachedParse(kept(broken), fitsInvariant, 0)).toBe(true);
    const duplicate = parseInvariant(path, enc(`id: ${ID}\ntext: a\ntext: b\n`), plan, ID);
    expect(isCachedParse(kept(duplicate), fitsInvariant, 0)).toBe(true);

    const planFile = parsePlan(`plans/${PLAN}/plan.yaml`, enc(`id: ${PLAN}\naction: ops/deploy\nproject: api\ngoal: Ship\n`), PLAN);
    expect(isCachedParse(kept(planFile), (v) => isCachedPlan(v, PLAN), 0)).toBe(true);
    expect(isCachedParse(kept(planFile), (v) => isCachedPlan(v, OTHER), 0)).toBe(false);
    const action = parseActionMeta('actions/ops/deploy/action.yaml', enc('description: Ship it\n'));
    expect(isCachedParse(kept(action), isCachedActionMeta, 0)).toBe(true);
    expect(isCachedParse(kept(parseActionMeta('actions/ops/deploy/action.yaml', enc(''))), isCachedActionMeta, 0)).toBe(true);
    const project = parseProjectMeta('projects/api/project.yaml', enc('description: The API\npaths: ["services/api/**"]\n'));
    expect(isCachedParse(kept(project), isCachedProjectMeta, 0)).toBe(true);
    expect(isCachedParse(kept(parseProjectMeta('projects/api/project.yaml', enc('paths: 7\n'))), isCachedProjectMeta, 0)).toBe(true);
  });

  it('refuses a value out of shape: a wrong type, a field gone or unknown, another file', () => {
    const path = `global/${ID}.yaml`;
    const good = { id: ID, text: 'x', severity: 'error', active: true, tags: [], scope: { kind: 'global' }, path };
    expect(isCachedInvariant(good, ID, path)).toBe(true);
    for (const bad of [
      { ...good, text: 5 },
      { ...good, severity: 'fatal' },
      { ...good, tags: ['a', 1] },
      { ...good, active: 'yes' },
      { ...good, locked: false },
      { ...good, guard: { write: 'db/**' } },
      { ...good, guard: { exec: ['x'] } },
      { ...good, source: { kind: 'other' } },
      { ...good, imported_from: { file: 'AGENTS.md', line: -1 } },
      { ...good, imported_from: { file: 'AGENTS.md', line: 3, text_hash: 5 } },
      { ...good, imported_from: { file: 'AGENTS.md', line: 3, hash: 'x' } },
      { ...good, rationale: null },
      { ...good, unknown: 1 },
      { ...good, id: OTHER },
      { ...good, path: `global/${OTHER}.yaml` },
      { ...good, scope: undefined },
      [good],
      null,
    ])
      expect(isCachedInvariant(bad, ID, path)).toBe(false);
    const diagnostic = { code: 'schema', severity: 'error', file: path, line: 1, col: 1, message: 'm' };
    const fits = () => true;
    expect(isCachedParse({ diagnostics: [diagnostic] }, fits, 0)).toBe(true);
    for (const bad of [
      { diagnostics: [{ ...diagnostic, message: 5 }] },
      { diagnostics: [{ ...diagnostic, severity: 'fatal' }] },
      { diagnostics: [{ ...diagnostic, line: '1' }] },
      { diagnostics: [{ ...diagnostic, related: [{ file: path }] }] },
      { diagnostics: [{ ...diagnostic, extra: true }] },
      { diagnostics: {} },
      { diagnostics: [], value: {}, more: 1 },
      { value: {} },
    ])
      expect(isCachedParse(bad, fits, 0)).toBe(false);
    expect(isCachedProjectMeta({ paths: 'a/**' })).toBe(false);
    expect(isCachedProjectMeta({ description: 'd', other: 'x' })).toBe(false);
    expect(isCachedActionMeta({ description: 1 })).toBe(false);
  });
});
