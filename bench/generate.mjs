#!/usr/bin/env node
// Benchmark: specforge against openapi-typescript alone, on GitHub's REST
// description and on the bookshop example, with the speed issue's targets.
// See bench/README.md.
//
//   node bench/generate.mjs [--runs N] [--only github|bookshop] [--before <checkout>] [--json]
//
// Every measurement is a separate child process, so each one pays Node's start-up
// and module loading exactly as a user does, and its peak memory is its own. The
// scenarios alternate within each round (A B C, A B C, …): a slow moment of the
// machine falls on all of them, not on one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OPENAPI_TS = join(ROOT, 'node_modules/.bin/openapi-typescript');
const PEAK_RSS = join(ROOT, 'bench/peak-rss.cjs');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

const SPECS = {
  github: { label: "GitHub's description", path: 'node_modules/@octokit/openapi/generated/api.github.com.json', hint: 'run `npm install` (it is a devDependency: @octokit/openapi)' },
  bookshop: { label: 'the bookshop example', path: 'examples/bookshop/openapi.yaml', hint: 'the example is part of the repository' },
};

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string' },
    only: { type: 'string' },
    before: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log(
    [
      'Usage: node bench/generate.mjs [--runs N] [--only github|bookshop] [--before <checkout>] [--json]',
      '  --runs N             rounds (default 3, or BENCH_RUNS); every scenario runs once per round',
      '  --only <spec>        one spec: github or bookshop',
      '  --before <checkout>  another specforge checkout, built (its dist/cli/bin.js): its generate and check run beside these',
      '  --json               machine-readable results on stdout',
    ].join('\n'),
  );
  process.exit(0);
}
const RUNS = Number(flags.runs ?? process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1) fail(`--runs must be a positive integer, not "${flags.runs ?? process.env.BENCH_RUNS}"`);
if (flags.only !== undefined && !(flags.only in SPECS)) fail(`--only must be one of ${Object.keys(SPECS).join(', ')}, not "${flags.only}"`);
const chosen = flags.only === undefined ? Object.keys(SPECS) : [flags.only];

/** The specforge builds measured: this checkout's, and the one --before names. */
const BUILDS = [{ id: '', label: 'specforge', bin: join(ROOT, 'dist/cli/bin.js') }];
if (flags.before !== undefined) BUILDS.push({ id: ' (before)', label: 'specforge (before)', bin: join(resolve(flags.before), 'dist/cli/bin.js') });

for (const [path, hint] of [
  ...chosen.map((name) => [join(ROOT, SPECS[name].path), SPECS[name].hint]),
  ...BUILDS.map((build) => [build.bin, `build it: \`npm run build\` there (npm run bench builds this checkout)`]),
  [OPENAPI_TS, 'run `npm install` (openapi-typescript provides the baseline)'],
]) {
  if (!existsSync(path)) fail(`${path} is missing: ${hint}`);
}

// Progress goes to stderr so that --json leaves stdout clean.
const log = (text) => process.stderr.write(text);
const scratch = mkdtempSync(join(tmpdir(), 'specforge-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130)); // so that Ctrl-C cleans up too

// CPU time of every child so far, to tell the machine's other load from ours.
let childCpuMs = 0;

/**
 * Runs one Node script as a child under the peak-RSS preload; resolves with its
 * wall time, peak RSS and CPU time. A child that fails rejects with its stderr:
 * figures from a run that did not do the work would be meaningless.
 */
function measure(script, args) {
  const rssFile = join(scratch, 'peak-rss');
  rmSync(rssFile, { force: true });
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, ['--require', PEAK_RSS, script, ...args], {
      cwd: ROOT,
      env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - began) / 1000;
      const command = ['node', script.replace(ROOT, ''), ...args].join(' ');
      if (code !== 0) return reject(new Error(`\`${command}\` failed (${signal ?? `exit code ${code}`}):\n${stderr || stdout || '(no output)'}`));
      if (!existsSync(rssFile)) return reject(new Error(`\`${command}\` exited without reporting its peak RSS`));
      const usage = JSON.parse(readFileSync(rssFile, 'utf8'));
      childCpuMs += usage.cpu / 1000;
      resolve({ seconds, peakRssBytes: usage.maxRSS * 1024, cpuSeconds: usage.cpu / 1e6, stdout, stderr });
    });
  });
}

let fresh = 0;

