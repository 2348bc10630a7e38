// Declarations for the published library (`dist/types/`): tsc writes one per
// source file it reaches, then only the files that the two public entry
// points (`.` and `./cli`) reach are kept. Their imports must stay within the
// package or Node.js's own types: the runtime dependencies are bundled into
// dist/ and not installed, so a declaration naming one would fail a
// consumer's type check (docs/adr/0045-package-name-bundle-no-runtime-deps.md).
// They are built on every install (preprepare, as npm installs the package from git, where no prepack runs) and
// again by prepack: a second run whose inputs are those the declarations were built from does nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { inputsDigest } from './build-inputs.mjs';

const OUT = 'dist/types';
const ENTRIES = ['index.d.ts', 'cli/main.d.ts'];
/** The digest of the inputs the declarations were last built from (removed with dist/ by a build). */
const STAMP = 'dist/.types-inputs';

const inputs = createHash('sha256').update(inputsDigest('.')).update(readFileSync('tsconfig.types.json')).digest('hex');
const built = (() => {
  try {
    return readFileSync(STAMP, 'utf8');
  } catch {
    return '';
  }
})();
if (built === inputs && ENTRIES.every((e) => existsSync(join(OUT, e)))) process.exit(0);
rmSync(STAMP, { force: true });
rmSync(OUT, { recursive: true, force: true });
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: ['ignore', 'ignore', 'inherit'] });

const reached = new Set();
const foreign = [];
const stack = ENTRIES.map((e) => resolve(OUT, e));
while (stack.length > 0) {
  const file = stack.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport\(|^import)\s*['"]([^'"]+)['"]/gm)) {
    if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec.replace(/\.(?:tsx?|js)$/, '.d.ts')));
    else if (!spec.startsWith('node:')) foreign.push(`${relative(OUT, file)} imports ${spec}`);
  }
}
if (foreign.length > 0) {
  process.stderr.write(
    `The public declarations reach packages that are not installed with agents-invariants:\n  ${foreign.join('\n  ')}\n`,
  );
  process.exit(1);
}

const prune = (dir) => {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = resolve(dir, d.name);
    if (d.isDirectory()) {
      prune(full);
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
    } else if (!reached.has(full)) rmSync(full);
    // The sources import each other as `.ts`; a declaration names the JavaScript file, as every resolver expects.
    else
      writeFileSync(
        full,
        readFileSync(full, 'utf8').replace(/((?:\bfrom\s*|\bimport\(\s*|^import\s*)['"]\.{1,2}\/[^'"]*)\.tsx?(['"])/gm, '$1.js$2'),
      );
  }
};
prune(OUT);
// Written last: a run stopped part-way leaves no stamp, and the next one builds.
writeFileSync(STAMP, inputs);
