/**
 * How the guard service names the paths a tool gives (docs/guard.md): relative to the repository's top, as the home
 * folder's when they start with `~`, as the path a `file:` URL names, loosely as a forgiving file system would take them for the reserved folders, and
 * each file below a folder a move names.
 */
import { type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.ts';
import { type GuardClient, USER_SETTINGS } from '../core/guard-clients.ts';
import { LONGEST_PATH } from '../core/limits.ts';
import { loosely } from '../core/names.ts';
import { runCwd, runEnv } from '../git/run-environment.ts';
import { OWN_PROCESS, physicalPathOf } from './link-paths.ts';

/** Whether `abs` is `dir` or inside it, compared {@link loosely}. */
export function within(dir: string, abs: string): boolean {
  const [d, a] = [loosely(dir), loosely(abs)];
  return a === d || a.startsWith(d.endsWith(sep) ? d : d + sep);
}

/** The home folder of the run (the agent's HOME), as the client and its tools see it. */
export function agentHome(): string {
  return runEnv().HOME || homedir();
}

/**
 * The folder where a client reads its user settings (core USER_SETTINGS): the one its variable names in the run's
 * environment, resolved as the client started here resolves it, else its folder in the home folder; with `home`, the
 * home folder's, where the client reads them when no variable moves them.
 */
export function userSettingsDir(client: GuardClient, where: 'run' | 'home' = 'run'): string {
  const its = USER_SETTINGS[client];
  const moved = where === 'run' && its.variable !== undefined ? runEnv()[its.variable] : undefined;
  return moved ? resolve(runCwd(), moved, its.below ?? '') : join(agentHome(), its.folder);
}

/** The files of a client's user settings that hold hooks or their switch, absolute, in the folder {@link userSettingsDir} gives. */
export function userSettingsFiles(client: GuardClient, where: 'run' | 'home' = 'run'): string[] {
  const dir = userSettingsDir(client, where);
  return USER_SETTINGS[client].files.map((f) => join(dir, f));
}

/**
 * The home folder's spelling of a path (`~/x` → `$HOME/x`, `~user/x` → that user's home folder's `x`), when it is one
 * that can be known: the MCP filesystem server, and shells, take `~` for the home folder, and shells `~user` for that
 * user's, where another tool takes either for a folder of that name. Both are judged. A `~user` whose home folder is
 * not known is the folder of that name only, as a shell leaves it.
 */
export function homeSpelled(path: string): string | undefined {
  const tilde = /^~([^/]*)(?:\/|$)/.exec(sep === '\\' ? path.replace(/\\/g, '/') : path);
  if (!tilde) return undefined;
  const home = tilde[1] === '' ? agentHome() : userHome(tilde[1]!);
  return home === undefined ? undefined : join(home, path.slice(tilde[0].length));
}

/**
 * The home folder a shell gives `~name`: the passwd entry's, for the run's own user from the system (os.userInfo, which
 * asks the same database a shell does), for another from /etc/passwd. None for a name the system does not list, nor
 * for `~+`, `~-` and `~N`, the shell's current, previous and stacked folders, which the command's text does not tell.
 */
function userHome(name: string): string | undefined {
  if (/^[+-]?\d*$/.test(name)) return undefined;
  try {
    const me = userInfo();
    if (me.username === name && me.homedir !== '') return me.homedir;
  } catch {
    // No passwd entry for the run's user (a container's arbitrary uid): the file below may still list the name.
  }
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const fields = line.split(':');
      if (fields[0] === name && fields.length >= 7 && isAbsolute(fields[5]!)) return fields[5];
    }
  } catch {
    // No such file (Windows), or one that cannot be read: the name's home folder is not known.
  }
  return undefined;
}

/**
 * Each spelling of `path` named from each of `bases` (joined, not resolved: `..` is folded once the links before it are
 * followed), and from the home folder when it starts with `~` ({@link homeSpelled}); '' names the bases themselves. An
 * absolute path is itself.
 */
export function spelledFrom(bases: readonly string[], path: string): string[] {
  // No file's name holds a NUL: a system call stops at it (a tool in C writes the file named before it) and others
  // refuse the name, so which file is written is not in the path, and it is judged as none.
  if (path.includes('\0'))
    throw new UsageError(
      `${JSON.stringify(path)} holds a NUL character, which no file's name holds: which file the tool writes cannot be told`,
      'Name the file by its path, without control characters.',
    );
  if (isAbsolute(path)) return [path];
  const out = new Set<string>(path === '' ? bases : bases.map((b) => `${b}${sep}${path}`));
  const home = homeSpelled(path);
  if (home !== undefined) out.add(home);
  const url = urlSpelled(path);
  if (url !== undefined) out.add(url);
  return [...out];
}

/** A `file:` URL, which a tool may be given for a path (`file:///repo/secrets/x`), in any case. */
export const FILE_URL = /^file:/i;

