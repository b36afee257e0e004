/** Files and server-sent events through the client, against a real HTTP server on the loopback. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { ApiError, Transport, type CallOptions } from '../../../src/runtime/client/runtime.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let handler: Handler;
/** Every request the server took: its method, path and headers, and its body once read. */
let seen: { method: string; url: string; headers: IncomingMessage['headers'] }[];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    void Promise.resolve(handler(req, res)).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  seen = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const transport = () => new Transport({ baseUrl, apiKeyHeader: 'X-API-Key', retry: { baseDelayMs: 0 } });

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Every byte value, so that any text decoding on the way would show. */
const BINARY = Uint8Array.from({ length: 256 }, (_, index) => index);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when the promise does, fails the test when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('request bodies', () => {
  test('a multipart upload reaches the server with the file bytes intact', async () => {
    let received: { type: string; body: Buffer } | undefined;
    handler = async (req, res) => {
      received = { type: req.headers['content-type']!, body: await bodyOf(req) };
      json(res, 201, { data: { ok: true } });
    };
    const upload = transport().operation<{ body: { title: string; cover: Blob; tags: string[] } }, { ok: boolean }>({
      method: 'POST',
      path: '/covers',
      body: { encoding: 'multipart' },
    });
    const cover = new File([BINARY], 'cover.bin', { type: 'application/octet-stream' });
    await expect(upload({ body: { title: 'Dune', cover, tags: ['a', 'b'] } })).resolves.toEqual({ ok: true });
    expect(received!.type).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(received!.body, { headers: { 'content-type': received!.type } }).formData();
    expect(form.get('title')).toBe('Dune');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
    const file = form.get('cover') as File;
    expect(file.name).toBe('cover.bin');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(BINARY);
  });

  test("a raw upload travels as it is, with the operation's media type", async () => {
    let received: { type: string | undefined; body: Buffer } | undefined;
    handler = async (req, res) => {
      received = { type: req.headers['content-type'], body: await bodyOf(req) };
      json(res, 200, { data: { ok: true } });
    };
    const put = transport().operation<{ id: string; body: Blob | Uint8Array }, { ok: boolean }>({
      method: 'PUT',
      path: '/covers/{id}',
      body: { encoding: 'bytes', mediaType: 'image/png' },
    });
    await put({ id: '1', body: BINARY });
    expect(received!.type).toBe('image/png');
    expect(new Uint8Array(received!.body)).toEqual(BINARY);
    const wildcard = transport().operation<{ body: Blob }, unknown>({ method: 'PUT', path: '/any', body: { encoding: 'bytes', mediaType: '*/*' } });
    await wildcard({ body: new Blob([BINARY], { type: 'image/webp' }) });
    expect(received!.type).toBe('image/webp');
    expect(new Uint8Array(received!.body)).toEqual(BINARY);
  });

  test('a stream body is sent as it is read, and never tried again (a Blob is)', async () => {
    let received: Buffer | undefined;
    handler = async (req, res) => {
      received = await bodyOf(req);
      json(res, 503, { error: { code: 'UNAVAILABLE', message: 'later' } });
    };
    const put = transport().operation<{ body: ReadableStream<Uint8Array> | Blob }, unknown>({
      method: 'PUT',
      path: '/upload',
      body: { encoding: 'bytes', mediaType: 'application/octet-stream' },
    });
    await expect(put({ body: new Blob([BINARY]).stream() })).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(seen).toHaveLength(1);
    expect(new Uint8Array(received!)).toEqual(BINARY);
    seen = [];
    await expect(put({ body: new Blob([BINARY]) })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(3);
  });
});

describe('file answers', () => {
  const png = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/png', 'x-request-id': 'req-1', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '100' });
    res.end(Buffer.from(BINARY));
  };
  const spec = { method: 'GET', path: '/covers/{id}', accept: 'image/png' };
  type P = { id: string } & CallOptions;

  test('as a Blob: its bytes and type, and the Accept header of the operation', async () => {
    handler = (_req, res) => png(res);
    const blob = await transport().file<P>(spec)({ id: '1' });
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(BINARY);
    expect(seen[0]!.headers.accept).toBe('image/png');
    await transport().file<P>({ method: 'GET', path: '/covers/{id}' })({ id: '1' });
    expect(seen[1]!.headers.accept).toBe('*/*');
  });

  test('withResponse: the status and what the headers say, no envelope', async () => {
    handler = (_req, res) => png(res);
    const answer = await transport().file<P>(spec).withResponse({ id: '1' });
    expect(answer).toMatchObject({ status: 200, requestId: 'req-1', rateLimit: { limit: 10, remaining: 9, reset: 100 }, envelope: undefined });
    expect(answer.data).toBeInstanceOf(Blob);
  });

  test('as a stream, which the timeout does not cut once the headers are in (a Blob it does)', async () => {
    handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.from(BINARY.slice(0, 100)));
      await delay(300);
      res.end(Buffer.from(BINARY.slice(100)));
    };
    const download = transport().file<P>({ method: 'GET', path: '/slow/{id}' });
    const stream = await download({ id: '1', parseAs: 'stream', timeoutMs: 100 });
    expect(new Uint8Array(await new Response(stream).arrayBuffer())).toEqual(BINARY);
    await expect(download({ id: '1', timeoutMs: 100 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  test('an error status is a JSON error envelope: an ApiError with its code', async () => {
    handler = (_req, res) => json(res, 404, { error: { code: 'NOT_FOUND', message: 'No such cover.', request_id: 'r-404' } });
    const download = transport().file<P>(spec);
    const error = await download({ id: '9' }).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'No such cover.', request_id: 'r-404' });
    await expect(download({ id: '9', parseAs: 'stream' })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  test('a retryable status is tried again, as for any operation', async () => {
    let calls = 0;
    handler = (_req, res) => (++calls === 1 ? json(res, 503, { error: { code: 'UNAVAILABLE' } }, { 'retry-after': '0' }) : png(res));
    const blob = await transport().file<P>(spec)({ id: '1' });
    expect(blob.size).toBe(256);
    expect(seen).toHaveLength(2);
  });
});

describe('server-sent events', () => {
  type Note = { n: number };
  type P = CallOptions;
  const eventStream = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = (json = true) => transport().events<P, Note>({ method: 'GET', path: '/notes/events' }, { json });
  /** Stops what a failed test left reconnecting. */
  let stop: AbortController;
  beforeEach(() => {
    stop = new AbortController();
  });
  afterEach(() => stop.abort());

  async function collect<T>(iterable: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
    const items: T[] = [];
    for await (const item of iterable) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  test('three events, JSON-parsed; with reconnect: false the iteration stops when the stream ends', async () => {
    handler = (_req, res) => {
      eventStream(res);
      res.end('id: 1\ndata: {"n":1}\n\nevent: note\ndata: {"n":2}\n\n: keep-alive\ndata: {"n":3}\n\n');
    };
    await expect(within(collect(events()({ reconnect: false })), 2000, 'the events')).resolves.toEqual([
      { data: { n: 1 }, id: '1' },
      { data: { n: 2 }, event: 'note', id: '1' },
      { data: { n: 3 }, id: '1' },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({ accept: 'text/event-stream', 'cache-control': 'no-cache' });
    expect(seen[0]!.headers['last-event-id']).toBeUndefined();
  });

  test('without json the data is left as text; a lastEventId to start from is sent, and in effect until the server sets one', async () => {
    handler = (_req, res) => {
      eventStream(res);
      res.end('data: {"n":1}\n\nid: 42\ndata: {"n":2}\n\n');
    };
    await expect(collect(events(false)({ reconnect: false, lastEventId: '41' }))).resolves.toEqual([
      { data: '{"n":1}', id: '41' },
      { data: '{"n":2}', id: '42' },
    ]);
    expect(seen[0]!.headers['last-event-id']).toBe('41');
  });

  test('a dropped connection is opened again after `retry`, from Last-Event-ID, with no event twice', async () => {
    // The server resumes after the Last-Event-ID it is sent; the first connection drops after event 2.
    handler = (req, res) => {
      const after = Number(req.headers['last-event-id'] ?? 0);
      eventStream(res);
      const rest = [1, 2, 3].filter((n) => n > after).map((n) => `id: ${n}\ndata: {"n":${n}}\n\n`);
      if (after >= 2) return void res.write(rest.join(''));
      res.write(`retry: 10\n${rest.slice(0, 2 - after).join('')}`, () => res.socket!.destroy());
    };
    const started = Date.now();
    const notes = await within(collect(events()({ signal: stop.signal }), 3), 2000, 'three events');
    expect(notes.map((event) => [event.id, event.data.n])).toEqual([['1', 1], ['2', 2], ['3', 3]]);
    expect(seen.map((request) => request.headers['last-event-id'])).toEqual([undefined, '2']);
    expect(Date.now() - started).toBeLessThan(1000); // waited `retry: 10`, not the default 3 s
  });

  test('breaking out of the loop closes the connection', async () => {
    let closed!: Promise<void>;
    handler = (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      eventStream(res);
      res.write('data: {"n":1}\n\n'); // and the stream stays open
    };
    for await (const note of events()({ signal: stop.signal })) {
      expect(note.data).toEqual({ n: 1 });
      break;
    }
    await within(closed, 2000, "the server's close");
  });

  test("the caller's signal stops the wait to reconnect, at once", async () => {
    handler = (_req, res) => {
      eventStream(res);
      res.end('retry: 60000\ndata: {"n":1}\n\n');
    };
    const controller = new AbortController();
    const iterator = events()({ signal: controller.signal });
    await expect(iterator.next()).resolves.toEqual({ done: false, value: { data: { n: 1 }, retry: 60000 } });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stopped by the caller')), 50);
    await expect(within(iterator.next(), 2000, 'the abort')).rejects.toThrow('stopped by the caller');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen).toHaveLength(1);
  });

  test('an error status is an ApiError before any event, and is not reconnected', async () => {
    handler = (_req, res) => json(res, 403, { error: { code: 'FORBIDDEN', message: 'Not yours.' } });
    await expect(collect(events()({ signal: stop.signal }))).rejects.toMatchObject({ name: 'ApiError', status: 403, code: 'FORBIDDEN' });
    expect(seen).toHaveLength(1);
  });

  test('an answer that is not an event stream, or an event whose data is not JSON, is an ApiError', async () => {
    handler = (_req, res) => json(res, 200, { data: [] });
    await expect(collect(events()({ signal: stop.signal }))).rejects.toMatchObject({ code: 'INVALID_RESPONSE', message: 'The answer is not an event stream.' });
    handler = (_req, res) => {
      eventStream(res);
      res.write('id: 7\ndata: {"n":1}\n\ndata: not json\n\n');
    };
    await expect(collect(events()({ signal: stop.signal }))).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      message: "An event's data is not JSON (last event ID 7): not json",
    });
  });
});

test('a finished wait leaves no listener on the caller’s signal', async () => {
  let calls = 0;
  handler = (_req, res) => (++calls === 1 ? json(res, 503, {}) : json(res, 200, { data: 1 }));
  const controller = new AbortController();
  await transport().request({ method: 'GET', path: '/x' }, { signal: controller.signal });
  expect(calls).toBe(2);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});