/** The scenarios of one spec: the baseline first; the no-change ones work on an output generated once, untimed, by each build. */
function scenariosOf(name) {
  const spec = SPECS[name].path;
  const prepared = (build) => join(scratch, `${name}-prepared${build.id ? '-before' : ''}`);
  const scenarios = [
    {
      id: `${name}:baseline`,
      label: 'openapi-typescript (types only)',
      // Resolve the .bin shim so the preload can run inside the same process.
      run: () => measure(realpathSync(OPENAPI_TS), [spec, '-o', join(scratch, `${name}-types.ts`)]),
    },
  ];
  for (const build of BUILDS) {
    scenarios.push({
      id: `${name}:generate${build.id}`,
      label: `${build.label} generate (cold)`,
      // Each run's output stays until the bench ends (with the scratch folder): deleting GitHub's
      // 1,740 files between runs made the next run's file creations ten times slower on ext4
      // without a journal (it skips inodes freed in the last minute), a cost of the bench, not of
      // generating into a new folder.
      run: () => measure(build.bin, ['generate', spec, '--out', join(scratch, `fresh-${++fresh}`), '--quiet']),
    });
  }
  if (name !== 'github') return scenarios;
  for (const build of BUILDS) {
    const out = prepared(build);
    const prepare = async () => {
      if (existsSync(out)) return;
      log(`preparing ${build.label}'s output of ${SPECS[name].label} … `);
      const { seconds } = await measure(build.bin, ['generate', spec, '--out', out, '--quiet']);
      log(`${seconds.toFixed(2)} s\n`);
    };
    scenarios.push(
      {
        id: `${name}:regenerate${build.id}`,
        label: `${build.label} generate (no change)`,
        before: prepare,
        run: async () => {
          const result = await measure(build.bin, ['generate', spec, '--out', out, '--quiet']);
          // Relies on the CLI's wording; if it changes, this only adds a warning.
          result.upToDate = result.stdout.startsWith('Up to date');
          return result;
        },
      },
      {
        id: `${name}:check${build.id}`,
        label: `${build.label} check (no change)`,
        before: prepare,
        run: () => measure(build.bin, ['check', spec, '--out', out, '--quiet']),
      },
    );
  }
  scenarios.push(
    {
      id: `${name}:check-full`,
      label: 'specforge check --full',
      run: () => measure(BUILDS[0].bin, ['check', spec, '--out', prepared(BUILDS[0]), '--quiet', '--full']),
    },
    {
      // `specforge lint` prints each stage's time on stderr: "beyond loading" is its `lint` stage.
      id: `${name}:lint`,
      label: 'specforge lint',
      run: async () => {
        const result = await measure(BUILDS[0].bin, ['lint', spec]);
        const stage = /^\s*lint\s+([\d.]+) (ms|s)$/m.exec(result.stderr);
        if (!stage) throw new Error(`specforge lint printed no lint stage time:\n${result.stderr}`);
        result.stageSeconds = Number(stage[1]) / (stage[2] === 'ms' ? 1000 : 1);
        return result;
      },
    },
    {
      // What a user's CI pays for the generated project: `tsc --noEmit` under its own strict
      // tsconfig, with specforge's node_modules standing in for `npm install`.
      id: `${name}:typecheck`,
      label: 'tsc --noEmit on the output',
      run: () => measure(TSC, ['-p', typecheckProject(prepared(BUILDS[0])), '--noEmit']),
    },
  );
  return scenarios;
}

function typecheckProject(project) {
  const modules = join(project, 'node_modules');
  if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules, 'dir');
  return project;
}

/**
 * The issue's targets, each a ratio of two medians of the same run (or a
 * limit), where both scenarios were measured.
 */
const TARGETS = [
  { label: 'GitHub, cold generate ≤ 2.0× openapi-typescript (wall)', of: 'github:generate', to: 'github:baseline', limit: 2.0 },
  { label: 'GitHub, cold generate peak memory ≤ 1.5 GB', of: 'github:generate', metric: 'peakRssBytes', limit: 1.5e9 },
  { label: 'bookshop, cold generate ≤ 1.2× openapi-typescript (wall)', of: 'bookshop:generate', to: 'bookshop:baseline', limit: 1.2 },
  { label: 'GitHub, check with no change ≤ 1.5× generate with no change', of: 'github:check', to: 'github:regenerate', limit: 1.5 },
  { label: 'GitHub, check --full no slower than cold generate', of: 'github:check-full', to: 'github:generate', limit: 1.0 },
];

function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1) };
}

