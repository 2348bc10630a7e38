// How cheap the near-duplicate check is (docs/performance.md): the pure
// function validate runs over every active invariant, on the benchmark's
// texts at 100,000 invariants (plus planted near-duplicates), without IO.
// Usage: node bench/near-duplicates.mjs [size] (after `npm run build`).
import { performance } from 'node:perf_hooks';
import { looseKey, nearKind, nearPairs } from '../dist/index.js';
import { prng, sentence } from './store.mjs';

const size = Number(process.argv[2] ?? 100_000);
const rand = prng(7);
const texts = Array.from({ length: size }, (_, n) => sentence(rand, n));
// One in a thousand gets a twin: a full stop added, or one letter dropped.
const planted = Math.floor(size / 1000);
for (let i = 0; i < planted; i++) {
  const t = texts[(i * 997) % size];
  texts.push(i % 2 === 0 ? `${t}.` : t.replace(/([a-z])([a-z])/, '$1'));
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const runs = [];
const cpuRuns = [];
let found = 0;
for (let run = 0; run < 5; run++) {
  const start = performance.now();
  const startCpu = cpu();
  const keys = texts.map(looseKey);
  const pairs = nearPairs(keys);
  found = pairs.filter(([i, j]) => nearKind({ text: texts[i], loose: keys[i] }, { text: texts[j], loose: keys[j] })).length;
  runs.push(performance.now() - start);
  cpuRuns.push(cpu() - startCpu);
}
runs.sort((a, b) => a - b);
cpuRuns.sort((a, b) => a - b);
const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
console.log(
  `${texts.length} texts: median ${runs[2].toFixed(0)} ms wall, ${cpuRuns[2].toFixed(0)} ms CPU (min ${runs[0].toFixed(0)}, max ${runs[4].toFixed(0)}), ${found} near-duplicate pairs (${planted} planted), rss ${rss} MiB`,
);
