import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agents } from '../helpers/cli.ts';
import { EXAMPLE_PLAN, exampleStore, useActor } from '../helpers/plans.ts';
import { PtySession } from '../helpers/pty.ts';
import { invariantYaml, tempDir, testStore } from '../helpers/tmp.ts';

const ERASE = '\r\x1b[2K';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A store of `n` invariants without modelines (so `--fix` has work), in a few projects. */
function storeOf(n: number): string {
  const tree: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    let tail = '';
    for (let k = 0, m = i; k < 6; k++, m = Math.floor(m / 32)) tail = CROCKFORD[m % 32] + tail;
    const id = `01JF0000000000000000${tail}`;
    tree[`projects/p${i % 4}/${id}.yaml`] = invariantYaml(id, `Rule ${i}: show how far the work is`);
  }
  return testStore(tree);
}

/** Waits (bounded) until the recording holds the program's exit line, then returns every byte it wrote. */
async function recorded(session: PtySession, file: string): Promise<{ code: number; screen: string; bytes: string }> {
  const { code, screen } = await session.exit();
  for (let i = 0; i < 50 && !(existsSync(file) && readFileSync(file, 'utf8').includes('[exit')); i++)
    await new Promise((r) => setTimeout(r, 100));
  return { code, screen, bytes: readFileSync(file, 'utf8') };
}

describe('progress on a terminal', () => {
  it('validate --fix draws its progress on stderr, erases it, and leaves only the report on the screen', async () => {
    const store = storeOf(300);
    const log = join(tempDir(), 'pty.log');
    const session = PtySession.start(['--store', store, 'validate', '--fix'], {
      cwd: dirname(store),
      columns: 120,
      env: { AGENTS_PROGRESS_DELAY_MS: '0' },
      record: log,
    });
    const { code, screen, bytes } = await recorded(session, log);
    expect(code).toBe(0);
    // Drawn in place (carriage return, erase line), phase by phase, with counts of the total.
    // No cache here (the store is outside git): each file is read and checked in one pass, so the
    // only phase of the check is "checking files" (docs/commands.md, "Progress").
    expect(bytes).not.toContain('reading files');
    expect(bytes).toMatch(/\r\x1b\[2Kvalidate: checking files: [\d,]+ of 300 \(\d+%\)/);
    expect(bytes).toMatch(/\r\x1b\[2Kvalidate --fix: adding modelines: [\d,]+ of 300 \(\d+%\)/);
    // Erased before the report: the last progress draw is followed by an erase, then the command's own output.
    const lastDraw = bytes.lastIndexOf('validate --fix: adding modelines');
    const report = bytes.indexOf('fixed  added the schema modeline');
    expect(report).toBeGreaterThan(lastDraw);
    expect(bytes.slice(lastDraw, report)).toContain(ERASE);
    expect(screen).not.toContain('validate: ');
    expect(screen).not.toContain('adding modelines');
    expect(screen).toContain('ok  no problems in 300 files');
  });

  it('nothing is drawn under CI, nor with --quiet', async () => {
    for (const [args, env] of [
      [['validate'], { AGENTS_PROGRESS_DELAY_MS: '0', CI: 'true' }],
      [['--quiet', 'validate'], { AGENTS_PROGRESS_DELAY_MS: '0' }],
    ] as const) {
      const store = storeOf(60);
      const log = join(tempDir(), 'pty.log');
      const session = PtySession.start(['--store', store, ...args], { cwd: dirname(store), columns: 120, env, record: log });
      const { code, bytes } = await recorded(session, log);
      expect({ args, code }).toEqual({ args, code: 0 });
      expect(bytes).not.toContain('\x1b[2K');
      expect(bytes).not.toContain('reading files');
      expect(bytes).toContain('modeline-missing');
    }
  });

  it('plan strategize shows the actor’s time against its time-out; Ctrl-C erases it and cancels (exit 130)', async () => {
    const root = exampleStore();
    mkdirSync(join(root, 'actors'), { recursive: true });
    // An actor that never answers: the run waits until it is cancelled.
    useActor(root, 'setInterval(() => {}, 1000);\n', 60_000);
    const log = join(tempDir(), 'pty.log');
    const session = PtySession.start(['--store', root, 'plan', 'strategize', EXAMPLE_PLAN], {
      cwd: dirname(root),
      columns: 120,
      record: log,
    });
    await session.waitFor(/plan strategize: waiting for the actor, \d+ s of its 1 min 0 s time-out/);
    session.keys('C-c');
    const { code, screen, bytes } = await recorded(session, log);
    expect(code).toBe(130);
    expect(screen).not.toContain('waiting for the actor');
    expect(screen).toContain('Cancelled');
    const lastDraw = bytes.lastIndexOf('waiting for the actor');
    expect(bytes.indexOf(ERASE, lastDraw)).toBeGreaterThan(lastDraw);
  });
});

describe('progress off a terminal', () => {
  it('writes nothing to stderr when it is not a terminal, even past the delay', () => {
    const store = storeOf(60);
    const r = agents(['--store', store, 'validate', '--fix'], { env: { CI: undefined, AGENTS_PROGRESS_DELAY_MS: '0' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).toContain('ok  no problems in 60 files');
  });
});
