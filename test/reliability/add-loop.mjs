// One racing writer for test/reliability/concurrency.test.ts: a process that adds
// invariants to one project, one after another, through the built library (the
// `add` the CLI runs, under the same scope lock), and prints one JSON line per add.
// Usage: node add-loop.mjs STORE PROJECT WORKER COUNT
import { InvariantService } from '../../dist/index.js';

const [store, project, worker, count] = process.argv.slice(2);
const service = InvariantService.open({ store });
let failed = false;
for (let i = 0; i < Number(count); i++) {
  try {
    const { invariant } = await service.add({ scope: { project }, text: `Worker ${worker} rule ${i}: keep the invariant` });
    process.stdout.write(`${JSON.stringify({ id: invariant.id })}\n`);
  } catch (error) {
    process.stderr.write(`add ${i}: ${error instanceof Error ? error.message : String(error)}\n`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
