import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitTime } from '../../src/git/repo.ts';
import { GitProcessError, runGit } from '../../src/git/runner.ts';
import { git, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('runGit', () => {
  it('says that the folder to run in does not exist, not that git could not be found', async () => {
    const gone = join(tempDir(), 'no-such-folder');
    const error = await runGit(gone, ['status']).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`git could not be started: the folder ${gone} does not exist`);
  });
});

describe('runGit, a commit git cannot sign', () => {
  it('is git failing with its own reason (the signing program), not a folder it could not write', async () => {
    const top = tempDir();
    gitInit(top);
    const error = await runGit(top, ['commit', '-q', '--allow-empty', '-m', 'signed'], undefined, undefined, undefined, [
      ['commit.gpgsign', 'true'],
      ['gpg.program', 'false'],
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitProcessError);
    expect((error as Error).message).toContain('gpg failed to sign the data');
  });
});

describe('commitTime, under log.showSignature', () => {
  it("is a signed commit's committer date, not the signature's check git writes before it", async () => {
    const top = tempDir();
    gitInit(top);
    // A signing program that says something, as gpg does: git writes its words to standard output.
    const gpg = join(top, 'gpg.sh');
    writeFileSync(gpg, '#!/bin/sh\necho "gpg: Signature made" >&2\nexit 1\n', { mode: 0o755 });
    appendFileSync(join(top, '.git/config'), `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${gpg}\n`);
    const signed = [
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      'author A <a@example.com> 1700000000 +0000',
      'committer A <a@example.com> 1700000000 +0000',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' abc',
      ' -----END PGP SIGNATURE-----',
      '',
      'signed',
      '',
    ].join('\n');
    writeFileSync(join(top, 'commit.txt'), signed);
    const commit = git(top, 'hash-object', '-t', 'commit', '-w', 'commit.txt').trim();
    expect((await commitTime(top, commit)).toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });
});
