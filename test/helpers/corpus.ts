import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './cli.ts';
import { tempDir } from './tmp.ts';

export const BROKEN = join(REPO, 'fixtures/broken');

/** A case of the broken-store corpus: what it must produce, and what git cannot hold. */
export interface BrokenCase {
  description: string;
  exit: number;
  /** Files the test makes: a 2 GiB sparse file, a mode-000 file, a named pipe, a folder. */
  setup?: 'huge' | 'unreadable' | 'fifo' | 'folder' | 'old';
  /** Where `setup` makes it, store-relative (default: an invariant file of global/). */
  target?: string;
  /** Symbolic links (path in the case → target), made by the test so that no link is committed. */
  links?: Record<string, string>;
  diagnostics: { code: string; file: string; line: number; col: number; severity: string }[];
}

export function readCase(name: string): BrokenCase {
  return JSON.parse(readFileSync(join(BROKEN, name, 'expected.json'), 'utf8')) as BrokenCase;
}

/** A copy of the case in a fresh folder, with its links made; returns the folder. */
export function copyCase(name: string): string {
  const dir = tempDir();
  cpSync(join(BROKEN, name), dir, { recursive: true });
  for (const [path, target] of Object.entries(readCase(name).links ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  return dir;
}
