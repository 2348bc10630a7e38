// `agents guard install` and another program writing a client's settings file at the same time (an editor saving
// it): the edit made between the install's read and its write is never lost (docs/guard.md, "Installing the hook").
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

/** What runs between the install's read of the settings and its write of them (its look at the new files' line ends). */
const meanwhile = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));
vi.mock('../../src/service/export-targets.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/service/export-targets.ts')>();
  return {
    ...real,
    crlfTargets: async (top: string, paths: readonly string[]) => {
      meanwhile.run?.();
      return real.crlfTargets(top, paths);
    },
  };
});

describe('agents guard install and a settings file written meanwhile', () => {
  it('refuses to put its settings over a file changed or created since it read it: exit 2, store-changed, the edit kept', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    expect((await runAgents(['init'], { cwd: dir })).code).toBe(0);
    const file = join(dir, '.claude/settings.json');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(file, '{}\n');
    const saved = '{\n  "model": "opus"\n}\n';
    meanwhile.run = () => writeFileSync(file, saved);
    const changed = await runAgents(['guard', 'install', '--client', 'claude', '--format', 'json'], { cwd: dir });
    expect([changed.code, errorOf(changed)]).toMatchObject([2, { code: 'store-changed', detail: { changed: ['.claude/settings.json'] } }]);
    expect(readFileSync(file, 'utf8')).toBe(saved);
    // A file the install found absent, made meanwhile: kept as well.
    const gemini = join(dir, '.gemini/settings.json');
    meanwhile.run = () => (mkdirSync(join(dir, '.gemini')), writeFileSync(gemini, saved));
    const created = await runAgents(['guard', 'install', '--client', 'gemini', '--format', 'json'], { cwd: dir });
    expect([created.code, errorOf(created)]).toMatchObject([2, { code: 'store-changed', detail: { changed: ['.gemini/settings.json'] } }]);
    expect(readFileSync(gemini, 'utf8')).toBe(saved);
    meanwhile.run = undefined;
    // Run again, the install merges the hook into the file as it is now.
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ model: 'opus', hooks: { PreToolUse: expect.any(Array) } });
  });
});
