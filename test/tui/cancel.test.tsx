import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
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

/** An add that waits, once it has started, until the test lets it write. */
class GatedService extends InvariantService {
  started = false;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  let(): void {
    this.open();
  }
  override async add(...args: Parameters<InvariantService['add']>): Promise<AddResult> {
    this.started = true;
    await this.gate;
    return super.add(...args);
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

/** A removal that waits, once it has started, until the test lets it write. */
class GatedRemoval extends InvariantService {
  shown = false;
  started = false;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  let(): void {
    this.open();
  }
  override async show(...args: Parameters<InvariantService['show']>): ReturnType<InvariantService['show']> {
    const info = await super.show(...args);
    this.shown = true;
    return info;
  }
  override async remove(...args: Parameters<InvariantService['remove']>): ReturnType<InvariantService['remove']> {
    this.started = true;
    await this.gate;
    return super.remove(...args);
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
  expect((value as PlannedCandidate[]).map((c) => c.text)).toEqual(['Use tabs red[31m text']);
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
