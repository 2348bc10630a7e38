import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The environment and working folder of one run of the tool: those of the
 * process, unless a caller runs the CLI in its own process with others (the
 * CLI's `main` takes them as arguments; see
 * docs/adr/0080-run-environment-through-the-run.md). Code below the
 * CLI that needs a variable (git's environment, the lock wait, the
 * store-ownership checks) reads it here, never from `process.env` directly.
 */
export interface RunEnvironment {
  env: Record<string, string | undefined>;
  cwd: string;
}

const current = new AsyncLocalStorage<RunEnvironment>();

/**
 * Runs `fn` (and everything it starts, synchronously or not) with `run` as its environment.
 * A run whose environment is the process's own (the `agents` command) needs no storage: the
 * readers below fall back to the process. Entering one would switch on Node's promise hooks
 * for the whole run, a cost a short command would feel (docs/adr/0080-run-environment-through-the-run.md).
 */
export function withRunEnvironment<T>(run: RunEnvironment, fn: () => T): T {
  if (current.getStore() === undefined && run.env === process.env && run.cwd === process.cwd()) return fn();
  return current.run(run, fn);
}

/** The variables of the current run: the process's outside a run. */
export function runEnv(): Record<string, string | undefined> {
  return current.getStore()?.env ?? process.env;
}

/** The folder the current run was started in: the process's outside a run. */
export function runCwd(): string {
  return current.getStore()?.cwd ?? process.cwd();
}
