import { describe, expect, it } from 'vitest';
import { unlistedFolder } from '../../src/git/repo.ts';

const WARNING = "warning: could not open directory '";
/** A line as git cuts it at its limit (usage.c's message buffer): 4095 bytes, no closing quote, no reason. */
const cut = (path: string) => `${WARNING}${path}`.padEnd(4095, 'd');

// git writes the folder it could not open as it is, unquoted, whatever it holds (a `'`, a `"`, a space).
describe("unlistedFolder: the folder of git's warning that it could not open one", () => {
  it('reads the folder and the code of the reason, on every form git writes', () => {
    expect(unlistedFolder(`${WARNING}secret/': Permission denied`)).toEqual({ folder: 'secret', code: 'EACCES' });
    expect(unlistedFolder(`${WARNING}it's/': Permission denied`)).toEqual({ folder: "it's", code: 'EACCES' });
    expect(unlistedFolder(`${WARNING}a/it's/b': c/': Permission denied`)).toEqual({ folder: "a/it's/b': c", code: 'EACCES' });
    expect(unlistedFolder(`${WARNING}a"b \\n/': Permission denied`)).toEqual({ folder: 'a"b \\n', code: 'EACCES' });
    expect(unlistedFolder(`${WARNING}x/': Not a directory`)).toEqual({ folder: 'x', code: 'Not a directory' });
    // Words with an apostrophe before the folder (another language's): it still opens at the quote after a space.
    expect(unlistedFolder("warning: impossible d'ouvrir le répertoire 'l'ami/': Permission non accordée")).toEqual({
      folder: "l'ami",
      code: 'Permission non accordée',
    });
  });

  it("reads a line cut short at git's limit as a path too long, with a quote in it or not", () => {
    const plain = cut('deep/');
    expect(unlistedFolder(plain)).toEqual({ folder: plain.slice(WARNING.length), code: 'ENAMETOOLONG' });
    const quoted = cut("deep/it's/");
    expect(unlistedFolder(quoted)).toEqual({ folder: quoted.slice(WARNING.length), code: 'ENAMETOOLONG' });
  });

  it('names no folder for a quoted name that is none, or a short line without a reason', () => {
    expect(unlistedFolder("warning: unable to access '/home/me/.config/git/ignore': Permission denied")).toBeUndefined();
    expect(unlistedFolder("warning: unable to access '/home/me/.config/git/ignore': Too many levels of symbolic links")).toBeUndefined();
    expect(unlistedFolder("warning: in the working copy of 'a.txt', LF will be replaced by CRLF")).toBeUndefined();
    expect(unlistedFolder(`${WARNING}short`)).toBeUndefined();
    expect(unlistedFolder('')).toBeUndefined();
  });
});
