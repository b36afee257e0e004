/**
 * Server-sent events (`text/event-stream`): the headers go out at once, then
 * each event the handler's iterable yields, with a comment whenever the
 * stream is idle so proxies do not take it for dead. The stream ends when
 * the iterable does, when the client leaves, or when the service stops; the
 * iterable is then closed (`return()`), so its `finally` blocks run.
 */
import type { Context } from 'koa';
import { releaseHeaders } from './answer-headers.js';
import { errors } from './errors.js';
import type { AnswerRule, StreamSettings } from './operation.js';

export interface ServerSentEvent<Data = unknown> {
  data: Data;
  event?: string;
  id?: string;
  /** In milliseconds: how long the client waits before reconnecting. */
  retry?: number;
}

export interface EventOptions {
  /** Data sent as text (`String(data)`), not as JSON. */
  text: boolean;
  keepAliveMs: number;
  /** Aborts when the service stops. */
  stopping: AbortSignal;
}

/** A comment: clients ignore it, proxies see traffic. */
const COMMENT = ':\n\n';
const STOPPED = Symbol('stopped');

/** One event as the stream carries it; a field that would break its framing is the handler's mistake. */
export function serializeEvent(event: ServerSentEvent, text: boolean): string {
  const lines: string[] = [];
  if (event.event !== undefined) lines.push(`event: ${oneLine('event', event.event, /[\r\n]/)}`);
  // Clients ignore an id holding NUL.
  if (event.id !== undefined) lines.push(`id: ${oneLine('id', event.id, /[\r\n\0]/)}`);
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0)
      throw new Error(
        `An event's retry must be a whole number of milliseconds, not ${event.retry}.`,
      );
    lines.push(`retry: ${event.retry}`);
  }
  const data = text ? String(event.data) : (JSON.stringify(event.data) ?? 'null');
  for (const line of data.split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

function oneLine(name: string, value: string, forbidden: RegExp): string {
  if (forbidden.test(value))
    throw new Error(
      `An event's ${name} may not hold line breaks or NUL: ${JSON.stringify(value)}.`,
    );
  return value;
}

/**
 * Sends the events. Koa stays out of it (`ctx.respond = false`): the events
 * are written straight to the response, so that a client that does not read
 * holds the iterable back (`write` → `drain`) with no buffer in between, and
 * nothing Koa does after the middleware returns touches a response already
 * under way. An error of the iterable after the headers went out can only end
 * the stream; it is then passed on to the caller, to be logged. Once the
 * client is gone or the service is stopping, the iterable's errors (often
 * the abort itself) are nobody's concern and are dropped.
 */
export async function sendEvents(
  ctx: Context,
  events: AsyncIterable<ServerSentEvent, unknown, undefined>,
  options: EventOptions,
): Promise<void> {
  const res = ctx.res;
  releaseHeaders(ctx); // the request id and rate limit go out with the stream's head
  ctx.respond = false;
  ctx.status = 200;
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no', // nginx: pass each event on as it comes
  });
  // Unless the service, stopping, already asked for the connection to close (serve.ts).
  if (ctx.response.get('Connection') === '') ctx.set('Connection', 'keep-alive');
  const stop = disconnectSignal(ctx, options.stopping);
  const write = (chunk: string) => res.destroyed || res.write(chunk);
  write(COMMENT); // the headers with it: the client sees the stream open
  const keepAlive = setInterval(() => {
    if (!res.writableNeedDrain) write(COMMENT);
  }, options.keepAliveMs);
  const iterator = events[Symbol.asyncIterator]();
  let pending: Promise<unknown> | undefined; // a `next()` still running when the stream stopped
  let finished = false; // the iterator is done, or failed: nothing to close
  let failure: { error: unknown } | undefined;
  try {
    while (!stop.aborted) {
      const next = iterator.next();
      const step = await untilStopped(next, stop).catch((error: unknown) => {
        finished = true;
        throw error;
      });
      if (step === STOPPED) {
        pending = next;
        break;
      }
      if (step.done) {
        finished = true;
        break;
      }
      if (!write(serializeEvent(step.value, options.text))) await drained(res, stop);
      keepAlive.refresh(); // idle again from now
    }
  } catch (error) {
    if (!stop.aborted) failure = { error };
  } finally {
    clearInterval(keepAlive);
    if (!res.writableEnded) res.end();
  }
  if (!finished) {
    const closing = Promise.resolve()
      .then(() => iterator.return?.())
      .then(
        () => {},
        () => {},
      );
    // Behind a `next()` still running, `return()` waits for it: not ours to wait for (the iterable has `signal`).
    if (!pending) await closing;
  }
  if (failure) throw failure.error;
}

/**
 * Aborts once the request is over: when the client leaves (or its answer is
 * sent), or when the service stops. Handlers get it as `signal`, to stop
 * waiting for what nobody will read.
 */
export function disconnectSignal(ctx: Context, stopping: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (stopping.aborted || ctx.res.destroyed) abort();
  else {
    stopping.addEventListener('abort', abort, { once: true });
    ctx.res.once('close', () => {
      stopping.removeEventListener('abort', abort);
      abort();
    });
  }
  return controller.signal;
}

/** The step, or `STOPPED` as soon as `stop` aborts; a later rejection of `step` is handled. */
function untilStopped<T>(step: Promise<T>, stop: AbortSignal): Promise<T | typeof STOPPED> {
  if (stop.aborted) {
    step.catch(() => {});
    return Promise.resolve(STOPPED);
  }
  return new Promise((resolve, reject) => {
    const stopped = () => resolve(STOPPED);
    stop.addEventListener('abort', stopped, { once: true });
    step.then(resolve, reject).finally(() => stop.removeEventListener('abort', stopped));
  });
}

/** Once the client has read what was written, or the stream stopped. */
function drained(res: Context['res'], stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      stop.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    stop.addEventListener('abort', done, { once: true });
    if (stop.aborted) done();
  });
}

/**
 * A route's answer that is an event stream; its handler gets `lastEventId`
 * and `signal`. Checked before any header goes out: `undefined` is a 404, and
 * anything but an async iterable is the handler's fault (500). A HEAD gets the
 * headers alone, the iterable left unread.
 */
export function eventAnswer(rule: { text: boolean }): AnswerRule {
  return {
    extend: (ctx: Context, settings: StreamSettings) => ({
      lastEventId: ctx.get('Last-Event-ID') || undefined,
      signal: disconnectSignal(ctx, settings.stopping),
    }),
    send: async (ctx: Context, result: unknown, settings: StreamSettings) => {
      if (result === undefined) throw errors.notFound();
      if (!isAsyncIterable(result))
        throw new TypeError('An event stream handler must return an async iterable of events.');
      if (ctx.method === 'HEAD') {
        ctx.status = 200;
        ctx.type = 'text/event-stream';
        ctx.body = null;
        return;
      }
      await sendEvents(ctx, result, {
        text: rule.text,
        keepAliveMs: settings.keepAliveMs,
        stopping: settings.stopping,
      });
    },
  };
}

function isAsyncIterable(
  value: unknown,
): value is AsyncIterable<ServerSentEvent, unknown, undefined> {
  return (
    typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] ===
    'function'
  );
}
