/**
 * Set up for every test file (vitest.config.ts): the file ends once the
 * temporary folders its tests made are removed (test/helpers/tmp.ts), so a
 * run of the suite leaves nothing in the system's temporary folder.
 */
import { afterAll } from 'vitest';
import { removalsDone } from './tmp.ts';

afterAll(() => removalsDone(20_000), 25_000);
