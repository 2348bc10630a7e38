import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ImportPlan, PlannedCandidate } from '../../src/core/import-plan.ts';
import { importedTextHash } from '../../src/core/import-stale.ts';
import { ImportService } from '../../src/service/import-service.ts';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ScopeService } from '../../src/service/scope-service.ts';
import { invariantYaml, testStore, writeTree } from '../helpers/tmp.ts';

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

test("a rule the review edited records the hash of the text its file said: the edit is the store's, not gone from the file", async () => {
  const root = testStore();
  const invariants = new InvariantService(root, { author: async () => undefined });
  const service = new ImportService(invariants, new ScopeService(invariants));
  const plan: ImportPlan = { files: [], projects: [], candidates: [candidate(1, 'Use tabs.'), candidate(2, 'Never push to main.')] };
  const written = await service.apply(plan, [{ ...candidate(1, 'Indent with tabs.') }, candidate(2, 'Never push to main.')]);
  const hashes = written.invariants.map((w) => /text_hash: (.*)\n/.exec(readFileSync(join(root, w.path), 'utf8'))?.[1]);
  expect(hashes).toEqual([importedTextHash('Use tabs.'), importedTextHash('Never push to main.')]);
});

test('a project the plan would make, made meanwhile: with the same paths its rules go into it; with others they are reported not imported, the rest written', async () => {
  const root = testStore();
  const invariants = new InvariantService(root, { author: async () => undefined });
  const service = new ImportService(invariants, new ScopeService(invariants));
  const inProject = (n: number, text: string, project: string): PlannedCandidate => ({
    ...candidate(n, text),
    scope: { kind: 'project', project },
  });
  const chosen = [inProject(1, 'Use hooks', 'web'), inProject(2, 'Validate every input', 'api'), inProject(3, 'Keep docs short', 'docs')];
  const plan: ImportPlan = {
    files: [],
    projects: [
      { name: 'api', paths: ['services/api/**'], exists: false },
      { name: 'docs', paths: ['docs/**'], exists: false },
      { name: 'web', paths: ['apps/web/**'], exists: false },
    ],
    candidates: chosen,
  };
  // Made by another writer after the plan: web with the paths the plan gives it, api with others.
  writeTree(root, {
    'projects/web/project.yaml': 'paths:\n  - apps/web/**\n',
    'projects/api/project.yaml': 'paths:\n  - api/**\n',
  });
  const written = await service.apply(plan, chosen);
  expect(written.invariants.map((w) => [w.n, w.path.split('/').slice(0, 2).join('/')])).toEqual([
    [1, 'projects/web'],
    [3, 'projects/docs'],
  ]);
  expect(written.refused.map((r) => r.n)).toEqual([2]);
  expect(written.projects).toEqual(['docs']);
  expect(readdirSync(join(root, 'projects/api'))).toEqual(['project.yaml']);
  expect(readdirSync(join(root, 'projects/web')).length).toBe(2);
});

/** A scope service that lets another writer make project web, with the paths the plan gives it, at one moment of the import's write. */
class RacedScopes extends ScopeService {
  constructor(
    invariants: InvariantService,
    private readonly when: 'before-staging' | 'after-staging',
  ) {
    super(invariants);
  }
  private other(): void {
    writeTree(this.invariants.root, {
      'projects/web/project.yaml': 'paths:\n  - apps/web/**\n',
      'projects/web/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': invariantYaml('01M8KJT9G0XNWEM589ZS7FV0VT', 'Use hooks'),
    });
  }
  override async newProjects(...args: Parameters<ScopeService['newProjects']>): ReturnType<ScopeService['newProjects']> {
    if (this.when === 'before-staging') this.other();
    const made = await super.newProjects(...args);
    if (this.when === 'after-staging') this.other();
    return made;
  }
}

test.each(['before-staging', 'after-staging'] as const)(
  'a project made by a second import at once (%s): the rules go into it, a text it holds left out, never refused nor a second copy',
  async (when) => {
    const root = testStore();
    const invariants = new InvariantService(root, { author: async () => undefined });
    const service = new ImportService(invariants, new RacedScopes(invariants, when));
    const chosen = [1, 2].map((n) => ({
      ...candidate(n, n === 1 ? 'Use hooks' : 'Keep components small'),
      scope: { kind: 'project' as const, project: 'web' },
    }));
    const plan: ImportPlan = { files: [], projects: [{ name: 'web', paths: ['apps/web/**'], exists: false }], candidates: chosen };
    const written = await service.apply(plan, chosen);
    expect(written.invariants.map((w) => w.n)).toEqual([2]);
    expect(written.refused).toEqual([{ n: 1, why: 'projects/web/ already holds this text' }]);
    // The other writer made it: this import does not say it did.
    expect(written.projects).toEqual([]);
    expect(readdirSync(join(root, 'projects')).sort()).toEqual(['web']);
    expect(readdirSync(join(root, 'projects/web'))).toHaveLength(3);
  },
);
