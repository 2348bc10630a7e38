import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/store/atomic-write.ts';
import { readActivePlan } from '../../src/store/guard-files.ts';
import { fileHead, fileHolds, readRegularFile } from '../../src/store/read-file.ts';
import { withNoFileDescriptorLeft } from '../helpers/fd-limit.ts';
import { tempDir } from '../helpers/tmp.ts';

const refusal = (work: () => unknown) => {
  try {
    return { answered: work() };
  } catch (error) {
    return error;
  }
};

describe('a file outside the store read, or any file written, with no file descriptor left', () => {
  it("refuses as the system's limit (exit 2, too-many-open-files), never as a file that cannot be read or is not there", async (ctx) => {
    const root = tempDir();
    const file = join(root, 'cache');
    writeFileSync(file, '#!/bin/sh\nx\n');
    const agents = join(root, 'git/agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'active-plan'), '01M8KK5920RS6CGAVDFVYYJ0B4\n');
    const done = await withNoFileDescriptorLeft(() => [
      refusal(() => readRegularFile(file, 1024)),
      refusal(() => fileHead(file, 2)),
      refusal(() => fileHolds(file, 'x')),
      refusal(() => readActivePlan(agents)),
      refusal(() => writeFileAtomic(root, 'written.yaml', 'text: x\n', 'create')),
    ]);
    if (done === undefined) {
      console.log('skipped: prlimit is not available here');
      ctx.skip();
      return;
    }
    for (const error of done.result) expect(error).toMatchObject({ exitCode: 2, code: 'too-many-open-files' });
  });
});
