// callers of a self-time function name: node callers.mjs prof.cpuprofile writev
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = new Map(); for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const stacks = new Map();
for (const [id, t] of dt) { const cf = byId.get(id).callFrame; if (cf.functionName !== process.argv[3]) continue;
  const chain = []; for (let cur = parent.get(id); cur !== undefined && chain.length < Number(process.argv[4] ?? 8); cur = parent.get(cur)) { const c = byId.get(cur).callFrame; chain.push(`${c.functionName || '(anon)'}@${c.url.split('/').slice(-1)[0]}:${c.lineNumber}`); }
  const k = chain.join(' < '); stacks.set(k, (stacks.get(k) ?? 0) + t); }
for (const [k, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((t / 1e6).toFixed(2), k);
