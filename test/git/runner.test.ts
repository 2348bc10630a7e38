import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentsError } from '../../src/core/errors.ts';
import { crlfInCheckout } from '../../src/git/line-ends.ts';
import { logRaw } from '../../src/git/log.ts';
import { commitTime, GitError, resolveCommitTime } from '../../src/git/repo.ts';
import { GitProcessError, runGit, runGitSyncBounded } from '../../src/git/runner.ts';
import { withNoFileDescriptorLeft } from '../helpers/fd-limit.ts';
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

describe('runGit with no file descriptor left', () => {
  it('rejects with an AgentsError that says so (exit 2), never an uncaught error event that ends the process', async (ctx) => {
    // git's spawn finds no file descriptor for its pipes (EMFILE).
    const top = tempDir();
    const done = await withNoFileDescriptorLeft(() =>
      runGit(top, ['var', 'GIT_AUTHOR_IDENT']).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    if (done === undefined) {
      console.log('skipped: prlimit is not available here');
      ctx.skip();
      return;
    }
    expect(done.result).toBeInstanceOf(AgentsError);
    expect(done.result).toMatchObject({ exitCode: 2, code: 'too-many-open-files' });
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
    // The commit and its date from one read of the commit's text: its committer line, not the signature after it.
    expect(await resolveCommitTime(top, commit)).toEqual({ commit, time: new Date('2023-11-14T22:13:20.000Z') });
    // A history read by git log holds the signed commit alone, not a commit made of the signature's check.
    git(top, 'update-ref', 'HEAD', commit);
    expect((await logRaw(top, [])).map((c) => c.commit)).toEqual([commit]);
  });
});

describe('resolveCommitTime', () => {
  it("a revision's commit and committer date; a tag peeled, a message search answered, a tree or a missing one refused", async () => {
    const top = tempDir();
    gitInit(top);
    git(top, 'commit', '-q', '--allow-empty', '-m', 'first words');
    const commit = git(top, 'rev-parse', 'HEAD').trim();
    git(top, '-c', 'user.name=T', 'tag', '-a', '-m', 'v1', 'v1');
    const dated = { commit, time: await commitTime(top, commit) };
    expect(await resolveCommitTime(top, 'HEAD')).toEqual(dated);
    expect(await resolveCommitTime(top, 'v1')).toEqual(dated);
    expect(await resolveCommitTime(top, ':/first')).toEqual(dated);
    for (const rev of ['HEAD^{tree}', 'no-such-branch', 'HEAD..HEAD', '-p', 'HEAD\nHEAD']) {
      const error = await resolveCommitTime(top, rev).catch((e: unknown) => e);
      expect(error, rev).toBeInstanceOf(GitError);
      expect((error as GitError).kind, rev).toBe('bad-revision');
    }
  });
});

describe('crlfInCheckout', () => {
  it('is what git checks a new file out with: the eol attribute, then core.autocrlf, then core.eol for text; never for -text', async () => {
    const top = tempDir();
    gitInit(top);
    writeFileSync(join(top, '.gitattributes'), '*.bin -text\n*.lf eol=lf\n*.crlf eol=crlf\n*.auto text=auto\n');
    const paths = ['plain.md', 'x.bin', 'x.lf', 'x.crlf', 'x.auto'];
    appendFileSync(join(top, '.git/config'), '[core]\n\tautocrlf = true\n');
    expect([...(await crlfInCheckout(top, paths))].sort()).toEqual(['plain.md', 'x.auto', 'x.crlf']);
    // core.eol is read for text files only, and only when core.autocrlf says nothing (false here).
    appendFileSync(join(top, '.git/config'), '\tautocrlf = false\n\teol = crlf\n');
    expect([...(await crlfInCheckout(top, paths))].sort()).toEqual(['x.auto', 'x.crlf']);
  });
});

describe('runGitSyncBounded', () => {
  it("says why it has no output: git's failure, its bound of time, its bound of bytes", () => {
    const dir = tempDir('agents-git-bounded-');
    gitInit(dir);
    writeFileSync(join(dir, 'a'), 'a\n');
    git(dir, 'add', 'a');
    expect(runGitSyncBounded(dir, ['ls-files'], 1024, 10_000)).toBe('a\n');
    expect(runGitSyncBounded(dir, ['ls-files'], 1, 10_000)).toBe('too-large');
    expect(runGitSyncBounded(dir, ['rev-parse', '--verify', 'no-such-revision'], 1024, 10_000)).toBe('failed');
    // An alias that runs a program for longer than the bound.
    expect(runGitSyncBounded(dir, ['-c', 'alias.wait=!sleep 5', 'wait'], 1024, 300)).toBe('timeout');
  });
});
