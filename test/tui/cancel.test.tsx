import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { CancelledError } from '../../src/core/errors.ts';
import type { ImportPlan, PlannedCandidate } from '../../src/core/import-plan.ts';
import type { ActorRequest } from '../../src/core/records.ts';
import { type AddResult, InvariantService } from '../../src/service/invariant-service.ts';
import { runAddForm } from '../../src/tui/add.tsx';
import { runBrowser } from '../../src/tui/browse.tsx';
import { runImportReview } from '../../src/tui/import.tsx';
import { askPerson } from '../../src/tui/reconcile.tsx';
import type { TuiIo } from '../../src/tui/run-ink.tsx';
import { G1, Keys, PLAN, exampleStore, settle } from './helpers.ts';

class Screen extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  write = (): boolean => true;
}

/** What `run` ends with, its value or its error, without rejecting. */
const outcomeOf = <T,>(run: Promise<T>): Promise<{ value?: T; error?: unknown }> =>
  run.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Writes `key` until `done()`: Ink draws no frames under CI, and a key that comes before the screen takes it is lost. */
const pressUntil = (stdin: Keys, key: string, done: () => boolean) =>
  vi.waitFor(
    () => {
      if (!done()) stdin.write(key);
      expect(done()).toBe(true);
    },
    { timeout: 10_000, interval: 20 },
  );

/**
 * A write that waits, once it holds its scope's lock (its first read of the folder made under the lock), until the
 * test lets it write: in flight, no cancel can take it back. One that has not taken its lock yet a cancel ends.
 */
class GatedService extends InvariantService {
  started = false;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  constructor(...args: ConstructorParameters<typeof InvariantService>) {
    super(...args);
    const list = this.source.list.bind(this.source);
    this.source.list = async (dir, options) => {
      if (!this.started && dir !== '' && existsSync(join(this.root, dir, '.lock'))) {
        this.started = true;
        await this.gate;
      }
      return list(dir, options);
    };
  }
  let(): void {
    this.open();
  }
}

test('Ctrl-C while the form is writing does not report "Cancelled" over a write that happens: the form ends with what it wrote', async () => {
  const root = exampleStore();
  const service = new GatedService(root, { author: async () => 'Tester <t@example.com>' });
  const stdin = new Keys();
  const stdout = new Screen();
  const io = { stdin, stdout, color: false } as unknown as TuiIo;
  const outcome = outcomeOf(runAddForm(io, service, { scope: { kind: 'global' }, initial: { text: 'Keep the audit log' } }));
  // Text, severity, tags, rationale, the four kinds of guard, then "Add it?": Enter until the add starts (Ink draws no
  // frames under CI, and an Enter that comes before the text is checked is not taken, so the test does not count them).
  await pressUntil(stdin, '\r', () => service.started);
  stdin.write('\u0003');
  await settle();
  service.let();
  const result = await outcome;
  expect(result).not.toHaveProperty('error');
  const added = (result as { value: AddResult | undefined }).value;
  expect(added?.invariant.text).toBe('Keep the audit log');
  expect(existsSync(join(root, added!.invariant.path))).toBe(true);
});

test('Ctrl-C before anything is written still cancels (CancelledError, nothing written)', async () => {
  const root = exampleStore();
  const service = new GatedService(root);
  const stdin = new Keys();
  const stdout = new Screen();
  const io = { stdin, stdout, color: false } as unknown as TuiIo;
  const outcome = outcomeOf(runAddForm(io, service, { scope: { kind: 'global' } }));
  stdin.write('\u0003');
  expect(((await outcome) as { error?: unknown }).error).toBeInstanceOf(CancelledError);
  expect(service.started).toBe(false);
});

test('Ctrl-C read in one chunk with keys typed just before it (a fast typist, a busy machine) still cancels', async () => {
  const root = exampleStore();
  const service = new GatedService(root);
  const stdin = new Keys();
  const io = { stdin, stdout: new Screen(), color: false } as unknown as TuiIo;
  let settled: { value?: unknown; error?: unknown } | undefined;
  void runAddForm(io, service, { scope: { kind: 'global' } }).then(
    (value) => {
      settled = { value };
    },
    (error: unknown) => {
      settled = { error };
    },
  );
  await settle();
  stdin.write('Keep\r\u0003');
  await vi.waitFor(() => expect(settled).toBeDefined(), { timeout: 10_000, interval: 10 });
  expect(settled?.error).toBeInstanceOf(CancelledError);
  expect(service.started).toBe(false);
});

/** A removal that waits, once it holds its scope's lock, until the test lets it write. */
class GatedRemoval extends GatedService {
  shown = false;
  override async show(...args: Parameters<InvariantService['show']>): ReturnType<InvariantService['show']> {
    const info = await super.show(...args);
    this.shown = true;
    return info;
  }
}

test('Ctrl-C while the browser is removing: the removal is made, and the cancel says what it made', async () => {
  const root = exampleStore();
  const service = new GatedRemoval(root);
  const stdin = new Keys();
  const io = { stdin, stdout: new Screen(), color: false } as unknown as TuiIo;
  const outcome = outcomeOf(runBrowser(io, service));
  // d on the first row once the store is read, then y once its confirmation is up (Ink draws no frames under CI).
  await pressUntil(stdin, 'd', () => service.shown);
  await pressUntil(stdin, 'y', () => service.started);
  stdin.write('\u0003');
  await settle();
  service.let();
  const { error } = (await outcome) as { error?: unknown };
  expect(error).toBeInstanceOf(CancelledError);
  expect(existsSync(join(root, `global/${G1}.yaml`))).toBe(false);
  expect((error as CancelledError).message).toContain(`global/${G1}.yaml`);
});

