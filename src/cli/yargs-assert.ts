/**
 * The two assertions yargs asks of Node's `assert` (its ESM platform shim), for
 * the bundles: loading `node:assert` itself would add to every command's
 * start-up (it brings util.inspect and the assertion error's formatting along),
 * and yargs only uses these to catch its own misuse.
 * See docs/adr/0116-yargs-assertions-without-node-assert.md, which has the measure.
 */

export function strictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) throw new Error(message ?? `expected ${String(expected)}, got ${String(actual)}`);
}

export function notStrictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (Object.is(actual, expected)) throw new Error(message ?? `expected a value other than ${String(expected)}`);
}
