/**
 * Checks of the conventions that hold for the whole API, each tried on one
 * operation (the probe): request ids, the envelope of an unknown path,
 * rate-limit headers, versioning, the API key, and the rate limit spent.
 */
import { expectError, expectStatus, expectSuccess, fail } from './assertions.js';
import { API, type Answer, type Check, type Suite } from './harness.js';

export const echoesRequestId: Check = {
  async run(suite, plan) {
    const sent = `conformance-${Date.now()}`;
    const answer = await suite.request(plan, { headers: { 'x-request-id': sent } });
    expectSuccess(answer, plan);
    if (answer.headers.get('x-request-id') !== sent)
      fail(`Sent X-Request-Id ${sent}, got back ${answer.headers.get('x-request-id')}.`);
  },
};

export const newRequestIds: Check = {
  async run(suite, plan) {
    const [first, second] = [await suite.request(plan), await suite.request(plan)];
    const ids = [first, second].map((answer) => answer.headers.get('x-request-id'));
    if (!ids[0] || !ids[1]) fail('A response without X-Request-Id.');
    if (ids[0] === ids[1]) fail(`Two requests got the same X-Request-Id ${ids[0]}.`);
  },
};

export const unknownPath: Check = {
  async run(suite) {
    expectError(await suite.send('GET', '/no-such-resources-0000', { auth: 'full' }), 404);
  },
};

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

function rateLimitOf(
  answer: Answer,
  what: string,
): { limit: number; remaining: number; reset: number } {
  const [limit, remaining, reset] = RATE_LIMIT_HEADERS.map((name) => {
    const value = answer.headers.get(name);
    if (value === null || !/^\d+$/.test(value))
      fail(`${what}: ${name} is ${JSON.stringify(value)}, not an integer.`);
    return Number(value);
  }) as [number, number, number];
  return { limit, remaining, reset };
}

export const rateLimitHeaders: Check = {
  async run(suite, plan) {
    const first = rateLimitOf(await suite.request(plan), 'a success');
    const second = rateLimitOf(await suite.request(plan), 'a success');
    rateLimitOf(await suite.send('GET', '/no-such-resources-0000', { auth: 'full' }), 'a 404');
    if (second.reset === first.reset && second.remaining >= first.remaining) {
      fail(
        `X-RateLimit-Remaining did not go down within a window: ${first.remaining}, then ${second.remaining}.`,
      );
    }
    if (Math.abs(first.reset - Date.now() / 1000) > 86_400)
      fail(`X-RateLimit-Reset ${first.reset} is not a Unix time in seconds near now.`);
  },
};

/** The base URL with another version segment: `/v1` → `/v2`. */
function otherVersionUrl(suite: Suite): string {
  const segment = `/v${API.versioning.version}`;
  const at = suite.baseUrl.lastIndexOf(segment);
  return `${suite.baseUrl.slice(0, at)}/v${API.versioning.version + 1}${suite.baseUrl.slice(at + segment.length)}`;
}

const mediaType = (version: number) => `application/vnd.api+json;version=${version}`;

export const currentVersion: Check = {
  async run(suite, plan) {
    expectSuccess(await suite.request(plan), plan);
    if (API.versioning.header)
      expectSuccess(
        await suite.request(plan, { headers: { accept: mediaType(API.versioning.version) } }),
        plan,
      );
  },
};

export const unknownUrlVersion: Check = {
  skip: (suite) =>
    suite.baseUrl.includes(`/v${API.versioning.version}`)
      ? undefined
      : `BASE_URL has no /v${API.versioning.version} segment`,
  async run(suite, plan) {
    const answer = await suite.request(plan, { baseUrl: otherVersionUrl(suite) });
    expectError(answer, answer.status === 406 ? 406 : 404);
  },
};

export const unknownHeaderVersion: Check = {
  async run(suite, plan) {
    expectError(
      await suite.request(plan, { headers: { accept: mediaType(API.versioning.version + 98) } }),
      406,
      'NOT_ACCEPTABLE',
    );
  },
};

function apiKeySkip(suite: Suite, plan: { security: { schemes: string[] } }): string | undefined {
  if (!plan.security.schemes.includes('apiKey')) return 'the probe takes no API key';
  return suite.credentials.apiKey ? undefined : 'set API_KEY';
}

export const acceptsApiKey: Check = {
  skip: apiKeySkip,
  async run(suite, plan) {
    expectSuccess(await suite.request(plan, { auth: 'apiKey' }), plan);
  },
};

export const refusesInvalidApiKey: Check = {
  skip: (_suite, plan) =>
    plan.security.schemes.includes('apiKey') ? undefined : 'the probe takes no API key',
  async run(suite, plan) {
    expectError(await suite.request(plan, { auth: 'invalidApiKey' }), 401, 'UNAUTHORIZED');
  },
};

/** Against BASE_URL, spending a window larger than this takes too long for a test run. */
const MAX_SPEND = 1000;

export const spendsTheRateLimit: Check = {
  skip(suite) {
    if (process.env.CONFORMANCE_SKIP_RATE_LIMIT === '1') return 'CONFORMANCE_SKIP_RATE_LIMIT=1';
    if (suite.rateLimit === undefined) return 'the service sent no X-RateLimit-Limit';
    if (suite.rateLimit > MAX_SPEND)
      return `X-RateLimit-Limit is ${suite.rateLimit}: spending it takes too long`;
    return undefined;
  },
  async run(suite, plan) {
    let previous = Infinity;
    /** X-RateLimit-Reset of the current window, and the requests sent in it. */
    let window: number | undefined;
    let inWindow = 0;
    for (let sent = 1; sent <= MAX_SPEND + 1; sent++) {
      const answer = await suite.request(plan, { acceptRateLimited: true });
      // A later reset: the window ended during the spend, and the next one counts afresh.
      const reset = Number(answer.headers.get('x-ratelimit-reset'));
      if (window !== undefined && reset > window) [previous, inWindow] = [Infinity, 0];
      window = reset;
      inWindow++;
      if (answer.status === 429) {
        expectError(answer, 429, 'RATE_LIMITED');
        const wait = answer.headers.get('retry-after');
        if (wait === null || !/^\d+$/.test(wait) || Number(wait) < 1)
          fail(`429 with Retry-After ${JSON.stringify(wait)}: expected a whole number of seconds.`);
        const { limit, remaining } = rateLimitOf(answer, 'the 429');
        if (remaining !== 0) fail(`429 with X-RateLimit-Remaining ${remaining}.`);
        if (inWindow - 1 > limit)
          fail(
            `The 429 came after ${inWindow - 1} requests in its window; X-RateLimit-Limit is ${limit}.`,
          );
        return;
      }
      expectStatus(answer, plan.status, `request ${sent}`);
      const { remaining } = rateLimitOf(answer, `request ${sent}`);
      if (remaining >= previous)
        fail(`X-RateLimit-Remaining did not go down: ${previous}, then ${remaining}.`);
      previous = remaining;
    }
    fail(`No 429 after ${MAX_SPEND + 1} requests.`);
  },
};
