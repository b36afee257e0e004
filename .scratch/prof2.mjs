// Inclusive time per function for the main-thread profile: top entries by total, for our modules and libraries.
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const incl = new Map();
const filter = process.argv[3] ? new RegExp(process.argv[3]) : /dist\//;
for (const [id, t] of dt) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur).callFrame;
    if (!filter.test(cf.url)) continue;
    const key = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*\/dist\//, '')}:${cf.lineNumber}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + t);
  }
}
for (const [k, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 40))) console.log(`${(t / 1e6).toFixed(2).padStart(6)} s  ${k}`);
