import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file and folder under `root` with its content: a refused command must leave it equal. */
export function storeState(root: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const walk = (rel: string) => {
    for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        out[`${r}/`] = null;
        walk(r);
      } else out[r] = readFileSync(join(root, r), 'utf8');
    }
  };
  walk('');
  return out;
}
