// node timeline.mjs <dir> [bucketMs]: per thread, per time bucket, the top file group (absolute ms from the earliest profile start)
import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2]; const B = Number(process.argv[3] ?? 50) * 1000;
const profs = readdirSync(dir).map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')));
const t0 = Math.min(...profs.map((p) => p.startTime));
for (const p of profs) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id) => { // nearest frame from our dist or a package
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) { const u = byId.get(cur).callFrame.url; const fn = byId.get(cur).callFrame.functionName;
      if (u.includes('/dist/') && !u.includes('node_modules')) return 'sf:' + u.replace(/.*\/dist\//, '') + ':' + fn;
      if (u.includes('node_modules')) { const m = u.replace(/.*node_modules\//, '').split('/'); return 'nm:' + (m[0].startsWith('@') ? m[0] + '/' + m[1] : m[0]); } }
    return byId.get(id).callFrame.functionName || '(root)'; };
  const buckets = new Map(); let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) { t += p.timeDeltas[i]; const b = Math.floor((t - t0) / B); const l = label(p.samples[i]); const m = buckets.get(b) ?? new Map(); m.set(l, (m.get(l) ?? 0) + (p.timeDeltas[i + 1] ?? 0)); buckets.set(b, m); }
  console.log(`== thread from ${((p.startTime - t0) / 1000).toFixed(0)} ms to ${((p.endTime - t0) / 1000).toFixed(0)} ms`);
  for (const [b, m] of [...buckets].sort((a, b) => a[0] - b[0])) { const top = [...m].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(' | '); console.log(`${String(b * B / 1000).padStart(6)}  ${top}`); }
}
