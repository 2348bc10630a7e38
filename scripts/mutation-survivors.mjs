// Lists the mutants a Stryker report counts as missed (survived or unreached),
// one per line, with the code each one replaces (docs/mutation.md, "Reading the
// survivors"):
//
//   node scripts/mutation-survivors.mjs [REPORT.json] [FILE…]
//
// REPORT defaults to reports/mutation/mutation.json; FILEs (paths as the report
// names them, or their ends, e.g. `checks.ts`) narrow the list.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const reportPath = args[0]?.endsWith('.json') ? args.shift() : 'reports/mutation/mutation.json';
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  process.stderr.write(`${reportPath}: cannot read a Stryker report (${error.message})\n`);
  process.exit(2);
}

const missed = new Set(['Survived', 'NoCoverage']);
const oneLine = (text, max = 70) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

let count = 0;
for (const [file, { source, mutants }] of Object.entries(report.files ?? {}).sort()) {
  if (args.length > 0 && !args.some((wanted) => file === wanted || file.endsWith(`/${wanted}`))) continue;
  // Where each line starts in `source` (lines count from 1).
  const starts = [0, 0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  const startOf = (line) => starts[line];
  const left = mutants
    .filter((m) => missed.has(m.status))
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  for (const m of left) {
    const { start, end } = m.location;
    const original = source.slice(startOf(start.line) + start.column - 1, startOf(end.line) + end.column - 1);
    const unreached = m.status === 'NoCoverage' ? '  (unreached)' : '';
    process.stdout.write(
      `${file}:${start.line}:${start.column}  ${m.mutatorName}  \`${oneLine(original)}\` → \`${oneLine(m.replacement ?? '')}\`${unreached}\n`,
    );
    count++;
  }
}
process.stderr.write(`${count} mutants missed\n`);
