import { readFileSync, readdirSync } from 'node:fs';
for (const f of readdirSync(process.argv[2])) {
  const p = JSON.parse(readFileSync(`${process.argv[2]}/${f}`, 'utf8'));
  const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const dt = new Map();
  for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  let total = 0;
  const byFile = new Map();
  for (const [id, t] of dt) { const n = byId.get(id); const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber}`; self.set(key, (self.get(key) ?? 0) + t); total += t;
    const file = cf.url.replace(/.*node_modules\//, 'nm:').split('/').slice(0, 2).join('/') || cf.functionName; byFile.set(file, (byFile.get(file) ?? 0) + t); }
  console.log(`== ${f}: ${(total / 1e6).toFixed(2)} s`);
  for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(t / 1e6).toFixed(2).padStart(6)} s  ${k}`);
  console.log('  -- self');
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(t / 1e6).toFixed(2).padStart(6)} s  ${k}`);
}
