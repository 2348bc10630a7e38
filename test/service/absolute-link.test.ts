// A target file linked by absolute path into the repository (docs/export.md): refused as what it is, with the relative
// link that names the same file from the link's folder, which every clone follows alike.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { absoluteLinkInside } from '../../src/service/link-paths.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('absoluteLinkInside', () => {
  it('gives the relative link to the same file for an absolute link into the top, and nothing for any other', () => {
    const top = tempDir();
    mkdirSync(join(top, 'apps/web'), { recursive: true });
    writeFileSync(join(top, 'AGENTS.md'), 'x\n');
    symlinkSync(join(top, 'AGENTS.md'), join(top, 'CLAUDE.md'));
    symlinkSync(join(top, 'AGENTS.md'), join(top, 'apps/web/CLAUDE.md'));
    symlinkSync('AGENTS.md', join(top, 'GEMINI.md'));
    symlinkSync(join(tempDir(), 'AGENTS.md'), join(top, 'apps/web/GEMINI.md'));
    expect(absoluteLinkInside(top, 'CLAUDE.md')).toEqual({ abs: join(top, 'AGENTS.md'), relative: 'AGENTS.md' });
    const nested = absoluteLinkInside(top, 'apps/web/CLAUDE.md');
    expect(nested?.relative).toBe('../../AGENTS.md');
    // The hint's link, made in the link's folder, leads to the very file the absolute one did.
    expect(realpathSync(resolve(join(top, 'apps/web'), nested!.relative))).toBe(realpathSync(join(top, 'AGENTS.md')));
    expect(absoluteLinkInside(top, 'GEMINI.md')).toBeUndefined();
    expect(absoluteLinkInside(top, 'apps/web/GEMINI.md')).toBeUndefined();
    expect(absoluteLinkInside(top, 'AGENTS.md')).toBeUndefined();
    // The top named through a link of its own: the link still leads into it.
    const alias = join(tempDir(), 'alias');
    symlinkSync(top, alias);
    expect(absoluteLinkInside(alias, 'CLAUDE.md')?.relative).toBe('AGENTS.md');
    expect(dirname(nested!.abs)).toBe(top);
  });
});