async function main() {
  log(`specforge bench: ${chosen.map(describeSpec).join('; ')}; ${RUNS} round${RUNS === 1 ? '' : 's'}, node ${process.version}, ${cpus().length} CPUs\n`);
  const busyAtStart = busyCpuMs();
  const selfAtStart = process.cpuUsage();
  const began = performance.now();
  const scenarios = chosen.flatMap(scenariosOf);
  for (const scenario of scenarios) await scenario.before?.();
  const runs = new Map(scenarios.map((scenario) => [scenario.id, []]));
  for (let round = 1; round <= RUNS; round++) {
    for (const scenario of scenarios) {
      log(`round ${round}/${RUNS}: ${scenario.id.split(':')[0]}, ${scenario.label} … `);
      const { seconds, peakRssBytes, cpuSeconds, upToDate, stageSeconds } = await scenario.run();
      runs.get(scenario.id).push({ seconds, peakRssBytes, cpuSeconds, ...(upToDate === undefined ? {} : { upToDate }), ...(stageSeconds === undefined ? {} : { stageSeconds }) });
      log(`${seconds.toFixed(2)} s, ${cpuSeconds.toFixed(2)} s CPU, ${mb(peakRssBytes)}${stageSeconds === undefined ? '' : ` (stage: ${stageSeconds.toFixed(2)} s)`}\n`);
    }
  }
  const results = scenarios.map(({ id, label }) => {
    const own = runs.get(id);
    const summary = (key) => summarize(own.map((run) => run[key]));
    return {
      id,
      spec: id.split(':')[0],
      label,
      runs: own,
      seconds: summary('seconds'),
      cpuSeconds: summary('cpuSeconds'),
      peakRssBytes: summary('peakRssBytes'),
      ...(own[0].stageSeconds === undefined ? {} : { stageSeconds: summary('stageSeconds') }),
    };
  });
  const byId = Object.fromEntries(results.map((result) => [result.id, result]));
  for (const result of results) {
    const baseline = byId[`${result.spec}:baseline`];
    result.ratioToBaseline = { seconds: result.seconds.median / baseline.seconds.median, cpuSeconds: result.cpuSeconds.median / baseline.cpuSeconds.median, peakRssBytes: result.peakRssBytes.median / baseline.peakRssBytes.median };
  }
  const targets = TARGETS.filter((target) => byId[target.of] && (!target.to || byId[target.to])).map((target) => {
    const metric = target.metric ?? 'seconds';
    const value = target.to ? byId[target.of][metric].median / byId[target.to][metric].median : byId[target.of][metric].median;
    return { ...target, metric, value, met: value <= target.limit };
  });
  const missedUpToDate = results.filter((result) => result.id.includes(':regenerate')).some((result) => result.runs.some((run) => !run.upToDate));

  // Other work on the machine skews every figure: estimate it as the CPU time
  // all processes used minus what our children and this script used.
  const self = process.cpuUsage(selfAtStart);
  const ours = childCpuMs + (self.user + self.system) / 1000;
  const otherCores = Math.max(0, busyCpuMs() - busyAtStart - ours) / (performance.now() - began);
  if (flags.json) {
    const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, otherProcessesCores: otherCores };
    console.log(JSON.stringify({ specs: Object.fromEntries(chosen.map((name) => [name, SPECS[name].path])), runs: RUNS, environment, scenarios: results, targets, missedUpToDate }, null, 2));
  } else {
    printReport(results, targets, missedUpToDate, otherCores);
  }
}

function describeSpec(name) {
  const path = join(ROOT, SPECS[name].path);
  // A YAML spec may keep its paths in other files: its operations are not counted here.
  const operations = path.endsWith('.json') ? `, ${countOperations(path)} operations` : '';
  return `${SPECS[name].path} (${(statSync(path).size / 1e6).toFixed(2)} MB${operations})`;
}

function printReport(results, targets, missedUpToDate, otherCores) {
  const rows = [
    ['scenario', 'wall', 'min', 'max', '× base', 'CPU', '× base', 'peak RSS', '× base'],
    ...results.map((r) => [
      `${r.spec}: ${r.label}`,
      ...[r.seconds.median, r.seconds.min, r.seconds.max].map((s) => `${s.toFixed(2)} s`),
      `${r.ratioToBaseline.seconds.toFixed(2)}×`,
      `${r.cpuSeconds.median.toFixed(2)} s`,
      `${r.ratioToBaseline.cpuSeconds.toFixed(2)}×`,
      mb(r.peakRssBytes.median),
      `${r.ratioToBaseline.peakRssBytes.toFixed(2)}×`,
    ]),
  ];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  const line = (row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  ');
  console.log(`\nMedians of ${RUNS} alternating run${RUNS === 1 ? '' : 's'}; × base: to openapi-typescript on the same spec, in the same run.\n`);
  console.log(`${line(rows[0])}\n${widths.map((w) => '─'.repeat(w)).join('  ')}`);
  for (const row of rows.slice(1)) console.log(line(row));
  console.log('\nTargets:');
  for (const t of targets) {
    const shown = t.to ? `${t.value.toFixed(2)}×` : t.metric === 'peakRssBytes' ? mb(t.value) : `${t.value.toFixed(2)} s`;
    console.log(`  ${t.met ? '✔' : '✘'} ${t.label.padEnd(62)} ${shown.padStart(9)}`);
  }
  const busy = otherCores > 0.25 ? ' — ⚠ the machine was busy: the times are inflated' : '';
  console.log(`\nOther processes used ${otherCores.toFixed(2)} of ${cpus().length} CPUs on average during the bench${busy}.`);
  if (missedUpToDate) console.log('\n  ⚠ a no-change regeneration did not report "Up to date": it rebuilt instead of taking the up-to-date path.');
}

function countOperations(specPath) {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  const { paths = {} } = JSON.parse(readFileSync(specPath, 'utf8'));
  return Object.values(paths).reduce((n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length, 0);
}

/** CPU time every process on the machine has used so far, in ms (idle excluded). */
function busyCpuMs() {
  return cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
}

function mb(bytes) {
  return `${Math.round(bytes / 1e6)} MB`;
}

function fail(message) {
  process.stderr.write(`\nbench FAILED: ${message}\n`);
  process.exit(1);
}

main().catch((error) => fail(error.message));
