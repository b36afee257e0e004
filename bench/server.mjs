#!/usr/bin/env node
// Benchmark: the generated bookshop service with its memory store beside bare
// Koa answering the same JSON, then on PostgreSQL under load
// (autocannon), beside a hand-written Koa handler that runs the same SQL
// through the same driver (`pg`, a pool of the same size), and beside bare Koa
// answering canned JSON. Then a list page's p99 with 1,000,000 rows in the
// table, and the cold start on the embedded PGlite.
//
//   node bench/server.mjs [--runs N] [--duration S] [--connections C] [--rows R] [--processes P] [--json]   (or: npm run bench:server)
//
// PostgreSQL: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
// the bench creates a database of its own and drops it at the end.
// Each server runs in its own process; autocannon drives it from this one.
// Runs alternate between the servers, so a slow moment of the machine falls on
// all. Reported: requests per second (median of the runs) as a ratio to the
// hand-written handler, and p99 latency; on Linux also each server process's
// CPU time per request (user and system, all its threads, from /proc), which
// a machine shared with others moves less than requests per second.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEC = join(ROOT, 'examples/bookshop/openapi.yaml');
const TARGET_RATIO = 0.8;
const TOKEN = 'bench-token';
const POOL_SIZE = 10;
const WARM_UP_SECONDS = 2;

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    rows: { type: 'string', default: '1000000' },
    only: { type: 'string', default: 'memory,sql' },
    json: { type: 'boolean', default: false },
    unpinned: { type: 'boolean', default: false },
    processes: { type: 'string', default: '3' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log('Usage: node bench/server.mjs [--runs N] [--duration S] [--connections C] [--rows R] [--only memory,sql] [--processes P] [--unpinned] [--json]');
  process.exit(0);
}
const RUNS = positive('runs');
const DURATION = positive('duration');
const CONNECTIONS = positive('connections');
const ROWS = positive('rows');
const PROCESSES = positive('processes');
const ONLY = new Set(flags.only.split(','));
if ([...ONLY].some((store) => store !== 'memory' && store !== 'sql')) {
  console.error(`bench:server: --only takes memory, sql or both, not "${flags.only}"`);
  process.exit(1);
}

