/**
 * The generated service under hostile requests (issue 11): the bookshop is
 * generated once, type-checked and built with the real `tsc`, its handlers
 * edited as a careless user might (a rejection nobody awaits, an error that
 * carries the request's headers, an item the store cannot serialize), then
 * started as child processes on 127.0.0.1 and driven over HTTP and raw
 * sockets. Each test names, in a comment, what the service did before.
 */
import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { EXAMPLES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, logEntries, startService, type RunningService } from '../service.js';

const WRITER = 'writer-token';
const SECRET = 'hostile-cursor-secret';
const ENV = { API_TOKENS: `${WRITER}:catalog:write reviews:write`, RATE_LIMIT: '100000' };

/** The genres and reviews handlers, edited: a header picks the fault. */
const GENRES = `import type { GenresHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const genres: GenresHandlers = {
  listGenres: (request) => {
    if (request.headers['x-fault'] === 'reject') void Promise.reject(new Error('forgotten rejection'));
    if (request.headers['x-fault'] === 'throw') {
      setTimeout(() => {
        throw new Error('escaped exception');
      }, 50);
    }
    if (request.headers['x-fault'] === 'leak') {
      // As HTTP clients' errors do: the request's headers ride along as properties.
      throw Object.assign(new Error('upstream refused'), { headers: request.headers, config: { headers: { Authorization: 'Bearer secret-token' } } });
    }
    return store.genres.list(request);
  },
  getGenre: (request) => store.genres.get(request),
};
`;
const REVIEWS = `import type { ReviewsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const reviews: ReviewsHandlers = {
  listReviews: (request) => store.reviews.list(request),
  createReview: (request) => {
    if (request.headers['x-fault'] !== 'poison') return store.reviews.create(request);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    return store.reviews.create({ ...request, body: { ...request.body, loop } });
  },
  getReview: (request) => store.reviews.get(request),
  deleteReview: (request) => store.reviews.remove(request),
};
`;

const scratch = scratchDir();
let project: string;
/** CURSOR_SECRET set: most tests. */
let service: RunningService;
/** No CURSOR_SECRET, short timeouts. */
let plain: RunningService;
/** No CURSOR_SECRET, no async context: another instance, stopped by the SIGTERM test. */
let other: RunningService;

