/**
 * Rate limiting (conventions §8): a fixed window per credential, per client
 * address when anonymous. The counters live behind `RateLimitStore`, so a
 * service that runs on several instances can share them (Redis, a database).
 */
import type { ParameterizedContext } from 'koa';
import { setAnswerHeader } from './answer-headers.js';
import { isThenable } from './auth.js';
import { errors } from './errors.js';
import type { ServiceState } from './state.js';

export interface RateLimitWindow {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts one request for `key` in its current window of `windowMs`. */
  hit(key: string, windowMs: number): RateLimitWindow | Promise<RateLimitWindow>;
  /** Lets go of what the store holds open (a connection); called once the service stops. */
  close?(): Promise<void>;
  /** Rejects where a store shared by the instances does not answer (readiness, `/readyz`). */
  ping?(): Promise<void>;
}

/** Counters in this process's memory; expired windows are swept as new ones open. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitWindow>();
  private nextSweep = 0;

  hit(key: string, windowMs: number): RateLimitWindow {
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
  store: RateLimitStore;
}

/** Counts the request against its caller's window and says so in headers; 429 once the window is spent. */
export function countRequest(
  ctx: ParameterizedContext<ServiceState>,
  { limit, windowSeconds, store }: RateLimitOptions,
): void | Promise<void> {
  const key = ctx.state.principal ? principalKey(ctx.state.principal.id) : addressKey(ctx.ip);
  const window = store.hit(key, windowSeconds * 1000);
  // The in-memory store answers synchronously, and so does this then (see identify).
  return isThenable(window)
    ? Promise.resolve(window).then((counted) => tellWindow(ctx, limit, counted))
    : tellWindow(ctx, limit, window);
}

/**
 * A value's text, remembered while the value stays the same from one request
 * to the next: the limit and a window's reset; a caller's key, which the
 * counters' Map then hashes once rather than on every request.
 */
function remembered<Value>(textOf: (value: Value) => string): (value: Value) => string {
  let last: { value: Value | undefined; text: string } = { value: undefined, text: '' };
  return (value) =>
    value === last.value ? last.text : (last = { value, text: textOf(value) }).text;
}
const limitText = remembered<number>(String);
const resetText = remembered<number>(String);
const principalKey = remembered((id: string) => `principal:${id}`);
const addressKey = remembered((address: string) => `address:${address}`);

/** The rate-limit headers of the window; 429 once it is spent. */
function tellWindow(
  ctx: ParameterizedContext<ServiceState>,
  limit: number,
  window: RateLimitWindow,
): void {
  setAnswerHeader(ctx, 'X-RateLimit-Limit', limitText(limit));
  setAnswerHeader(ctx, 'X-RateLimit-Remaining', String(Math.max(0, limit - window.count)));
  setAnswerHeader(ctx, 'X-RateLimit-Reset', resetText(Math.ceil(window.resetAt / 1000)));
  if (window.count > limit)
    throw errors.rateLimited(Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)));
}
