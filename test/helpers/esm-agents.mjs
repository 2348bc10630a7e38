// bin/agents.js's routes over the ES module build of the same sources
// (dist/cli.js, dist/direct-main.js): the start-up tests trace which modules
// each command loads through it. bin/agents.js runs the CommonJS bundle, one
// script in which no module boundary shows; both bundles come from the same
// import graph, and esbuild evaluates a module reached only by a dynamic
// import when that import runs, in either format.
import { startsDirectly } from '../../bin/load-bundle.js';

const args = process.argv.slice(2);
let code;
if (startsDirectly(args)) code = await (await import('../../dist/direct-main.js')).directMain(args);
code ??= await (await import('../../dist/cli.js')).main(args);
process.exitCode = code;
