/**
 * The conformance suite is right about the service generated from any spec:
 * for each spec of the corpus (test/fixtures/conformance/corpus/, one shape
 * each), the generated service passes its own suite in-process, every file
 * runs, and nothing is skipped but for the reasons stated here per spec. The
 * sampler in particular must build a valid body for every keyword the specs
 * use: no "cannot build a valid … body" is allowed anywhere. Each spec's
 * suite runs on the embedded PGlite and again on PostgreSQL (a database of
 * its own), where the store's SQL meets the real server.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FIXTURES, scratchDir } from '../helpers.js';
import { generateService, linkDependencies } from '../service.js';
import { acceptsConnections, applyMigrationFiles, databaseUrl, requireService, testDatabases } from '../services.js';
import { runSuite, type SuiteReport } from '../suite-run.js';

const CORPUS = join(FIXTURES, 'conformance/corpus');

/** Why a check of each spec may be skipped; a spec not named here may skip none. */
const ALLOWED_SKIPS: Record<string, RegExp[]> = {
  // Its probe (GET /events) is public: there is no API key to accept or refuse on it.
  'header-public': [/^the probe takes no API key$/],
};

const specs = readdirSync(CORPUS)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => basename(file, '.yaml'))
  .sort();

const postgres = await requireService('PostgreSQL', acceptsConnections(databaseUrl(), 5432));
const databases = testDatabases();
const scratch = scratchDir();
/** Each spec's report on each database (PostgreSQL where the server answers). */
const results = new Map<string, SuiteReport | Error>();
const key = (spec: string, database: Database) => `${spec} on ${database}`;
type Database = 'PGlite' | 'PostgreSQL';
let seconds = 0;

beforeAll(async () => {
  const started = Date.now();
  // Two specs at a time: the machine has two cores.
  const queue = [...specs];
  await Promise.all(
    [1, 2].map(async () => {
      for (let spec = queue.shift(); spec; spec = queue.shift()) {
        const project = join(scratch.dir, spec);
        // An error fails that spec's tests only.
        const generated = generateService(join(CORPUS, `${spec}.yaml`), project).then(() => linkDependencies(project));
        const report = (run: () => Promise<SuiteReport>) => generated.then(run).catch((error: Error) => error);
        results.set(key(spec, 'PGlite'), await report(() => runSuite(project)));
        if (postgres.available) {
          const url = await databases.create();
          results.set(key(spec, 'PostgreSQL'), await report(async () => (await applyMigrationFiles(project, url), runSuite(project, { CONFORMANCE_DATABASE_URL: url }))));
        }
      }
    }),
  );
  seconds = (Date.now() - started) / 1000;
  // About 300 s alone; beside another file on two cores, up to twice that or more.
}, specs.length * 2 * 60_000);

afterAll(async () => {
  if (postgres.available) await databases.dropAll();
  console.log(`corpus: ${specs.length} specs in ${seconds.toFixed(1)} s\n${[...results].map(([spec, report]) => summaryOf(spec, report)).join('\n')}`);
  scratch.cleanup();
});

/** `spec: passed P, failed F, skipped S` and the skips by reason. */
function summaryOf(spec: string, report: SuiteReport | Error): string {
  if (report instanceof Error) return `${spec}: ${report.message.split('\n')[0]}`;
  const reasons = new Map<string, number>();
  for (const reason of skipReasons(report)) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  const skips = [...reasons].map(([reason, count]) => `\n    ${count} × ${reason}`).join('');
  return `${spec}: passed ${report.passed}, failed ${report.failed}, skipped ${report.skipped}${skips}`;
}

const skipReasons = (report: SuiteReport) =>
  report.tests.filter((test) => test.status === 'pending').map((test) => /\(skipped: (.+)\)$/.exec(test.name)?.[1] ?? test.name);

test('the corpus holds at least 15 specs', () => {
  expect(specs.length).toBeGreaterThanOrEqual(15);
});

function expectConforms(spec: string, database: Database): void {
  const report = results.get(key(spec, database))!;
  if (report instanceof Error) throw report;
  expect(report.tests.filter((test) => test.status === 'failed').map((test) => `${test.name}\n    ${test.failure.split('\n')[0]}`)).toEqual([]);
  expect(report.broken).toBe(0);
  expect(report.passed).toBeGreaterThan(20);
  const allowed = ALLOWED_SKIPS[spec] ?? [];
  expect(skipReasons(report).filter((reason) => !allowed.some((pattern) => pattern.test(reason)))).toEqual([]);
}

test.each(specs)('%s on PGlite: every check passes, every file runs, no skip but the allowed', (spec) => expectConforms(spec, 'PGlite'));

postgres.describe('on PostgreSQL', () => {
  test.each(specs)('%s: every check passes, every file runs, no skip but the allowed', (spec) => expectConforms(spec, 'PostgreSQL'));
});
