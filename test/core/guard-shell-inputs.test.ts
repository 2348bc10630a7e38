// The patch files and archives a shell command reads to learn what it writes, and the files compressors replace
// (docs/guard.md, "Shell commands"). The hook's reading of them from disk: test/service/guard-inputs.test.ts.
import { describe, expect, it } from 'vitest';
import { placedTargets, shellWritesIn } from '../../src/core/guard-scripts.ts';
import { inputTargets, type PatchInput, type ShellInput, unreadFolders } from '../../src/core/guard-shell-inputs.ts';
import { shellWrites } from '../../src/core/guard-shell-writes.ts';

const inputs = (command: string) => shellWrites(command).inputs;
const patch = (file: string, strip: number | undefined, root?: string): PatchInput => ({
  kind: 'patch',
  file,
  strip,
  ...(root === undefined ? {} : { root }),
});
/** `git apply`'s: its names are the repository's, from its top. */
const applied = (file: string, strip: number, root?: string): PatchInput => ({ ...patch(file, strip, root), fromTop: true });
const archive = (program: 'tar' | 'unzip', file: string, more: Partial<Extract<ShellInput, { kind: 'archive' }>> = {}): ShellInput => ({
  kind: 'archive',
  file,
  program,
  into: [],
  members: [],
  strip: 0,
  flat: false,
  absolute: false,
  ...more,
});

describe('the patch files a command reads', () => {
  it.each([
    ['git apply FILE, -p1 unless told', 'git apply fix.diff', [applied('fix.diff', 1)]],
    [
      'git apply -p0 --directory',
      'git apply -p0 --directory=sub a.diff b.diff',
      [applied('a.diff', 0, 'sub'), applied('b.diff', 0, 'sub')],
    ],
    ['git apply, its input from a file', 'git apply < fix.diff', [applied('fix.diff', 1)]],
    ['git apply, what cat pipes to it', 'cat a.diff b.diff | git apply -p2', [applied('a.diff', 2), applied('b.diff', 2)]],
    ['patch -p1 < FILE', 'patch -p1 < fix.diff', [patch('fix.diff', 1)]],
    ['patch -i FILE, read in -d DIR', 'patch -d sub -p0 -i ../fix.diff', [patch('sub/../fix.diff', 0, 'sub')]],
    ['patch --input=FILE, no -p', 'patch --input=fix.diff', [patch('fix.diff', undefined)]],
    ['nothing: git apply only reports', 'git apply --check fix.diff; git apply --stat < fix.diff', []],
    ['nothing: git apply to the index alone', 'git apply --cached fix.diff', []],
    ['nothing: patch given the file it rewrites', 'patch -p1 src/a.ts fix.diff', []],
  ])('%s', (_name, command, expected) => {
    expect(inputs(command)).toEqual(expected);
  });

  it('reads a patch file the same command wrote from a here-document from that text, not from disk', () => {
    const text = '--- a/secrets/k\n+++ b/secrets/k';
    const w = shellWrites(`cat > p.diff <<'EOF'\n${text}\nEOF\ngit apply p.diff && patch -p0 -i p.diff`);
    expect(w.inputs).toEqual([
      { ...applied('p.diff', 1), text },
      { ...patch('p.diff', 0), text },
    ]);
    expect(w.inputs.map((i) => inputTargets(i, undefined))).toEqual([['secrets/k'], ['a/secrets/k', 'b/secrets/k']]);
    const tee = shellWrites("tee q.diff <<'EOF' >/dev/null\n+++ b/secrets/j\nEOF\ngit apply q.diff");
    expect(tee.inputs.flatMap((i) => inputTargets(i, 'not read: the text the command wrote is'))).toEqual(['secrets/j']);
  });

  it('reads the patch git apply is given on its input: a here-document, what echo pipes to it; none when it only checks', () => {
    const targets = (command: string) => shellWrites(command).inputs.flatMap((i) => inputTargets(i, undefined));
    expect(
      targets('git apply <<EOF\ndiff --git a/x b/secrets/j\nrename from x\nrename to secrets/j\n--- /dev/null\n+++ b/secrets/i\nEOF'),
    ).toEqual(['secrets/j', 'secrets/i']);
    expect(targets("echo '+++ b/secrets/h' | git apply --directory=sub -")).toEqual(['sub/secrets/h']);
    expect(targets('git apply --check <<E\n+++ b/secrets/k\nE\ngit apply --cached <<E\n+++ b/secrets/j\nE')).toEqual([]);
  });

  it("names git apply's files from the repository's top and from where it runs, patch's from where it runs", () => {
    const w = shellWritesIn('cd sub && git apply ../a.diff && patch -p1 -i ../a.diff');
    const text = '--- a/x\n+++ b/x\n';
    expect(w.inputs?.map((i) => [i.file, placedTargets(i, text, '/repo')])).toEqual([
      ['../a.diff', ['/repo/x', 'x']],
      ['sub/../a.diff', ['/repo/x', 'sub/x']],
      ['../a.diff', ['x']],
      ['sub/../a.diff', ['sub/x']],
    ]);
  });
});

