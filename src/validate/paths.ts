// PATHS of `agents validate`, checked apart from the run: hook mode stops
// before the validation code loads when no store file is staged, and must
// still refuse a path outside the store (docs/validation.md).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';

/** PATHS → store-relative paths ("" is the whole store); undefined for none; refuses paths outside the store. */
export function storePaths(store: string, cwd: string, paths: readonly string[] | undefined): string[] | undefined {
  if (!paths || paths.length === 0) return undefined;
  return paths.map((p) => {
    const rel = relative(resolve(store), resolve(cwd, p)).split(sep).join('/');
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
      throw new UsageError(`${p} is outside the store ${store}`, 'Name files inside the store, or choose the store with --store DIR.');
    }
    return rel;
  });
}
