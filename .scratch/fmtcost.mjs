// Cost of prettier per output file (formatting the formatted output ≈ formatting the rendered one).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as prettier from 'prettier';
const root = process.argv[2];
const opts = { singleQuote: true, trailingComma: 'all', printWidth: 100, semi: true, arrowParens: 'always', bracketSpacing: true };
const files = [];
const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (n === 'node_modules') continue; statSync(p).isDirectory() ? walk(p) : files.push(p); } };
walk(root);
const groups = new Map();
let total = 0;
for (const f of files) {
  if (!/\.ts$/.test(f) || /types\.ts$/.test(f)) continue;
  const text = readFileSync(f, 'utf8');
  const t = performance.now();
  await prettier.format(text, { ...opts, parser: 'typescript' });
  const ms = performance.now() - t;
  total += ms;
  const rel = relative(root, f);
  const key = rel.replace(/\/[^/]*$/, '/*') ;
  const g = groups.get(key) ?? { ms: 0, n: 0, bytes: 0 };
  g.ms += ms; g.n++; g.bytes += text.length; groups.set(key, g);
}
console.log('total ms', Math.round(total));
for (const [k, g] of [...groups].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) console.log(String(Math.round(g.ms)).padStart(7), String(g.n).padStart(5), String(g.bytes).padStart(9), k);