/**
 * The path a `file:` URL names, its escapes decoded (`file:///repo/secr%65ts/x` is `/repo/secrets/x`), where a tool
 * that reads URLs writes; judged beside the name as written, which another tool takes for a folder `file:`. A URL that
 * names no local path (another host, an escaped `/`) is a call the hook cannot decide, never one that passes unjudged.
 */
export function urlSpelled(path: string): string | undefined {
  if (!FILE_URL.test(path)) return undefined;
  try {
    // URL readers differ on a control character, written or escaped (`%00`, `%0A`): the WHATWG parser drops a tab or
    // a line break written in the URL and keeps one escaped, another keeps both or stops at a NUL. Which file such a
    // URL names depends on the tool's reader, so it is judged as none.
    if (CONTROL.test(decodedOrSelf(path))) throw new Error('it holds a control character');
    return fileURLToPath(new URL(path));
  } catch (error) {
    throw new UsageError(
      `${path} is a file URL that names no path of this machine (${(error as Error).message})`,
      'Name the file by its path in the repository.',
    );
  }
}

/** A C0 control character or DEL. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `text` with its `%` escapes decoded (a character written as it is stays), or as it is where one is not an escape of UTF-8. */
function decodedOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `abs` relative to `top` with forward slashes, or undefined when outside it. */
export function relativeTo(top: string, abs: string): string | undefined {
  if (abs === top) return '';
  if (!abs.startsWith(top.endsWith(sep) ? top : top + sep)) return undefined;
  return abs
    .slice(top.length + (top.endsWith(sep) ? 0 : 1))
    .split(sep)
    .join('/');
}

/** `abs` relative to `top` compared without case, when it is under `top` only so (`/Repo/x` for `/repo`). */
export function relativeCaseless(top: string, abs: string): string | undefined {
  if (relativeTo(top, abs) !== undefined) return undefined;
  const head = abs.slice(0, top.length);
  return head.toLowerCase() === top.toLowerCase() ? relativeTo(head, abs) : undefined;
}

/** How many files below a folder a move names are judged: past it, the hook cannot decide (guard.on_error). */
export const MAX_FOLDER_FILES = 10_000;

/**
 * The files below `named` (paths relative to it, `/`-separated), when it is a
 * folder itself and not a link to one (a link moved or deleted leaves its
 * target's files as they are); none otherwise. `real` is where it is. Links
 * below it are files: they are moved, not followed. A folder of more than
 * {@link MAX_FOLDER_FILES} is refused, or with `byName` left to be judged by
 * its name alone (a shell command's, whose folder the hook reads from its text).
 */
export function filesBelow(named: string, real: string, byName = false): string[] {
  try {
    if (!lstatSync(named).isDirectory()) return [];
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = `${prefix}${e.name}`;
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}/`);
      else out.push(rel);
      if (out.length > MAX_FOLDER_FILES)
        throw new UsageError(
          `${named} is a folder of more than ${MAX_FOLDER_FILES} files, too many to judge each against the guards`,
          'Move or remove it with a command the person runs, or name the files one by one.',
        );
    }
  };
  try {
    walk(real, '');
  } catch (error) {
    // The walk's only refusal is of too many files, which a folder judged by its name alone does not meet.
    if (byName && error instanceof UsageError) return [];
    throw error;
  }
  return out;
}

/**
 * Where a path leads: as the system reads it, each link followed before the `..` after it, and, when it holds a `..`,
 * as its `..` folded first. Claude Code and Gemini CLI fold a path (path.resolve) before they write, and a shell's `cd`
 * folds it against its folder: `out/../shortcut/x`, with `out` a link out of the repository, is `shortcut/x` to them,
 * and writes where `shortcut` leads. A path through the process's own entries is a call the hook cannot decide.
 */
export function wherePathLeads(named: string): string[] {
  const folded = resolve(named);
  // No system follows a path past its limit (ENAMETOOLONG), and walking one a part at a time took time quadratic in its
  // length: as named it leads nowhere, and its `..` folded (as a client folds it before it writes) is taken as it reads.
  if (named.length > LONGEST_PATH) return folded.length > LONGEST_PATH ? [folded] : wherePathLeads(folded);
  const own = () =>
    new UsageError(
      `${named} names a folder or file of the process that uses it (the client's own), which the guard hook's process cannot see`,
      'Name the file or folder by its own path.',
    );
  if (process.platform !== 'win32' && (OWN_PROCESS.test(folded) || OWN_PROCESS.test(named))) throw own();
  // So is a path that leads there through a link (`lnk` → /proc/self/cwd/secrets): to the client, its own folder.
  const real = physicalPathOf(named);
  if (real.ownProcess) throw own();
  if (folded === named) return [real.path];
  const foldedReal = physicalPathOf(folded);
  if (foldedReal.ownProcess) throw own();
  return foldedReal.path === real.path ? [real.path] : [real.path, foldedReal.path];
}
