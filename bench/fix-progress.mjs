// Rows of `npm run bench` for `validate --fix` and the progress display,
// kept apart from bench/run.mjs's other sections (it calls `fixAndProgressRows`).
//  - `validate --fix` adding the modeline to every file of a store whose files
//    lack it, against bench/rewrite-floor.mjs (the same bytes written through
//    a temporary and a rename, no fsync), interleaved in the same run; each
//    timed run starts from a fresh copy of the store without modelines.
//  - `validate --no-cache` in a pseudo-terminal (util-linux `script`), with
//    the progress display drawn from the first file (AGENTS_PROGRESS_DELAY_MS=0)
//    against the same run with `--quiet`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateStore, git } from './store.mjs';

const REWRITE_FLOOR = fileURLToPath(new URL('./rewrite-floor.mjs', import.meta.url));

/** Removes the first line of every YAML file that starts with a modeline (what `--fix` will add back). */
function stripModelines(dir) {
  let n = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    if (d.isDirectory()) {
      if (d.name !== 'schemas' && d.name !== '.git') n += stripModelines(full);
    } else if (d.name.endsWith('.yaml')) {
      const text = readFileSync(full, 'utf8');
      if (text.startsWith('# yaml-language-server:')) {
        writeFileSync(full, text.slice(text.indexOf('\n') + 1));
        n++;
      }
    }
  }
  return n;
}

/** `cp -a`, which keeps the copy as close to the original's layout on disk as the file system allows. */
function copyTree(from, to) {
  rmSync(to, { recursive: true, force: true });
  execFileSync('cp', ['-a', from, to]);
}

export async function fixAndProgressRows({ work, sizes, runs, measure, row, unavailable, log, agents, node }) {
  for (const size of sizes) {
    const label = size.toLocaleString('en');
    log(`\nvalidate --fix and progress: ${label} invariants without modelines`);
    const pristine = join(work, `fix-pristine-${size}`);
    generateStore(join(pristine, '.agents'), size);
    git(pristine, 'init', '-q', '-b', 'main');
    const stripped = stripModelines(join(pristine, '.agents'));
    log(`  ${stripped} files without their modeline`);
    const fixRepo = join(work, `fix-${size}`);
    const floorRepo = join(work, `fix-floor-${size}`);
    // Each timed run rewrites the store: a fresh copy first (untimed), for the fix and for its floor alike.
    const [fix, floor] = measure(
      [
        { argv: agents('--store', join(fixRepo, '.agents'), 'validate', '--fix'), before: () => copyTree(pristine, fixRepo) },
        { argv: node(REWRITE_FLOOR, join(floorRepo, '.agents')), before: () => copyTree(pristine, floorRepo) },
      ],
      Math.max(3, Math.ceil(runs / 2)),
    );
    row(
      'validate --fix (adds every modeline)',
      label,
      fix,
      floor,
      'write-and-rename floor (bench/rewrite-floor.mjs)',
      size >= 100_000 ? { max: 2 } : undefined,
    );

    if (!existsSync('/usr/bin/script')) {
      unavailable('validate --no-cache, progress drawn (terminal)', label, '≤ 1.02×', 'util-linux `script` is not installed');
      continue;
    }
    // Both in a pseudo-terminal, both without CI; only --quiet differs. Cold runs: the progress has every file to count.
    const store = join(pristine, '.agents');
    const inPty = (...args) => ({
      argv: ['/usr/bin/script', '-qefc', [...agents('--store', store, ...args)].map((a) => `'${a}'`).join(' '), '/dev/null'],
      env: { CI: '', AGENTS_PROGRESS_DELAY_MS: '0' },
    });
    const [on, off] = measure([inPty('validate', '--no-cache'), inPty('--quiet', 'validate', '--no-cache')], runs);
    row(
      'validate --no-cache, progress drawn (terminal)',
      label,
      on,
      off,
      'the same with --quiet',
      size >= 100_000 ? { max: 1.02 } : undefined,
    );
  }
}
