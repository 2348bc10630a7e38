import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ImportPlan, PlannedCandidate } from '../../src/core/import-plan.ts';
import { ImportService } from '../../src/service/import-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ScopeService } from '../../src/service/scope-service.ts';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

const candidate = (n: number, text: string): PlannedCandidate => ({
  n,
  file: 'AGENTS.md',
  line: n + 2,
  end_line: n + 2,
  whole: true,
  text,
  tags: [],
  severity: 'error',
  scope: { kind: 'global' },
  status: 'new',
  near: [],
});

test('a kept rule whose text its scope holds, or another kept rule says (an edit in the review), is reported not imported, not left out unsaid', async () => {
  const G = '01M8KJT9G0XNWEM589ZS7FV0VT';
  const root = testStore({ [`global/${G}.yaml`]: invariantYaml(G, 'Never delete production data') });
  const invariants = new InvariantService(root, { author: async () => undefined });
  const service = new ImportService(invariants, new ScopeService(invariants));
  // As the review hands them over: rule 2 edited into rule 1's text, rule 3 into the text the store holds.
  const chosen = [candidate(1, 'Always run the tests'), candidate(2, 'always run the tests'), candidate(3, 'never delete production data')];
  const plan: ImportPlan = { files: [], projects: [], candidates: chosen };
  const written = await service.apply(plan, chosen);
  expect(written.invariants.map((w) => w.n)).toEqual([1]);
  expect(written.refused).toEqual([
    { n: 2, why: 'AGENTS.md:3 says this text too, in global/' },
    { n: 3, why: 'global/ already holds this text' },
  ]);
  expect(readdirSync(join(root, 'global'))).toHaveLength(2);
});