describe('the archives a command extracts', () => {
  it.each([
    ['tar -xf', 'tar -xf a.tar', [archive('tar', 'a.tar')]],
    ["the old style's letters, each value in turn", 'tar xzfC a.tgz out', [archive('tar', 'a.tgz', { into: ['out'] })]],
    ['a value in its word, -C after', 'tar -xzfa.tgz -C out', [archive('tar', 'a.tgz', { into: ['out'] })]],
    [
      'long options, members, strip and absolute names',
      'tar --extract --file a.tar --directory=out --strip-components=1 -P secrets docs/',
      [archive('tar', 'a.tar', { into: ['out'], strip: 1, absolute: true, members: ['secrets', 'docs/'] })],
    ],
    [
      'bsdtar, and an archive from the input',
      'curl -s https://x/a.tgz | bsdtar -xzf - -C vendor',
      [archive('tar', '', { into: ['vendor'] })],
    ],
    [
      'unzip, -d DIR after the members',
      'unzip -o z.zip secrets/k -x docs/a -d out',
      [archive('unzip', 'z.zip', { into: ['out'], members: ['secrets/k'] })],
    ],
    ['unzip -j, -dDIR', 'unzip -qj z -dout', [archive('unzip', 'z', { into: ['out'], flat: true })]],
    [
      'names renamed on the way out: not read, as from the input',
      "tar -xf a.tar --transform 's/^/x/'; bsdtar -xf a.tar -s ',^,x/,'; tar --one-top-level -xf a.tar",
      [archive('tar', ''), archive('tar', ''), archive('tar', '')],
    ],
    ['unzip -: keeps ../ and a leading /', 'unzip -: z.zip', [archive('unzip', 'z.zip', { absolute: true })]],
    [
      '7-Zip: x with -oDIR and members, e without folders',
      '7z x -y a.zip -oout secrets/k; 7za e a.7z',
      [archive('unzip', 'a.zip', { into: ['out'], members: ['secrets/k'] }), archive('unzip', 'a.7z', { flat: true })],
    ],
    [
      'jar, read as tar reads its letters, its names as unzip does',
      'jar xf app.jar -C out',
      [archive('unzip', 'app.jar', { into: ['out'] })],
    ],
    [
      'nothing: tar lists, creates or extracts to its output or a command',
      "tar -tf a.tar; tar -czf a.tgz secrets; tar -xOf a.tar k > /dev/null; tar -xf a.tar --to-command='wc -c'",
      [],
    ],
    ['nothing: unzip lists, tests or prints', 'unzip -l z.zip; unzip -t z.zip; unzip -p z.zip k; unzip -qq -v z.zip', []],
  ])('%s', (_name, command, expected) => {
    expect(inputs(command)).toEqual(expected);
  });

  it("names an archive's members where they are extracted: strip, flat, members chosen, leading `/` and unzip's `../` off", () => {
    const names = ['/abs/k', 'secrets/k.pem', 'docs/a.md', 'docs/b/c.md', '../up/x', 'top'];
    expect(inputTargets(archive('tar', 'a', { into: ['out'] }), names)).toEqual([
      'out/abs/k',
      'out/secrets/k.pem',
      'out/docs/a.md',
      'out/docs/b/c.md',
      'out/../up/x',
      'out/top',
    ]);
    expect(inputTargets(archive('tar', 'a', { absolute: true, strip: 1, members: ['docs'] }), names)).toEqual(['a.md', 'b/c.md']);
    expect(inputTargets(archive('unzip', 'a', { flat: true, members: ['docs/*'] }), names)).toEqual([
      'k',
      'k.pem',
      'a.md',
      'c.md',
      'x',
      'top',
    ]);
    expect(inputTargets(archive('unzip', 'a'), ['../up/x', 'a/../../b'])).toEqual(['up/x', 'a/b']);
    expect(inputTargets(archive('unzip', 'a', { absolute: true }), ['../up/x'])).toEqual(['../up/x']);
    // A name written on Windows: unzip makes its `\` a folder's end.
    expect(inputTargets(archive('unzip', 'a'), ['secrets\\k.pem'])).toEqual(['secrets\\k.pem', 'secrets/k.pem']);
    // A word taken for a member that names none (an option's value): every member is judged.
    expect(inputTargets(archive('tar', 'a', { members: ['docs', '9'] }), names)).toHaveLength(names.length);
    // Names not read: no file, and files of unknown names below each folder it is extracted into.
    expect(inputTargets(archive('tar', 'a', { into: ['vendor', ''] }), undefined)).toEqual([]);
    expect(unreadFolders(archive('tar', 'a', { into: ['vendor', ''] }))).toEqual(['vendor', '.']);
    expect(unreadFolders(archive('unzip', 'a'))).toEqual(['.']);
    expect(unreadFolders(patch('p', 1))).toEqual([]);
    expect(inputTargets(patch('p', 1, 'sub'), '--- a/x\n+++ b/x\n')).toEqual(['sub/x']);
    expect(inputTargets(patch('p', 1), undefined)).toEqual([]);
  });

  it('names an input from every folder the script may be in, and its files from there', () => {
    const w = shellWritesIn('cd sub && tar -xf ../a.tar -C out');
    expect(w.inputs?.map((i) => [i.file, i.at])).toEqual([
      ['../a.tar', ''],
      ['sub/../a.tar', 'sub'],
    ]);
    expect(w.inputs?.flatMap((i) => placedTargets(i, ['k'], '/repo'))).toEqual(['out/k', 'sub/out/k']);
  });
});

