/** Server-sent events through a real Koa server: framing, keep-alive comments, and stopping when the client leaves, the service stops or the iterable ends. */
import Koa, { type Context } from 'koa';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import {
  disconnectSignal,
  sendEvents,
  serializeEvent,
  type ServerSentEvent,
} from '../../../src/runtime/server/generated/conventions/events.js';
import { listen, type Listening } from '../../loopback.js';

/** What became of one stream. */
interface Run {
  /** The generator's finally block ran. */
  finallyRan: boolean;
  /** Events the iterable was asked for. */
  pulled: number;
  /** sendEvents resolved, or what it threw. */
  outcome?: 'done' | { error: unknown };
}

const runs: Run[] = [];
let stopping = new AbortController();

type Source = (run: Run, signal: AbortSignal) => AsyncIterable<ServerSentEvent>;

/** Resolves when `signal` aborts. */
const aborted = (signal: AbortSignal) => new Promise((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener('abort', resolve)));

const SOURCES: Record<string, { source: Source; text?: boolean; keepAliveMs?: number }> = {
  '/three': {
    source: async function* (run) {
      try {
        yield { data: { n: 1 }, event: 'tick', id: '1' };
        yield { data: 'two' };
        yield { data: 3, retry: 5000 };
      } finally {
        run.finallyRan = true;
      }
    },
  },
  '/text': {
    text: true,
    source: async function* () {
      yield { data: 'first line\nsecond\r\nthird', event: 'note' };
    },
  },
  '/idle': {
    keepAliveMs: 30,
    source: async function* () {
      yield { data: 1 };
      await sleep(150);
      yield { data: 2 };
    },
  },
  // Waits for the next event until the client leaves or the service stops: a `next()` still running then.
  '/waits': {
    source: async function* (run, signal) {
      try {
        yield { data: 1 };
        await aborted(signal);
        yield { data: 'never sent' };
      } finally {
        run.finallyRan = true;
      }
    },
  },
  // No event until the client leaves.
  '/late': {
    source: async function* (_run, signal) {
      await aborted(signal);
      yield { data: 'never sent' };
    },
  },
  // An event every few milliseconds: stopped while suspended at a `yield`.
  '/ticks': {
    source: async function* (run) {
      try {
        for (let n = 1; ; n++) {
          run.pulled = n;
          yield { data: n };
          await sleep(5);
        }
      } finally {
        run.finallyRan = true;
      }
    },
  },
  // Large events, as fast as the client takes them.
  '/flood': {
    source: async function* (run) {
      try {
        for (let n = 1; ; n++) {
          run.pulled = n;
          yield { data: 'x'.repeat(64 * 1024) };
          await tick(); // lets the event loop turn: without backpressure, this would go on and on
        }
      } finally {
        run.finallyRan = true;
      }
    },
  },
  '/fails': {
    source: async function* () {
      yield { data: 1 };
      throw new Error('the source failed');
    },
  },
  // A bare iterator: `return()` is what ends it.
  '/bare': {
    source: (run) => ({
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: { data: (run.pulled += 1) } }),
        return: async () => {
          run.finallyRan = true;
          return { done: true, value: undefined };
        },
      }),
    }),
  },
};

let listening: Listening;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  // A client gone (a reset, or a write after it left) is no error of the stream; Koa would log it.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error(error);
  });
  app.use(async (ctx: Context) => {
    const { source, text = false, keepAliveMs = 10_000 } = SOURCES[ctx.path]!;
    const run: Run = { finallyRan: false, pulled: 0 };
    runs.push(run);
    try {
      await sendEvents(ctx, source(run, disconnectSignal(ctx, stopping.signal)), { text, keepAliveMs, stopping: stopping.signal });
      run.outcome = 'done';
    } catch (error) {
      run.outcome = { error };
    }
  });
  listening = await listen(app);
  ({ base } = listening);
});

beforeEach(() => {
  stopping = new AbortController();
});

afterAll(async () => {
  await listening.close();
});

const lastRun = () => runs[runs.length - 1]!;

/** Until `check` holds, or fails after two seconds. */
async function eventually(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !check(); attempt++) await sleep(10);
  expect(check()).toBe(true);
}

