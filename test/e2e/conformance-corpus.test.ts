/**
 * The conformance suite is right about the service generated from any spec:
 * for each spec of the corpus (test/fixtures/conformance/corpus/, one shape
 * each), the generated service passes its own suite in-process, every file
 * runs, and nothing is skipped but for the reasons stated here per spec. The
 * sampler in particular must build a valid body for every keyword the specs
 * use: no "cannot build a valid … body" is allowed anywhere.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FIXTURES, scratchDir } from '../helpers.js';
import { generateService, linkDependencies } from '../service.js';
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

const scratch = scratchDir();
const results = new Map<string, SuiteReport | Error>();
let seconds = 0;

beforeAll(async () => {
  const started = Date.now();
  // Two specs at a time: the machine has two cores.
  const queue = [...specs];
  await Promise.all(
    [1, 2].map(async () => {
      for (let spec = queue.shift(); spec; spec = queue.shift()) {
        const project = join(scratch.dir, spec);
        try {
          await generateService(join(CORPUS, `${spec}.yaml`), project);
          linkDependencies(project);
          results.set(spec, await runSuite(project));
        } catch (error) {
          results.set(spec, error as Error); // fails this spec's test only
        }
      }
    }),
  );
  seconds = (Date.now() - started) / 1000;
}, 600_000);

afterAll(() => {
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

test.each(specs)('%s: every check passes, every file runs, no skip but the allowed', (spec) => {
  const report = results.get(spec)!;
  if (report instanceof Error) throw report;
  expect(report.tests.filter((test) => test.status === 'failed').map((test) => `${test.name}\n    ${test.failure.split('\n')[0]}`)).toEqual([]);
  expect(report.broken).toBe(0);
  expect(report.passed).toBeGreaterThan(20);
  const allowed = ALLOWED_SKIPS[spec] ?? [];
  expect(skipReasons(report).filter((reason) => !allowed.some((pattern) => pattern.test(reason)))).toEqual([]);
});
