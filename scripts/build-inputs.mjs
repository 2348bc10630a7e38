// What a build of dist/ is made from, as one digest: the sources, schemas,
// launcher and build scripts, the manifest, the installed dependencies, and
// the Node that compiles the code cache. scripts/build.mjs skips a build
// whose digest is the one dist/ was last built from.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Folders whose every file the build reads, or may: a new file there is a new input. */
const FOLDERS = ['src', 'schemas', 'bin', 'scripts'];
/** Single files: the manifest, the lock as written and as installed (node_modules/.package-lock.json), the compiler settings. */
const FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json'];

/** The file the digest of the last finished build is kept in (removed with dist/ when a build starts). */
export const STAMP = 'dist/.inputs';

/** The digest of what a build in `root` would be made from, under this Node and these Node options. */
export function inputsDigest(root) {
  const hash = createHash('sha256');
  hash.update(`${process.version}\0${process.arch}\0${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}\0`);
  const add = (rel) => {
    let bytes;
    try {
      bytes = readFileSync(join(root, rel));
    } catch {
      bytes = null;
    }
    hash.update(`${rel}\0${bytes === null ? '-' : bytes.length}\0`);
    if (bytes !== null) hash.update(bytes);
  };
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else add(child);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  for (const file of FILES) add(file);
  return hash.digest('hex');
}
