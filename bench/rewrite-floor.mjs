// The physical floor of `validate --fix` adding modelines: walk the store,
// read every YAML file, and write the same bytes the fix writes (the schema
// modeline, then the old text) through a temporary file and a rename, with
// no fsync. Prints the count. `--check` only counts the files that lack one.
import { closeSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const MODELINE = '# yaml-language-server: $schema=';
const root = process.argv[2] ?? '.';

/** The schema a file's path implies (docs/store-format.md), as the tool names it. */
function schemaFor(rel) {
  const parts = rel.split('/');
  const name = parts[parts.length - 1];
  if (rel === 'config.yaml') return 'config.schema.json';
  if (name === 'action.yaml') return 'action.schema.json';
  if (name === 'plan.yaml') return 'plan.schema.json';
  if (name === 'project.yaml') return 'project.schema.json';
  if (parts[0] === 'plans' && parts[2] === 'decisions') return 'decision.schema.json';
  if (parts[0] === 'plans' && parts[2] === 'enforcement') return 'enforcement.schema.json';
  return 'invariant.schema.json';
}

let files = 0;
function walk(dir, rel) {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    const r = rel === '' ? d.name : `${rel}/${d.name}`;
    if (d.isDirectory()) {
      if (r !== 'schemas') walk(full, r);
    } else if (d.isFile() && d.name.endsWith('.yaml')) {
      const text = readFileSync(full, 'utf8');
      if (text.startsWith(MODELINE)) continue;
      const tmp = join(dir, `.${d.name}.${process.pid}.${files.toString(16)}.tmp`);
      const fd = openSync(tmp, 'wx', 0o644);
      writeSync(fd, `${MODELINE}${'../'.repeat(r.split('/').length - 1)}schemas/${schemaFor(r)}\n${text}`);
      closeSync(fd);
      renameSync(tmp, full);
      files++;
    }
  }
}
walk(root, '');
process.stdout.write(`${files} files rewritten\n`);
