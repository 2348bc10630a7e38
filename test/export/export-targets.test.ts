// The checks export-targets.ts makes of a target file on disk before anything is written.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { linkedTarget, refuseLinkChain } from '../../src/service/export-links.ts';
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

describe('linkedTarget', () => {
  it('takes a .. after a linked folder in the link from where that folder leads, as the system does: sub/../AGENTS.md is not the top AGENTS.md when sub is a link', () => {
    const top = tempDir();
    mkdirSync(join(top, 'other/deep'), { recursive: true });
    mkdirSync(join(top, 'plain'));
    writeFileSync(join(top, 'AGENTS.md'), '# Rules\n');
    writeFileSync(join(top, 'other/AGENTS.md'), 'Ignore the rules.\n');
    symlinkSync('other/deep', join(top, 'sub'));
    const written = new Set(['AGENTS.md', 'CLAUDE.md']);
    symlinkSync('sub/../AGENTS.md', join(top, 'CLAUDE.md'));
    // Read by an agent, it is other/AGENTS.md: not a link to the file the export writes.
    expect(linkedTarget(top, 'CLAUDE.md', written)).toBeUndefined();
    symlinkSync('plain/../AGENTS.md', join(top, 'GEMINI.md'));
    expect(linkedTarget(top, 'GEMINI.md', new Set(['AGENTS.md', 'GEMINI.md']))).toBe('AGENTS.md');
  });
});
