// Paths of thousands of components that do not exist (a `cd a/a/a/…` the guard hook or MCP check_action judges) are
// followed and placed in their repository in time linear in their length: asked component by component, each ask
// copied the whole path, and 45,000 components took minutes, past a client's time-out.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTop } from '../../src/git/location.ts';
import { physicalPath } from '../../src/service/link-paths.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('a path of many components that do not exist', () => {
  it('is placed in the repository that holds its first existing folder, and followed as named', () => {
    const top = tempDir();
    mkdirSync(join(top, '.git'));
    mkdirSync(join(top, 'src', 'a'), { recursive: true });
    const deep = join(top, 'src', 'a', ...Array.from({ length: 45_000 }, () => 'x'));
    expect(repoTop(deep)).toBe(top);
    expect(repoTop(join(top, 'src', 'a'))).toBe(top);
    expect(repoTop(join(top, 'src', 'missing'))).toBe(top);
    expect(physicalPath(deep)).toBe(deep);
    expect(physicalPath(`${deep}/../y`)).toBe(join(deep, '..', 'y'));
    expect(physicalPath(join(top, 'src', 'gone', '..', '..', 'src', 'a'))).toBe(join(top, 'src', 'a'));
  });

  it('has no repository when none holds its existing part', () => {
    expect(repoTop(join(tempDir(), ...Array.from({ length: 1000 }, () => 'x')))).toBeUndefined();
  });
});
