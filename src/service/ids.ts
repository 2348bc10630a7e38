// Imported by modules whose use cases all write (and make ids): loads the id
// generator with them, so that their synchronous code can call newId().
import { monotonicFactory } from 'ulid';
import { setIdGenerator } from './deps.ts';

setIdGenerator(monotonicFactory());
