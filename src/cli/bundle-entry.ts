/**
 * What bin/agents.js runs: the parser's `main` and the direct starts, in one
 * CommonJS bundle whose compiled code is kept between runs
 * (docs/adr/0302-cli-bundle-with-code-cache.md).
 */
export { directMain } from './direct-main.ts';
export { main } from './main.ts';
