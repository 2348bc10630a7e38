import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatches, globProblem, globsSurelyOverlap } from '../../src/core/globs.ts';
import {
  globsMayMeet,
  keptOverlaps,
  type OverlapStats,
  projectOverlaps,
  type PathOverlap,
  surelyOverlappingProjects,
  writesOutsidePaths,
  writeWithinPaths,
} from '../../src/core/path-overlap.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

/** The definition: every glob of every pair of projects compared, the first overlapping pair of each kept. */
function everyPair(paths: readonly (readonly string[])[]): PathOverlap[] {
  const out: PathOverlap[] = [];
  for (let a = 0; a < paths.length; a++)
    for (let b = a + 1; b < paths.length; b++) {
      let hit: PathOverlap | undefined;
      for (const [ai, ga] of paths[a]!.entries()) {
        for (const [bi, gb] of paths[b]!.entries())
          if (globsSurelyOverlap(ga, gb)) {
            hit = { a, ai, b, bi };
            break;
          }
        if (hit) break;
      }
      if (hit) out.push(hit);
    }
  return out;
}

const segment = fc.constantFrom('a', 'b', 'src', 'a.ts', '*', '?', 'a*', '*.ts', '{a,b}', '[ab]', '[!a]', '**');
const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
/** A project's paths: valid globs, a few to many. */
const projectPaths = fc.array(glob, { minLength: 1, maxLength: 5 }).map((globs) => globs.filter((g) => globProblem(g) === undefined));

/** Projects as stores generated per service have them: `services/p<i>/m<j>/**`, with one in ten also taking its neighbour's module or folder. */
function services(projects: number, globs = 3): string[][] {
  return Array.from({ length: projects }, (_, i) => {
    const own = Array.from({ length: globs }, (_, j) => `services/p${i}/m${j}/**`);
    if (i % 10 === 1) own.push(`services/p${i - 1}/m0/**`);
    if (i % 10 === 2) own.push(`services/p${i - 1}/**`, `services/p${i}/**/*.md`);
    return own;
  });
}

describe('surelyOverlappingProjects finds exactly what comparing every pair finds', () => {
  it('on random globs of a small vocabulary (literal, wildcard, brace, class and ** segments)', () => {
    fc.assert(
      fc.property(fc.array(projectPaths, { maxLength: 8 }), (paths) => {
        expect(surelyOverlappingProjects(paths)).toEqual(everyPair(paths));
      }),
      { numRuns: fcRuns(400) },
    );
  });

  it('on service folders with random extra globs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(14), glob), { maxLength: 10 }), (extra) => {
        const paths = services(15, 2);
        for (const [p, g] of extra) if (globProblem(g) === undefined) paths[p]!.push(g.replace(/^a/, 'services'));
        expect(surelyOverlappingProjects(paths)).toEqual(everyPair(paths));
      }),
      { numRuns: fcRuns(40) },
    );
  });

  it('finds the planted overlaps of the service layout, the first pair of globs of each', () => {
    const found = surelyOverlappingProjects(services(20));
    expect(found).toEqual(everyPair(services(20)));
    expect(found).toContainEqual({ a: 0, ai: 0, b: 1, bi: 3 });
    expect(found).toContainEqual({ a: 1, ai: 0, b: 2, bi: 3 });
    expect(found).toHaveLength(4);
  });
});

describe('keptOverlaps answers as projectOverlaps of each pair with those kept before', () => {
  const file = fc.array(fc.constantFrom('a', 'b', 'src', 'a.ts', 'b.md'), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
  it('on random globs and files, keeping each project that overlaps none kept', () => {
    fc.assert(
      fc.property(fc.array(projectPaths, { maxLength: 8 }), fc.array(file, { maxLength: 6 }), (paths, files) => {
        const kept = keptOverlaps(paths, files);
        const before: number[] = [];
        for (let i = 0; i < paths.length; i++) {
          const want = before.find((j) => projectOverlaps([paths[i]!, paths[j]!], files).overlaps.length > 0);
          expect(kept.firstKept(i, () => true)).toBe(want);
          if (want !== undefined) continue;
          kept.keep(i);
          before.push(i);
        }
      }),
      { numRuns: fcRuns(300) },
    );
  });
});

describe('surelyOverlappingProjects counts its work, not its time', () => {
  it('compares at most 15 times the pairs of globs for 1,000 projects as for 100 (linear is 10)', () => {
    const small: OverlapStats = { compared: 0 };
    const large: OverlapStats = { compared: 0 };
    expect(surelyOverlappingProjects(services(100), small)).toHaveLength(20);
    expect(surelyOverlappingProjects(services(1_000), large)).toHaveLength(200);
    expect(small.compared).toBeGreaterThan(0);
    expect(large.compared).toBeLessThanOrEqual(15 * small.compared);
  });
});

describe('globsMayMeet: whether two globs can match a common path', () => {
  it('says no only where no path passes both', () => {
    const cases: [string, string, boolean][] = [
      ['secrets/**', 'web/**', false],
      ['web/secrets/**', 'web/**', true],
      ['**/*.pem', 'web/**', true],
      ['*/secrets/**', 'web/**', true],
      ['{web,api}/**', 'web/**', true],
      ['{api,app}/**', 'web/**', false],
      ['w*/**', 'web/**', true],
      ['web/*.ts', 'web/src/a.ts', false],
      ['web/a.js', 'web/*.ts', false],
      ['web', 'web/**', false],
      ['a/**/b', 'a/b', true],
      ['a/**/b', 'a/c', false],
      ['x/**/y/**', 'x/y', false],
      ['x/**/y/**', 'x/y/z', true],
      ['Web/**', 'web/**', false],
    ];
    for (const [a, b, meet] of cases) {
      expect([a, b, globsMayMeet(a, b)]).toEqual([a, b, meet]);
      expect([b, a, globsMayMeet(b, a)]).toEqual([b, a, meet]);
    }
    expect(globsMayMeet('Web/**', 'web/**', true)).toBe(true);
  });

  it('never says no for two globs a path matches both of', () => {
    const name = fc.constantFrom('a', 'b', 'src', 'a.ts', 'b.ts');
    const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(glob, glob, path, (a, b, p) => {
        fc.pre(globProblem(a) === undefined && globProblem(b) === undefined);
        if (globMatches(a, p) && globMatches(b, p)) expect(globsMayMeet(a, b)).toBe(true);
      }),
      { numRuns: fcRuns(2000) },
    );
  });

  it('writesOutsidePaths keeps the write globs that meet none of the paths, and none for a project without paths', () => {
    expect(writesOutsidePaths(['secrets/**', 'web/secrets/**', '**/*.pem'], ['web/**', 'lib/**'])).toEqual(['secrets/**']);
    expect(writesOutsidePaths(['secrets/**'], [])).toEqual([]);
  });

  it("writeWithinPaths offers the glob below the one folder of the paths, that folder's files for a glob naming it", () => {
    expect(writeWithinPaths('secrets/**', ['web/**'])).toBe('web/secrets/**');
    expect(writeWithinPaths('web', ['web/**'])).toBe('web/**');
    expect(writeWithinPaths('apps', ['apps/web/**'])).toBe('apps/web/**');
    expect(writeWithinPaths('secrets/**', ['web/**', 'lib/**'])).toBeUndefined();
  });
});
