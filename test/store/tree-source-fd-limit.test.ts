import { describe, expect, it } from 'vitest';
import { AgentsError } from '../../src/core/errors.ts';
import { WorkingTreeSource } from '../../src/store/tree-source.ts';
import { withNoFileDescriptorLeft } from '../helpers/fd-limit.ts';
import { tempDir, writeTree } from '../helpers/tmp.ts';

const refusal = async (work: () => unknown) => {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('the working tree read with no file descriptor left', () => {
  it("refuses as the system's limit (exit 2, too-many-open-files), never as a store folder or file to fix (exit 3)", async (ctx) => {
    const root = tempDir();
    writeTree(root, { 'global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml': 'text: x\n' });
    const source = new WorkingTreeSource(root);
    const done = await withNoFileDescriptorLeft(async () => ({
      listed: await refusal(() => source.list('')),
      read: await refusal(() => source.readOne('global/01M8KJT9G0XNWEM589ZS7FV0VT.yaml')),
    }));
    if (done === undefined) {
      console.log('skipped: prlimit is not available here');
      ctx.skip();
      return;
    }
    for (const error of [done.result.listed, done.result.read]) {
      expect(error).toBeInstanceOf(AgentsError);
      expect(error).toMatchObject({ exitCode: 2, code: 'too-many-open-files' });
    }
  });
});
