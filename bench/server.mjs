#!/usr/bin/env node
// Benchmark: the generated bookshop service under load (autocannon), beside a
// bare Koa app that answers the same JSON with none of the conventions.
//
//   node bench/server.mjs [--runs N] [--duration S] [--connections C] [--json]   (or: npm run bench:server)
//
// Each server runs in its own process; autocannon drives it from this one.
// Runs alternate between the two servers, so a slow moment of the machine
// falls on both. Reported: requests per second (median of the runs) as a
// ratio to bare Koa, and p99 latency.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEC = join(ROOT, 'examples/bookshop/openapi.yaml');
const TARGET_RATIO = 0.6;
const TOKEN = 'bench-token';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log('Usage: node bench/server.mjs [--runs N] [--duration S] [--connections C] [--json]');
  process.exit(0);
}
const RUNS = positive('runs');
const DURATION = positive('duration');
const CONNECTIONS = positive('connections');

function positive(name) {
  const value = Number(flags[name]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:server: --${name} must be a positive integer, not "${flags[name]}"`);
    process.exit(1);
  }
  return value;
}

const log = (text) => process.stderr.write(text);
const scratch = mkdtempSync(join(tmpdir(), 'specforge-bench-server-'));
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

// ── the generated service ───────────────────────────────────────────────────
log('Generating and building the bookshop service… ');
const project = join(scratch, 'bookshop');
execFileSync(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'generate', SPEC, '--out', project, '--quiet'], { stdio: 'inherit' });
symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { stdio: 'inherit' });
log('done\n');

function start(command, cwd, env) {
  const child = spawn(process.execPath, command, { cwd, env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

// All conventions on: auth, rate limiting (with a budget no run can spend), validation, envelope, ETag.
const service = await start(['dist/main.js'], project, { API_TOKENS: `${TOKEN}:catalog:write`, RATE_LIMIT: String(1e9), CURSOR_SECRET: 'bench' });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const post = async (path, body) => {
  const response = await fetch(`${service}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
};
const author = await post('/authors', { name: 'Chimamanda Ngozi Adichie', country: 'NG' });
let book;
for (let n = 0; n < 40; n++) {
  book = await post(`/authors/${author.id}/books`, { title: `Book ${n}`, isbn: `97800000000${String(n).padStart(2, '0')}`, genre: 'fiction', pages: 100 + n, in_print: true });
}
const paths = {
  'GET by id': `/api/v1/authors/${author.id}/books/${book.id}`,
  'list page (20 items)': `/api/v1/authors/${author.id}/books?limit=20`,
};

// ── bare Koa, answering what the service answered ───────────────────────────
const canned = {};
for (const [name, path] of Object.entries(paths)) canned[name] = await (await fetch(`${service}${path}`, { headers })).text();
const bareScript = join(project, 'bare.mjs'); // beside node_modules, to import koa
writeFileSync(
  bareScript,
  `import Koa from 'koa';
const canned = ${JSON.stringify(Object.fromEntries(Object.entries(paths).map(([name, path]) => [path.split('?')[0], canned[name]])))};
const app = new Koa();
app.use((ctx) => { ctx.type = 'application/json'; ctx.body = canned[ctx.path]; });
const server = app.listen(Number(process.env.PORT), process.env.HOST, () => console.log('listening on http://127.0.0.1:' + server.address().port));
`,
);
const bare = await start([bareScript], project, {});

// ── load ─────────────────────────────────────────────────────────────────────
function load(origin, path) {
  return autocannon({ url: `${origin}${path}`, connections: CONNECTIONS, duration: DURATION, headers });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = [];
log(`${RUNS} runs of ${DURATION} s, ${CONNECTIONS} connections, ${cpus().length} cores (servers and load generator share them)\n`);
for (const [name, path] of Object.entries(paths)) {
  const runs = { service: [], bare: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const [label, origin] of [['bare', bare], ['service', service]]) {
      const result = await load(origin, path);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      runs[label].push({ rps: result.requests.average, p99: result.latency.p99 });
      log('.');
    }
  }
  const row = {
    scenario: name,
    serviceRps: median(runs.service.map((r) => r.rps)),
    bareRps: median(runs.bare.map((r) => r.rps)),
    serviceP99Ms: median(runs.service.map((r) => r.p99)),
    bareP99Ms: median(runs.bare.map((r) => r.p99)),
  };
  row.ratio = row.serviceRps / row.bareRps;
  results.push(row);
}
log('\n');

if (flags.json) console.log(JSON.stringify(results, null, 2));
else {
  console.log('| scenario | generated service | bare Koa | ratio | p99 service | p99 bare |');
  console.log('|---|---|---|---|---|---|');
  for (const row of results) {
    console.log(`| ${row.scenario} | ${row.serviceRps.toFixed(0)} req/s | ${row.bareRps.toFixed(0)} req/s | ${row.ratio.toFixed(2)} | ${row.serviceP99Ms} ms | ${row.bareP99Ms} ms |`);
  }
}
// A measurement, not a test: missing the target is reported, not an error (as in bench/generate.mjs).
const byId = results[0];
log(`${byId.ratio >= TARGET_RATIO ? '✔' : '✘'} GET by id at ${byId.ratio.toFixed(2)} of bare Koa (target ≥ ${TARGET_RATIO})\n`);