function positive(name) {
  const value = Number(flags[name]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:server: --${name} must be a positive integer, not "${flags[name]}"`);
    process.exit(1);
  }
  return value;
}

const log = (text) => process.stderr.write(text);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const scratch = mkdtempSync(join(tmpdir(), 'specforge-bench-server-'));
const children = [];
let dropDatabase = async () => {};
async function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  await dropDatabase().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
process.on('SIGINT', () => cleanUp().finally(() => process.exit(130)));

// ── the generated service ───────────────────────────────────────────────────
log('Generating and building the bookshop service… ');
const project = join(scratch, 'bookshop');
execFileSync(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'generate', SPEC, '--out', project, '--quiet'], { stdio: 'inherit' });
symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { stdio: 'inherit' });
log('done\n');

/** Each server's process id, by its origin: its CPU time is read around each run. */
const processOf = new Map();

/** The process's CPU time so far, in milliseconds (user and system, every thread); undefined where /proc is not. */
function cpuMs(pid) {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in ticks of 10 ms.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The memory store's servers on the last core, the load generator (this
 * process) on the others, on Linux with `taskset` and 2 cores or more. Why:
 * unpinned, a server waits whenever the scheduler puts it on the core the
 * load generator is busy on: two copies of one build measured 4% apart in
 * one run unpinned, 0.02% pinned. (PostgreSQL's scenarios stay
 * unpinned: the database needs the cores too.) `--unpinned` turns it off.
 */
const SERVER_CORE = !flags.unpinned && process.platform === 'linux' && cpus().length >= 2 && hasTaskset() ? cpus().length - 1 : undefined;

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Moves every thread of this process to the given cores (`0-2`). */
function pinSelf(cores) {
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
}

/** Starts a server process (on `core`, when given); resolves with its origin once it prints that it listens. */
function start(command, env, { cwd = project, core } = {}) {
  // taskset runs the server in its own process (exec): the pid, and so the CPU time read from /proc, are the server's.
  const [program, args] = core === undefined ? [process.execPath, command] : ['taskset', ['-c', String(core), process.execPath, ...command]];
  const child = spawn(program, args, { cwd, env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (!match) return;
      // The access lines that follow are read and dropped: matching a growing string would flatten it on every chunk.
      child.stdout.off('data', onData).resume();
      processOf.set(match[1], child.pid);
      resolve({ origin: match[1], child });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

const stop = (server) => new Promise((done) => (server.child.exitCode !== null ? done() : (server.child.once('exit', done), server.child.kill('SIGTERM'))));

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const GENRES = ['fiction', 'poetry', 'history', 'science'];

async function postTo(origin, path, body) {
  const response = await fetch(`${origin}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
}

/** An author with 40 books, through the API; the two paths the bench loads. */
async function seed(origin) {
  const author = await postTo(origin, '/authors', { name: 'Chimamanda Ngozi Adichie', country: 'NG' });
  let book;
  for (let n = 0; n < 40; n++) {
    book = await postTo(origin, `/authors/${author.id}/books`, { title: `Book ${n}`, isbn: `97800000000${String(n).padStart(2, '0')}`, genre: GENRES[n % 2], pages: 100 + n, in_print: true });
  }
  const paths = {
    'GET by id': `/api/v1/authors/${author.id}/books/${book.id}`,
    'list page (20 items, filtered, sorted)': `/api/v1/authors/${author.id}/books?genre=fiction&sort=-pages&limit=20`,
  };
  return { author, paths };
}

/** Bare Koa answering, from memory, the JSON text the service answered on each path. */
async function bareKoa(service, paths, name, options = {}) {
  const canned = {};
  for (const path of Object.values(paths)) canned[path.split('?')[0]] = await (await fetch(`${service}${path}`, { headers })).text();
  const script = join(project, name);
  writeFileSync(
    script,
    `import Koa from 'koa';
  const canned = ${JSON.stringify(canned)};
  const app = new Koa();
  app.use((ctx) => { ctx.type = 'application/json'; ctx.body = canned[ctx.path]; });
  const server = app.listen(Number(process.env.PORT), process.env.HOST, () => console.log('listening on http://127.0.0.1:' + server.address().port));
  `,
  );
  return (await start([script], {}, options)).origin;
}

function load({ origin, path }) {
  return autocannon({ url: `${origin}${path}`, connections: CONNECTIONS, duration: DURATION, headers });
}

/** One server process and the path it is loaded on. */
const target = (origin, path) => ({ origin, path });

/**
 * Alternating runs of each server, on each of its processes (`targets`: a
 * list per server): medians over every run of every process, of requests per
 * second, p99 and CPU per request.
 */
async function compare(targets) {
  const runs = Object.fromEntries(Object.keys(targets).map((label) => [label, []]));
  // Untimed first: each server's code is compiled by V8's optimizing tiers before it is measured
  // (a service runs far more code than bare Koa, and would otherwise pay for its warm-up in the first run).
  for (const { origin, path } of Object.values(targets).flat()) await autocannon({ url: `${origin}${path}`, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  for (let run = 0; run < RUNS; run++) {
    for (const [label, processes] of Object.entries(targets)) {
      for (const server of processes) {
        const before = cpuMs(processOf.get(server.origin));
        const result = await load(server);
        const after = cpuMs(processOf.get(server.origin));
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label} ${server.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const cpuUs = before === undefined || after === undefined ? undefined : ((after - before) * 1000) / result.requests.total;
        runs[label].push({ rps: result.requests.average, p99: result.latency.p99, cpuUs });
        log('.');
      }
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([label, values]) => {
      const cpu = values.map((r) => r.cpuUs);
      return [label, { rps: median(values.map((r) => r.rps)), p99Ms: median(values.map((r) => r.p99)), cpuUsPerRequest: cpu.includes(undefined) ? undefined : median(cpu) }];
    }),
  );
}

// All conventions on: auth, rate limiting (with a budget no run can spend), validation, envelope, ETag.
const conventionsEnv = { API_TOKENS: `${TOKEN}:catalog:write`, RATE_LIMIT: String(1e9), CURSOR_SECRET: 'bench' };

// ── the memory store beside bare Koa ─────────────────────────────────────────
const memoryThroughput = [];
async function measureMemory() {
  const pinned = SERVER_CORE === undefined ? {} : { core: SERVER_CORE };
  if (SERVER_CORE !== undefined) pinSelf(`0-${SERVER_CORE - 1}`);
  // Several processes of each server: each process draws its own speed (memory placement, V8's
  // choices), and one process of the same build measured 0.22 to 0.38 of bare Koa in one run.
  const services = [];
  for (let n = 0; n < PROCESSES; n++) {
    const service = await start(['dist/main.js'], { ...conventionsEnv, STORE: 'memory' }, pinned);
    services.push({ ...service, paths: (await seed(service.origin)).paths });
  }
  const { origin: first, paths } = services[0];
  const bares = [];
  for (let n = 0; n < PROCESSES; n++) bares.push(await bareKoa(first, paths, 'bare-memory.mjs', pinned));
  const placement = SERVER_CORE === undefined ? 'unpinned' : `servers on core ${SERVER_CORE}, load generator on the other${SERVER_CORE > 1 ? 's' : ''}`;
  log(`Memory store: ${RUNS} runs of ${DURATION} s on each of ${PROCESSES} processes per server, ${CONNECTIONS} connections, ${cpus().length} cores (${placement}) `);
  for (const scenario of Object.keys(paths)) {
    const measured = await compare({
      service: services.map((service) => target(service.origin, service.paths[scenario])),
      bare: bares.map((origin) => target(origin, paths[scenario])),
    });
    memoryThroughput.push({ scenario, ...measured, ratioToBare: measured.service.rps / measured.bare.rps });
  }
  log('\n');
  await Promise.all(services.map(stop));
  if (SERVER_CORE !== undefined) pinSelf(`0-${SERVER_CORE}`);
}
const MEMORY_TARGETS = { 'GET by id': 0.6, 'list page (20 items, filtered, sorted)': 0.4 };

// ── a database of the bench's own ───────────────────────────────────────────
const adminUrl = process.env.DATABASE_URL && !process.env.DATABASE_URL.startsWith('memory:') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `specforge_bench_${process.pid}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
async function admin(statement) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
try {
  if (ONLY.has('memory')) await measureMemory();
  report(ONLY.has('sql') ? await measureSql() : undefined);
} finally {
  await cleanUp();
}

async function measureSql() {
  await admin(`create database ${databaseName}`);
  dropDatabase = () => admin(`drop database if exists ${databaseName} with (force)`);
  execFileSync(process.execPath, ['dist/migrate.js'], { cwd: project, env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'ignore', 'inherit'] });

  const serviceEnv = { ...conventionsEnv, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(POOL_SIZE) };
  const service = (await start(['dist/main.js'], serviceEnv)).origin;
  const post = (path, body) => postTo(service, path, body);
  const { author, paths } = await seed(service);

  // ── the hand-written handler: the service's SQL, the same driver and pool ───
  // The statements are the store's (src/store/sql.ts) for these two requests.
  const handwritten = join(project, 'handwritten.mjs'); // beside node_modules, to import koa and pg
  writeFileSync(
    handwritten,
    `import Koa from 'koa';
  import pg from 'pg';
  pg.types.setTypeParser(20, Number);
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: ${POOL_SIZE} });
  const UUID = /^[0-9a-f-]{36}$/;
  /** The row as the API shows a book. */
  function present(row) {
    const attributes = {};
    for (const [column, value] of Object.entries(row)) {
      if (column.startsWith('_') || column === 'id' || value === null) continue;
      attributes[column] = value instanceof Date ? value.toISOString() : value;
    }
    return { id: row.id, type: 'books', attributes: { ...attributes, ...(row._extra ?? {}) } };
  }
  const app = new Koa();
  app.use(async (ctx) => {
    const [, authorId, bookId] = /^\\/api\\/v1\\/authors\\/([^/]+)\\/books(?:\\/([^/]+))?$/.exec(ctx.path) ?? [];
    if (!authorId || !UUID.test(authorId)) return;
    if (bookId) {
      const { rows } = await pool.query('select * from "authors_books" where "author_id" = $1 and "id" = $2 limit 1', [authorId, bookId]);
      if (rows.length === 0) return;
      ctx.body = { data: present(rows[0]) };
      return;
    }
    const parent = await pool.query('select * from "authors" where "id" = $1 limit 1', [authorId]);
    if (parent.rows.length === 0) return;
    const limit = Number(ctx.query.limit ?? 20);
    const { rows } = await pool.query(
      'select * from "authors_books" where "author_id" = $1 and "genre" = $2 order by "pages" desc nulls last, "_seq" asc limit $3',
      [authorId, ctx.query.genre, limit + 1],
    );
    ctx.body = { data: rows.slice(0, limit).map(present), meta: {}, pagination: { cursor: rows.length > limit ? 'next' : null, has_more: rows.length > limit } };
  });
  const server = app.listen(Number(process.env.PORT), process.env.HOST, () => console.log('listening on http://127.0.0.1:' + server.address().port));
  `,
  );
  const byHand = (await start([handwritten], { DATABASE_URL: databaseUrl })).origin;


  // The hand-written handler answers the same items: the comparison is of equal work.
  for (const [name, path] of Object.entries(paths)) {
    const [ours, theirs] = await Promise.all([service, byHand].map(async (origin) => (await (await fetch(`${origin}${path}`, { headers })).json()).data));
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error(`${name}: the hand-written handler answers other data:\n${JSON.stringify(ours)}\n${JSON.stringify(theirs)}`);
  }

  // ── bare Koa, answering what the service answered ───────────────────────────
  const bare = await bareKoa(service, paths, 'bare-sql.mjs');

  // ── load ─────────────────────────────────────────────────────────────────────
  log(`${RUNS} runs of ${DURATION} s, ${CONNECTIONS} connections, ${cpus().length} cores (servers, PostgreSQL and load generator share them)\n`);
  const throughput = [];
  for (const [scenario, path] of Object.entries(paths)) {
    const measured = await compare({ service: [target(service, path)], byHand: [target(byHand, path)], bare: [target(bare, path)] });
    throughput.push({ scenario, ...measured, ratio: measured.service.rps / measured.byHand.rps, ratioToBare: measured.service.rps / measured.bare.rps });
  }
  log('\n');

  // ── a list page with 1,000,000 rows in the table ────────────────────────────
  log(`Writing ${ROWS.toLocaleString('en')} books under one author… `);
  const crowded = await post('/authors', { name: 'Prolific', country: 'GB' });
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {}); // the drop at the end ends its connection
  await client.connect();
  await client.query(
    `insert into "authors_books" (id, author_id, title, isbn, genre, pages, in_print, created_at, updated_at)
     select gen_random_uuid(), $1, 'Book ' || n, lpad(n::text, 13, '0'), ($2::text[])[1 + n % ${GENRES.length}], 50 + (n::bigint * 7919) % 1000, n % 3 > 0,
            now() - n * interval '1 second', now() - n * interval '1 second'
     from generate_series(1, ${ROWS}) as n`,
    [crowded.id, GENRES],
  );
  await client.query('analyze "authors_books"');
  await client.end();
  log('done\n');
  const crowdedList = `/api/v1/authors/${crowded.id}/books?genre=fiction&sort=-pages&limit=20`;
  const firstPage = await (await fetch(`${service}${crowdedList}`, { headers })).json();
  const walked = `${crowdedList}&cursor=${encodeURIComponent(firstPage.pagination.cursor)}`;
  const million = [];
  for (const [scenario, path] of [['first page', crowdedList], ['second page (cursor)', walked]]) {
    const measured = await compare({ service: [target(service, path)] });
    million.push({ scenario, ...measured.service });
  }
  log('\n');

  // ── cold start on PGlite ────────────────────────────────────────────────────
  /** Milliseconds from spawn to the first answer of GET /authors (200). */
  async function firstAnswer(command, env, path) {
    const started = performance.now();
    const server = await start(command, env);
    const response = await fetch(`${server.origin}${path}`, { headers });
    const elapsed = performance.now() - started;
    await stop(server);
    if (response.status !== 200) throw new Error(`${command.join(' ')}: ${response.status}`);
    return elapsed;
  }
  const coldRuns = { migrate: [], fresh: [], restart: [], bare: [] };
  for (let run = 0; run < Math.max(RUNS, 5); run++) {
    const env = { ...serviceEnv, DATABASE_URL: '', DATA_DIR: join(scratch, `data-${run}`) };
    let started = performance.now();
    execFileSync(process.execPath, ['dist/migrate.js'], { cwd: project, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    coldRuns.migrate.push(performance.now() - started);
    coldRuns.fresh.push(await firstAnswer(['dist/main.js'], env, '/api/v1/authors'));
    coldRuns.restart.push(await firstAnswer(['dist/main.js'], env, '/api/v1/authors'));
    coldRuns.bare.push(await firstAnswer([join(project, 'bare-sql.mjs')], {}, paths['GET by id'].split('?')[0]));
    log('.');
  }
  log('\n');
  const coldStart = Object.fromEntries(Object.entries(coldRuns).map(([name, values]) => [name, median(values)]));

  return { throughput, million, coldStart };
}

function report(sqlResults) {
  if (flags.json) {
    console.log(JSON.stringify({ memory: memoryThroughput, ...sqlResults }, null, 2));
  } else {
    if (memoryThroughput.length > 0) {
      console.log('With the memory store (STORE=memory):');
      console.log('| scenario | generated service | bare Koa (canned JSON) | ratio | p99 service | p99 bare | CPU per request, service | bare | ratio (bare / service) |');
      console.log('|---|---|---|---|---|---|---|---|---|');
      for (const row of memoryThroughput) {
        const cpu = (server) => (server.cpuUsPerRequest === undefined ? 'n/a' : `${server.cpuUsPerRequest.toFixed(0)} µs`);
        const cpuRatio = row.service.cpuUsPerRequest && row.bare.cpuUsPerRequest ? (row.bare.cpuUsPerRequest / row.service.cpuUsPerRequest).toFixed(2) : 'n/a';
        console.log(
          `| ${row.scenario} | ${row.service.rps.toFixed(0)} req/s | ${row.bare.rps.toFixed(0)} req/s | ${row.ratioToBare.toFixed(2)} | ${row.service.p99Ms} ms | ${row.bare.p99Ms} ms | ${cpu(row.service)} | ${cpu(row.bare)} | ${cpuRatio} |`,
        );
      }
    }
    if (sqlResults) reportSql(sqlResults);
  }
  // A measurement, not a test: missing the target is reported, not an error (as in bench/generate.mjs).
  for (const row of memoryThroughput) {
    const target = MEMORY_TARGETS[row.scenario];
    log(`${row.ratioToBare >= target ? '✔' : '✘'} memory store, ${row.scenario} at ${row.ratioToBare.toFixed(2)} of bare Koa (target ≥ ${target})\n`);
  }
  for (const row of sqlResults?.throughput ?? []) log(`${row.ratio >= TARGET_RATIO ? '✔' : '✘'} ${row.scenario} at ${row.ratio.toFixed(2)} of the hand-written handler (target ≥ ${TARGET_RATIO})\n`);
}

function reportSql({ throughput, million, coldStart }) {
    console.log('\nOn PostgreSQL:');
    console.log('| scenario | generated service | hand-written Koa + pg | ratio | bare Koa (canned JSON) | ratio | p99 service | p99 hand-written |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of throughput) {
      console.log(
        `| ${row.scenario} | ${row.service.rps.toFixed(0)} req/s | ${row.byHand.rps.toFixed(0)} req/s | ${row.ratio.toFixed(2)} | ${row.bare.rps.toFixed(0)} req/s | ${row.ratioToBare.toFixed(2)} | ${row.service.p99Ms} ms | ${row.byHand.p99Ms} ms |`,
      );
    }
    console.log(`\nA filtered, sorted list page with ${ROWS.toLocaleString('en')} rows in the table:`);
    console.log('| page | req/s | p99 |');
    console.log('|---|---|---|');
    for (const row of million) console.log(`| ${row.scenario} | ${row.rps.toFixed(0)} | ${row.p99Ms} ms |`);
    console.log('\nCold start on PGlite (spawn to the first answer, medians):');
    console.log(`| npm run migrate (new DATA_DIR) | ${coldStart.migrate.toFixed(0)} ms |`);
    console.log(`| first start | ${coldStart.fresh.toFixed(0)} ms |`);
    console.log(`| restart | ${coldStart.restart.toFixed(0)} ms |`);
    console.log(`| bare Koa, for scale | ${coldStart.bare.toFixed(0)} ms |`);
}