/** Opens the stream with node:http; resolves with the response once `until` is in what arrived (within two seconds). */
function open(path: string, until: string): Promise<{ response: IncomingMessage; received: () => string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${JSON.stringify(until)} did not arrive`)), 2000);
    const request = httpGet(`${base}${path}`, { agent: false }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        received += chunk;
        if (!received.includes(until)) return;
        clearTimeout(timer);
        resolve({ response, received: () => received });
      });
    });
    request.on('error', reject); // once resolved, a reset when the test lets go is no failure
  });
}

describe('sendEvents', () => {
  test('the headers at once, an opening comment, then each event framed; the iterable ending ends the stream', async () => {
    const response = await fetch(`${base}/three`);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    expect(await response.text()).toBe(':\n\nevent: tick\nid: 1\ndata: {"n":1}\n\ndata: "two"\n\nretry: 5000\ndata: 3\n\n');
    await eventually(() => lastRun().outcome === 'done');
    expect(lastRun().finallyRan).toBe(true);
  });

  test('text data: String(data), a line break making another data line', async () => {
    expect(await (await fetch(`${base}/text`)).text()).toBe(':\n\nevent: note\ndata: first line\ndata: second\ndata: third\n\n');
  });

  test('the opening comment arrives before any event', async () => {
    const { response, received } = await open('/late', ':\n\n');
    expect(received()).toBe(':\n\n');
    response.destroy();
  });

  test('a comment keeps the stream alive while it is idle', async () => {
    const body = await (await fetch(`${base}/idle`)).text();
    const [, idle] = body.split('data: 1\n\n');
    expect(idle).toMatch(/^(:\n\n)+data: 2\n\n$/);
  });

  test.each(['/waits', '/ticks', '/bare'])('%s: the client leaving stops the stream and closes the iterable (return(), finally)', async (path) => {
    const { response } = await open(path, 'data: 1\n\n');
    const run = lastRun();
    response.destroy();
    await eventually(() => run.finallyRan && run.outcome === 'done');
    const pulled = run.pulled;
    await sleep(50);
    expect(run.pulled).toBe(pulled);
  });

  test.each(['/waits', '/ticks'])('%s: the service stopping ends the stream', async (path) => {
    const { response, received } = await open(path, 'data: 1\n\n');
    const ended = new Promise((resolve) => response.once('end', resolve));
    stopping.abort();
    await ended;
    expect(received()).toMatch(/^:\n\ndata: 1\n\n/);
    await eventually(() => lastRun().finallyRan && lastRun().outcome === 'done');
  });

  test('a service already stopping: the stream opens and ends at once, the iterable closed unread', async () => {
    stopping.abort();
    expect(await (await fetch(`${base}/bare`)).text()).toBe(':\n\n');
    await eventually(() => lastRun().outcome === 'done');
    expect(lastRun()).toMatchObject({ finallyRan: true, pulled: 0 });
  });

  test('an error of the iterable ends the stream, then goes to the caller', async () => {
    expect(await (await fetch(`${base}/fails`)).text()).toBe(':\n\ndata: 1\n\n');
    await eventually(() => lastRun().outcome !== undefined);
    expect((lastRun().outcome as { error: Error }).error.message).toBe('the source failed');
  });

  test('a client that does not read holds the iterable back', async () => {
    const { response } = await open('/flood', 'data: "x');
    response.pause();
    await sleep(300);
    const run = lastRun();
    // Socket buffers hold a few MB at most (64 KiB an event); without backpressure this runs into the thousands.
    expect(run.pulled).toBeLessThan(200);
    response.destroy();
    await eventually(() => run.finallyRan);
  });
});

describe('serializeEvent', () => {
  test.each([
    [{ data: { a: 1 } }, false, 'data: {"a":1}\n\n'],
    [{ data: 'a\nb' }, false, 'data: "a\\nb"\n\n'],
    [{ data: 'a\nb\rc\r\nd' }, true, 'data: a\ndata: b\ndata: c\ndata: d\n\n'],
    [{ data: '' }, true, 'data: \n\n'],
    [{ data: undefined }, false, 'data: null\n\n'],
    [{ data: 7, event: 'e', id: 'x y', retry: 0 }, true, 'event: e\nid: x y\nretry: 0\ndata: 7\n\n'],
  ] as const)('%j (text: %s)', (event, text, serialized) => {
    expect(serializeEvent(event, text)).toBe(serialized);
  });

  test.each([
    [{ data: 1, event: 'a\nb' }, 'event'],
    [{ data: 1, event: 'a\rb' }, 'event'],
    [{ data: 1, id: '1\n2' }, 'id'],
    [{ data: 1, id: '1\u00002' }, 'id'],
    [{ data: 1, retry: -1 }, 'retry'],
    [{ data: 1, retry: 1.5 }, 'retry'],
  ])('refuses %j', (event, field) => {
    expect(() => serializeEvent(event, false)).toThrow(field);
  });
});
