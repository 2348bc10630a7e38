import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { invariantYaml, testStore } from '../helpers/tmp.ts';

export const G1 = '01M8KJT9G0XNWEM589ZS7FV0VT';
export const G2 = '01M8KJW430VF8WCABSB8RTQ8RY';
export const P1 = '01M8KJXYP0GVPRF8KRRE9G8474';
export const P2 = '01M8KJZS90J6DRJJ8E264B9DFX';
export const A1 = '01M8KK1KW0KPRSWWKENT2QZ1QM';
export const L1 = '01M8KK3EF09G9ET4TAJAHQWPMN';
export const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';

/** The seed's merge example as a store: global 2, project myapp 2 (one hides a global copy), an action, a plan. */
export function exampleStore(): string {
  return testStore({
    [`global/${G1}.yaml`]: invariantYaml(G1, 'Never delete production data', {
      created_at: '2026-11-29T12:00:00Z',
      created_by: 'Example Team <team@example.com>',
    }),
    [`global/${G2}.yaml`]: invariantYaml(G2, 'Log all changes', { tags: '[audit]' }),
    [`projects/myapp/${P1}.yaml`]: invariantYaml(P1, 'All API changes need tests', { rationale: 'Regressions reach clients.' }),
    [`projects/myapp/${P2}.yaml`]: invariantYaml(P2, 'Log all changes', { severity: 'warning' }),
    [`actions/local/code-coverage/${A1}.yaml`]: invariantYaml(A1, 'Minimum 80% coverage'),
    [`plans/${PLAN}/plan.yaml`]: `id: ${PLAN}\nproject: myapp\ngoal: Upgrade the API\n`,
    [`plans/${PLAN}/${L1}.yaml`]: invariantYaml(L1, 'Use Python 3.13 only'),
  });
}

/** A store of `n` global invariants with distinct texts and increasing ids. */
export function bigStore(n: number): string {
  const root = testStore();
  for (let i = 0; i < n; i++) {
    const id = `01M8KK${String(i).padStart(20, '0')}`;
    writeFileSync(join(root, 'global', `${id}.yaml`), invariantYaml(id, `Rule number ${i} of the generated store`));
  }
  return root;
}

/** Waits (bounded) until the frame satisfies `check`. */
export async function frameMatches(lastFrame: () => string | undefined, check: (frame: string) => void): Promise<string> {
  await vi.waitFor(() => check(lastFrame() ?? ''), { timeout: 10_000, interval: 4 });
  // A frame is written on commit; Ink subscribes key handlers in effects that run just after. Let them run.
  await settle();
  return lastFrame() ?? '';
}

export async function frameHas(lastFrame: () => string | undefined, ...texts: string[]): Promise<string> {
  return frameMatches(lastFrame, (f) => {
    for (const t of texts) expect(f).toContain(t);
  });
}

/**
 * Lets React flush pending effects, so the next key reaches the handlers of the frame just seen. React's scheduler runs
 * in macrotask turns and yields after a few milliseconds of work, so on a loaded machine one render and its effects can
 * take several turns: eight cover that, and cost next to nothing when it is idle.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Resizes the terminal of an ink-testing-library render, as a terminal's SIGWINCH does. */
export function resizeTo(stdout: NodeJS.EventEmitter, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/** A terminal in the test's process, as Ink reads one: each key written reaches the screen at once. */
export class Keys extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
  }
  read = (): string | null => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}
