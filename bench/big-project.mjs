// A store whose one project holds `size` invariants (the memory rows of
// bench/run.mjs, "bounded memory": `list --effective` and the TUI on 100,000
// entries). Deterministic, in the format the tool writes (bench/store.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateStore, prng, sentence, ulids } from './store.mjs';

export const BIG_PROJECT = 'big';

export function generateBigProjectStore(root, size, seed = 17) {
  const info = generateStore(root, 1000, seed);
  const rand = prng(seed + size);
  const next = ulids(rand, Date.UTC(2026, 3, 1));
  const dir = join(root, 'projects', BIG_PROJECT);
  mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= size; n++) {
    const { id, at } = next();
    const data = {
      id,
      text: sentence(rand, n),
      severity: rand() < 0.8 ? 'error' : 'warning',
      active: true,
      created_at: at,
      created_by: 'Ada Lovelace <ada@example.com>',
    };
    const body = stringify(data, { lineWidth: 0, defaultKeyType: 'PLAIN', version: '1.2' });
    writeFileSync(join(dir, `${id}.yaml`), `# yaml-language-server: $schema=../../schemas/invariant.schema.json\n${body}`);
  }
  return { ...info, project: BIG_PROJECT, size };
}
