// Per-file prettier cost: collect every format job of a run, then time each alone (warm prettier).
import { buildOutputs } from '../dist/pipeline.js';
import { FormatMemo } from '../dist/format/memo.js';
import { formatJob } from '../dist/format/prettier.js';
const spec = process.argv[2];
const jobs = [];
class Spy extends FormatMemo { lookup() { return undefined; } keep(job, formatted) { jobs.push({ job, formatted }); } }
const t0 = performance.now();
const out = await buildOutputs({ spec, formatMemo: new Spy() });
console.error(`build ${(performance.now() - t0).toFixed(0)} ms, ${jobs.length} jobs, ${out.files.length} files`);
for (let i = 0; i < 3; i++) await formatJob(jobs[0].job);
const groupOf = (path) => path.replace(/\/[^/]+\.(ts|json)$/, '/*').replace(/^src\/types\/.*/, 'src/types/*');
const byFile = new Map();
let total = 0;
for (const { job, formatted } of jobs) {
  const probe = formatted.slice(0, 300);
  const file = out.files.find((f) => f.contents.includes(probe));
  const t = performance.now();
  await formatJob(job);
  const ms = performance.now() - t;
  total += ms;
  const key = file ? (process.argv[3] ? file.path : groupOf(file.path)) : '?';
  const entry = byFile.get(key) ?? { ms: 0, n: 0 };
  entry.ms += ms; entry.n++;
  byFile.set(key, entry);
}
console.log(`total ${total.toFixed(0)} ms`);
for (const [k, v] of [...byFile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40)) console.log(`${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(5)}  ${k}`);
