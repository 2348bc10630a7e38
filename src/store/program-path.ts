/**
 * Where a program named without a folder is found, as a shell finds it: the first folder of PATH that holds an
 * executable regular file of that name.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `path` is a regular file this process may run. */
export function executableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path of `program` in the first folder of `pathVariable` (PATH's value) that holds it, else undefined. */
export function programOnPath(program: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, program);
    if (executableFile(path)) return path;
  }
  return undefined;
}
