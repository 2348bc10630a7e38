// The physical floor of a whole-store check: walk the store and read every
// file, nothing else (synchronous fs, as the tool does). Prints the count.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let files = 0;
let bytes = 0;
function walk(dir) {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    if (d.isDirectory()) walk(full);
    else if (d.isFile()) {
      bytes += readFileSync(full).byteLength;
      files++;
    }
  }
}
walk(process.argv[2] ?? '.');
process.stdout.write(`${files} files, ${bytes} bytes\n`);
