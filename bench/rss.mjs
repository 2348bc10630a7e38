// Preloaded (node --import) into a measured process when /usr/bin/time is not
// available: writes the process's peak resident set size, in KiB, to the file
// named by BENCH_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    // resourceUsage().maxRSS is in KiB, like getrusage(2).
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
