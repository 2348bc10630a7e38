import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileGlob,
  compileSegments,
  filesBelow,
  folderPath,
  folderPattern,
  type GlobSegment,
  globHoldsFolder,
  globMatches,
  globMayMatchBelow,
  globProblem,
  intoStore,
  globsSurelyOverlap,
  literalFolder,
  namesFolderOfFiles,
  singleFolder,
  sortFiles,
} from '../../src/core/globs.ts';

describe('globProblem', () => {
  it.each([
    ['services/billing/**', undefined],
    ['**/*.ts', undefined],
    ['src/{api,web}/*.ts', undefined],
    ['docs/[a-c]*.md', undefined],
    ['', 'is empty'],
    ['/etc/**', 'is absolute; paths are relative to the top of the repository'],
    ['C:/x/**', 'is absolute; paths are relative to the top of the repository'],
    ['../other/**', 'escapes the repository ("..")'],
    ['services/../../x', 'escapes the repository ("..")'],
    ['./services/**', 'has a "." segment; write the path without it'],
    ['services\\billing', 'holds a backslash; use forward slashes'],
    ['services//billing', 'has an empty path segment ("//")'],
    ['services/', 'ends with "/"; write services/** for everything below that folder'],
    ['services/**/', 'ends with "/"; write services/** for everything below that folder'],
    ['services//', 'ends with "/"; write services/** for everything below that folder'],
    ['a**/b', 'uses "**" inside a segment; "**" stands alone between slashes'],
    ['src/{a,{b,c}}', 'nests braces; write "{a,b}" without a brace inside'],
    // Alternatives are names within one segment: read across a "/", they would be text here and folders to a target.
    ['{apps/web,packages/ui}/**', 'has a "/" inside "{…}"; alternatives are names within one segment: write a path for each'],
    ['src/{a,b/c}.ts', 'has a "/" inside "{…}"; alternatives are names within one segment: write a path for each'],
    ['src/[a/]b/**', 'has a "/" inside "[…]"; a class is one character of a name: write a path for each'],
    // A range out of order is no class the matcher can make: refused, not an internal error of every reader.
    ['docs/[a-Z]*.md', 'has a class "[a-Z]" whose range runs backwards; write its first character first'],
    ['docs/[!9-0]/**', 'has a class "[!9-0]" whose range runs backwards; write its first character first'],
    ['docs/[A-z0-9-]/**', undefined],
    // A POSIX class reads as other characters and a literal "]" here, and as a class to a target's reader: refused.
    [
      'src/[[:alpha:]]*.ts',
      'has a POSIX class "[:alpha:]" inside "[…]", which is not taken; write its characters (for [:alpha:], "[a-zA-Z]")',
    ],
    [
      'src/[![:digit:]x]',
      'has a POSIX class "[:digit:]" inside "[…]", which is not taken; write its characters (for [:alpha:], "[a-zA-Z]")',
    ],
    ['src/[[=e=]]', 'has a POSIX class "[=e=]" inside "[…]", which is not taken; write its characters (for [:alpha:], "[a-zA-Z]")'],
    // A "[" and a ":" of their own in a class are characters, as before.
    ['src/[[:]x', undefined],
    ['src/[[:alpha]x', undefined],
    ['src/{a,b', 'has a "{" without its "}"'],
    ['src/a}', 'has a "}" without its "{"'],
    ['src/[ab', 'has a "[" without its "]"'],
    // A "[" no "]" follows has no class for a "/" to be in.
    ['src/[draft/notes.md', 'has a "[" without its "]"'],
    ['!vendor/**', 'is a negation; list the paths a project covers instead'],
    [' src/**', 'has white space at its start or end'],
  ])('%j → %j', (glob, problem) => {
    expect(globProblem(glob)).toBe(problem);
  });
});