describe('the files a compressor replaces', () => {
  it.each([
    ['gzip: the file and what it becomes', 'gzip secrets/k', ['secrets/k.gz', 'secrets/k'], []],
    ['gunzip, and gzip -d with a suffix', 'gunzip a.gz b.tgz; gzip -d -S .z c.z', ['a', 'a.gz', 'b.tar', 'b.tgz', 'c', 'c.z'], []],
    ['-k keeps the file it reads', 'xz -k secrets/k; bunzip2 --keep d.bz2', ['secrets/k.xz', 'd'], []],
    [
      'zstd keeps it unless --rm; -o names its output',
      'zstd a; unzstd --rm b.zst; zstd -d c.zst -o out',
      ['a.zst', 'b', 'b.zst', 'out', 'c'],
      [],
    ],
    ['-r: every file below the folder', 'gzip -r secrets', ['secrets.gz', 'secrets', 'secrets'], ['secrets']],
    ['nothing: to its output, a test, a list', 'gzip -c a > /dev/null; gunzip -t a.gz; xz -l b.xz; zcat c.gz', [], []],
  ])('%s', (_name, command, paths, removes) => {
    const w = shellWrites(command);
    expect([w.paths, w.removes]).toEqual([[...new Set(paths)], removes]);
  });
});

describe('the files a package manager writes in its package', () => {
  const pkg = (file: string, manifest: string, writes: string[]) => ({ kind: 'package', file, manifest, writes });
  const npm = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json'];
  it.each([
    ['npm install with a package: the manifest and the lock files', 'npm install lodash', [pkg('', 'package.json', npm)]],
    [
      'npm install alone, npm update: the lock files',
      'npm install; npm i -D; npm update',
      [1, 2, 3].map(() => pkg('', 'package.json', npm.slice(1))),
    ],
    ['npm --prefix DIR, a workspace option before the command', 'npm --prefix web -w a uninstall x', [pkg('web', 'package.json', npm)]],
    [
      'yarn alone installs; yarn add',
      'yarn; yarn --cwd app add x',
      [pkg('', 'package.json', ['yarn.lock']), pkg('app', 'package.json', ['package.json', 'yarn.lock'])],
    ],
    [
      'pnpm -C DIR, bun',
      'pnpm -C web add x; bun remove y',
      [pkg('web', 'package.json', ['package.json', 'pnpm-lock.yaml']), pkg('', 'package.json', ['package.json', 'bun.lock', 'bun.lockb'])],
    ],
    [
      'poetry, uv',
      'poetry add x; uv lock',
      [pkg('', 'pyproject.toml', ['pyproject.toml', 'poetry.lock']), pkg('', 'pyproject.toml', ['uv.lock'])],
    ],
    [
      'cargo, go, bundle, composer',
      'cargo add x; go mod tidy; bundle install; composer -d api require x',
      [
        pkg('', 'Cargo.toml', ['Cargo.toml', 'Cargo.lock']),
        pkg('', 'go.mod', ['go.mod', 'go.sum']),
        pkg('', 'Gemfile', ['Gemfile.lock']),
        pkg('api', 'composer.json', ['composer.json', 'composer.lock']),
      ],
    ],
    [
      'a package script run: the script to read',
      'npm run build; npm test; yarn run lint; pnpm start; bun run x',
      ['build', 'test', 'lint', 'start', 'x'].map((script) => ({ ...pkg('', 'package.json', []), script })),
    ],
    ['nothing: what changes no file of the package', 'npm audit; npm pkg get name; go mod graph; cargo doc; npm ci; yarn why x', []],
  ])('%s', (_name, command, expected) => {
    expect(inputs(command)).toEqual(expected);
  });

  it("names the files in the package's folder the hook found, else where the command works", () => {
    const input = pkg('web', 'package.json', ['package.json']) as ShellInput;
    expect(inputTargets(input, '/repo')).toEqual(['/repo/package.json']);
    expect(inputTargets(input, undefined)).toEqual(['web/package.json']);
  });
});
