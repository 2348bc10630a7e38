import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Removals under way; each test file waits for its own before it ends (test/helpers/tmp-cleanup.ts). */
const removing = new Set<Promise<void>>();

/**
 * A fresh temporary folder, removed when the current test finishes: in the
 * background, because while other tests' npm installs load the disk even a
 * small tree can take longer to remove than a hook may, and a test must not
 * fail on its clean-up. The file's end waits for the removal, so that a
 * worker that ends with the file does not leave the folder behind.
 */
export function tempDir(prefix = 'agents-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => {
    const removal = rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removing.add(removal);
    void removal.then(() => removing.delete(removal));
  });
  return dir;
}

/**
 * A fresh temporary folder that lasts as long as the worker process: for what is made once and copied for many
 * tests (a template repository), removed when the process exits.
 */
export function lastingDir(prefix = 'agents-lasting-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Waits for the removals under way, at most `limit` ms: a slow disk delays a file's end, never fails it. */
export async function removalsDone(limit: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limit);
    timer.unref();
  });
  await Promise.race([Promise.all(removing), late]);
  clearTimeout(timer);
  return removing.size;
}

/** Writes a tree of files: `{ "global/X.yaml": "text", "empty-dir/": null }`. */
export function writeTree(root: string, tree: Record<string, string | Buffer | null>): void {
  for (const [path, content] of Object.entries(tree)) {
    const full = join(root, path);
    if (content === null || path.endsWith('/')) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** A temporary store folder holding `tree`. */
export function testStore(tree: Record<string, string | Buffer | null> = {}): string {
  const root = join(tempDir(), '.agents');
  mkdirSync(root, { recursive: true });
  writeTree(root, { 'global/': null, 'projects/': null, 'actions/': null, 'plans/': null, ...tree });
  return root;
}

/** The text of an invariant file, as a person would write it. */
export function invariantYaml(id: string, text: string, extra: Record<string, string> = {}): string {
  const lines = [`id: ${id}`, `text: ${JSON.stringify(text)}`];
  for (const [k, v] of Object.entries(extra)) lines.push(`${k}: ${v}`);
  return `${lines.join('\n')}\n`;
}

/** An invariant with a guard (`{write: [...], command: [...]}`), its lists written as JSON, which YAML reads as they are. */
export function guardedYaml(id: string, text: string, guard: Record<string, readonly string[]>, severity = 'error'): string {
  return invariantYaml(id, text, { severity, guard: JSON.stringify(guard) });
}