beforeAll(async () => {
  project = join(scratch.dir, 'bookshop');
  await generateService(join(EXAMPLES, 'bookshop/openapi.yaml'), project);
  writeFileSync(join(project, 'src/handlers/genres.ts'), GENRES);
  writeFileSync(join(project, 'src/handlers/reviews.ts'), REVIEWS);
  linkDependencies(project);
  expect(await compile(project)).toBe('');
  [service, plain, other] = await Promise.all([
    startService(project, { ...ENV, CURSOR_SECRET: SECRET, LOG_ASYNC_CONTEXT: 'true' }),
    startService(project, { ...ENV, LOG_ASYNC_CONTEXT: 'true', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '2000' }),
    startService(project, { ...ENV, LOG_ASYNC_CONTEXT: 'false' }),
  ]);
});
afterAll(async () => {
  await Promise.all([service, plain, other].map((running) => running?.stop()));
  scratch.cleanup();
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function call(running: RunningService, method: string, path: string, { body, headers = {} }: { body?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${running.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${WRITER}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A raw connection: what was received, and whether it ended cleanly or was reset. */
function rawConnection(running: RunningService): Promise<{ socket: Socket; received: () => string; ended: Promise<'end' | 'reset'> }> {
  const { hostname, port } = new URL(running.origin);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const ended = new Promise<'end' | 'reset'>((done) => {
    socket.once('end', () => done('end'));
    socket.once('error', () => done('reset'));
  });
  return new Promise((resolve) => socket.once('connect', () => resolve({ socket, received: () => received, ended })));
}

const requestHead = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

/** A cursor as the service signs it (paging.ts), for the list at `operationId` with no path parameters. */
function signCursor(payload: string, secret: string, operationId = 'listAuthors'): string {
  const encoded = Buffer.from(payload).toString('base64url');
  const key = `${secret}\n${operationId}\n{}`;
  return `${encoded}.${createHmac('sha256', key).update(encoded).digest().subarray(0, 16).toString('base64url')}`;
}

/** The walk of a list with no sort, filter or search (paging.ts `walkOf`). */
const PLAIN_WALK = createHash('sha256').update(JSON.stringify([[], {}, null, null, null])).digest('base64url').slice(0, 12);

const authorBody = (name: string) => JSON.stringify({ name, country: 'NG' });

describe('request bodies', () => {
  // Before: no bound; a deep value in a free-form field passed validation, was stored, and every list read
  // answered 500. On the bookshop (no free-form field) these bodies were a 422, not the 413 asserted here.
  test('a body nested too deep or with too many members is 413 before validation, and lists still answer', async () => {
    const deep = `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const tooDeep = await call(service, 'POST', '/authors', { body: deep });
    expect(tooDeep.status).toBe(413);
    expect(tooDeep.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('deeper than 64') });
    const wide = JSON.stringify({ name: 'Ada', country: 'NG', tags: Array.from({ length: 20_000 }, () => 1) });
    const tooWide = await call(service, 'POST', '/authors', { body: wide });
    expect(tooWide.status).toBe(413);
    expect(tooWide.body.error.message).toContain('10000 members');
    expect((await call(service, 'GET', '/authors')).status).toBe(200);
  });

  // Before: the store kept the cyclic item; the create and every later read of the list answered 500.
  test('an item the store cannot serialize is refused and never stored', async () => {
    const body = JSON.stringify({ book_id: '9b2e7d41-0c3a-4f8e-b6d5-1a7c3e9f2b04', rating: 4, body: 'poisoned review' });
    const poisoned = await call(service, 'POST', '/reviews', { body, headers: { 'x-fault': 'poison' } });
    expect(poisoned.status).toBe(500);
    const list = await call(service, 'GET', '/reviews?limit=100');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body.data)).not.toContain('poisoned review');
  });

  // Before: the upload's `aborted` error became a 500, logged with its stack.
  test('a client that hangs up mid-body is neither a 500 nor an error in the log', async () => {
    const { socket } = await rawConnection(service);
    socket.write(requestHead('POST', '/api/v1/authors', { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json', 'content-length': '10000', 'x-request-id': 'aborting-1' }));
    socket.write('{"name":"half');
    await sleep(200);
    socket.destroy();
    await sleep(500);
    expect((await call(service, 'GET', '/authors')).status).toBe(200);
    // Its access line only, saying the caller left (499).
    expect(logEntries(service.output()).filter((entry) => entry.requestId === 'aborting-1')).toEqual([expect.objectContaining({ level: 30, msg: 'request', status: 499 })]);
  });
});

describe('cursors', () => {
  // Before: a payload that was not JSON, or JSON `null`, answered 500; extra dot-separated parts were ignored.
  test('a correctly signed cursor with a malformed payload is 400, never 500', async () => {
    for (let n = 0; n < 3; n++) expect((await call(service, 'POST', '/authors', { body: authorBody(`Cursor ${n}`) })).status).toBe(201);
    const first = await call(service, 'GET', '/authors?limit=1');
    const issued: string = first.body.pagination.cursor;
    // The payloads below carry the walk this list really has, so only their shape is wrong.
    expect(JSON.parse(Buffer.from(issued.split('.')[0]!, 'base64url').toString()).w).toBe(PLAIN_WALK);
    expect((await call(service, 'GET', `/authors?limit=1&cursor=${issued}`)).status).toBe(200);
    const malformed = ['not json', 'null', '[1]', '{"p":1}', `{"p":1,"w":5}`, `{"w":"${PLAIN_WALK}"}`, `{"p":{"values":"x"},"w":"${PLAIN_WALK}"}`];
    for (const payload of malformed) {
      const answer = await call(service, 'GET', `/authors?limit=1&cursor=${signCursor(payload, SECRET)}`);
      expect([payload, answer.status, answer.body.error.code]).toEqual([payload, 400, 'BAD_REQUEST']);
    }
    expect((await call(service, 'GET', `/authors?limit=1&cursor=${issued}.extra`)).status).toBe(400);
  });

  // Before: without CURSOR_SECRET the key came from info.title, so this forged cursor was accepted (200),
  // and every instance accepted every other's cursors.
  test('without CURSOR_SECRET: a warning, a random key per process, and cursors that do not cross', async () => {
    for (const running of [plain, other]) expect(running.output()).toContain('CURSOR_SECRET is not set');
    const titleKey = createHash('sha256').update('specforge cursor secret: Bookshop API').digest('hex').slice(0, 32);
    const forged = signCursor(JSON.stringify({ p: { values: [], seq: 0 }, w: PLAIN_WALK }), titleKey);
    expect((await call(plain, 'GET', `/authors?limit=1&cursor=${forged}`)).status).toBe(400);
    for (let n = 0; n < 2; n++) await call(plain, 'POST', '/authors', { body: authorBody(`Walker ${n}`) });
    const cursor: string = (await call(plain, 'GET', '/authors?limit=1')).body.pagination.cursor;
    expect((await call(plain, 'GET', `/authors?limit=1&cursor=${cursor}`)).status).toBe(200);
    const elsewhere = await call(other, 'GET', `/authors?limit=1&cursor=${cursor}`);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('faults and logs', () => {
  // Before: Node's default for an unhandled rejection ended the process; the second request failed to connect.
  test('a rejection nobody awaits is logged with its request id and the service keeps serving', async () => {
    const answer = await call(service, 'GET', '/genres', { headers: { 'x-fault': 'reject', 'x-request-id': 'rejecting-1' } });
    expect(answer.status).toBe(200);
    await until(() => service.output().includes('forgotten rejection'), 'the rejection in the log');
    expect(logEntries(service.output()).find((entry) => entry.msg === 'Unhandled promise rejection (the service keeps serving)')).toMatchObject({ level: 50, requestId: 'rejecting-1', error: expect.stringMatching(/^Error: forgotten rejection\n/) });
    await sleep(100);
    expect((await call(service, 'GET', '/genres')).status).toBe(200);
    expect(service.process.exitCode).toBeNull();
  });

  // Node 20's default: no async context (its promise hooks cost a tenth of the throughput); the rejection is logged all the same.
  test('with LOG_ASYNC_CONTEXT=false, the rejection is logged without a request id', async () => {
    const answer = await call(other, 'GET', '/genres', { headers: { 'x-fault': 'reject', 'x-request-id': 'rejecting-2' } });
    expect(answer.status).toBe(200);
    await until(() => other.output().includes('forgotten rejection'), 'the rejection in the log');
    const logged = logEntries(other.output()).find((entry) => entry.msg === 'Unhandled promise rejection (the service keeps serving)');
    expect(logged).toMatchObject({ level: 50, error: expect.stringMatching(/^Error: forgotten rejection\n/) });
    expect(logged).not.toHaveProperty('requestId');
  });

  // Before: the error logger printed the whole error object, its `headers` and `config` with the tokens.
  test('an error carrying credentials is logged without them', async () => {
    const answer = await call(service, 'GET', '/genres', {
      headers: { 'x-fault': 'leak', 'x-request-id': 'leaking-1', authorization: 'Bearer secret-token', 'x-api-key': 'secret-key', cookie: 'session=secret-cookie' },
    });
    expect(answer.status).toBe(500);
    await until(() => service.output().includes('upstream refused'), 'the error in the log');
    expect(logEntries(service.output()).filter((entry) => entry.msg === 'request failed' && entry.requestId === 'leaking-1')).toEqual([expect.objectContaining({ level: 50, error: expect.stringContaining('upstream refused') })]);
    expect(service.output()).not.toMatch(/secret-token|secret-key|secret-cookie/);
  });
});

describe('the server', () => {
  // Before: Node's defaults (60 s for headers, checked every 30 s; keep-alive 5 s) whatever the environment said.
  test('header and keep-alive timeouts come from the environment', async () => {
    const { socket, received, ended } = await rawConnection(plain);
    const started = Date.now();
    socket.write('GET /api/v1/genres HTTP/1.1\r\nHost: 127.0.0.1\r\n'); // and never the blank line
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<string>((done) => (timer = setTimeout(() => done('still open'), 4000)));
    expect(await Promise.race([ended, giveUp])).not.toBe('still open');
    clearTimeout(timer);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
    socket.destroy();
    const answer = await call(plain, 'GET', '/genres');
    expect(answer.headers.get('keep-alive')).toBe('timeout=2');
  });

  // Before: TRUST_PROXY=true let X-Forwarded-For (one hop by default) pick the rate-limit bucket; the service started.
  test('TRUST_PROXY without PROXY_HOPS refuses to start, with one line and no stack', async () => {
    const refused = await startService(project, { ...ENV, CURSOR_SECRET: SECRET, TRUST_PROXY: 'true' }).then(
      (running) => running.stop().then(() => 'started'),
      (error: Error) => error.message,
    );
    expect(refused).toContain('TRUST_PROXY=true needs PROXY_HOPS');
    expect(refused).not.toMatch(/\n\s+at /);
  });

  // Before: no X-Content-Type-Options on any response.
  test('X-Content-Type-Options: nosniff on a success, an error, a 404 and a 304', async () => {
    const ok = await call(service, 'GET', '/genres');
    const tag = ok.headers.get('etag')!;
    const answers = [
      ok,
      await call(service, 'GET', '/authors', { headers: { authorization: '' } }),
      await call(service, 'GET', '/no/such/path'),
      await call(service, 'GET', '/genres', { headers: { 'if-none-match': tag } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 304]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  // Before: 401s had no WWW-Authenticate.
  test('every 401 challenges: Bearer (RFC 6750) and the API key header, invalid_token only for a refused token', async () => {
    const none = await call(service, 'GET', '/authors', { headers: { authorization: '' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Bookshop API", ApiKey realm="Bookshop API", header="X-API-Key"');
    const refused = await call(service, 'GET', '/authors', { headers: { authorization: 'Bearer not-a-token' } });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="Bookshop API", error="invalid_token", ApiKey /);
  });

  // Before: the request in flight was answered with keep-alive, so the client's next request on it met a closed connection.
  test('SIGTERM: the request in flight is answered with Connection: close, idle keep-alive connections closed cleanly', async () => {
    const idle = await rawConnection(other);
    idle.socket.write(requestHead('GET', '/api/v1/genres', {}));
    await until(() => idle.received().includes('\r\n\r\n'), 'the idle connection to be answered');
    const body = authorBody('Last Request');
    const busy = await rawConnection(other);
    busy.socket.write(requestHead('POST', '/api/v1/authors', { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }));
    busy.socket.write(body.slice(0, 5));
    await sleep(200);
    other.process.kill('SIGTERM');
    await until(() => other.output().includes('SIGTERM'), 'the service to take the signal');
    expect(await idle.ended).toBe('end');
    busy.socket.write(body.slice(5));
    expect(await busy.ended).toBe('end');
    expect(busy.received()).toMatch(/^HTTP\/1\.1 201/);
    expect(busy.received()).toMatch(/\r\nConnection: close\r\n/i);
    await until(() => other.process.exitCode !== null, 'the service to exit');
    expect(other.process.exitCode).toBe(0);
    for (const connection of [idle, busy]) connection.socket.destroy();
  });

  // Before: Node's default printed the stack without the request id and exited 1 at once, cutting requests in flight.
  test('an uncaught exception is logged with its request id, then the service drains and exits 1', async () => {
    const answer = await call(plain, 'GET', '/genres', { headers: { 'x-fault': 'throw', 'x-request-id': 'throwing-1' } });
    expect(answer.status).toBe(200);
    await until(() => plain.process.exitCode !== null, 'the service to exit');
    expect(plain.process.exitCode).toBe(1);
    expect(logEntries(plain.output()).find((entry) => entry.msg === 'Uncaught exception (the service stops)')).toMatchObject({ level: 50, requestId: 'throwing-1', error: expect.stringMatching(/^Error: escaped exception\n/) });
    expect(plain.output()).toContain('finishing requests in flight');
  });
});
