// `agents guard install` and another program writing a client's settings file at the same time (an editor saving
// it): the edit made between the install's read and its write is never lost (docs/guard.md, "Installing the hook").
import { mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, runAgents } from '../helpers/main.ts';
import { tempDir } from '../helpers/tmp.ts';

// The edit is made as the install flushes its temporary of that settings file, between its read and its rename: the
// file system's own fsyncSync is wrapped (not a module mock, which test files sharing a worker would not all see).
const fs = createRequire(import.meta.url)('node:fs') as { fsyncSync: (fd: number) => void };
const realFsync = fs.fsyncSync;
function meanwhile(file: string, edit: () => void): void {
  let done = false;
  fs.fsyncSync = (fd: number) => {
    realFsync(fd);
    const path = readlinkSync(`/proc/self/fd/${fd}`);
    if (!done && dirname(path) === dirname(file) && path !== file && path.includes('settings.json')) {
      done = true;
      edit();
    }
  };
  syncBuiltinESMExports();
}
afterEach(() => {
  fs.fsyncSync = realFsync;
  syncBuiltinESMExports();
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
    meanwhile(file, () => writeFileSync(file, saved));
    const changed = await runAgents(['guard', 'install', '--client', 'claude', '--format', 'json'], { cwd: dir });
    expect([changed.code, errorOf(changed)]).toMatchObject([2, { code: 'store-changed', detail: { changed: ['.claude/settings.json'] } }]);
    expect(readFileSync(file, 'utf8')).toBe(saved);
    // A file the install found absent, made meanwhile: kept as well.
    const gemini = join(dir, '.gemini/settings.json');
    mkdirSync(join(dir, '.gemini'));
    meanwhile(gemini, () => writeFileSync(gemini, saved));
    const created = await runAgents(['guard', 'install', '--client', 'gemini', '--format', 'json'], { cwd: dir });
    expect([created.code, errorOf(created)]).toMatchObject([2, { code: 'store-changed', detail: { changed: ['.gemini/settings.json'] } }]);
    expect(readFileSync(gemini, 'utf8')).toBe(saved);
    fs.fsyncSync = realFsync;
    syncBuiltinESMExports();
    // Run again, the install merges the hook into the file as it is now.
    expect((await runAgents(['guard', 'install', '--client', 'claude'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ model: 'opus', hooks: { PreToolUse: expect.any(Array) } });
  });
});
