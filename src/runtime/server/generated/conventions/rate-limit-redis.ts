/**
 * Rate-limit counters in Redis, shared by every instance of the service.
 *
 * One round trip per request: a Lua script increments the window's counter,
 * starts its expiry on the first hit and answers the count with the time
 * left, atomically, whatever the number of instances counting at once.
 *
 * Redis is a dependency the service must survive: no request waits longer
 * than `timeoutMs` for it. When it does not answer, the policy decides:
 * `open` counts in this process's memory until Redis answers again (the
 * limit then holds per instance), `closed` refuses with 503
 * SERVICE_UNAVAILABLE. Either way the outage is logged once when it starts
 * and once when it ends, and Redis is tried again at most once per
 * `retryMs`, so an outage costs requests no waiting. The client never
 * reconnects in the background: a connection is opened again on demand,
 * and nothing of it keeps the process alive.
 */
import { createHash } from 'node:crypto';
import type { RedisClientType } from '@redis/client';
import { errors } from './errors.js';
import { MemoryRateLimitStore, type RateLimitStore, type RateLimitWindow } from './rate-limit.js';
import { integerFromEnv } from './serve.js';

type RedisClient = RedisClientType;

/** What to do with a request while Redis does not answer. */
export type RateLimitFailPolicy = 'open' | 'closed';

export interface RedisRateLimitOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** Put before every key, so several services can share one Redis. Default `ratelimit:`. */
  prefix?: string;
  /** The longest a request waits for Redis, connecting included. Default 200. */
  timeoutMs?: number;
  /** How long Redis is left alone after it failed, in milliseconds. Default 1000. */
  retryMs?: number;
  /** Default `open`. */
  fail?: RateLimitFailPolicy;
  /** The connection's name in Redis's CLIENT LIST. Default `rate-limit`. */
  name?: string;
  /** Where the outage's start and end are told. Default: stderr. */
  log?: (line: string) => void;
}

/**
 * A connection may take longer than a request may wait (TLS to a managed
 * Redis): it goes on in the background while requests go without Redis.
 */
const CONNECT_TIMEOUT_MS = 5_000;

