/**
 * The script of a worker thread the build writes beside the bundles (dist/validate-worker.js, dist/pattern-worker.js),
 * found from the module that asks, which is a bundle in dist/ or a chunk in dist/chunks/.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** dist/`name`, or undefined when running from the sources, where no worker is built (the work stays in this thread). */
export function builtWorker(name: string): URL | undefined {
  for (const rel of [`./${name}`, `../${name}`]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}
