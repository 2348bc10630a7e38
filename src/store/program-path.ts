/**
 * Where a program named without a folder is found, as a shell finds it: the first folder of PATH that holds an
 * executable regular file of that name (on Windows, of that name with one of PATHEXT's extensions, `agents.cmd`).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { join, posix, win32 } from 'node:path';

/** Whether `path` is a regular file this process may run. */
export function executableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What Windows' shell tries after a bare name when PATHEXT is not set. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * The path of `program` in the first folder of `pathVariable` (PATH's value) that holds it, else undefined. On
 * Windows a name without one of PATHEXT's extensions is looked for with each of them in turn, as its shell does: npm
 * installs `agents` there as `agents.cmd`, which no file named `agents` stands for.
 */
export function programOnPath(
  program: string,
  pathVariable: string | undefined,
  options: { platform?: NodeJS.Platform; pathext?: string | undefined } = {},
): string | undefined {
  const windows = (options.platform ?? process.platform) === 'win32';
  const extensions = windows ? (options.pathext || DEFAULT_PATHEXT).split(';').filter((e) => e !== '') : [];
  const hasExtension = extensions.some((e) => program.toLowerCase().endsWith(e.toLowerCase()));
  const names = windows && !hasExtension ? extensions.map((e) => `${program}${e}`) : [program];
  for (const dir of (pathVariable ?? '').split(windows ? win32.delimiter : posix.delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const path = join(dir, name);
      if (executableFile(path)) return path;
    }
  }
  return undefined;
}

/** Whether npm started this run (`npx agents`, an npm script): it then put node_modules/.bin on PATH for it alone. */
export function runByNpm(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * PATH as the user's shell has it, outside this run: without the node_modules/.bin folders npm added for a run it
 * started, where a program found would not be found by a hook or a Tab completion started from that shell.
 */
export function sessionPath(env: Readonly<Record<string, string | undefined>>): string {
  const path = env.PATH ?? '';
  if (!runByNpm(env)) return path;
  const delimiter = process.platform === 'win32' ? win32.delimiter : posix.delimiter;
  return path
    .split(delimiter)
    .filter((dir) => !/[/\\]node_modules[/\\]\.bin[/\\]?$/.test(dir))
    .join(delimiter);
}