/** INCR, PEXPIRE on a window's first hit (or on a counter found without expiry), PTTL: one atomic step. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly options: Required<Omit<RedisRateLimitOptions, 'url'>> & { url: string };
  private readonly fallback = new MemoryRateLimitStore();
  private readonly scriptSha = createHash('sha1').update(HIT_SCRIPT).digest('hex');
  /** The connection, opening or open; undefined after it failed or was lost. */
  private client: Promise<RedisClient> | undefined;
  /** The client `client` opens, as soon as it exists. */
  private current: RedisClient | undefined;
  /** Until when Redis is not tried (epoch milliseconds). */
  private restingUntil = 0;
  private outage = false;
  private closed = false;

  constructor(options: RedisRateLimitOptions) {
    this.options = {
      prefix: 'ratelimit:',
      timeoutMs: 200,
      retryMs: 1000,
      fail: 'open',
      name: 'rate-limit',
      log: (line) => console.error(line),
      ...options,
    };
  }

  async hit(key: string, windowMs: number): Promise<RateLimitWindow> {
    if (this.closed || Date.now() < this.restingUntil) return this.withoutRedis(key, windowMs);
    try {
      const window = await within(this.options.timeoutMs, this.count(key, windowMs));
      this.answered();
      return window;
    } catch (error) {
      this.failed(error);
      return this.withoutRedis(key, windowMs);
    }
  }

  /** Redis answers PING within `timeoutMs`, connecting included. */
  async ping(): Promise<void> {
    if (this.closed) throw new Error('the rate-limit store is closed');
    try {
      const client = await within(this.options.timeoutMs, (this.client ??= this.connect()));
      await within(this.options.timeoutMs, client.ping());
    } catch (error) {
      throw new Error(`Redis (rate limit) does not answer: ${(error as Error).message}`);
    }
  }

  /** Closes the connection: gracefully, within `timeoutMs`. Later hits go without Redis. */
  async close(): Promise<void> {
    this.closed = true;
    const opening = this.client;
    this.client = undefined;
    this.current = undefined;
    const client = await opening?.catch(() => undefined);
    if (!client?.isOpen) return;
    await within(this.options.timeoutMs, client.close()).catch(() => client.destroy());
  }

  private async count(key: string, windowMs: number): Promise<RateLimitWindow> {
    const client = await (this.client ??= this.connect());
    const options = { keys: [`${this.options.prefix}${key}`], arguments: [String(windowMs)] };
    const reply = await client.evalSha(this.scriptSha, options).catch((error: unknown) => {
      // The script cache is empty after a restart or SCRIPT FLUSH: EVAL loads it again.
      if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
      return client.eval(HIT_SCRIPT, options);
    });
    return windowOf(reply);
  }

  private async connect(): Promise<RedisClient> {
    const { createClient } = await import('@redis/client');
    const client = createClient({
      url: this.options.url,
      name: this.options.name,
      // Reconnecting is ours to do, on demand: the client's own loop would run timers that keep the process alive.
      socket: {
        connectTimeout: Math.max(CONNECT_TIMEOUT_MS, this.options.timeoutMs),
        reconnectStrategy: false,
      },
      // A command sent while the connection is down fails at once rather than waiting for it.
      disableOfflineQueue: true,
    });
    this.current = client;
    client.on('error', (error: unknown) => this.lost(client, error));
    client.unref();
    try {
      await client.connect();
    } catch (error) {
      this.lost(client, error);
      throw error;
    }
    if (this.closed) client.destroy();
    return client;
  }

  /** The connection failed or broke: the next try after the rest opens a new one. */
  private lost(client: RedisClient, error: unknown): void {
    if (this.current === client) {
      this.client = undefined;
      this.current = undefined;
    }
    if (client.isOpen) client.destroy();
    this.failed(error);
  }

  private failed(error: unknown): void {
    this.restingUntil = Date.now() + this.options.retryMs;
    if (this.outage || this.closed) return;
    this.outage = true;
    const consequence =
      this.options.fail === 'open'
        ? "requests are counted in this process's memory"
        : 'requests are refused with 503';
    this.options.log(
      `Rate limit: Redis at ${where(this.options.url)} does not answer (${reason(error)}); ${consequence} until it does (RATE_LIMIT_FAIL=${this.options.fail}).`,
    );
  }

  private answered(): void {
    if (!this.outage) return;
    this.outage = false;
    this.options.log(`Rate limit: Redis at ${where(this.options.url)} answers again.`);
  }

  private withoutRedis(key: string, windowMs: number): RateLimitWindow {
    if (this.options.fail === 'closed')
      throw errors.unavailable(Math.max(1, Math.ceil(this.options.retryMs / 1000)));
    // A copy: the memory store's window changes with the next hit.
    return { ...this.fallback.hit(key, windowMs) };
  }
}

/** REDIS_URL, RATE_LIMIT_FAIL, REDIS_TIMEOUT_MS and RATE_LIMIT_KEY_PREFIX; undefined without REDIS_URL. */
export function redisRateLimitFromEnv(
  log?: (line: string) => void,
): RedisRateLimitStore | undefined {
  const env = process.env;
  const url = env.REDIS_URL ?? '';
  if (url === '') return undefined;
  return new RedisRateLimitStore({
    url,
    fail: failPolicyOf(env.RATE_LIMIT_FAIL),
    timeoutMs: integerFromEnv('REDIS_TIMEOUT_MS', 200, { min: 1 }),
    prefix: env.RATE_LIMIT_KEY_PREFIX || 'ratelimit:',
    ...(log ? { log } : {}),
  });
}

function failPolicyOf(value: string | undefined): RateLimitFailPolicy {
  if (value === undefined || value === '' || value === 'open') return 'open';
  if (value === 'closed') return 'closed';
  throw new Error(`RATE_LIMIT_FAIL=${value} is neither open nor closed.`);
}

/** The script's reply, `[count, milliseconds left]`, as a window. */
function windowOf(reply: unknown): RateLimitWindow {
  const [count, ttl] = Array.isArray(reply) ? reply : [];
  if (typeof count !== 'number' || typeof ttl !== 'number')
    throw new Error(`Unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  return { count, resetAt: Date.now() + ttl };
}

/** `work`, or a rejection once `ms` have passed; the timer holds the process while a request waits, the unref'd socket cannot. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The server, without the credentials a URL may carry. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'REDIS_URL (unparseable)';
  }
}

/** One line, no stack: an outage is an operational fact, not a bug. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200) || 'no reason given';
}
