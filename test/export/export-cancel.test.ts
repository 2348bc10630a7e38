// A stop signal during `agents export` (Ctrl-C: exit 130) ends it between two files: each file is as it
// was or written whole, and no temporary is left beside one (docs/export.md, "The managed block").
import { readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { InvariantService } from '../../src/service/invariant-service.ts';
import { ExportService } from '../../src/service/export-service.ts';
import { AgentsError } from '../../src/core/errors.ts';
import { runAgents } from '../helpers/main.ts';
import { monorepo, snapshot } from './repo.ts';

const TARGETS = ['agents-md', 'claude-md'];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p !== '.git' && !p.startsWith('.git/'));
}

/** The files made since `before`, each checked whole (its block ends it), and that no temporary is left. */
function madeWhole(repo: string, before: Set<string>): string[] {
  const now = files(repo);
  expect(now.filter((p) => p.endsWith('.tmp'))).toEqual([]);
  const made = now.filter((p) => !before.has(p) && statSync(join(repo, p)).isFile());
  for (const p of made) expect(readFileSync(join(repo, p), 'utf8')).toMatch(/<!-- agents:end -->\n$/);
  return made;
}

describe('agents export, stopped', () => {
  it('ExportService.applyUntil stops between two files when its signal is aborted, with a CancelledError whatever the reason', async () => {
    const repo = monorepo();
    const before = new Set(files(repo));
    const exporter = new ExportService(new InvariantService(join(repo, '.agents')));
    const cancelled = { name: 'CancelledError', code: 'cancelled', exitCode: 130 };
    // Aborted before it starts, by a plain abort() (whose reason is a DOMException), as strategize and addViolation are.
    const early = new AbortController();
    early.abort();
    await expect(exporter.applyUntil(await exporter.plan({ targets: TARGETS }), early.signal)).rejects.toMatchObject(cancelled);
    expect(madeWhole(repo, before)).toHaveLength(0);
    const plan = await exporter.plan({ targets: TARGETS });
    const controller = new AbortController();
    // Aborted while the second file is written: the moment a process killed there left its temporary.
    const run = exporter.applyUntil(plan, controller.signal, (_phase, n) => {
      if (n === 2) controller.abort(new Error('stopped'));
    });
    await expect(run).rejects.toMatchObject(cancelled);
    expect(madeWhole(repo, before)).toHaveLength(2);
  });

  it('the CLI turns a stop signal into an abort: exit 130, the files written whole, no temporary, the rest written next time', async () => {
    const repo = monorepo();
    const before = new Set(files(repo));
    const all = (await runAgents(['export', '--dry-run', '--format', 'json', '--target', TARGETS.join(',')], { cwd: repo })).stdout;
    const total = JSON.parse(all).changes.length;
    // The first file the export writes at the top starts the "Ctrl-C", which the export sees between two files.
    const watcher = watch(repo, () => {
      watcher.close();
      process.emit('SIGINT', 'SIGINT');
    });
    try {
      const r = await runAgents(['export', '--target', TARGETS.join(',')], { cwd: repo });
      expect(r.code).toBe(130);
    } finally {
      watcher.close();
    }
    expect(madeWhole(repo, before).length).toBeLessThan(total);
    expect((await runAgents(['export', '--target', TARGETS.join(',')], { cwd: repo })).code).toBe(0);
    expect(madeWhole(repo, before)).toHaveLength(total);
  });

  it('a stop caught as the last file is written ends the export with the signal’s code once every file is written whole', async () => {
    const repo = monorepo();
    const before = new Set(files(repo));
    // The signal reaches its listener once the writes are done, before the command has looked at its signal again.
    const applyUntil = ExportService.prototype.applyUntil;
    const spy = vi.spyOn(ExportService.prototype, 'applyUntil').mockImplementation(async function (this: ExportService, ...args) {
      const written = await applyUntil.apply(this, args);
      process.emit('SIGTERM', 'SIGTERM');
      return written;
    });
    try {
      const r = await runAgents(['export', '--target', TARGETS.join(','), '--format', 'json'], { cwd: repo });
      expect([r.code, JSON.parse(r.stdout).error.code]).toEqual([143, 'cancelled']);
    } finally {
      spy.mockRestore();
    }
    const made = madeWhole(repo, before);
    expect(
      JSON.parse((await runAgents(['export', '--target', TARGETS.join(','), '--format', 'json'], { cwd: repo })).stdout).changes,
    ).toEqual([]);
    expect(madeWhole(repo, before)).toEqual(made);
  });

  it('ExportService.apply refuses a plan whose files changed since it was made, and writes none of them', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), 'My notes\n');
    const exporter = new ExportService(new InvariantService(join(repo, '.agents')));
    const plan = await exporter.plan({ targets: TARGETS });
    const written = plan.changes.filter((c) => c.action !== 'unchanged');
    expect(written.map((c) => c.path)).toContain('AGENTS.md');
    // Between the plan and its apply (a caller that shows the diff and asks first), the owner adds a line.
    writeFileSync(join(repo, 'AGENTS.md'), 'My notes\nA line added meanwhile\n');
    const before = snapshot(repo);
    const error = (() => {
      try {
        exporter.apply(plan);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AgentsError);
    expect((error as AgentsError).code).toBe('export-target-refused');
    expect((error as AgentsError).detail).toEqual({ path: 'AGENTS.md', reason: 'changed' });
    expect(snapshot(repo)).toEqual(before);
    // A new plan takes the line in.
    exporter.apply(await exporter.plan({ targets: TARGETS }));
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/^My notes\nA line added meanwhile\n/);
  });

  it('ExportService.apply of a plan whose files another export wrote meanwhile, as it would, leaves them and succeeds', async () => {
    const repo = monorepo();
    writeFileSync(join(repo, 'AGENTS.md'), 'My notes\n');
    const exporter = new ExportService(new InvariantService(join(repo, '.agents')));
    // Two exports at once: both plan before either writes.
    const first = await exporter.plan({ targets: TARGETS });
    const second = await exporter.plan({ targets: TARGETS });
    expect(first.changes.filter((c) => c.action !== 'unchanged').length).toBeGreaterThan(1);
    exporter.apply(first);
    const written = snapshot(repo);
    expect(() => exporter.apply(second)).not.toThrow();
    expect(snapshot(repo)).toEqual(written);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/^My notes\n\n<!-- agents:begin /);
  });
});
