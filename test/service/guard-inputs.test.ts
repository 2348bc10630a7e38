// The hook reading the patch files and archives a shell command names, as the real programs wrote them: each
// format's names are what `tar -t` and `unzip -Z1` list, and what cannot be read is judged by the folders named.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tarNames, zipNames } from '../../src/core/guard-archive.ts';
import { parseClientInput } from '../../src/core/guard-clients.ts';
import { GuardService } from '../../src/service/guard-service.ts';
import { commitAll, git } from '../helpers/git.ts';
import { guardedRepo } from '../helpers/guard.ts';

/** A folder of files with long and non-ASCII names and nested folders, as archives hold them. */
function sources(dir: string): string[] {
  const long = `${'deep-folder-name/'.repeat(9)}secrets`;
  const files = ['secrets/k.pem', 'docs/ü ber.md', `${long}/key-with-a-long-name-${'x'.repeat(60)}.pem`, 'top'];
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x\n');
  }
  return files;
}

const listing = (text: string) => text.split('\n').filter((l) => l !== '' && !l.endsWith('/'));

describe('archives as tar and zip write them', () => {
  it("reads every member's name of GNU, pax and ustar tar archives, gzip'd too, and of zip archives, as the programs list them", async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    const files = sources(join(dir, 'src'));
    const tar = (format: string, out: string) =>
      execFileSync('tar', [`--format=${format}`, '-cf', join(dir, out), '-C', join(dir, 'src'), ...files.map((f) => f.split('/')[0]!)]);
    for (const [format, file] of [
      ['gnu', 'a.tar'],
      ['pax', 'p.tar'],
      ['ustar', 'u.tar'],
    ] as const) {
      // ustar holds a name of at most 255 bytes, split at a folder: the long one is kept out of it.
      if (format === 'ustar')
        execFileSync('tar', ['--format=ustar', '-cf', join(dir, file), '-C', join(dir, 'src'), 'secrets', 'docs', 'top']);
      else tar(format, file);
      const listed = listing(execFileSync('tar', ['-tf', join(dir, file)], { encoding: 'utf8' }));
      expect(tarNames(readFileSync(join(dir, file))), format).toEqual(listed);
    }
    execFileSync('gzip', ['-k', join(dir, 'a.tar')]);
    expect(tarNames(gunzipSync(readFileSync(join(dir, 'a.tar.gz'))))).toEqual(
      listing(execFileSync('tar', ['-tf', join(dir, 'a.tar')], { encoding: 'utf8' })),
    );
    execFileSync('zip', ['-qr', join(dir, 'z.zip'), '.'], { cwd: join(dir, 'src') });
    expect(zipNames(readFileSync(join(dir, 'z.zip')))?.sort()).toEqual(
      listing(execFileSync('unzip', ['-Z1', join(dir, 'z.zip')], { encoding: 'utf8' })).sort(),
    );
  });
});

