// The files a Python or Node.js program given in a shell command writes, as its text tells (docs/guard.md, "Shell
// commands"). The hook's reading of a script file: test/service/guard-inputs.test.ts.
import { describe, expect, it } from 'vitest';
import { placedTargets, shellWritesIn } from '../../src/core/guard-scripts.ts';
import { makeRecipes, makeRun } from '../../src/core/guard-shell-make.ts';
import { awkWrites, programWrites, scriptLanguage } from '../../src/core/guard-shell-programs.ts';
import { shellWrites } from '../../src/core/guard-shell-writes.ts';

describe('a Python or Node.js program in a shell command', () => {
  it.each([
    ['python -c, open to write', `python3 -c "open('secrets/k', 'w').write('x')"`, ['secrets/k']],
    [
      'open to append, to create, to update, by mode=',
      `python -c "open('a','a'); open('b', 'x'); open('c', 'r+'); open('d', mode='wb')"`,
      ['a', 'b', 'c', 'd'],
    ],
    [
      'a script on its input: a name given a path, then opened to write',
      "python3 - <<'EOF'\nimport re\np = 'src/x.ts'\ns = open(p).read()\nopen(p, 'w').write(re.sub('a', 'b', s))\nEOF",
      ['src/x.ts'],
    ],
    [
      'pathlib, os and shutil; a for loop over paths',
      "python3 <<'EOF'\nfrom pathlib import Path\nPath(\"secrets/a\").write_text('x')\nq = Path('secrets/b')\nq.write_bytes(b'')\nimport os, shutil\nos.remove('secrets/c')\nos.rename('old', 'secrets/d')\nshutil.copy('x', 'secrets/e')\nfor f in ['secrets/f', \"secrets/g\"]:\n    open(f, 'a').close()\nEOF",
      ['secrets/f', 'secrets/g', 'secrets/a', 'secrets/b', 'secrets/c', 'old', 'secrets/d', 'secrets/e'],
    ],
    [
      'node -e, fs calls',
      `node -e "require('fs').writeFileSync('secrets/k', 'x'); fs.appendFileSync(\\"secrets/j\\", 'y')"`,
      ['secrets/k', 'secrets/j'],
    ],
    [
      'node on its input: a const, a template without ${}, rename and copy',
      "node - <<'EOF'\nconst fs = require('node:fs');\nconst p = `secrets/m`;\nfs.createWriteStream(p);\nfs.renameSync('a', 'secrets/n');\nfs.cpSync('x', 'secrets/o', { recursive: true });\nEOF",
      ['secrets/m', 'a', 'secrets/n', 'secrets/o'],
    ],
    [
      'a script file the same command wrote from a here-document',
      "cat > fix.py <<'EOF'\nopen('secrets/k', 'w')\nEOF\npython3 fix.py",
      ['fix.py', 'secrets/k'],
    ],
    [
      'nothing: reads, an f-string filled in when it runs, a module run, node -p',
      `python3 -c "print(open('secrets/k').read()); open(f'{d}/x', 'w')"; node -e "fs.readFileSync('secrets/k')"; node -p "1 + 1"; python3 -m json.tool a.json`,
      [],
    ],
  ])('%s', (_name, command, paths) => {
    expect(shellWrites(command).paths).toEqual(paths);
  });

  it('names what shutil.rmtree and fs.rmSync delete as folders, every file below', () => {
    expect(
      shellWrites(`python3 -c "import shutil; shutil.rmtree('secrets')"; node -e "fs.rmSync('dist', { recursive: true })"`).removes,
    ).toEqual(['secrets', 'dist']);
  });

  it('leaves a script file it runs for the hook to read', () => {
    expect(shellWrites('python3 -u tools/fix.py --all; node --require ./r.js scripts/gen.mjs').inputs).toEqual([
      { kind: 'script', file: 'tools/fix.py', language: 'python' },
      { kind: 'script', file: 'scripts/gen.mjs', language: 'node' },
    ]);
  });

  it('reads a long or hostile text in one pass of each pattern', () => {
    const hostile = `${'open('.repeat(20_000)}${"'a".repeat(20_000)}${'p = '.repeat(20_000)}${'x.write_text('.repeat(20_000)}`;
    expect(programWrites('python', hostile).paths.length).toBeLessThan(20_001);
    expect(programWrites('node', `${'writeFileSync(`'.repeat(20_000)}`).paths).toEqual(['writeFileSync(']);
  });
});

describe('a script file a command runs', () => {
  it('is left for the hook to read: by its shell, by source, or run by its path (read by its #! line)', () => {
    expect(shellWrites('bash -x scripts/build.sh a; sh run.sh; source env.sh; . ./env.sh; ./fix.sh --all; su root').inputs).toEqual([
      { kind: 'script', file: 'scripts/build.sh', language: 'shell' },
      { kind: 'script', file: 'run.sh', language: 'shell' },
      { kind: 'script', file: 'env.sh', language: 'shell' },
      { kind: 'script', file: './env.sh', language: 'shell' },
      { kind: 'script', file: './fix.sh', language: 'auto' },
    ]);
  });

  it('is read from the text the same command wrote it with: a shell script as a script run in turn, a #! one as its language', () => {
    expect(shellWrites("cat > fix.sh <<'EOF'\necho x > secrets/k\nEOF\nbash ./fix.sh").paths).toEqual(['fix.sh', 'secrets/k']);
    expect(shellWrites("cat > ./t <<'EOF'\n#!/usr/bin/env python3\nopen('secrets/p', 'w')\nEOF\n./t").paths).toEqual(['./t', 'secrets/p']);
  });

  it('reads a file as the language its #! line names, else its extension, else none', () => {
    expect(
      [
        ['x', '#!/bin/bash\n'],
        ['x', '#!/usr/bin/env python3\n'],
        ['x', '#! /usr/bin/node\n'],
        ['x.sh', 'echo'],
        ['x.py', ''],
        ['x.mjs', ''],
        ['x', '\u007fELF'],
        ['x', '#!/usr/bin/perl\n'],
      ].map(([file, text]) => scriptLanguage(file!, text!)),
    ).toEqual(['shell', 'python', 'node', 'shell', 'python', 'node', undefined, undefined]);
  });

  it('names what a shell script file writes from where it runs; one past what the hook reads, nothing', () => {
    const [input] = shellWritesIn('cd sub; bash fix.sh').inputs ?? [];
    expect(placedTargets({ ...input!, at: 'sub' }, 'echo x > k\ncd deep && rm -f z', '/repo')).toEqual([
      'sub/k',
      'sub/deep/k',
      'sub/z',
      'sub/deep/z',
    ]);
    expect(placedTargets({ ...input!, at: '' }, 'eval '.repeat(100_000), '/repo')).toEqual([]);
  });
});

describe('an awk program', () => {
  it.each([
    ['print to a quoted name, > and >>', `awk '{print > "secrets/k"}' a; awk -F, '{print $2 >> "out/log"}' d`, ['secrets/k', 'out/log']],
    [
      'gawk -i inplace: each file it is given, not a variable set',
      `gawk -i inplace '{gsub(/a/, "b")}1' secrets/k other v=1`,
      ['secrets/k', 'other'],
    ],
    ['an escaped quote in the name', `awk 'BEGIN { printf "x" > "secrets/\\"q" }'`, ['secrets/"q']],
    ['nothing: a comparison in a pattern, a program from a file, what it prints', `awk '$1 > "x" { print $2 }' a; awk -f p.awk a`, []],
  ])('%s', (_name, command, paths) => {
    expect(shellWrites(command).paths).toEqual(paths);
  });
});

describe('long or hostile programs and makefiles', () => {
  it('are each read in one pass: an awk statement of many prints, a makefile line of blanks', () => {
    expect(awkWrites([`{ ${'print '.repeat(50_000)}> "secrets/k" }`])).toEqual(['secrets/k']);
    expect(makeRecipes(`${' '.repeat(200_000)}x\nall:\n\ttouch secrets/k\n`, [])).toEqual(['touch secrets/k']);
    expect(makeRecipes(`a${'b'.repeat(200_000)} =\nall:\n\techo`, ['all'])).toEqual(['echo']);
  });
});

describe('make', () => {
  const makefile = [
    '.PHONY: all clean',
    'OUT = dist',
    'all: build docs',
    'build: src/a.c',
    '\t@mkdir -p $(OUT)',
    '\tcc -o $(OUT)/app src/a.c',
    'docs:',
    '\t-echo x > docs/index.html; \\',
    '\t  touch secrets/k',
    'clean:',
    '\trm -rf $(OUT) build.log',
    'lint: ; eslint --fix src/a.ts',
  ].join('\n');
  it('runs the targets asked, else the first, and those they depend on; each recipe line a command, its @ and - off', () => {
    expect(makeRecipes(makefile, [])).toEqual([
      'mkdir -p $(OUT)',
      'cc -o $(OUT)/app src/a.c',
      'echo x > docs/index.html;  \t  touch secrets/k',
    ]);
    expect(makeRecipes(makefile, ['clean', 'lint'])).toEqual(['rm -rf $(OUT) build.log', 'eslint --fix src/a.ts']);
  });
  it('reads the makefile -f names, or those GNU make looks for in -C DIR; nothing for a run that only prints', () => {
    expect(makeRun(['-C', 'sub', '-j', '4', 'clean', 'X=1'])).toEqual({
      files: ['sub/GNUmakefile', 'sub/makefile', 'sub/Makefile'],
      targets: ['clean'],
      dir: 'sub',
    });
    expect(makeRun(['-f', 'build.mk', 'all'])?.files).toEqual(['build.mk']);
    expect(makeRun(['-n', 'clean'])).toBeUndefined();
  });
  it('names what a recipe writes from the folder it runs in', () => {
    const [input] = shellWritesIn('make -C sub clean').inputs ?? [];
    expect(placedTargets(input!, makefile, '/repo')).toEqual(['sub/$(OUT)', 'sub/build.log']);
  });
});
