// The walk-and-read floor of a whole-store check: one process walks STORE and reads every file
// as UTF-8 text, nothing else (synchronous fs, as the tool does). Time it as a whole process
// beside the command, in the same run: the budgets of docs/benchmarks.md are ratios to it.
//   node bench/floor.mjs STORE
import fs from 'node:fs';
import path from 'node:path';

const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else fs.readFileSync(p, 'utf8');
  }
};
walk(process.argv[2] ?? '.');
