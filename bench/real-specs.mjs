#!/usr/bin/env node
// Real-world specs, end to end: for each public spec (devDependencies), what a
// new user sees. Generate it, type-check the output, count its operations by
// kind and those the default service answers 501, then run its own conformance
// suite in-process against the generated service. See bench/README.md.
//
//   node bench/real-specs.mjs [--only NAME[,NAME]] [--suite-timeout SECONDS] [--json]
//   (or: npm run bench:real -- …)
//
// A spec's known faults are patched by the overlay in test/fixtures/real/<name>.overlay.yaml,
// when there is one (specforge --overlay); the spec itself is used as published.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPECFORGE = join(ROOT, 'dist/cli/bin.js');

/** The public specs, as their packages ship them. */
const REAL_SPECS = [
  { name: 'github', package: '@octokit/openapi', file: 'generated/api.github.com.json' },
  { name: 'directus', package: '@directus/specs', file: 'dist/openapi.json' },
  { name: 'blockfrost', package: '@blockfrost/openapi', file: 'openapi.yaml' },
  { name: 'ideal-postcodes', package: '@ideal-postcodes/openapi', file: 'dist/openapi.json' },
  { name: 'dialogporten', package: '@digdir/dialogporten-schema', file: 'swagger.verified.json' },
];

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    'suite-timeout': { type: 'string', default: '1800' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log('Usage: node bench/real-specs.mjs [--only NAME[,NAME]] [--suite-timeout SECONDS] [--json] [--keep]');
  console.log(`  specs: ${REAL_SPECS.map((spec) => spec.name).join(', ')}`);
  process.exit(0);
}
const only = flags.only?.split(',');
const unknown = only?.filter((name) => !REAL_SPECS.some((spec) => spec.name === name)) ?? [];
if (unknown.length > 0) fail(`--only: no spec named ${unknown.join(', ')} (known: ${REAL_SPECS.map((spec) => spec.name).join(', ')})`);
const suiteTimeoutMs = Number(flags['suite-timeout']) * 1000;
if (!Number.isFinite(suiteTimeoutMs) || suiteTimeoutMs <= 0) fail('--suite-timeout must be a positive number of seconds');
if (!existsSync(SPECFORGE)) fail(`${SPECFORGE} is missing: run \`npm run build\` (npm run bench:real builds first)`);

const log = (text) => process.stderr.write(text);
const scratch = mkdtempSync(join(tmpdir(), 'specforge-real-'));
if (!flags.keep) process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

const rows = [];
for (const spec of REAL_SPECS.filter((candidate) => !only || only.includes(candidate.name))) {
  log(`${spec.name}: `);
  rows.push(await measure(spec));
  log('\n');
}
if (flags.json) console.log(JSON.stringify(rows, null, 2));
else printTable(rows);
if (flags.keep) log(`outputs kept in ${scratch}\n`);

async function measure(spec) {
  const file = join(ROOT, 'node_modules', spec.package, spec.file);
  if (!existsSync(file)) return { name: spec.name, generate: `missing: npm install (devDependency ${spec.package})` };
  const overlay = join(ROOT, 'test/fixtures/real', `${spec.name}.overlay.yaml`);
  const out = join(scratch, spec.name);
  const args = ['generate', file, '--out', out, '--quiet', ...(existsSync(overlay) ? ['--overlay', overlay] : [])];
  log('generate… ');
  const generated = await run(process.execPath, [SPECFORGE, ...args], { cwd: ROOT });
  const row = { name: spec.name, overlay: existsSync(overlay), generateSeconds: generated.seconds };
  if (generated.code !== 0) return { ...row, generate: `exit ${generated.code}: ${firstDiagnostic(generated.stderr)}` };
  row.generate = 'ok';
  Object.assign(row, await operationKinds(file, existsSync(overlay) ? overlay : undefined));
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  log('tsc… ');
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const service = await run(process.execPath, [tsc, '-p', join(out, 'tsconfig.json'), '--noEmit'], { cwd: out });
  const suiteTypes = await run(process.execPath, [tsc, '-p', join(out, 'test/conformance/tsconfig.json'), '--noEmit'], { cwd: out });
  row.tscErrors = countTsErrors(service.stdout) + countTsErrors(suiteTypes.stdout);
  log('suite… ');
  Object.assign(row, await suite(out));
  return row;
}

/** Operations by kind, and those whose default handler answers 501, from the model the generator builds. */
async function operationKinds(file, overlay) {
  const { mergeSpec } = await import(join(ROOT, 'dist/pipeline.js'));
  const { buildModel } = await import(join(ROOT, 'dist/model/index.js'));
  const { serverView } = await import(join(ROOT, 'dist/render/targets/server/view.js'));
  const { document, config } = await mergeSpec({ spec: file, ...(overlay ? { overlay } : {}) });
  const model = buildModel(document, config);
  const kinds = {};
  for (const operation of model.operations) kinds[operation.kind] = (kinds[operation.kind] ?? 0) + 1;
  const view = serverView(model, document);
  return { operations: model.operations.length, kinds, notImplemented: view.routes.filter((route) => !route.storeMethod).length };
}

