/**
 * The generated conformance suite, run for real with jest in the generated
 * project: in-process against the generated service, against a built service
 * at BASE_URL (with and without each input), and against services that each
 * break one convention (./conformance-variants.ts), every one of which it
 * must fail.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';
import { failures, runSuite, skipped, type SuiteReport } from '../suite-run.js';
import { VARIANTS, type Patch, type Variant } from './conformance-variants.js';

const scratch = scratchDir();
const bookshop = join(scratch.dir, 'bookshop');
/** Singletons and actions beside a collection (what the variants marked `project: 'shapes'` patch). */
const shapes = join(scratch.dir, 'shapes');

beforeAll(async () => {
  for (const [spec, project] of [[join(ROOT, 'examples/bookshop/openapi.yaml'), bookshop], [join(FIXTURES, 'valid/shapes.yaml'), shapes]] as const) {
    await generateService(spec, project);
    linkDependencies(project);
    expect(await compile(project)).toBe('');
    expect(await compile(join(project, 'test/conformance'))).toBe('');
  }
});
afterAll(() => scratch.cleanup());

/** The memory store; the database named is one no one answers at: only a service that keeps nothing there passes. */
const IN_MEMORY = { STORE: 'memory', CONFORMANCE_DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' };

/** Every file ran and no check failed; at least `count` passed. */
function expectPassed(report: SuiteReport, count: number): void {
  expect(failures(report)).toEqual([]);
  expect(report.broken).toBe(0);
  expect(report.passed).toBeGreaterThan(count);
}

describe('the generated service passes its own suite', () => {
  test('in-process: every check passes; the one that cannot run says why', async () => {
    const report = await runSuite(bookshop);
    expectPassed(report, 250);
    // Genres cannot be created and the seed has one: no list of them has a second page.
    expect(skipped(report).sort()).toEqual([
      'GET /genres (listGenres) GET /genres → 400 for a tampered cursor (skipped: the API cannot create genres items, and the service lists fewer than 2)',
      'GET /genres (listGenres) GET /genres → a cursor walk sees every item exactly once and ends with has_more false (skipped: the API cannot create genres items, and the service lists fewer than 3)',
    ]);
    // The names read like a report.
    expect(report.tests.map((test) => test.name)).toEqual(
      expect.arrayContaining([
        'GET /authors/{author_id} (getAuthor) GET /authors/{author_id} → 404 RESOURCE_NOT_FOUND for an unknown id',
        'POST /authors (createAuthor) POST /authors → 422 VALIDATION_ERROR (body.name REQUIRED) for missing required name',
        'rate limit GET /authors: X-RateLimit-Remaining counts down, then 429 RATE_LIMITED with Retry-After',
      ]),
    );
  });

  test.each([['bookshop', bookshop, 250], ['shapes (singletons)', shapes, 40]])(
    'in-process on the in-memory store (STORE=memory), %s: every check passes without a database',
    async (_name, project, count) => {
      const report = await runSuite(project, IN_MEMORY);
      expectPassed(report, count);
    },
  );

  test('the service is loaded once per jest worker (at most two), not once per test file', async () => {
    const project = join(scratch.dir, 'loads');
    cpSync(bookshop, project, { recursive: true, verbatimSymlinks: true });
    const loads = join(project, 'app-loads.log');
    // Each evaluation of the generated app module leaves a line.
    const app = join(project, 'src/generated/app.ts');
    writeFileSync(app, `${readFileSync(app, 'utf8')}\nimport { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(loads)}, 'loaded\\n');\n`);
    const report = await runSuite(project);
    expectPassed(report, 250);
    const files = readdirSync(join(project, 'test/conformance/resources')).length + 2; // and conventions, rate limit
    expect(files).toBeGreaterThan(4);
    const loaded = readFileSync(loads, 'utf8').split('\n').filter(Boolean).length;
    expect(loaded).toBeGreaterThanOrEqual(1);
    expect(loaded).toBeLessThanOrEqual(2);
  });

  test.each([
    ['edge cases of the server', 'server/edges.yaml', /\(skipped: the API cannot create (teams|posts) items/],
    ['parents named differently, two levels of nesting, a parent the API does not describe, patterns, offset paging, header versioning', 'conformance/varied.yaml', /\(skipped: the suite cannot build a valid codes body from the schema/],
    // Nothing to skip: the actions' default handlers answer 501, and the suite checks them only where that is no success.
    ['singletons, one under an item, an action on an item and an RPC-style POST', 'valid/shapes.yaml', /^$/],
    // Its list takes required array and object parameters in three styles: the suite sends each as its style writes it.
    ['parameter styles', 'valid/styles.yaml', /^$/],
    // Books reachable nested and top-level: created under an author, found at `/books` and `/books/{book_id}`, with reviews under them there.
    ['a resource reachable nested and top-level, items named by a key field, answers looser or stricter than writes', 'conformance/answered.yaml', /^$/],
  ])('another API (%s) passes; what it cannot try is skipped with the reason', async (_what, spec, reason) => {
    const project = join(scratch.dir, spec.replace(/\W/g, '-'));
    await generateService(join(FIXTURES, spec), project);
    linkDependencies(project);
    const report = await runSuite(project);
    expectPassed(report, 50);
    for (const name of skipped(report)) expect(name).toMatch(reason);
  });
});

describe('against BASE_URL', () => {
  let service: RunningService;
  const tokens = { API_TOKENS: 'full:catalog:write reviews:write,none', API_KEYS: 'key:catalog:write reviews:write,nokey', CURSOR_SECRET: 'test' };

  beforeAll(async () => {
    service = await startService(bookshop, { ...tokens, RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('every check runs against the running service; without API_TOKEN_LIMITED the 403 checks are skipped, saying so', async () => {
    const report = await runSuite(bookshop, { BASE_URL: service.baseUrl, API_TOKEN: 'full', API_KEY: 'key' });
    expectPassed(report, 240);
    const reasons = skipped(report).map((name) => /\(skipped: (.+)\)$/.exec(name)?.[1]);
    expect(new Set(reasons)).toEqual(
      new Set([
        'set API_TOKEN_LIMITED to a valid token with no scopes',
        'the API cannot create genres items, and the service lists fewer than 2',
        'the API cannot create genres items, and the service lists fewer than 3',
        'X-RateLimit-Limit is 100000: spending it takes too long',
      ]),
    );
    expect(reasons.filter((reason) => reason?.startsWith('set API_TOKEN_LIMITED'))).toHaveLength(report.tests.filter((test) => test.name.includes('403 FORBIDDEN')).length);
  });

  test('with a credential without scopes, the 403 checks run and pass', async () => {
    const report = await runSuite(bookshop, { BASE_URL: service.baseUrl, API_TOKEN: 'full', API_TOKEN_LIMITED: 'none' }, ['authors.test']);
    expect(failures(report)).toEqual([]);
    expect(report.tests.filter((test) => test.name.includes('403 FORBIDDEN') && test.status === 'passed').length).toBeGreaterThan(3);
  });

  test('without credentials, every check that needs one is skipped, none passes silently', async () => {
    const report = await runSuite(bookshop, { BASE_URL: service.baseUrl }, ['books.test']);
    expect(report.passed).toBe(0);
    expect(report.failed).toBe(0);
    // Each names the input it lacks.
    for (const name of skipped(report)) expect(name).toMatch(/\(skipped: (creating (authors|books) items needs a credential: )?set (API_TOKEN or API_KEY|API_TOKEN_LIMITED to a valid token with no scopes)\)$/);
  });

  test('the rate-limit file spends a small window and sees the 429; CONFORMANCE_SKIP_RATE_LIMIT=1 skips it', async () => {
    const limited = await startService(bookshop, { ...tokens, RATE_LIMIT: '7' });
    try {
      const env = { BASE_URL: limited.baseUrl, API_TOKEN: 'full' };
      // The flag first: once the window is spent, every request waits for the next one.
      const skippedByFlag = await runSuite(bookshop, { ...env, CONFORMANCE_SKIP_RATE_LIMIT: '1' }, ['rate-limit.test']);
      expect(skipped(skippedByFlag)).toEqual([expect.stringContaining('(skipped: CONFORMANCE_SKIP_RATE_LIMIT=1)')]);
      const spent = await runSuite(bookshop, env, ['rate-limit.test']);
      expect(failures(spent)).toEqual([]);
      expect(spent.passed).toBe(1);
    } finally {
      await limited.stop();
    }
  });
});

/** Applies a variant's patches to the project, keeping in `originals` the files as they were, to put back. */
function applyPatches(project: string, patches: Patch[], originals: Map<string, string>): void {
  for (const { file, find, replace } of patches) {
    const path = join(project, file);
    const text = readFileSync(path, 'utf8');
    if (!originals.has(file)) originals.set(file, text);
    const at = text.indexOf(find);
    if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`the patch does not match ${file} exactly once: ${find}`);
    writeFileSync(path, text.slice(0, at) + replace + text.slice(at + find.length));
  }
}

/**
 * A variant that breaks the SQL store runs on its database (PGlite); the rest on the memory store: the
 * conventions they break sit above the store, and a suite there takes less than half the time.
 */
const storeFor = (variant: Variant): Record<string, string> =>
  variant.patches.some((patch) => patch.file.startsWith('src/store/sql')) ? {} : IN_MEMORY;

describe(`a service that breaks one convention fails the suite (${VARIANTS.length} variants)`, () => {
  const results = new Map<string, SuiteReport | Error>();

  beforeAll(async () => {
    // Two copies of the project, one variant at a time each: the machine has two cores.
    const queue = [...VARIANTS];
    await Promise.all(
      [1, 2].map(async (slot) => {
        const copies = { bookshop: join(scratch.dir, `variant-${slot}`), shapes: join(scratch.dir, `variant-shapes-${slot}`) };
        cpSync(bookshop, copies.bookshop, { recursive: true, verbatimSymlinks: true });
        cpSync(shapes, copies.shapes, { recursive: true, verbatimSymlinks: true });
        for (let variant = queue.shift(); variant; variant = queue.shift()) {
          const copy = copies[variant.project ?? 'bookshop'];
          const originals = new Map<string, string>();
          try {
            applyPatches(copy, variant.patches, originals);
            results.set(variant.name, await runSuite(copy, storeFor(variant)));
          } catch (error) {
            results.set(variant.name, error as Error); // fails this variant's test only
          } finally {
            for (const [file, text] of originals) writeFileSync(join(copy, file), text);
          }
        }
      }),
    );
    // A variant's suite takes 7–17 s alone (memory store, PGlite); beside other work on two cores, up to twice that.
  }, VARIANTS.length * 30_000);

  test.each(VARIANTS.map((variant) => [variant.name, variant] as const))('%s is caught', (_name, variant) => {
    const report = results.get(variant.name)!;
    if (report instanceof Error) throw report;
    expect(report.broken).toBe(0); // every file ran: the failures are the checks', not a crash
    const failed = report.tests.filter((test) => test.status === 'failed');
    // A check that ran out of time (another file shares the cores) is no catch.
    const caught = failed.filter((test) => variant.fails.test(test.name) && !/Exceeded timeout/.test(test.failure));
    expect(caught.length).toBeGreaterThan(0);
    // What no example shows: every check that fails is a property-based one.
    if (variant.propertiesOnly) expect(failed.filter((test) => !test.name.includes('→ property:')).map((test) => test.name)).toEqual([]);
  });

  // The kill count, by layer: for the closing notes of the issues that change the suite.
  afterAll(() => {
    const caughtBy = (layer: (name: string) => boolean) =>
      [...results.values()].filter((report) => !(report instanceof Error) && report.tests.some((test) => test.status === 'failed' && layer(test.name))).length;
    const property = (name: string) => name.includes('→ property:');
    console.log(`variants: ${VARIANTS.length}; caught by example-based checks: ${caughtBy((name) => !property(name))}; by property-based checks: ${caughtBy(property)}`);
  });
});
