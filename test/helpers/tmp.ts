import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh temporary folder, removed when the current test finishes: in the
 * background, because while other tests' npm installs load the disk even a
 * small tree can take longer to remove than a hook may, and a test must not
 * fail on its clean-up.
 */
export function tempDir(prefix = 'agents-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => {
    rm(dir, { recursive: true, force: true }).catch(() => undefined);
  });
  return dir;
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
