#!/usr/bin/env node
// The generated client's size in a browser bundle: esbuild (minified, ES2022)
// then gzip, for the runtime alone and for the whole bookshop client.
//
//   node bench/client-size.mjs        (or: npm run bench:client)
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENT = join(ROOT, 'examples/bookshop/generated/src/client');

async function size(entry) {
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

const rows = [
  ['runtime (src/client/runtime.ts)', await size(join(CLIENT, 'runtime.ts'))],
  ['bookshop client (index.ts + runtime, 23 operations)', await size(join(CLIENT, 'index.ts'))],
];
console.log('| bundle | minified | minified + gzip |');
console.log('|---|---|---|');
for (const [name, { minified, gzipped }] of rows) console.log(`| ${name} | ${(minified / 1000).toFixed(1)} kB | ${(gzipped / 1000).toFixed(2)} kB |`);