describe('intoStore', () => {
  it('names a glob into a store kept elsewhere than .agents/, and nothing else', () => {
    expect(intoStore('config/agents/**', 'config/agents')).toMatch(/config\/agents\//);
    expect(intoStore('config/agents', 'config/agents')).toBeDefined();
    expect(intoStore('config/agents-old/**', 'config/agents')).toBeUndefined();
    expect(intoStore('config/**', 'config/agents')).toBeUndefined();
    // .agents/ is globProblem's; a store at the top, or outside a repository, names no folder.
    expect(intoStore('.agents/**', '.agents')).toBeUndefined();
    expect(intoStore('x/**', '')).toBeUndefined();
  });
});

describe('globMatches', () => {
  it.each([
    ['services/billing/**', 'services/billing/api.ts', true],
    ['services/billing/**', 'services/billing/src/deep/x.ts', true],
    ['services/billing/**', 'services/billing', false],
    ['services/billing/**', 'services/billingx/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['**/*.ts', 'x/y/a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/{api,web}/*.ts', 'src/web/a.ts', true],
    ['src/{api,web}/*.ts', 'src/cli/a.ts', false],
    ['docs/[a-c]?.md', 'docs/b1.md', true],
    ['docs/[!a-c]?.md', 'docs/b1.md', false],
    ['file.name', 'fileXname', false],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globMatches(glob, path)).toBe(expected);
  });

  it('answers as the compiled glob does, for paths inside its literal folder or not (random globs and paths)', () => {
    const word = fc.constantFrom('a', 'b', 'src', 'x.ts', 'a.ts');
    const globSeg = fc.oneof(word, fc.constantFrom('*', '**', '*.ts', '?', '[ab]', '{a,src}'));
    const glob = fc
      .array(globSeg, { minLength: 1, maxLength: 4 })
      .map((s) => s.join('/'))
      .filter((g) => globProblem(g) === undefined);
    const path = fc.array(word, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    // Every segment matched in turn, without the literal folder's shortcut: the shortcut never changes an answer.
    const bySegments = (segs: readonly GlobSegment[], names: readonly string[]) => {
      const walk = (gi: number, pi: number): boolean => {
        if (gi === segs.length) return pi === names.length;
        const seg = segs[gi]!;
        if (seg === '**') {
          if (gi === segs.length - 1) return pi < names.length;
          for (let k = pi; k <= names.length; k++) if (walk(gi + 1, k)) return true;
          return false;
        }
        return pi < names.length && seg.test(names[pi]!) && walk(gi + 1, pi + 1);
      };
      return walk(0, 0);
    };
    fc.assert(
      fc.property(glob, path, (g, p) => {
        const expected = bySegments(compileSegments(g), p.split('/'));
        expect(globMatches(g, p)).toBe(expected);
        expect(compileGlob(g)(p)).toBe(expected);
      }),
      { seed: 20261202, numRuns: 3000 },
    );
  });

  it('a glob kept for many paths answers each as a glob made for it alone, those outside its literal folder first', () => {
    const matches = compileGlob('vendor/pkg1/**');
    expect(['src/a.ts', 'vendor/pkg1/a.ts', 'vendor/pkg10/a.ts', 'vendor/pkg1', 'vendor/pkg1/x/y.ts'].map(matches)).toEqual([
      false,
      true,
      false,
      false,
      true,
    ]);
  });
});

describe('globHoldsFolder', () => {
  it.each([
    ['services/billing/**', 'services/billing', true],
    ['services/billing/**', 'services/billing/src/x', true],
    ['services/billing/**', 'services', false],
    ['services/billing/**', '', false],
    ['services/billing/**/*.ts', 'services/billing', true],
    ['services/billing/*.ts', 'services/billing', false],
    ['services/*/api/**', 'services/billing/api', true],
    ['services/*/api/**', 'services/billing', false],
    ['**', '', true],
  ])('%s holds %j: %s', (glob, dir, expected) => {
    expect(globHoldsFolder(glob, dir)).toBe(expected);
  });
});

describe('globMayMatchBelow', () => {
  it.each([
    ['secrets/**', 'secrets', true],
    ['secrets/**', '', true],
    ['secrets/**', 'vendor', false],
    ['secrets/*.pem', 'secrets', true],
    ['secrets/*.pem', 'secrets/deep', false],
    ['**/*.pem', 'vendor/x', true],
    ['docs/**', 'vendor', false],
    ['a/b', 'a', true],
    ['a/b', 'a/b', false],
    ['a/**/c', 'a/x/y', true],
    ['*', 'x', false],
    ['*', '', true],
    ['**/**/x', 'a/b/c', true],
  ])('%s below %j: %s', (glob, dir, expected) => {
    expect(globMayMatchBelow(glob, dir)).toBe(expected);
  });

  it('is true wherever the glob matches a file below the folder (random globs, folders and names)', () => {
    const segment = fc.constantFrom('a', 'b', '*', '**', 'a*', '?', '[ab]');
    const name = fc.constantFrom('a', 'b', 'ab', 'ba', 'c');
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.array(name, { maxLength: 4 }),
        fc.array(name, { minLength: 1, maxLength: 3 }),
        (g, d, rest) => {
          const glob = g.join('/');
          if (globMatches(glob, [...d, ...rest].join('/'))) expect(globMayMatchBelow(glob, d.join('/'))).toBe(true);
        },
      ),
    );
  });
});

