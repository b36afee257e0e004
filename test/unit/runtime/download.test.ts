/** File answers through a real Koa server: headers, Content-Disposition, ETag and 304, streams closed when not sent, undeclared media types. */
import Koa, { type Context } from 'koa';
import { Readable } from 'node:stream';
import { contentDisposition, sendFile } from '../../../src/runtime/server/generated/conventions/download.js';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import { listen, type Listening } from '../../loopback.js';

const RULE = { status: 200, mediaTypes: ['text/plain'], cacheControl: 'private, max-age=60' };

/** Set when the web stream of `/web-tagged` is cancelled. */
let webCancelled = false;
function webStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull: (controller) => controller.enqueue(new TextEncoder().encode('chunk ')),
    cancel: () => void (webCancelled = true),
  });
}

/** The streams the routes answered with, to see whether they were destroyed. */
const streams: Readable[] = [];
/** An answer's stream: three chunks, the last after a delay. */
function stream(): Readable {
  const made = Readable.from(
    (async function* () {
      yield 'one ';
      yield 'two ';
      await new Promise((resolve) => setTimeout(resolve, 10));
      yield 'three';
    })(),
  );
  streams.push(made);
  return made;
}

const ROUTES: Record<string, (ctx: Context) => Promise<void>> = {
  '/bytes': (ctx) => sendFile(ctx, { body: Buffer.from('hello'), filename: 'report.txt' }, RULE),
  '/text': (ctx) => sendFile(ctx, { body: 'héllo', disposition: 'inline', lastModified: new Date('2024-05-01T10:00:00Z') }, RULE),
  '/uint8': (ctx) => sendFile(ctx, { body: new Uint8Array([104, 105]), mediaType: 'text/plain; charset=utf-8' }, { ...RULE, mediaTypes: ['text/*'] }),
  '/unicode': (ctx) => sendFile(ctx, { body: 'x', filename: 'Résumé "final".pdf' }, { ...RULE, mediaTypes: ['application/pdf'] }),
  '/stream': (ctx) => sendFile(ctx, { body: stream(), size: 13, etag: '"v1"', filename: 'count.txt' }, RULE),
  '/stream-untagged': (ctx) => sendFile(ctx, { body: stream() }, { ...RULE, mediaTypes: [] }),
  '/web': (ctx) => sendFile(ctx, { body: new Blob(['from the web']).stream(), mediaType: 'image/png' }, { ...RULE, mediaTypes: ['image/*'] }),
  '/web-tagged': (ctx) => sendFile(ctx, { body: webStream(), etag: '"w"' }, RULE),
  '/undeclared': (ctx) => sendFile(ctx, { body: '<p>', mediaType: 'text/html' }, { ...RULE, mediaTypes: ['application/pdf', 'image/*'] }),
  '/no-type': (ctx) => sendFile(ctx, { body: 'x' }, { ...RULE, mediaTypes: ['image/*'] }),
};

let listening: Listening;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      ctx.status = error instanceof ApiError ? error.status : 500;
      ctx.body = { message: (error as Error).message };
    }
  });
  app.use((ctx) => ROUTES[ctx.path]!(ctx));
  listening = await listen(app);
  ({ base } = listening);
});

