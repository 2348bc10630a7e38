import { describe, expect, it } from 'vitest';
import { folderGitCouldNotOpen } from '../../src/git/file-listing.ts';

const WARNING = "warning: could not open directory '";
/** A line as git cuts it at its limit (usage.c's message buffer): 4095 bytes, no closing quote, no reason. */
const cut = (path: string) => `${WARNING}${path}`.padEnd(4095, 'd');

// git writes the folder it could not open as it is, unquoted, whatever it holds (a `'`, a `"`, a space).
describe("folderGitCouldNotOpen: the folder of git's warning that it could not open one", () => {
  it('reads the folder and the code of the reason, on every form git writes', () => {
    expect(folderGitCouldNotOpen(`${WARNING}secret/': Permission denied`)).toEqual({ folder: 'secret', code: 'EACCES' });
    expect(folderGitCouldNotOpen(`${WARNING}it's/': Permission denied`)).toEqual({ folder: "it's", code: 'EACCES' });
    expect(folderGitCouldNotOpen(`${WARNING}a/it's/b': c/': Permission denied`)).toEqual({ folder: "a/it's/b': c", code: 'EACCES' });
    expect(folderGitCouldNotOpen(`${WARNING}a"b \\n/': Permission denied`)).toEqual({ folder: 'a"b \\n', code: 'EACCES' });
    expect(folderGitCouldNotOpen(`${WARNING}x/': Not a directory`)).toEqual({ folder: 'x', code: 'Not a directory' });
    // Words with an apostrophe before the folder (another language's): it still opens at the quote after a space.
    expect(folderGitCouldNotOpen("warning: impossible d'ouvrir le répertoire 'l'ami/': Permission non accordée")).toEqual({
      folder: "l'ami",
      code: 'Permission non accordée',
    });
  });

  it("reads a line cut short at git's limit as a path too long, with a quote in it or not", () => {
    const plain = cut('deep/');
    expect(folderGitCouldNotOpen(plain)).toEqual({ folder: plain.slice(WARNING.length), code: 'ENAMETOOLONG' });
    const quoted = cut("deep/it's/");
    expect(folderGitCouldNotOpen(quoted)).toEqual({ folder: quoted.slice(WARNING.length), code: 'ENAMETOOLONG' });
  });

  it('names no folder for a quoted name that is none, or a short line without a reason', () => {
    expect(folderGitCouldNotOpen("warning: unable to access '/home/me/.config/git/ignore': Permission denied")).toBeUndefined();
    expect(
      folderGitCouldNotOpen("warning: unable to access '/home/me/.config/git/ignore': Too many levels of symbolic links"),
    ).toBeUndefined();
    expect(folderGitCouldNotOpen("warning: in the working copy of 'a.txt', LF will be replaced by CRLF")).toBeUndefined();
    expect(folderGitCouldNotOpen(`${WARNING}short`)).toBeUndefined();
    expect(folderGitCouldNotOpen('')).toBeUndefined();
  });
});
