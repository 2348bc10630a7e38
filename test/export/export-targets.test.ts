// The checks export-targets.ts makes of a target file on disk before anything is written.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { refuseLinkChain } from '../../src/service/export-targets.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('refuseLinkChain', () => {
  it('names the command that links the file directly as a shell reads it, a folder with a space quoted', () => {
    const top = tempDir();
    mkdirSync(join(top, 'my pkg'));
    writeFileSync(join(top, 'my pkg/AGENTS.md'), '# Rules\n');
    symlinkSync('AGENTS.md', join(top, 'my pkg/CLAUDE.md'));
    symlinkSync('CLAUDE.md', join(top, 'my pkg/GEMINI.md'));
    const written = new Set(['my pkg/AGENTS.md', 'my pkg/CLAUDE.md', 'my pkg/GEMINI.md']);
    let error: unknown;
    try {
      refuseLinkChain(top, 'my pkg/GEMINI.md', written);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).detail).toMatchObject({ path: 'my pkg/GEMINI.md', reason: 'link-chain' });
    expect((error as UsageError).hint).toContain("`ln -sfn AGENTS.md 'my pkg/GEMINI.md'`");
  });
});
