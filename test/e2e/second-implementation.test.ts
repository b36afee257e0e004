/**
 * The generated conformance suite tests the conventions, not the generated
 * code: run against a second implementation of each API, written by hand on
 * node:http with choices of its own (../second-implementation/), it passes;
 * with a deliberate flaw in that implementation, it fails.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratchDir } from '../helpers.js';
import { startBookshop } from '../second-implementation/bookshop-server.js';
import type { RunningApi } from '../second-implementation/http-kit.js';
import { startPetstore } from '../second-implementation/petstore-server.js';
import { generateService, linkDependencies } from '../service.js';
import { failures, runSuite, skipped } from '../suite-run.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/** Credentials of the second implementation: each with every scope of the API, or with none. */
function credentials(scopes: string[]) {
  return {
    tokens: { 'second-full': scopes, 'second-limited': [] },
    apiKeys: { 'second-key': scopes, 'second-key-limited': [] },
  };
}

const ENV = {
  API_TOKEN: 'second-full',
  API_TOKEN_LIMITED: 'second-limited',
  API_KEY: 'second-key',
  API_KEY_LIMITED: 'second-key-limited',
};

/** High enough for a whole run: the rate-limit file is run on its own, against a small window. */
const GENEROUS = { limit: 100_000, windowSeconds: 60 };
const SMALL = { limit: 7, windowSeconds: 60 };

interface Api {
  name: string;
  spec: string;
  start(options: ReturnType<typeof credentials> & { rateLimit: typeof GENEROUS; breaks?: { overlap?: boolean } }): Promise<RunningApi>;
  scopes: string[];
  /** Why a check may be skipped against it: nothing but these. */
  skips: string[];
}

const SPENDING_TAKES_TOO_LONG = `X-RateLimit-Limit is ${GENEROUS.limit}: spending it takes too long`;

const APIS: Api[] = [
  {
    name: 'bookshop',
    spec: join(ROOT, 'examples/bookshop/openapi.yaml'),
    start: startBookshop,
    scopes: ['catalog:write', 'reviews:write'],
    // The rate limit is spent in a run of its own (below).
    skips: [SPENDING_TAKES_TOO_LONG],
  },
  {
    name: 'petstore',
    spec: join(ROOT, 'examples/petstore/openapi.json'),
    start: startPetstore,
    scopes: [],
    skips: [SPENDING_TAKES_TOO_LONG],
  },
];

const projects = new Map<string, string>();

beforeAll(async () => {
  for (const api of APIS) {
    const project = join(scratch.dir, api.name);
    await generateService(api.spec, project);
    linkDependencies(project);
    projects.set(api.name, project);
  }
});

/** The test files of a generated suite: one per resource, the conventions, the rate limit. */
const testFiles = (project: string) => readdirSync(join(project, 'test/conformance/resources')).length + 2;

describe.each(APIS.map((api) => [api.name, api] as const))('the second implementation of %s', (_name, api) => {
  test('passes the generated suite: no failure, every file ran, skips only for the listed reasons', async () => {
    const project = projects.get(api.name)!;
    const server = await api.start({ ...credentials(api.scopes), rateLimit: GENEROUS });
    try {
      const report = await runSuite(project, { BASE_URL: server.baseUrl, ...ENV }, [], 300_000);
      expect(failures(report)).toEqual([]);
      expect(report.broken).toBe(0);
      expect(report.files).toBe(testFiles(project));
      expect(report.passed).toBeGreaterThan(40);
      const reasons = new Set(skipped(report).map((name) => /\(skipped: (.+)\)$/.exec(name)?.[1]));
      expect([...reasons].sort()).toEqual([...api.skips].sort());
    } finally {
      await server.close();
    }
  }, 320_000);

  test('spends its rate limit: X-RateLimit-Remaining counts down, then 429 with Retry-After', async () => {
    const server = await api.start({ ...credentials(api.scopes), rateLimit: SMALL });
    try {
      const report = await runSuite(projects.get(api.name)!, { BASE_URL: server.baseUrl, ...ENV }, ['rate-limit.test']);
      expect(failures(report)).toEqual([]);
      expect(report.passed).toBe(1);
    } finally {
      await server.close();
    }
  });
});

test('the suite fails the second implementation with a flaw: cursor pages that overlap by one item', async () => {
  const bookshop = APIS[0]!;
  const server = await bookshop.start({ ...credentials(bookshop.scopes), rateLimit: GENEROUS, breaks: { overlap: true } });
  try {
    const report = await runSuite(projects.get('bookshop')!, { BASE_URL: server.baseUrl, ...ENV }, ['authors.test']);
    expect(report.broken).toBe(0);
    expect(failures(report)).toContainEqual(expect.stringContaining('GET /authors → a cursor walk sees every item exactly once'));
  } finally {
    await server.close();
  }
});