/** The generated suite, in-process, with jest's JSON report; wall time and the peak RSS of its largest process. */
async function suite(out) {
  const report = join(out, 'jest-report.json');
  const jest = join(ROOT, 'node_modules/jest/bin/jest.js');
  let treePeakKb = 0;
  const result = await run('/usr/bin/time', ['-f', '%M', process.execPath, jest, '-c', 'test/conformance/jest.config.js', '--json', `--outputFile=${report}`], {
    cwd: out,
    env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' },
    timeoutMs: suiteTimeoutMs,
    onSample: (rssKb) => (treePeakKb = Math.max(treePeakKb, rssKb)),
  });
  const peakKb = Number(result.stderr.trim().split('\n').at(-1));
  const figures = {
    suiteSeconds: result.seconds,
    suitePeakMb: Number.isFinite(peakKb) ? Math.round(peakKb / 1024) : undefined,
    suiteTreePeakMb: treePeakKb > 0 ? Math.round(treePeakKb / 1024) : undefined,
  };
  if (result.timedOut) return { ...figures, suite: `timed out after ${suiteTimeoutMs / 1000} s` };
  if (!existsSync(report)) return { ...figures, suite: `no report (exit ${result.code}): ${lastLines(result.stderr, 3)}` };
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const crashed = json.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
  return { ...figures, suite: 'ran', passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests, filesCrashed: crashed };
}

/** The resident set size (KiB) of a process and all its descendants, now (`ps`: Linux and macOS). */
async function treeRssKb(root) {
  const listed = await new Promise((resolve) => {
    const ps = spawn('ps', ['-A', '-o', 'pid=,ppid=,rss='], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    ps.stdout.on('data', (chunk) => (text += chunk));
    ps.on('close', () => resolve(text));
    ps.on('error', () => resolve(''));
  });
  const processes = listed.trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number));
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of processes) if (inTree.has(ppid) && !inTree.has(pid)) (inTree.add(pid), (grew = true));
  }
  return processes.reduce((sum, [pid, , rss]) => (inTree.has(pid) ? sum + rss : sum), 0);
}

function run(command, args, { cwd, env = process.env, timeoutMs, onSample } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    // Its own process group: a timeout ends the command and everything it started (jest's workers under /usr/bin/time).
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-200_000)));
    let timedOut = false;
    const timer = timeoutMs ? setTimeout(() => ((timedOut = true), process.kill(-child.pid, 'SIGKILL')), timeoutMs) : undefined;
    // The whole tree's memory, twice a second: jest's workers are processes of their own.
    const sampler = onSample ? setInterval(() => treeRssKb(child.pid).then(onSample), 500) : undefined;
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      resolve({ code, stdout, stderr, timedOut, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

function countTsErrors(output) {
  return (output.match(/error TS\d+/g) ?? []).length;
}

function firstDiagnostic(stderr) {
  return stderr.split('\n').find((line) => line.includes('✘'))?.trim() ?? lastLines(stderr, 2);
}

function lastLines(text, count) {
  return text.trim().split('\n').slice(-count).join(' | ');
}

function printTable(results) {
  const kindsOf = (row) => (row.kinds ? Object.entries(row.kinds).map(([kind, count]) => `${kind} ${count}`).join(', ') : '');
  const cell = (value) => (value === undefined ? '' : String(value));
  console.log('| spec | generate | tsc errors | operations (by kind) | 501 by default | suite passed / failed / skipped | suite wall | suite peak RSS: all processes / largest |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of results) {
    const suiteCell = row.suite === 'ran' ? `${row.passed} / ${row.failed} / ${row.skipped}${row.filesCrashed ? ` (${row.filesCrashed} files crashed)` : ''}` : cell(row.suite);
    console.log(
      `| ${row.name}${row.overlay ? ' (overlay)' : ''} | ${row.generate}${row.generateSeconds ? ` (${row.generateSeconds.toFixed(1)} s)` : ''} | ${cell(row.tscErrors)} | ${cell(row.operations)}${row.kinds ? ` (${kindsOf(row)})` : ''} | ${cell(row.notImplemented)} | ${suiteCell} | ${row.suiteSeconds ? `${row.suiteSeconds.toFixed(0)} s` : ''} | ${row.suiteTreePeakMb ? `${row.suiteTreePeakMb} MB / ` : ''}${row.suitePeakMb ? `${row.suitePeakMb} MB` : ''} |`,
    );
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
