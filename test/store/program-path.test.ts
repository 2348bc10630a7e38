import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programOnPath } from '../../src/store/program-path.ts';
import { tempDir } from '../helpers/tmp.ts';

/**
 * A folder with no program, and one with what npm installs on Windows for a package's bin: a .cmd, no file of the bare
 * name (spelt as PATHEXT spells it, which Windows' folders would match in any case).
 */
function folders(): [string, string] {
  const top = tempDir();
  const [empty, bin] = [join(top, 'empty'), join(top, 'bin')];
  mkdirSync(empty);
  mkdirSync(bin);
  writeFileSync(join(bin, 'agents.CMD'), '@echo off\n', { mode: 0o755 });
  return [empty, bin];
}

describe('programOnPath', () => {
  it("on Windows, finds a bare name with PATHEXT's extensions, in PATH's folders split by ';'", () => {
    const [empty, bin] = folders();
    const path = `${empty};${bin}`;
    expect(programOnPath('agents', path, { platform: 'win32', pathext: '.COM;.EXE;.BAT;.CMD' })).toBe(join(bin, 'agents.CMD'));
    // PATHEXT unset: Windows' own default list.
    expect(programOnPath('agents', path, { platform: 'win32' })).toBe(join(bin, 'agents.CMD'));
    // A name given with one of its extensions (in any case) is looked for as it is.
    expect(programOnPath('agents.CMD', path, { platform: 'win32', pathext: '.exe;.cmd' })).toBe(join(bin, 'agents.CMD'));
    expect(programOnPath('agents', path, { platform: 'win32', pathext: '.EXE' })).toBe(undefined);
  });

  it('elsewhere, the name as it is, in folders split by ":"', () => {
    const [empty, bin] = folders();
    expect(programOnPath('agents', `${empty}:${bin}`, { platform: 'linux', pathext: '.CMD' })).toBe(undefined);
    expect(programOnPath('agents.CMD', `${empty}:${bin}`, { platform: 'linux' })).toBe(join(bin, 'agents.CMD'));
  });
});
