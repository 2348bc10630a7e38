import { inputObject, optionalFunction, refuseArgs } from '../core/input-shape.ts';

/** What use cases take from the outside world; tests pass their own. */
export interface ServiceDeps {
  /** Current time. */
  clock: () => Date;
  /** A new ULID, monotonic within the process; a caller's is checked against the store's ids (new-ids.ts). */
  newId: () => string;
  /** "Name <email>" of the person acting, when known. */
  author: (cwd: string) => Promise<string | undefined>;
  /** Told about recoverable events (a stale lock cleared). */
  notice: (message: string) => void;
}

/**
 * The `deps` a caller gives (`open({ store, deps })`): any of ServiceDeps, whose `author` may answer at once or in a
 * promise, and `null` for none (docs/library.md), as defaultDeps reads it into the ServiceDeps the services hold.
 */
export type ServiceDepsInput = Partial<Omit<ServiceDeps, 'author'>> & {
  author?: (cwd: string) => string | null | undefined | PromiseLike<string | null | undefined>;
};

let nextUlid: (() => string) | undefined;

/**
 * Loads the id generator (the `ulid` package, which imports `node:crypto`).
 * Not at start-up: commands that only read never make ids, and `node:crypto`
 * costs several milliseconds to load. Use cases that make ids await it first
 * (`./ids.ts` does it for modules that always write).
 */
export async function loadIdGenerator(): Promise<void> {
  if (!nextUlid) setIdGenerator((await import('ulid')).monotonicFactory());
}

/** Sets the process's id generator (once; later calls keep the first, so ids stay monotonic). */
export function setIdGenerator(next: () => string): void {
  nextUlid ??= next;
}

/** The process's ids: a new ULID each call, never one made before (ulid's monotonic factory). */
const ulidId = (): string => {
  if (!nextUlid) throw new Error('the id generator is not loaded: await loadIdGenerator() before making ids');
  return nextUlid();
};

/** Whether `deps.newId` is a caller's (open({deps: {newId}})), whose ids may repeat one the store holds. */
export function callersIds(deps: ServiceDeps): boolean {
  return deps.newId !== ulidId;
}

export function defaultDeps(given: ServiceDepsInput = {}): ServiceDeps {
  // From JavaScript (`open({ store, deps })`): a clock that is no function would fail as a TypeError at the first write.
  const checked = inputObject(given, 'deps', { clock: true, newId: true, author: true, notice: true }, 'deps');
  const overrides: Partial<ServiceDeps> = {};
  for (const field of ['clock', 'newId', 'author', 'notice'] as const) {
    const f = optionalFunction(checked[field] as ((...args: never[]) => unknown) | undefined, `deps.${field}`);
    // One left null or undefined keeps the default, as a field left out does.
    if (f !== undefined) Object.assign(overrides, { [field]: f });
  }
  const clock = overrides.clock;
  // What a caller's clock answers is read as a date deep inside (a timestamp, a waiver's expiry): an invalid Date or
  // a string would fail there as a RangeError or TypeError, after the checks of the call's input.
  if (clock !== undefined)
    overrides.clock = () => {
      const now = clock();
      refuseArgs('InvariantService.open', ['deps.clock(): date'], [now]);
      return now;
    };
  // A caller's, as given: wrapped below into the promise of a string or undefined the services await.
  const author = overrides.author as ServiceDepsInput['author'];
  // Its answer is written as created_by: another than a string would be refused there as git's identity, which it is not.
  if (author !== undefined)
    overrides.author = async (cwd) => {
      const who: unknown = await author(cwd);
      refuseArgs('InvariantService.open', ['deps.author(): string?'], [who]);
      return (who as string | null | undefined) ?? undefined;
    };
  return {
    clock: () => new Date(),
    newId: ulidId,
    author: async (cwd) => (await import('../git/identity.ts')).gitAuthor(cwd),
    notice: () => {},
    ...overrides,
  };
}
