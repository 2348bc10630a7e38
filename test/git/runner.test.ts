import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/runner.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('runGit', () => {
  it('says that the folder to run in does not exist, not that git could not be found', async () => {
    const gone = join(tempDir(), 'no-such-folder');
    const error = await runGit(gone, ['status']).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`git could not be started: the folder ${gone} does not exist`);
  });
});
