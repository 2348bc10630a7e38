// Merges Stryker incremental reports of runs over groups of files into one
// (docs/mutation.md, "Measuring in groups"), and prints the score of each
// file and of the whole:
//
//   node scripts/merge-mutation-reports.mjs [--retest-missed] [--tests-now] OUT.json IN.json…
//
// Give each file's latest run: a file measured in several inputs (in line
// ranges, say) gets the union of their mutants, the later result for a
// mutant measured twice. Test ids are numbers local to each report, so every test is
// renamed by its file and name, and each mutant's coveredBy and killedBy
// follow. With OUT as reports/mutation/incremental.json, `npm run mutate`
// then tests again only the mutants whose code or covering tests changed
// since the run each came from.
//
// A file whose code differs between two inputs keeps only the later input's
// mutants (said on stderr). --retest-missed leaves the survived and unreached
// mutants out of OUT, so the next run tests them again: Stryker reuses a
// survivor as long as no test covering it changed, and never re-tests a
// static survivor for a new test. --tests-now records each test file as it is
// on disk today, so that the next run does not test again every mutant a
// since-edited test file covers; use it only when tests were added or
// tightened since the runs, never weakened: a kill is then reused as long
// as the killing test still exists.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const unknown = [...flags].filter((f) => f !== '--retest-missed' && f !== '--tests-now');
const [out, ...inputs] = args.filter((a) => !a.startsWith('--'));
if (!out || inputs.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) process.stderr.write(`unknown option ${unknown.join(', ')}\n`);
  process.stderr.write('usage: node scripts/merge-mutation-reports.mjs [--retest-missed] [--tests-now] OUT.json IN.json…\n');
  process.exit(2);
}

const mutantKey = (m) => {
  const { start, end } = m.location;
  return `${m.mutatorName}\n${m.replacement}\n${start.line}:${start.column}-${end.line}:${end.column}`;
};
const ids = new Map(); // `${testFile}\n${name}` → the merged report's id
const testFiles = {};
const files = {};
let base;
for (const input of inputs) {
  let report;
  try {
    report = JSON.parse(readFileSync(input, 'utf8'));
  } catch (error) {
    process.stderr.write(`${input}: not a Stryker report (${error.message})\n`);
    process.exit(2);
  }
  const shaped =
    typeof report.files === 'object' &&
    report.files !== null &&
    !Array.isArray(report.files) &&
    Object.values(report.files).every((f) => Array.isArray(f?.mutants));
  if (!shaped) {
    process.stderr.write(`${input}: not a Stryker report (no "files" with mutants)\n`);
    process.exit(2);
  }
  base ??= report;
  const local = new Map();
  for (const [file, tf] of Object.entries(report.testFiles ?? {})) {
    const merged = (testFiles[file] ??= { tests: [] });
    if (tf.source !== undefined) merged.source = tf.source;
    for (const test of tf.tests) {
      const key = `${file}\n${test.name}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = String(ids.size);
        ids.set(key, id);
        merged.tests.push({ ...test, id });
      }
      local.set(test.id, id);
    }
  }
  const rename = (list) => list?.map((t) => local.get(t)).filter((t) => t !== undefined);
  for (const [file, result] of Object.entries(report.files)) {
    // A file measured in line ranges (`--mutate file:1-400`) comes from several inputs: the union of their
    // mutants; a mutant (same mutator, replacement and place) measured twice keeps the later result.
    const earlier = files[file];
    const sameCode = earlier === undefined || earlier.source === result.source;
    if (!sameCode) process.stderr.write(`${file}: measured on other code before ${input}; only ${input}'s results are kept\n`);
    const mutants = new Map((sameCode ? (earlier?.mutants ?? []) : []).map((m) => [mutantKey(m), m]));
    for (const m of result.mutants) mutants.set(mutantKey(m), { ...m, coveredBy: rename(m.coveredBy), killedBy: rename(m.killedBy) });
    files[file] = { ...result, mutants: [...mutants.values()] };
  }
}
const missed = (m) => m.status === 'Survived' || m.status === 'NoCoverage';
const written = flags.has('--retest-missed')
  ? Object.fromEntries(Object.entries(files).map(([file, r]) => [file, { ...r, mutants: r.mutants.filter((m) => !missed(m)) }]))
  : files;
if (flags.has('--tests-now')) {
  for (const [file, tf] of Object.entries(testFiles)) if (existsSync(file)) tf.source = readFileSync(file, 'utf8');
}
writeFileSync(out, JSON.stringify({ ...base, files: written, testFiles }));

// Score = killed or timed out / all but ignored and compile errors (unreached mutants count as missed).
const score = (mutants) => {
  const counted = mutants.filter((m) => !['Ignored', 'CompileError', 'RuntimeError'].includes(m.status));
  const caught = counted.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  return { caught, total: counted.length, pct: counted.length === 0 ? 100 : (100 * caught) / counted.length };
};
const rows = Object.entries(files)
  .map(([file, r]) => [file, score(r.mutants)])
  .sort(([a], [b]) => (a < b ? -1 : 1));
for (const [file, s] of rows)
  process.stdout.write(`${s.pct.toFixed(2).padStart(7)}%  ${String(s.caught).padStart(5)} of ${String(s.total).padEnd(5)} ${file}\n`);
const all = score(Object.values(files).flatMap((r) => r.mutants));
process.stdout.write(
  `${all.pct.toFixed(2).padStart(7)}%  ${String(all.caught).padStart(5)} of ${String(all.total).padEnd(5)} all ${rows.length} files\n`,
);
