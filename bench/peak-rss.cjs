// Preloaded into every measured child with `node --require bench/peak-rss.cjs …`.
// At exit it writes the process's peak resident set size (KiB) and the CPU time
// it used (µs), as JSON, to the file named by BENCH_PEAK_RSS_FILE. Worker
// threads share the process, so their memory is included; and this works the
// same on Linux and macOS, unlike `/usr/bin/time -f %M`.
'use strict';
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_PEAK_RSS_FILE;
// Worker threads (specforge formats on a pool) and any grandchild would run
// this preload too and overwrite the figure with a partial one: hide the
// variable from them.
delete process.env.BENCH_PEAK_RSS_FILE;

if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRSS: usage.maxRSS, cpu: usage.userCPUTime + usage.systemCPUTime }));
  });
}
