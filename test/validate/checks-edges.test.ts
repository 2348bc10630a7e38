import { describe, expect, it } from 'vitest';
import { validateTree } from '../../src/validate/checks.ts';
import { MemorySource, type Spec } from '../helpers/memory-source.ts';

const ML = '# yaml-language-server: $schema=../schemas/invariant.schema.json\n';
/** A ULID of the global scope, distinct for each n (up to 32^4). */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (n: number) => `01JDQ6X5Z8W4N3B2C1D0E9${[3, 2, 1, 0].map((k) => CROCKFORD[(n >> (5 * k)) & 31]).join('')}`;
const inv = (id: string, text: string) => `${ML}id: ${id}\ntext: ${text}\n`;

describe('validateTree with a progress display', () => {
  it('lets the event loop turn once every 512 files checked, so that Ctrl-C can erase the display', async () => {
    const spec: Record<string, Spec> = {};
    for (let n = 0; n < 600; n++) spec[`global/${ulid(n)}.yaml`] = inv(ulid(n), `Rule number ${n}`);
    // Queued when the second file is checked (reading an in-memory store and checking its files never wait on the event loop).
    let ran = false;
    let ranBy: number | undefined;
    await validateTree(new MemorySource(spec), {
      onProgress: (phase, done) => {
        if (phase !== 'check') return;
        if (done === 2) setImmediate(() => (ran = true));
        if (ran && ranBy === undefined) ranBy = done;
      },
    });
    expect(ranBy).toBe(513);
  });
});
