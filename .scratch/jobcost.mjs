// Which rendered files go through prettier, and what each costs (warm, sequential, 2 passes, 2nd timed).
import { buildOutputs } from '../dist/pipeline.js';
import { formatJob } from '../dist/format/prettier.js';
const spec = process.argv[2];
const jobs = [];
const paths = new Map();
const memo = { lookup(job) { jobs.push(job); }, keep() {}, endRun() {} };
const out = await buildOutputs({ spec, formatMemo: memo, lint: false });
// map job text back to file: by containment in output contents is costly; keep order instead
for (const j of jobs.slice(0, 40)) await formatJob(j);
const rows = [];
let total = 0;
for (const j of jobs) {
  const t = performance.now();
  const formatted = await formatJob(j);
  const ms = performance.now() - t;
  total += ms;
  rows.push({ ms, bytes: j.text.length, head: j.text.slice(j.text.indexOf('\n') + 1, j.text.indexOf('\n') + 120).replace(/\n/g, '⏎'), same: formatted === j.text });
}
console.log('jobs', jobs.length, 'total ms', Math.round(total), 'already in form', rows.filter((r) => r.same).length);
const groups = new Map();
for (const r of rows) { const k = r.head.slice(0, 100); const g = groups.get(k) ?? { ms: 0, n: 0, bytes: 0 }; g.ms += r.ms; g.n++; g.bytes += r.bytes; groups.set(k, g); }
for (const [k, g] of [...groups].sort((a, b) => b[1].ms - a[1].ms).slice(0, +(process.argv[3] ?? 30))) console.log(String(Math.round(g.ms)).padStart(7), String(g.n).padStart(5), String(g.bytes).padStart(9), k);
