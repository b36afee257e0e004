/** Rate limiting: a fixed window per credential (per address when anonymous), told in headers, 429 with Retry-After past it. */
import { afterEach, beforeEach, jest } from '@jest/globals';
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import {
  countRequest,
  MemoryRateLimitStore,
  type RateLimitStore,
} from '../../../src/runtime/server/generated/conventions/rate-limit.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';

// The store and the Retry-After read Date.now: the clock is set, never waited for.
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0, 250);
beforeEach(() => void jest.useFakeTimers({ now: T0 }));
afterEach(() => void jest.useRealTimers());

/** The part of a Koa context `countRequest` uses: who calls, from where, and the headers it sets. */
function caller(who: { principal?: string; ip?: string }) {
  const headers: Record<string, string> = {};
  const state = who.principal ? { principal: { id: who.principal, scheme: 'bearer', scopes: [] } } : {};
  const ctx = { state, ip: who.ip ?? '10.0.0.1', res: { setHeader: (name: string, value: string) => void (headers[name] = value) } };
  return { ctx: ctx as unknown as ParameterizedContext<ServiceState>, headers };
}

/** One request: the headers it got, and the 429's Retry-After when it was refused. */
async function call(store: RateLimitStore, who: { principal?: string; ip?: string }, limit = 2) {
  const { ctx, headers } = caller(who);
  try {
    await countRequest(ctx, { limit, windowSeconds: 60, store });
    return { ...headers, status: 200 };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ...headers, status: error.status, code: error.code, retryAfter: error.headers['Retry-After'] };
  }
}

describe('MemoryRateLimitStore', () => {
  test('counts the hits of a key in one window, which ends windowMs after its first hit', () => {
    const store = new MemoryRateLimitStore();
    expect(store.hit('a', 1000)).toEqual({ count: 1, resetAt: T0 + 1000 });
    jest.setSystemTime(T0 + 999);
    expect(store.hit('a', 1000)).toEqual({ count: 2, resetAt: T0 + 1000 });
  });

  test('a new window opens the moment the last one ends', () => {
    const store = new MemoryRateLimitStore();
    store.hit('other', 5000); // schedules the next sweep after T0 + 1000: the window must end without one
    store.hit('a', 1000);
    store.hit('a', 1000);
    jest.setSystemTime(T0 + 1000);
    expect(store.hit('a', 1000)).toEqual({ count: 1, resetAt: T0 + 2000 });
  });

  test('keys count apart, and a sweep of ended windows leaves the open ones', () => {
    const store = new MemoryRateLimitStore();
    store.hit('a', 1000);
    jest.setSystemTime(T0 + 600);
    store.hit('b', 1000);
    jest.setSystemTime(T0 + 1200); // past the next sweep: a's window has ended, b's has not
    expect(store.hit('c', 1000)).toEqual({ count: 1, resetAt: T0 + 2200 });
    expect(store.hit('b', 1000)).toEqual({ count: 2, resetAt: T0 + 1600 });
    expect(store.hit('a', 1000)).toEqual({ count: 1, resetAt: T0 + 2200 });
  });
});

describe('countRequest', () => {
  test('tells the limit, what remains of it and when the window resets (in epoch seconds, rounded up)', async () => {
    const store = new MemoryRateLimitStore();
    const reset = String(Math.ceil((T0 + 60_000) / 1000));
    expect(await call(store, {})).toEqual({ 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': reset, status: 200 });
    expect(await call(store, {})).toMatchObject({ 'X-RateLimit-Remaining': '0', status: 200 });
  });

  test('past the limit: 429 RATE_LIMITED, Retry-After the seconds left of the window, Remaining never below 0', async () => {
    const store = new MemoryRateLimitStore();
    await call(store, {});
    await call(store, {});
    jest.setSystemTime(T0 + 20_500);
    expect(await call(store, {})).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: '40', 'X-RateLimit-Remaining': '0' });
    jest.setSystemTime(T0 + 59_900); // rounded up: never "retry in 0 s"
    expect(await call(store, {})).toMatchObject({ status: 429, retryAfter: '1' });
    jest.setSystemTime(T0 + 60_000);
    expect(await call(store, {})).toMatchObject({ status: 200, 'X-RateLimit-Remaining': '1' });
  });

  test.each([
    { given: 'one principal from two addresses', first: { principal: 'p1', ip: '10.0.0.1' }, second: { principal: 'p1', ip: '10.0.0.2' }, want: 429 },
    { given: 'two principals from one address', first: { principal: 'p1' }, second: { principal: 'p2' }, want: 200 },
    { given: 'anonymous callers from one address', first: { ip: '10.0.0.1' }, second: { ip: '10.0.0.1' }, want: 429 },
    { given: 'anonymous callers from two addresses', first: { ip: '10.0.0.1' }, second: { ip: '10.0.0.2' }, want: 200 },
    { given: 'a principal whose id is an address', first: { principal: '10.0.0.1' }, second: { ip: '10.0.0.1' }, want: 200 },
  ])('$given: the second call is a $want', async ({ first, second, want }) => {
    const store = new MemoryRateLimitStore();
    await call(store, first, 1);
    expect(await call(store, second, 1)).toMatchObject({ status: want });
  });

  test('a shared store may answer asynchronously, with the key and window it was given', async () => {
    const hits: [string, number][] = [];
    const store: RateLimitStore = {
      hit: async (key, windowMs) => (hits.push([key, windowMs]), { count: 3, resetAt: T0 + 5_000 }),
    };
    expect(await call(store, { principal: 'p1' })).toMatchObject({ status: 429, retryAfter: '5', 'X-RateLimit-Remaining': '0' });
    expect(hits).toEqual([['principal:p1', 60_000]]);
  });
});
