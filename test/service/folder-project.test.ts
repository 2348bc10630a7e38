import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namesFolder, projectsOfFolder } from '../../src/service/folder-project.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('folder-project: the one rule for a folder named by the CLI or by an MCP tool', () => {
  it('a path is a folder when it ends in "/" (there or not yet) or is one on disk; else a file', () => {
    const top = tempDir();
    mkdirSync(join(top, 'apps', 'web'), { recursive: true });
    writeFileSync(join(top, 'apps', 'web', 'index.ts'), '');
    expect(namesFolder('apps/web', join(top, 'apps', 'web'))).toBe(true);
    expect(namesFolder('.', top)).toBe(true);
    expect(namesFolder('apps/later/', join(top, 'apps', 'later'))).toBe(true);
    expect(namesFolder('apps/later', join(top, 'apps', 'later'))).toBe(false);
    expect(namesFolder('apps/web/index.ts', join(top, 'apps', 'web', 'index.ts'))).toBe(false);
  });

  it('only a project holding every file of the folder is its own; one of file globs holds some', async () => {
    const meta = new Map([
      ['typed', { paths: ['**/*.ts'] }],
      ['web', { paths: ['apps/web/**'] }],
    ]);
    const top = tempDir();
    expect(await projectsOfFolder(meta, top, 'apps/web')).toEqual({ whole: ['web'], partly: ['typed'] });
    expect(await projectsOfFolder(meta, top, 'apps/web/src')).toEqual({ whole: ['web'], partly: ['typed'] });
    expect(await projectsOfFolder(meta, top, '')).toEqual({ whole: [], partly: ['typed'] });
    expect(await projectsOfFolder(new Map([['all', { paths: ['**'] }]]), top, '')).toEqual({ whole: ['all'], partly: [] });
  });

  it('compares without case only where the path matched nothing as written: Apps/** is no folder apps where case counts', async () => {
    const top = tempDir();
    const meta = new Map([['mixed', { paths: ['Apps/**', '**/*.ts'] }]]);
    expect(await projectsOfFolder(meta, top, 'apps')).toEqual({ whole: [], partly: ['mixed'] });
    expect(await projectsOfFolder(meta, top, 'Apps')).toEqual({ whole: ['mixed'], partly: [] });
  });
});
