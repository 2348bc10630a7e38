// The package ships the licence text of every third-party package its bundle
// holds (THIRD-PARTY-NOTICES, written by the build from esbuild's metafile).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in JavaScript, without declarations
import { bundledPackages, renderNotices } from '../../scripts/third-party-notices.mjs';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tmp.ts';

type Meta = { inputs: Record<string, unknown> };

/** The package a bundled file belongs to: the nearest folder above it whose package.json has a name and a version. */
function owningPackage(file: string): { dir: string; name: string; version: string } {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name && version) return { dir, name, version };
  }
  throw new Error(`no package holds ${file}`);
}

describe('THIRD-PARTY-NOTICES', () => {
  const meta = JSON.parse(readFileSync(join(REPO, 'dist/meta.json'), 'utf8')) as Meta;
  const notices = readFileSync(join(REPO, 'THIRD-PARTY-NOTICES'), 'utf8');
  const bundled = new Map<string, string>();
  for (const input of Object.keys(meta.inputs)) {
    const file = resolve(REPO, input.replace(/^[a-z][\w-]*:(?=\/)/, ''));
    if (!file.includes('/node_modules/')) continue;
    const p = owningPackage(file);
    bundled.set(`${p.name}@${p.version}`, p.dir);
  }

  it('lists every bundled package with its version, and only those', () => {
    expect(bundled.size).toBeGreaterThan(10);
    // The list comes first, before the first rule that opens a package's texts.
    const listed = notices
      .slice(0, notices.indexOf(`\n${'-'.repeat(78)}\n`))
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2).replace(/ \(.*\)$/, ''));
    expect(listed.sort()).toEqual([...bundled.keys()].sort());
  });

  it("holds each bundled package's own licence text", () => {
    for (const [key, dir] of bundled) {
      const files = readdirSync(dir).filter((f) => /^(licen[cs]e|copying)/i.test(f));
      const supplied = join(REPO, 'scripts/licences', `${key.slice(0, key.lastIndexOf('@')).replace('/', '__')}.txt`);
      const texts = files.length > 0 ? files.map((f) => readFileSync(join(dir, f), 'utf8')) : [readFileSync(supplied, 'utf8')];
      for (const text of texts) expect(notices, key).toContain(text.trim());
    }
  });

  it('stops the build when a bundled package ships no licence', () => {
    const root = tempDir();
    const pkg = join(root, 'node_modules/unlicensed');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'unlicensed', version: '1.2.3', license: 'MIT' }));
    writeFileSync(join(pkg, 'index.js'), 'export default 1;\n');
    const metafile = { inputs: { 'node_modules/unlicensed/index.js': {}, 'src/main.ts': {} } };
    expect(() => bundledPackages(metafile, root, join(root, 'licences'))).toThrow(/unlicensed@1\.2\.3/);
    // Its text supplied beside the build, the same package passes and is listed.
    mkdirSync(join(root, 'licences'));
    writeFileSync(join(root, 'licences/unlicensed.txt'), 'The licence of unlicensed.\n');
    const out = renderNotices(bundledPackages(metafile, root, join(root, 'licences')), 'me');
    expect(out).toContain('- unlicensed@1.2.3 (MIT)');
    expect(out).toContain('The licence of unlicensed.');
  });
});