describe("Ctrl-C while a write waits for another writer's lock", () => {
  /** A lock of a live process (this one) on `folder`, so that a writer waits for it; the wait longer than the test. */
  const held = (root: string, folder: string) => {
    writeFileSync(join(root, folder, '.lock'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`);
    vi.stubEnv('AGENTS_LOCK_TIMEOUT_MS', '60000');
    onTestFinished(() => void vi.unstubAllEnvs());
  };
  /** A service that says when a write began (before its lock). */
  class Watched extends InvariantService {
    began = false;
    shown = false;
    override async add(...args: Parameters<InvariantService['add']>): Promise<AddResult> {
      this.began = true;
      return super.add(...args);
    }
    override async show(...args: Parameters<InvariantService['show']>): ReturnType<InvariantService['show']> {
      const info = await super.show(...args);
      this.shown = true;
      return info;
    }
    override async remove(...args: Parameters<InvariantService['remove']>): ReturnType<InvariantService['remove']> {
      this.began = true;
      return super.remove(...args);
    }
  }

  test('the form ends at once, cancelled, nothing written', async () => {
    const root = exampleStore();
    held(root, 'global');
    const service = new Watched(root, { author: async () => 'Tester <t@example.com>' });
    const stdin = new Keys();
    const io = { stdin, stdout: new Screen(), color: false } as unknown as TuiIo;
    const outcome = outcomeOf(runAddForm(io, service, { scope: { kind: 'global' }, initial: { text: 'Keep the audit log' } }));
    await pressUntil(stdin, '\r', () => service.began);
    await settle();
    stdin.write('\u0003');
    const { error } = await outcome;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(130);
    expect(readdirSync(join(root, 'global')).filter((f) => f.endsWith('.yaml'))).toHaveLength(2);
  });

  test('the browser ends at once, cancelled, the invariant kept', async () => {
    const root = exampleStore();
    held(root, 'global');
    const service = new Watched(root);
    const stdin = new Keys();
    const outcome = outcomeOf(runBrowser({ stdin, stdout: new Screen(), color: false } as unknown as TuiIo, service));
    await pressUntil(stdin, 'd', () => service.shown);
    await pressUntil(stdin, 'y', () => service.began);
    await settle();
    stdin.write('\u0003');
    const { error } = await outcome;
    expect(error).toBeInstanceOf(CancelledError);
    expect(existsSync(join(root, `global/${G1}.yaml`))).toBe(true);
  });
});

test('an escape sequence Ink names no key for (a colour in pasted output) ends no screen: pasted, its text goes in the field (the escape character, a control, left out as typed)', async () => {
  const stdin = new Keys();
  const io = { stdin, stdout: new Screen(), color: false } as unknown as TuiIo;
  const rule = { n: 1, file: 'AGENTS.md', line: 3, end_line: 3, whole: true, tags: [], near: [] };
  const plan = {
    files: [],
    projects: [],
    candidates: [{ ...rule, text: 'Use tabs', severity: 'error', scope: { kind: 'global' }, status: 'new' }],
  } as unknown as ImportPlan;
  const outcome = outcomeOf(runImportReview(io, plan));
  for (const keys of ['e', '\u001b[200~ red\u001b[31m text\u001b[201~', '\r', '\u001b[31m', '\r']) {
    await settle();
    stdin.write(keys);
  }
  const { value, error } = await outcome;
  expect(error).toBeUndefined();
  expect((value as { chosen: PlannedCandidate[] }).chosen.map((c) => c.text)).toEqual(['Use tabs red[31m text']);
});

test('a stop signal ends a screen with its own exit code, the interactive actor’s too: 143 for SIGTERM, 129 for SIGHUP, 131 for SIGQUIT', async () => {
  const request: ActorRequest = {
    protocol: 'agents-reconcile/1',
    plan: { id: PLAN, action: null, project: null, goal: 'Upgrade' },
    context: null,
    invariants: [{ id: G1, text: 'Never delete production data', severity: 'error', scope: 'global', tags: [] }],
  };
  const root = exampleStore();
  const screens = [
    ['SIGTERM', (io: TuiIo) => askPerson(request, io)],
    ['SIGHUP', (io: TuiIo) => runAddForm(io, new GatedService(root), { scope: { kind: 'global' } })],
    ['SIGQUIT', (io: TuiIo) => runBrowser(io, new GatedRemoval(root))],
  ] as const;
  const ended: unknown[] = [];
  for (const [signal, open] of screens) {
    const io = { stdin: new Keys(), stdout: new Screen(), color: false } as unknown as TuiIo;
    const outcome = outcomeOf(open(io) as Promise<unknown>);
    await settle();
    process.emit(signal, signal);
    const { error } = await outcome;
    ended.push([signal, error instanceof CancelledError, (error as CancelledError).exitCode, (error as CancelledError).code]);
  }
  expect(ended).toEqual([
    ['SIGTERM', true, 143, 'cancelled'],
    ['SIGHUP', true, 129, 'cancelled'],
    ['SIGQUIT', true, 131, 'cancelled'],
  ]);
});
