import { describe, expect, it } from 'vitest';
import type { Diagnostic, DiagnosticCode } from '../../src/core/diagnostics.ts';
import { CHECKS } from '../../src/validate/checks/registry.ts';
import { CODE_SUMMARIES } from '../../src/validate/codes.ts';
import { validateTree } from '../../src/validate/validate-tree.ts';
import { MemorySource, type Spec } from '../helpers/memory-source.ts';

const A = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const B = '01JDQ6X5Z8W4N3B2C1D0E9F8G8';
const C = '01JDQ6X5Z8W4N3B2C1D0E9F8G9';
const P = '01M8KK5920RS6CGAVDFVYYJ0B4';
const X = '01JDQ6X5Z8W4N3B2C1D0E9F8GA';
const Y = '01JDQ6X5Z8W4N3B2C1D0E9F8GE';
const Z = '01JDQ6X5Z8W4N3B2C1D0E9F8GH';
const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
const PML = '# yaml-language-server: $schema=../../schemas/invariant.schema.json\n';
const WML = '# yaml-language-server: $schema=../../../schemas/waiver.schema.json\n';
const PLML = '# yaml-language-server: $schema=../../schemas/plan.schema.json\n';
const PRML = '# yaml-language-server: $schema=../../schemas/project.schema.json\n';
const inv = (id: string, text: string, extra = '') => `${ML}id: ${id}\ntext: ${text}\n${extra}`;
const pinv = (id: string, text: string, extra = '') => `${PML}id: ${id}\ntext: ${text}\n${extra}`;
const waiver = (id: string, of: string, expires: string) =>
  `${WML}id: ${id}\ninvariant_id: ${of}\nreason: r\nowner: o\nexpires: ${expires}\ncreated_at: 2020-01-02T10:00:00Z\n`;

/** A store with at least one finding for every check of the registry. */
const BROKEN: Record<string, Spec> = {
  'notes.txt': 'x',
  'projects/Bad Name/': null,
  'global/.lock': '123 h\n',
  'schemas/': null,
  [`global/${A}.yaml`]: inv(A, 'Never delete production data'),
  [`global/${B}.yaml`]: inv(B, 'Never delete production data'),
  [`global/${C}.yaml`]: inv(C, 'Never delete production dat'),
  [`projects/web/${P}.yaml`]: pinv(P, 'Never delete production data'),
  [`projects/web/${X}.yaml`]: pinv(X, 'Use TLS', `overrides: ${Y}\n`),
  [`projects/web/${Z}.yaml`]: `id: ${Z}\ntext: Log every deploy\n`,
  // A global copy naming the project's, which comes before it: the override replaces nothing.
  ['global/01JDQ6X5Z8W4N3B2C1D0E9F8GJ.yaml']: inv('01JDQ6X5Z8W4N3B2C1D0E9F8GJ', 'Log every deploy', `overrides: ${Z}\n`),
  [`projects/web/waivers/${Y}.yaml`]: waiver(Y, '01JDQ6X5Z8W4N3B2C1D0E9F8GF', '2020-02-01'),
  [`plans/${A}/plan.yaml`]: `${PLML}id: ${A}\naction: ns/gone\nproject: gone\n`,
  'projects/web/project.yaml': `${PRML}paths:\n  - "web/**"\n`,
  'projects/api/project.yaml': `${PRML}paths:\n  - "web/**"\n`,
  // A write glob naming the folder secrets/ of the repository's files (REPO_FILES).
  'global/01JDQ6X5Z8W4N3B2C1D0E9F8GK.yaml': inv('01JDQ6X5Z8W4N3B2C1D0E9F8GK', 'Keep the keys', 'guard:\n  write: [secrets]\n'),
};
const REPO_FILES = ['web/index.ts', 'secrets/k.pem'];

describe('the registry of whole-store checks', () => {
  it('names each check once, with codes of the documented list', () => {
    const names = CHECKS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHECKS) {
      expect(c.codes.length).toBeGreaterThan(0);
      for (const code of c.codes) expect(Object.keys(CODE_SUMMARIES)).toContain(code);
    }
  });

  it('runs every check once, in its order, and each finds only the codes it declares', async () => {
    const ran: { name: string; found: readonly Diagnostic[] }[] = [];
    const report = await validateTree(new MemorySource(BROKEN), {
      lockHolderAlive: () => false,
      now: new Date('2026-06-01T00:00:00Z'),
      onCheck: (name, found) => ran.push({ name, found }),
      repoFiles: async () => REPO_FILES,
    });
    expect(ran.map((r) => r.name)).toStrictEqual(CHECKS.map((c) => c.name));
    const found = new Set<DiagnosticCode>();
    for (const [i, { found: list }] of ran.entries()) {
      // Every check has a finding in this store, and each is of the check's declared codes.
      expect(list.length, CHECKS[i]!.name).toBeGreaterThan(0);
      for (const d of list) {
        expect(CHECKS[i]!.codes, `${CHECKS[i]!.name}: ${d.code} ${d.file}`).toContain(d.code);
        found.add(d.code);
      }
    }
    // What the checks told is in the report.
    for (const { found: list } of ran) for (const d of list) expect(report.diagnostics).toContainEqual(d);
    expect([...found].sort()).toStrictEqual(
      [
        'bad-name',
        'duplicate-text',
        'guard-write-folder',
        'id-reused',
        'modeline-missing',
        'near-duplicate',
        'overrides-unknown',
        'overrides-unmet',
        'project-paths-overlap',
        'schema-outdated',
        'shadowed',
        'stale-lock',
        'unknown-action',
        'unknown-invariant',
        'unknown-path',
        'unknown-project',
        'waiver-expired',
      ].sort(),
    );
  });
});
