// `node --import ./record-loads.mjs …` appends the URL of every ES module loaded to $AGENTS_LOAD_LOG.
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url);