describe('the hook, a command that applies a patch file or extracts an archive', () => {
  it('judges the files they name where they are written; what it cannot read, by the folders named', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    sources(join(dir, 'src'));
    execFileSync('tar', ['-czf', join(dir, 'a.tgz'), '-C', join(dir, 'src'), 'secrets', 'top']);
    execFileSync('zip', ['-qr', join(dir, 'z.zip'), 'secrets'], { cwd: join(dir, 'src') });
    execFileSync('tar', ['-cjf', join(dir, 'b.tbz'), '-C', join(dir, 'src'), 'secrets']);
    writeFileSync(join(dir, 'fix.diff'), '--- a/secrets/k.pem\n+++ b/secrets/k.pem\n@@ -1 +1 @@\n-x\n+y\n');
    mkdirSync(join(dir, 'sub'));
    execFileSync('mkfifo', [join(dir, 'fifo.diff')]);
    const service = new GuardService(join(dir, '.agents'), {});
    const action = (command: string) =>
      service.toAction(
        parseClientInput(
          JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
        ),
      );
    const files = (command: string) => action(command).files;
    expect(files('tar -xzf a.tgz')).toEqual(['secrets/k.pem', 'top']);
    expect(files('tar -xzf a.tgz -C out --strip-components=1')).toEqual(['out/k.pem']);
    expect(files('cd sub && tar -xzf ../a.tgz -C ..')).toContain('secrets/k.pem');
    expect(files('unzip -o z -d .')).toEqual(['secrets/k.pem']);
    expect(files('git apply fix.diff')).toEqual(['secrets/k.pem']);
    // A script file it runs, read for what it writes; one over 1 MiB is not read.
    writeFileSync(join(dir, 'fix.py'), "p = 'secrets/k.pem'\nopen(p, 'w').write('y')\n");
    writeFileSync(join(dir, 'big.py'), `open('secrets/k.pem', 'w')\n${'#'.repeat(1024 * 1024)}\n`);
    expect(files('python3 fix.py --all')).toEqual(['secrets/k.pem']);
    expect(files('python3 big.py')).toEqual([]);
    // A shell script it runs, and a program run by its path, read by its #! line; a binary writes nothing the hook reads.
    writeFileSync(join(dir, 'fix.sh'), 'cd secrets && echo x > k.pem\n');
    writeFileSync(join(dir, 'run'), '#!/usr/bin/env python3\nopen("secrets/k.pem", "a")\n', { mode: 0o755 });
    writeFileSync(join(dir, 'tool'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]), { mode: 0o755 });
    expect(files('bash fix.sh')).toEqual(['k.pem', 'secrets/k.pem']);
    expect(files('./run --all')).toEqual(['secrets/k.pem']);
    expect(files('./tool')).toEqual([]);
    // make's recipes for the target asked, from the makefile on disk.
    writeFileSync(join(dir, 'Makefile'), 'all:\n\techo\nclean:\n\trm -f secrets/k.pem\n');
    expect(files('make clean')).toEqual(['secrets/k.pem']);
    expect(files('make')).toEqual([]);
    // git apply's files from the repository's top and from where it runs (a plain diff's are read from there).
    expect(files('cd sub && git apply ../fix.diff')).toEqual(['secrets/k.pem', 'sub/secrets/k.pem']);
    expect(files('patch -p0 < fix.diff')).toEqual(['a/secrets/k.pem', 'b/secrets/k.pem']);
    // After the cd, the patch file is found from sub/ alone, and names its files there.
    expect(files('cd sub; patch -p1 -i ../fix.diff')).toEqual(['sub/secrets/k.pem']);
    // Not read: another compression, an archive not there yet, a FIFO (read without waiting for a writer): files of
    // unknown names below the folder it is extracted into, where in the repository.
    expect([files('tar -xjf b.tbz -C vendor'), action('tar -xjf b.tbz -C vendor').folders]).toEqual([[], ['vendor']]);
    const fetched = action('curl -so c.tgz https://example.com/c.tgz && tar -xzf c.tgz');
    expect([fetched.files, fetched.folders]).toEqual([['c.tgz'], ['']]);
    expect(action('cd sub && tar -xzf missing.tgz -C /tmp').folders).toBeUndefined();
    // Into git's folder: a write there, whatever the guards say.
    expect(action('tar -xzf missing.tgz -C .git/hooks').reserved?.map((r) => r.path)).toEqual(['.git/hooks']);
    expect([files('git apply fifo.diff; tar -xf fifo.diff'), action('tar -xf fifo.diff').folders]).toEqual([[], ['']]);
  });

  it("judges a package manager's manifest and lock files in the nearest folder up that holds its manifest", async () => {
    const dir = await guardedRepo({ write: ['package.json'] });
    writeFileSync(join(dir, 'package.json'), '{}\n');
    mkdirSync(join(dir, 'src/deep'), { recursive: true });
    mkdirSync(join(dir, 'web'));
    writeFileSync(join(dir, 'web/package.json'), '{}\n');
    const service = new GuardService(join(dir, '.agents'), {});
    const files = (command: string) =>
      service.toAction(
        parseClientInput(
          JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
        ),
      ).files;
    const npm = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json'];
    expect(files('npm install lodash')).toEqual(npm);
    // From a folder below with no package.json of its own: the top's, as npm finds it.
    expect(files('cd src/deep && npm install lodash')).toEqual(npm);
    // After a cd, from each folder the script may be in (the cd may fail): the top's package and web's.
    expect(files('cd web && npm install lodash')).toEqual([...npm, ...npm.map((f) => `web/${f}`)]);
    expect(files('pnpm -C web add x')).toEqual(['web/package.json', 'web/pnpm-lock.yaml']);
    // A package script it runs, read as a shell command in the package's folder, its pre and post scripts too.
    writeFileSync(
      join(dir, 'web/package.json'),
      JSON.stringify({ scripts: { prebuild: 'rm -f out.log', build: 'echo x > dist/app.js', test: 'vitest run', start: 'node .' } }),
    );
    expect(files('cd web && npm run build -- --watch')).toEqual(['web/out.log', 'web/dist/app.js']);
    expect(files('pnpm -C web run build')).toEqual(['web/out.log', 'web/dist/app.js']);
    expect(files('cd web && npm test && yarn start')).toEqual([]);
    expect(files('cd web && npm run no-such-script')).toEqual([]);
    // A folder named by a file: the package found up from it, no script to read there; never a crash.
    expect(files('npm --prefix package.json install x')).toEqual(npm);
    expect(files('bash package.json/x.sh; python3 package.json/x.py; git apply package.json/p')).toEqual([]);
    // No Cargo.toml anywhere up: the files where it runs.
    expect(files('cd src && cargo add serde')).toEqual(['Cargo.toml', 'Cargo.lock', 'src/Cargo.toml', 'src/Cargo.lock']);
    const verdict = await service.evaluate(
      service.toAction(
        parseClientInput(
          JSON.stringify({
            session_id: 's',
            cwd: dir,
            hook_event_name: 'PreToolUse',
            tool_name: 'Bash',
            tool_input: { command: 'cd src && npm i left-pad' },
          }),
        ),
      ),
    );
    expect(verdict.verdict.decision).toBe('deny');
  });

  it('asks git which files a reset, a switch, a stash popped, a pick or a merge rewrites, and judges those', async () => {
    const dir = await guardedRepo({ write: ['secrets/**'] });
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'secrets/k'), 'a\n');
    writeFileSync(join(dir, 'src/a'), 'a\n');
    commitAll(dir, 'init');
    git(dir, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(dir, 'secrets/k'), 'b\n');
    commitAll(dir, 'other');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'src/a'), 'c\n');
    git(dir, 'stash', '-q');
    const service = new GuardService(join(dir, '.agents'), {});
    const files = (command: string) =>
      service.toAction(
        parseClientInput(
          JSON.stringify({
            session_id: 's',
            cwd: join(dir, 'src'),
            hook_event_name: 'PreToolUse',
            tool_name: 'Bash',
            tool_input: { command },
          }),
        ),
      ).files;
    // Nothing differs from HEAD yet: a reset rewrites nothing.
    expect(files('git reset --hard')).toEqual([]);
    writeFileSync(join(dir, 'secrets/k'), 'd\n');
    expect(files('git reset --hard')).toEqual(['secrets/k']);
    for (const command of ['git checkout other', 'git switch other', 'git merge other', 'git cherry-pick other', 'git rebase other'])
      expect(files(command), command).toEqual(['secrets/k']);
    expect(files('git stash pop')).toEqual(['src/a']);
    // Stashing every change puts the changed guarded file back; git clean deletes the untracked files git lists.
    expect(files('git stash')).toEqual(['secrets/k']);
    writeFileSync(join(dir, 'secrets/new'), 'n\n');
    writeFileSync(join(dir, '.gitignore'), 'secrets/ignored\n');
    writeFileSync(join(dir, 'secrets/ignored'), 'i\n');
    expect(files('git clean -fd')).toEqual(['.gitignore', 'secrets/new']);
    expect(files('git clean -fdX')).toEqual(['secrets/ignored']);
    expect(files('git clean -fdx')).toEqual(['.gitignore', 'secrets/ignored', 'secrets/new']);
    // A revision git does not know: the command fails as well, and nothing is named.
    expect(files('git checkout no-such-branch')).toEqual([]);
  });
});
