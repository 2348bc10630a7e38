import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agents, BIN } from '../helpers/cli.ts';
import { GIT_ENV, gitInit } from '../helpers/git.ts';
import { tempDir } from '../helpers/tmp.ts';

describe('a run with too few file descriptors', () => {
  it('says it is the limit on open files (exit 2, too-many-open-files) and writes nothing, never a bug', (ctx) => {
    if (spawnSync('prlimit', ['--version']).status !== 0) {
      console.log('skipped: prlimit is not available here');
      ctx.skip();
      return;
    }
    const top = tempDir();
    gitInit(top);
    expect(agents(['init', '--actor', 'none'], { cwd: top }).code).toBe(0);
    const global = join(top, '.agents/global');
    // The limit raised one at a time until the command runs: every run below it ends where it first finds no file
    // descriptor. One without a document on stdout ended before agents ran (Node's own start), out of its reach.
    const refusals: number[] = [];
    for (let limit = 12; limit <= 64; limit++) {
      const r = spawnSync(
        'prlimit',
        [`--nofile=${limit}`, process.execPath, BIN, '--format', 'json', 'invariant', 'add', '--global', 'Never x'],
        {
          cwd: top,
          env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', CI: 'true' },
          encoding: 'utf8',
        },
      );
      if (!r.stdout.startsWith('{')) continue;
      const document = JSON.parse(r.stdout) as { ok: boolean; error?: { code: string } };
      if (r.status === 0) break;
      expect({ limit, status: r.status, code: document.error?.code }).toEqual({ limit, status: 2, code: 'too-many-open-files' });
      expect(readdirSync(global).filter((f) => f.endsWith('.yaml'))).toEqual([]);
      refusals.push(limit);
    }
    expect(refusals.length).toBeGreaterThan(0);
    expect(readdirSync(global).filter((f) => f.endsWith('.yaml'))).toHaveLength(1);
  });
});
