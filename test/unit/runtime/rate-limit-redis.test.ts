/**
 * The Redis rate-limit store against a real Redis (REDIS_URL, default
 * 127.0.0.1:6379): atomic counts shared by instances, windows that end, and a
 * service that answers within the timeout when Redis does not.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import { countRequest } from '../../../src/runtime/server/generated/conventions/rate-limit.js';
import { answerError } from '../../../src/runtime/server/generated/conventions/respond.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';
import { RedisRateLimitStore, redisRateLimitFromEnv, type RedisRateLimitOptions } from '../../../src/runtime/server/generated/conventions/rate-limit-redis.js';
import { ROOT } from '../../helpers.js';
import { deleteRedisKeys, pingRedis, redisUrl, requireService, withRedis } from '../../services.js';

/** Nothing listens on port 1: connections are refused at once. */
const UNREACHABLE = 'redis://127.0.0.1:1';
const TIMEOUT_MS = 200;
/** For the tests of counting: generous, so a busy machine does not send them to the fallback. */
const PATIENT_MS = 5000;
/** What a request may take beyond the timeout on a busy machine. */
const SLACK_MS = 150;

const redis = await requireService('Redis', pingRedis());
/** Keys of this run only, deleted after it. */
const prefix = `specforge-test:${randomUUID()}:`;
const stores: RedisRateLimitStore[] = [];

function store(options: Partial<RedisRateLimitOptions> = {}): RedisRateLimitStore {
  const made = new RedisRateLimitStore({ url: redisUrl(), prefix, timeoutMs: PATIENT_MS, log: () => {}, ...options });
  stores.push(made);
  return made;
}

afterAll(async () => {
  await Promise.all(stores.map((made) => made.close()));
  if (redis.available) await deleteRedisKeys(prefix);
});

/** How long `work` took, in milliseconds, and what it gave. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

/** A node process that counts a few hits with the built store, never closing it, then ends its script. */
function runStoreInChild(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const module = join(ROOT, 'dist/runtime/server/generated/conventions/rate-limit-redis.js');
  const script = `
    const { RedisRateLimitStore } = await import(${JSON.stringify(module)});
    const store = new RedisRateLimitStore({ url: ${JSON.stringify(url)}, prefix: ${JSON.stringify(`${prefix}child:`)}, timeoutMs: ${PATIENT_MS}, retryMs: 10 });
    for (let i = 0; i < 5; i++) { await store.hit('k', 1000); await new Promise((r) => setTimeout(r, 20)); }
    console.log('done');`;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 5000 }, (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }));
  });
}

