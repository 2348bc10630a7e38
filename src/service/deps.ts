import { monotonicFactory } from 'ulid';

/** What use cases take from the outside world; tests pass their own. */
export interface ServiceDeps {
  /** Current time. */
  clock: () => Date;
  /** A new ULID, monotonic within the process. */
  newId: () => string;
  /** "Name <email>" of the person acting, when known. */
  author: (cwd: string) => Promise<string | undefined>;
  /** Told about recoverable events (a stale lock cleared). */
  notice: (message: string) => void;
}

export function defaultDeps(overrides: Partial<ServiceDeps> = {}): ServiceDeps {
  const ulid = monotonicFactory();
  return {
    clock: () => new Date(),
    newId: () => ulid(),
    author: async (cwd) => (await import('../git/identity.ts')).gitAuthor(cwd),
    notice: () => {},
    ...overrides,
  };
}
