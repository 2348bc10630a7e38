import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withRunEnvironment } from '../../src/git/run-environment.ts';
import { UsageError } from '../../src/core/errors.ts';
import { filesBelow, homeSpelled, MAX_FOLDER_FILES } from '../../src/service/guard-paths.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('homeSpelled: a path named from a home folder, as a shell reads it', () => {
  it("reads ~ as the agent's home folder, ~user as that user's from the system, and nothing else", () => {
    const me = userInfo();
    expect(withRunEnvironment({ env: { HOME: '/home/agent' }, cwd: '/' }, () => homeSpelled('~/x'))).toBe('/home/agent/x');
    expect(homeSpelled(`~${me.username}/repo/x`)).toBe(join(me.homedir, 'repo/x'));
    expect(homeSpelled(`~${me.username}`)).toBe(me.homedir);
    // A name the system does not list, and the shell's folder stack (~+, ~-, ~1), are not known from the text.
    for (const path of ['~no-such-user-0x7f/x', '~+/x', '~-', '~1/x', 'x/~/y', 'a~b']) expect(homeSpelled(path), path).toBeUndefined();
  });
});

describe('filesBelow: the files a folder moved or deleted holds', () => {
  it("refuses a folder of more files than are judged, or leaves it to its name where a shell command's text named it", () => {
    const dir = join(tempDir(), 'big');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    for (let i = 0; i <= MAX_FOLDER_FILES; i++) writeFileSync(join(dir, i % 2 ? 'sub' : '', `f${i}`), '');
    expect(() => filesBelow(dir, dir)).toThrow(UsageError);
    expect(filesBelow(dir, dir, true)).toEqual([]);
    expect(filesBelow(join(dir, 'sub'), join(dir, 'sub'), true)).toHaveLength(MAX_FOLDER_FILES / 2);
  });
});