describe('folders and overlaps', () => {
  it('singleFolder takes exactly one DIR/** with a literal DIR', () => {
    expect(singleFolder(['services/billing/**'])).toBe('services/billing');
    expect(singleFolder(['services/billing/**/*'])).toBe('services/billing');
    expect(singleFolder(['services/*/api/**'])).toBeUndefined();
    expect(singleFolder(['services/billing/**', 'libs/billing/**'])).toBeUndefined();
    expect(singleFolder(['**/*.ts'])).toBeUndefined();
    expect(singleFolder(undefined)).toBeUndefined();
  });

  it('folderPattern is the DIR of DIR/** or DIR/**/*, wildcards and all, never one that holds **', () => {
    expect(folderPattern('services/billing/**')).toBe('services/billing');
    expect(folderPattern('packages/*/src/**/*')).toBe('packages/*/src');
    expect(folderPattern('apps/{web,admin}/**')).toBe('apps/{web,admin}');
    expect(folderPattern('src/**/test/**')).toBeUndefined();
    expect(folderPattern('**/*.ts')).toBeUndefined();
    expect(folderPattern('src/*.ts')).toBeUndefined();
  });

  it('literalFolder is the part before the first wildcard', () => {
    expect(literalFolder('services/billing/**')).toBe('services/billing');
    expect(literalFolder('services/*/x.ts')).toBe('services');
    expect(literalFolder('**/*.ts')).toBe('');
    expect(literalFolder('src/a.ts')).toBe('src');
    expect(literalFolder('a')).toBe('');
  });

  it('literalFolder gives the segments before the last one, up to the first that holds a wildcard, for any string', () => {
    // The definition, segment by segment.
    const bySegments = (glob: string) => {
      const segs = glob.split('/');
      const out: string[] = [];
      for (let i = 0; i < segs.length - 1 && !/[*?[\]{}]/.test(segs[i]!); i++) out.push(segs[i]!);
      return out.join('/');
    };
    const glob = fc
      .array(fc.constantFrom('a', 'b', '/', '*', '?', '[', ']', '{', '}', '.', 'x/y'), { maxLength: 12 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(glob, (g) => literalFolder(g) === bySegments(g)),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['services/**', 'services/billing/**', true],
    ['services/billing/**', 'services/**', true],
    ['services/billing/**', 'services/billing/*.ts', true],
    ['services/billing/**', 'services/api/**', false],
    ['**/*.ts', 'services/**', true],
    ['src/*.ts', 'src/*.ts', true],
    ['src/*.ts', 'src/*.md', false],
  ])('%s and %s surely overlap: %s', (a, b, expected) => {
    expect(globsSurelyOverlap(a, b)).toBe(expected);
  });
});

describe('edges each rule depends on', () => {
  it('a drive letter is absolute only at the start', () => {
    expect(globProblem('docs/C:notes.md')).toBeUndefined();
    expect(globProblem('c:/x')).toBe('is absolute; paths are relative to the top of the repository');
  });

  it('brackets: a "]" before the bracket is literal, "[!…]" negates', () => {
    expect(globMatches('a][bc]', 'a]b')).toBe(true);
    expect(globMatches('a][bc]', 'a]d')).toBe(false);
    expect(globMatches('x[!a].ts', 'xb.ts')).toBe(true);
    expect(globMatches('x[!a].ts', 'xa.ts')).toBe(false);
    expect(globMatches('x[!a].ts', 'x!.ts')).toBe(true);
  });

  it('a "[" or "{" without its closing character, which globProblem refuses, stands for itself (a library caller may skip the check)', () => {
    for (const glob of ['services/[billing', 'a[', '[a', '{a', 'a{', 'x/{a,b']) {
      expect(globProblem(glob)).toBeDefined();
      expect(globMatches(glob, glob)).toBe(true);
      expect(globMatches(glob, 'services/billing/x.ts')).toBe(false);
      expect(globHoldsFolder(`${glob}/**`, 'x')).toBe(false);
    }
  });

  it('braces inside a segment, between other text', () => {
    expect(globMatches('src/*.{ts,tsx}', 'src/a.tsx')).toBe(true);
    expect(globMatches('src/*.{ts,tsx}', 'src/a.ts')).toBe(true);
    expect(globMatches('src/*.{ts,tsx}', 'src/a.js')).toBe(false);
    expect(globMatches('x{a,b}y', 'xby')).toBe(true);
  });

  it('a glob used up before the path is no match; one segment too many in the glob neither', () => {
    expect(globMatches('src/*', 'src/a/b')).toBe(false);
    expect(globMatches('src/*/b', 'src/a')).toBe(false);
    expect(globMatches('src/*/*', 'src/a')).toBe(false);
  });

  it('globHoldsFolder: the top folder, folders deeper than the glob, a ** that must not stand for a literal', () => {
    expect(globHoldsFolder('*/**', '')).toBe(false);
    expect(globHoldsFolder('**', '')).toBe(true);
    expect(globHoldsFolder('src/*', 'src/a/b')).toBe(false);
    expect(globHoldsFolder('src', 'src/a')).toBe(false);
    expect(globHoldsFolder('src/**', 'lib')).toBe(false);
    expect(globHoldsFolder('src/**/gen/**', 'src/a/b/gen')).toBe(true);
    // What is left, `**/gen/**`, starts with **: files below src/a/b (in a gen folder) can match.
    expect(globHoldsFolder('src/**/gen/**', 'src/a/b')).toBe(true);
    expect(globHoldsFolder('src/gen/**', 'src/a')).toBe(false);
  });

  it('singleFolder: the glob must end at the **', () => {
    expect(singleFolder(['a/**/b.ts'])).toBeUndefined();
    expect(singleFolder(['a/b/**/*'])).toBe('a/b');
    expect(singleFolder(['a/b/**/*.ts'])).toBeUndefined();
  });

  it('literalFolder never takes the last segment, which names files', () => {
    expect(literalFolder('src/lib/a.ts')).toBe('src/lib');
    expect(literalFolder('a.ts')).toBe('');
    expect(literalFolder('src/*/a.ts')).toBe('src');
  });

  it('globsSurelyOverlap: "**" covers everything; two globs neither of which is DIR/** are not sure to overlap', () => {
    expect(globsSurelyOverlap('**', 'src/a.ts')).toBe(true);
    expect(globsSurelyOverlap('docs/*.md', '**')).toBe(true);
    expect(globsSurelyOverlap('lib/**/x.ts', 'lib/**/y.ts')).toBe(false);
  });
});

describe('globs outside what globProblem accepts', () => {
  it('globMatches: a backslash inside brackets is one of the characters, not an escape', () => {
    expect(globMatches('a[\\]b', 'a\\b')).toBe(true);
    expect(globMatches('a[\\x]b', 'axb')).toBe(true);
    expect(globMatches('a[\\x]b', 'ayb')).toBe(false);
  });

  it('singleFolder: a path with a line break names no folder, not the part after the break', () => {
    expect(singleFolder(['docs\nsrc/**'])).toBeUndefined();
  });
});

describe('globs a cloned repository chooses, with the file names it holds', () => {
  /** A segment's meaning written as a JavaScript regular expression, for the matcher to agree with. */
  const reference = (seg: string): RegExp => {
    const src = seg
      .replace(/[.+^$()|\\/]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\[!/g, '[^')
      .replace(/\{([^}]*)\}/g, (_, alts: string) => `(?:${alts.split(',').join('|')})`);
    return new RegExp(`^${src}$`);
  };

  it('a segment of several * or of {…} answers as its regular expression (random segments and names)', () => {
    const piece = fc.constantFrom('a', 'b', '*', '?', '[ab]', '[!a]', '{a,b*}', '{*a,,b}', '.');
    const seg = fc.array(piece, { minLength: 1, maxLength: 7 }).map((p) => p.join(''));
    const name = fc.array(fc.constantFrom('a', 'b', 'c', '.'), { maxLength: 9 }).map((c) => c.join(''));
    fc.assert(
      fc.property(seg, name, (s, n) => {
        expect(globMatches(s, n)).toBe(reference(s).test(n));
      }),
      { seed: 20261204, numRuns: 3000 },
    );
  });

  it('many * in a segment against a long name that misses: answered at once, not by trying every split', () => {
    const started = performance.now();
    expect(globMatches(`x/${'*a'.repeat(9)}*b`, `x/${'a'.repeat(34)}`)).toBe(false);
    expect(globMatches(`x/${'{a,aa}'.repeat(30)}b`, `x/${'a'.repeat(45)}`)).toBe(false);
    expect(globMatches(`x/${'*a'.repeat(10)}*b`, `x/${'a'.repeat(40)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('many ** against a deep path that misses: each rest of the glob tried once against each rest of the path', () => {
    const started = performance.now();
    const glob = `${'**/a/'.repeat(10)}**/b`;
    expect(globMatches(glob, `${'a/'.repeat(30)}c`)).toBe(false);
    expect(globMatches(glob, `${'a/'.repeat(36)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('files below a folder, and globs that name one', () => {
  const files = sortFiles(['apps/web/a.ts', 'apps/web0.ts', 'apps/web-x/b.ts', 'apps/web/deep/c.ts', 'apps/api/d.ts', 'top.md']);

  it('finds the files below a folder at any depth, and none of a sibling that shares its start', () => {
    expect(filesBelow(files, 'apps/web')).toEqual(['apps/web/a.ts', 'apps/web/deep/c.ts']);
    expect(filesBelow(files, 'apps/we')).toEqual([]);
    expect(filesBelow(files, '')).toHaveLength(6);
    expect(filesBelow(files, 'nowhere')).toEqual([]);
  });

  it('leaves the list it was given as it was', () => {
    const given = ['b', 'a'];
    expect(sortFiles(given)).toEqual(['a', 'b']);
    expect(given).toEqual(['b', 'a']);
  });

  it('says a glob names a folder only where it matches no file and its folder holds some', () => {
    expect(namesFolderOfFiles('apps/web', files)).toBe(true);
    expect(namesFolderOfFiles('apps/web/dee*', files)).toBe(true);
    expect(namesFolderOfFiles('apps/*', files)).toBe(false);
    expect(namesFolderOfFiles('apps/web/*.ts', files)).toBe(false);
    expect(namesFolderOfFiles('apps/web/**', files)).toBe(false);
    expect(namesFolderOfFiles('apps/mobile', files)).toBe(false);
    expect(folderPath(['apps/web/**', 'apps/api'], files)).toBe('apps/api');
  });

  it('answers as a walk of every file would, for any list and folder', () => {
    const segment = fc.constantFrom('a', 'b', 'a0', 'a-b', 'é', '\u{1F600}');
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(fc.array(path, { maxLength: 30 }), fc.array(segment, { minLength: 1, maxLength: 3 }), (list, folder) => {
        const name = folder.join('/');
        const sorted = sortFiles(list);
        expect(filesBelow(sorted, name)).toEqual(sorted.filter((f) => f.startsWith(`${name}/`)));
        expect(namesFolderOfFiles(name, sorted)).toBe(!list.some((f) => f === name) && list.some((f) => f.startsWith(`${name}/`)));
      }),
    );
  });
});