afterAll(async () => {
  await listening.close();
});

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${base}${path}`, { method, headers });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

describe('bytes in memory', () => {
  test('sent as they are, with their type, length, disposition, a strong ETag and Cache-Control', async () => {
    const answer = await get('/bytes');
    expect(answer).toMatchObject({
      status: 200,
      body: 'hello',
      headers: {
        'content-type': 'text/plain',
        'content-length': '5',
        'content-disposition': 'attachment; filename="report.txt"',
        'cache-control': 'private, max-age=60',
      },
    });
    expect(answer.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  test('text as UTF-8 bytes; an inline disposition without a name; Last-Modified', async () => {
    const answer = await get('/text');
    expect(answer).toMatchObject({
      body: 'héllo',
      headers: { 'content-length': '6', 'content-disposition': 'inline', 'last-modified': 'Wed, 01 May 2024 10:00:00 GMT' },
    });
  });

  test('a Uint8Array is bytes (not JSON), its media type as given', async () => {
    expect(await get('/uint8')).toMatchObject({ body: 'hi', headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2' } });
  });

  test('If-None-Match with their tag: 304, no body; another tag: 200', async () => {
    const { headers } = await get('/bytes');
    const cached = await get('/bytes', { 'if-none-match': `"other", ${headers.etag}` });
    expect(cached.status).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers.etag).toBe(headers.etag);
    expect((await get('/bytes', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  test('HEAD: the headers, no body', async () => {
    expect(await get('/bytes', {}, 'HEAD')).toMatchObject({ status: 200, body: '', headers: { 'content-length': '5' } });
  });
});

describe('a stream', () => {
  test('sent with the given size and tag', async () => {
    expect(await get('/stream')).toMatchObject({
      status: 200,
      body: 'one two three',
      headers: { 'content-length': '13', etag: '"v1"', 'content-disposition': 'attachment; filename="count.txt"' },
    });
  });

  test('304 for its tag, and the stream destroyed unread', async () => {
    streams.length = 0;
    expect(await get('/stream', { 'if-none-match': '"v1"' })).toMatchObject({ status: 304, body: '' });
    expect(streams).toHaveLength(1);
    expect(streams[0]!.destroyed).toBe(true);
    expect(streams[0]!.readableDidRead).toBe(false);
  });

  test('HEAD: its headers, and the stream destroyed unread', async () => {
    streams.length = 0;
    expect(await get('/stream', {}, 'HEAD')).toMatchObject({ status: 200, body: '', headers: { 'content-length': '13', etag: '"v1"' } });
    expect(streams[0]!.destroyed).toBe(true);
    expect(streams[0]!.readableDidRead).toBe(false);
  });

  test('without a tag: no ETag and never 304; octet-stream when nothing is declared', async () => {
    const answer = await get('/stream-untagged', { 'if-none-match': '*' });
    expect(answer).toMatchObject({ status: 200, body: 'one two three', headers: { 'content-type': 'application/octet-stream', 'cache-control': 'private, max-age=60' } });
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.headers['content-length']).toBeUndefined();
  });

  test('a web ReadableStream not sent (304) is cancelled', async () => {
    webCancelled = false;
    expect(await get('/web-tagged', { 'if-none-match': '"w"' })).toMatchObject({ status: 304 });
    for (let attempt = 0; attempt < 100 && !webCancelled; attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(webCancelled).toBe(true);
  });

  test('a web ReadableStream is sent too', async () => {
    expect(await get('/web')).toMatchObject({ status: 200, body: 'from the web', headers: { 'content-type': 'image/png' } });
  });
});

describe('media types the response does not declare', () => {
  test('an undeclared one is the handler’s mistake: an Error (500), saying so', async () => {
    expect(await get('/undeclared')).toMatchObject({ status: 500, body: expect.stringContaining('text/html, which the operation') });
  });

  test('none given when the declared one is not concrete: octet-stream, also undeclared', async () => {
    expect(await get('/no-type')).toMatchObject({ status: 500, body: expect.stringContaining('application/octet-stream') });
  });
});

describe('contentDisposition', () => {
  test.each([
    ['report.txt', 'attachment; filename="report.txt"'],
    ['Résumé "final".pdf', `attachment; filename="R_sum_ \\"final\\".pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`],
    ['back\\slash.txt', 'attachment; filename="back\\\\slash.txt"'],
    ['line\r\nbreak\u0000.txt', 'attachment; filename="line__break_.txt"'],
    ['50%.txt', `attachment; filename="50_.txt"; filename*=UTF-8''50%25.txt`],
    ['日本.txt', `attachment; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`],
    ["it's (1).txt", `attachment; filename="it's (1).txt"`],
    ['', 'attachment'],
  ])('%j', (filename, header) => {
    expect(contentDisposition('attachment', filename)).toBe(header);
  });

  test('the non-ASCII name as the route sends it', async () => {
    expect((await get('/unicode')).headers['content-disposition']).toBe(`attachment; filename="R_sum_ \\"final\\".pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`);
  });

  test('a lone surrogate does not throw', () => {
    expect(contentDisposition('inline', 'a\ud800.txt')).toBe(`inline; filename="a_.txt"; filename*=UTF-8''a%EF%BF%BD.txt`);
  });
});
