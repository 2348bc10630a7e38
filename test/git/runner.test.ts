import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitProcessError, runGit } from '../../src/git/runner.ts';
import { gitInit } from '../helpers/git.ts';
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
