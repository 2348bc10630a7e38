// Test files share their worker's modules (vitest.config.ts), so a module mocked in one file holds only where it
// was imported first: a test passes alone and fails beside others. A seam is a parameter, or a wrapped built-in
// restored after the test (test/cli/guard-install-race.test.ts), never vi.mock.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : /\.(ts|tsx)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe('the test files', () => {
  it('mock no module (vi.mock, vi.doMock)', () => {
    const mocking = testFiles(root)
      .filter((file) => /\bvi\s*\.\s*(do)?[mM]ock\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(mocking).toEqual([]);
  });
});
