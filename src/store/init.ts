import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { ActorChoice } from '../core/actor-choice.ts';
import { SCHEMAS } from '../core/schemas.ts';
import { EXAMPLE_ACTOR_FILE, EXAMPLE_ACTOR_SOURCE } from './example-actor.ts';
import { formatConfigFile } from '../core/serialize.ts';
import { assertOwnStore } from './ownership.ts';
import { writeFileAtomic } from './atomic-write.ts';

export const SCOPE_FOLDERS = ['global', 'projects', 'actions', 'plans'] as const;

/** Writes the tool's schemas into `<store>/schemas/` (for editors' modelines). */
export function writeSchemas(root: string): string[] {
  const written: string[] = [];
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    writeFileAtomic(root, `schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`, 'replace');
    written.push(`schemas/${name}`);
  }
  return written;
}

/** Creates a new store at `root`; refuses to touch an existing one. */
export function initStore(root: string, actor?: ActorChoice): string[] {
  if (existsSync(root) && readdirSync(root).length > 0) {
    throw new UsageError(
      `a store already exists at ${root}`,
      'Nothing was changed. Use it as it is, or choose another folder with --store DIR.',
    );
  }
  // An empty folder someone else made: nothing is created in it (docs/store-format.md).
  assertOwnStore(root, 'write in');
  const made: string[] = [];
  for (const folder of SCOPE_FOLDERS) {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileAtomic(root, `${folder}/.gitkeep`, '');
    made.push(`${folder}/`);
  }
  writeFileAtomic(root, 'config.yaml', formatConfigFile(actor));
  made.push('config.yaml');
  if (actor?.actor === 'command') {
    writeFileAtomic(root, EXAMPLE_ACTOR_FILE, EXAMPLE_ACTOR_SOURCE);
    made.push(EXAMPLE_ACTOR_FILE);
  }
  made.push(...writeSchemas(root));
  return made;
}
