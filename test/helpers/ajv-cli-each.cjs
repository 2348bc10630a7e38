// Runs ajv-cli's command line once for each argument list read as JSON from
// standard input (an array of argv arrays), in this one process: the same
// option parsing, option check and command as `ajv ARGS…`, without a Node.js
// start and an ajv-cli load per schema. Exits 1 when any run fails.
// minimist is ajv-cli's own dependency: taken from where ajv-cli finds it.
const minimist = require(require.resolve('minimist', { paths: [require.resolve('ajv-cli/dist/commands')] }));
const commands = require('ajv-cli/dist/commands').default;
const { checkOptions } = require('ajv-cli/dist/commands/options');

const jobs = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
let ok = true;
for (const args of jobs) {
  const argv = minimist(args);
  const cmd = commands[argv._[0]];
  const errors = checkOptions(cmd.schema, argv);
  if (errors) {
    process.stderr.write(`ajv ${args.join(' ')}: ${errors}\n`);
    ok = false;
  } else if (!cmd.execute(argv)) ok = false;
}
process.exitCode = ok ? 0 : 1;
