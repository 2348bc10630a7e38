import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without declarations.
import { inputsDigest } from '../../scripts/build-inputs.mjs';
import { tempDir } from '../helpers/tmp.ts';

const digest = inputsDigest as (root: string) => string;

/** A package folder with one file of each kind of input, and a built dist/. */
function tree(): string {
  const root = tempDir();
  const files: Record<string, string> = {
    'src/cli/main.ts': 'export {};\n',
    'schemas/invariant.schema.json': '{}\n',
    'bin/agents.js': '#!/usr/bin/env node\n',
    'scripts/build.mjs': '// build\n',
    'package.json': '{"name":"x"}\n',
    'package-lock.json': '{}\n',
    'node_modules/.package-lock.json': '{}\n',
    'tsconfig.json': '{}\n',
    'dist/agents.cjs': '// built\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('the digest of what a build is made from (scripts/build-inputs.mjs)', () => {
  it('is the same for the same files, and ignores what the build writes', () => {
    const root = tree();
    const before = digest(root);
    writeFileSync(join(root, 'dist/agents.cjs'), '// built again\n');
    writeFileSync(join(root, 'dist/.inputs'), before);
    expect(digest(root)).toBe(before);
  });

  it.each([
    ['a source edited', (r: string) => writeFileSync(join(r, 'src/cli/main.ts'), 'export const x = 1;\n')],
    ['a source added', (r: string) => writeFileSync(join(r, 'src/cli/new.ts'), '')],
    ['a source removed', (r: string) => rmSync(join(r, 'src/cli/main.ts'))],
    ['a schema edited', (r: string) => writeFileSync(join(r, 'schemas/invariant.schema.json'), '{"type":"object"}\n')],
    ['the launcher edited', (r: string) => writeFileSync(join(r, 'bin/agents.js'), '#!/usr/bin/env node\n// x\n')],
    ['a build script edited', (r: string) => writeFileSync(join(r, 'scripts/build.mjs'), '// build, changed\n')],
    ['other dependencies installed', (r: string) => writeFileSync(join(r, 'node_modules/.package-lock.json'), '{"v":2}\n')],
    ['the lock changed', (r: string) => writeFileSync(join(r, 'package-lock.json'), '{"v":2}\n')],
    ['the manifest changed', (r: string) => writeFileSync(join(r, 'package.json'), '{"name":"y"}\n')],
  ])('changes with %s', (_name, change) => {
    const root = tree();
    const before = digest(root);
    change(root);
    expect(digest(root)).not.toBe(before);
  });

  it('tells a file moved from one name to another apart', () => {
    const a = tree();
    const b = tree();
    writeFileSync(join(a, 'src/cli/one.ts'), 'x');
    writeFileSync(join(b, 'src/cli/two.ts'), 'x');
    expect(digest(a)).not.toBe(digest(b));
  });
});