redis.describe('RedisRateLimitStore, against Redis', () => {
  test('a process that never closes the store exits by itself: the connection holds it not', async () => {
    const { ms, result } = await timed(() => runStoreInChild(redisUrl()));
    expect(result).toMatchObject({ code: 0, stdout: 'done\n', stderr: '' });
    expect(ms).toBeLessThan(3000);
  });

  test('200 hits at once through two instances: each count from 1 to 200 given exactly once', async () => {
    const [a, b] = [store(), store()];
    const hits = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).hit('crowd', 60_000)));
    expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  test('two instances share one window: the second continues the count, with the same reset', async () => {
    const [a, b] = [store(), store()];
    const first = await a.hit('shared', 60_000);
    const second = await b.hit('shared', 60_000);
    expect([first.count, second.count]).toEqual([1, 2]);
    expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThan(100);
    expect(first.resetAt - Date.now()).toBeGreaterThan(59_000);
  });

  test('keys count apart, under the prefix', async () => {
    const counts = store();
    await counts.hit('one', 60_000);
    expect((await counts.hit('two', 60_000)).count).toBe(1);
    expect(await withRedis((client) => client.get(`${prefix}one`))).toBe('1');
  });

  test('a window ends windowMs after its first hit, and the next one counts from 1', async () => {
    const counts = store();
    const first = await counts.hit('brief', 300);
    expect((await counts.hit('brief', 300)).count).toBe(2);
    expect(first.resetAt - Date.now()).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await counts.hit('brief', 300)).count).toBe(1);
  });

  test('a counter found without expiry gets one: it never counts forever', async () => {
    await withRedis((client) => client.set(`${prefix}stuck`, '5'));
    expect((await store().hit('stuck', 60_000)).count).toBe(6);
    expect(await withRedis((client) => client.pTTL(`${prefix}stuck`))).toBeGreaterThan(59_000);
  });

  test('after SCRIPT FLUSH (a Redis restart empties the script cache) the script is loaded again', async () => {
    const counts = store();
    await counts.hit('flushed', 60_000);
    await withRedis((client) => client.scriptFlush());
    expect((await counts.hit('flushed', 60_000)).count).toBe(2);
  });

  test('a connection lost mid-service: the outage is logged once, and its end once, after retryMs', async () => {
    const lines: string[] = [];
    const name = `specforge-test-${randomUUID()}`;
    const counts = store({ retryMs: 100, name, log: (line) => lines.push(line) });
    await counts.hit('lost', 60_000);
    // This store's connection only: others may share the Redis.
    await withRedis(async (client) => {
      const list = String(await client.sendCommand(['CLIENT', 'LIST']));
      const id = list.split('\n').find((line) => line.includes(` name=${name} `))?.match(/\bid=(\d+)/)?.[1];
      expect(id).toBeDefined();
      await client.sendCommand(['CLIENT', 'KILL', 'ID', id!]);
    });
    for (let i = 0; i < 5; i++) await counts.hit('lost', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const hit = await counts.hit('lost', 60_000);
    expect(lines).toEqual([expect.stringMatching(/^Rate limit: Redis at redis:\/\/[^ ]+ does not answer \(.+\); requests are counted in this process's memory until it does \(RATE_LIMIT_FAIL=open\)\.$/), expect.stringMatching(/answers again\.$/)]);
    expect(hit.count).toBe(2); // Redis's count again, not the memory's (6)
  });
});

describe('RedisRateLimitStore, without Redis', () => {
  test('fail open: answers within the timeout, counts in memory, logs once without a stack', async () => {
    const lines: string[] = [];
    const counts = store({ url: UNREACHABLE, timeoutMs: TIMEOUT_MS, fail: 'open', log: (line) => lines.push(line) });
    const { ms, result } = await timed(async () => [await counts.hit('k', 60_000), await counts.hit('k', 60_000), await counts.hit('k', 60_000)]);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    expect(result.map((hit) => hit.count)).toEqual([1, 2, 3]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Rate limit: Redis at redis:\/\/127\.0\.0\.1:1 does not answer \(.*ECONNREFUSED.*\); requests are counted in this process's memory/);
    expect(lines[0]).not.toMatch(/\n|    at /);
  });

  test('fail closed: 503 SERVICE_UNAVAILABLE with Retry-After, within the timeout', async () => {
    const lines: string[] = [];
    const counts = store({ url: UNREACHABLE, timeoutMs: TIMEOUT_MS, fail: 'closed', log: (line) => lines.push(line) });
    for (let i = 0; i < 3; i++) {
      const { ms, result } = await timed(() => counts.hit('k', 60_000).then(() => undefined, (error: unknown) => error));
      expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      expect(result).toBeInstanceOf(ApiError);
      expect(result).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
    }
    expect(lines).toEqual([expect.stringContaining('requests are refused with 503 until it does (RATE_LIMIT_FAIL=closed)')]);
  });

  test('fail closed, as the service answers it: the 503 envelope, and no log line per request', async () => {
    const counts = store({ url: UNREACHABLE, timeoutMs: TIMEOUT_MS, fail: 'closed' });
    const logged: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const headers: Record<string, string> = {};
      const ctx = { state: { requestId: `req-${i}` }, ip: '10.0.0.1', method: 'GET', path: '/things', set: (name: string | Record<string, string>, value?: string) => void (typeof name === 'string' ? (headers[name] = value!) : Object.assign(headers, name)), res: { setHeader: (name: string, value: string) => void (headers[name] = value) } } as unknown as ParameterizedContext<ServiceState>;
      await Promise.resolve(countRequest(ctx, { limit: 10, windowSeconds: 60, store: counts })).catch((error: unknown) => answerError(ctx, error, (entry) => logged.push(entry)));
      expect({ status: ctx.status, body: ctx.body, retryAfter: headers['Retry-After'] }).toEqual({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The service cannot answer right now; retry in 1 s.', request_id: `req-${i}` } }, retryAfter: '1' });
    }
    expect(logged).toEqual([]);
  });

  describe('a Redis that accepts connections and never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      server = createServer((socket) => void sockets.add(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    test('each request waits at most the timeout, and the ones while Redis rests do not wait', async () => {
      const address = server.address() as { port: number };
      const counts = store({ url: `redis://127.0.0.1:${address.port}`, timeoutMs: TIMEOUT_MS, fail: 'open' });
      const first = await timed(() => counts.hit('k', 60_000));
      expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(first.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      const next = await timed(() => counts.hit('k', 60_000));
      // Well under the timeout: another process on the same cores may delay it a little, never by a timeout.
      expect(next.ms).toBeLessThan(TIMEOUT_MS / 2);
      expect(next.result.count).toBe(2);
    }, 5_000);
  });

  test('a process whose Redis is down exits by itself: no reconnect loop keeps it alive', async () => {
    const { ms, result } = await timed(() => runStoreInChild(UNREACHABLE));
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' });
    expect(result.stderr.trim().split('\n')).toHaveLength(1); // the one outage line, no stack
    expect(ms).toBeLessThan(3000);
  });
});

describe('redisRateLimitFromEnv', () => {
  const NAMES = ['REDIS_URL', 'RATE_LIMIT_FAIL', 'REDIS_TIMEOUT_MS', 'RATE_LIMIT_KEY_PREFIX'];
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  /** The store the environment `given` makes. */
  function fromEnv(given: Record<string, string>): RedisRateLimitStore | undefined {
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, given);
    const made = redisRateLimitFromEnv();
    if (made) stores.push(made);
    return made;
  }
  afterEach(() => {
    for (const name of NAMES) if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  });

  test('none without REDIS_URL', () => {
    expect(fromEnv({})).toBeUndefined();
    expect(fromEnv({ REDIS_URL: '' })).toBeUndefined();
  });

  test('RATE_LIMIT_FAIL is open or closed, REDIS_TIMEOUT_MS a whole number; anything else stops the start, naming it', () => {
    expect(fromEnv({ REDIS_URL: UNREACHABLE, RATE_LIMIT_FAIL: 'closed' })).toBeInstanceOf(RedisRateLimitStore);
    expect(() => fromEnv({ REDIS_URL: UNREACHABLE, RATE_LIMIT_FAIL: 'shut' })).toThrow('RATE_LIMIT_FAIL=shut is neither open nor closed.');
    expect(() => fromEnv({ REDIS_URL: UNREACHABLE, REDIS_TIMEOUT_MS: '0' })).toThrow('REDIS_TIMEOUT_MS=0 is not a whole number of at least 1.');
  });

  test('closed from the environment refuses without Redis, and says so on stderr', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(fromEnv({ REDIS_URL: UNREACHABLE, RATE_LIMIT_FAIL: 'closed' })!.hit('k', 1000)).rejects.toMatchObject({ status: 503 });
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('(RATE_LIMIT_FAIL=closed)'));
    } finally {
      logged.mockRestore();
    }
  });

  redis.describe('from the environment, against Redis', () => {
    test('counts under RATE_LIMIT_KEY_PREFIX', async () => {
      expect(await fromEnv({ REDIS_URL: redisUrl(), RATE_LIMIT_KEY_PREFIX: `${prefix}env:`, REDIS_TIMEOUT_MS: String(PATIENT_MS) })!.hit('k', 60_000)).toMatchObject({ count: 1 });
      expect(await withRedis((client) => client.get(`${prefix}env:k`))).toBe('1');
    });
  });
});
