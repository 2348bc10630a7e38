// The notices of every third-party package bundled into dist/: their licences
// ask that their text ship with every copy, and the bundle strips the licence
// comments from the code. Built from esbuild's metafile (the files that went
// into the bundle), so a package added to the bundle cannot be left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** Files that hold a package's licence or notice text (LICENSE, LICENCE.md, LICENSE-MIT.txt, NOTICE, COPYING…). */
const NOTICE_FILE = /^(licen[cs]e|copying|notice)([-._].*)?$/i;

/**
 * The folder of each package (`node_modules/<name>` or `node_modules/@scope/<name>`,
 * nested ones included) that holds an input of the bundle. Inputs of an esbuild
 * plugin's namespace (`lazy-string-width:/abs/path`) are absolute; the rest relative to `root`.
 */
export function bundledPackageDirs(metafile, root) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const path = relative(root, resolve(root, input.replace(/^[a-z][\w-]*:(?=\/)/, '')));
    const at = path.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const rest = path.slice(at + 'node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    dirs.add(`${path.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

/**
 * Each bundled package with its name, version, declared licence and notice
 * texts. A package that ships no licence file takes it from `supplied/<name>.txt`;
 * a package with neither stops the build.
 */
export function bundledPackages(metafile, root, supplied) {
  const byKey = new Map();
  for (const dir of bundledPackageDirs(metafile, root)) {
    const meta = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const key = `${meta.name}@${meta.version}`;
    if (byKey.has(key)) continue;
    const files = readdirSync(join(root, dir))
      .filter((f) => NOTICE_FILE.test(f))
      .sort();
    const texts = files.map((f) => readFileSync(join(root, dir, f), 'utf8').trim());
    const own = join(supplied, `${meta.name.replace('/', '__')}.txt`);
    if (texts.length === 0 && existsSync(own)) texts.push(readFileSync(own, 'utf8').trim());
    if (texts.length === 0)
      throw new Error(`${key} (${dir}) is bundled but ships no licence file: add its licence text as ${relative(root, own)}`);
    byKey.set(key, { name: meta.name, version: meta.version, license: String(meta.license ?? 'UNKNOWN'), texts });
  }
  return [...byKey.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
}

/** The THIRD-PARTY-NOTICES document: a list of name@version (licence), then each package's texts. */
export function renderNotices(packages, own) {
  const out = [
    `${own} bundles the following third-party packages into dist/.`,
    'Each is listed with its version and licence, followed by its licence text.',
    '',
    ...packages.map((p) => `- ${p.name}@${p.version} (${p.license})`),
    '',
  ];
  for (const p of packages) out.push('-'.repeat(78), `${p.name}@${p.version} (${p.license})`, '', ...p.texts.flatMap((t) => [t, '']));
  return out.join('\n');
}
