/**
 * The generated service end to end: both examples are generated, type-checked
 * and built with the real `tsc`, started on a loopback port, and every REST
 * convention their middleware implements is driven over real HTTP, error
 * paths included.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { EXAMPLES, scratchDir } from '../helpers.js';
import { deleteRedisKeys, pingRedis, redisUrl, requireService } from '../services.js';
import { compile, generateService, linkDependencies, logEntries, type RunningService, startService } from '../service.js';

// Credentials, as the services' environment lists them.
const WRITER = 'writer-token'; // catalog:write and reviews:write
const READER = 'reader-token'; // no scope
const REVIEWER = 'reviewer-token'; // reviews:write only
const METER = 'meter-token'; // no scope; used only to watch the rate-limit counter
const WRITER_KEY = 'writer-key'; // X-API-Key with catalog:write
const READER_KEY = 'reader-key'; // X-API-Key without scopes
const PET_TOKEN = 'pet-token';
const PET_KEY = 'pet-key';

const SHOP_ENV = {
  API_TOKENS: `${WRITER}:catalog:write reviews:write,${READER},${REVIEWER}:reviews:write,${METER}`,
  API_KEYS: `${WRITER_KEY}:catalog:write,${READER_KEY}`,
  // The tests send far more than the default 100 requests per minute; the
  // limit itself is tested on an instance of its own.
  RATE_LIMIT: '10000',
  CURSOR_SECRET: 'e2e-cursor-secret',
};
const PET_ENV = { API_TOKENS: PET_TOKEN, API_KEYS: PET_KEY };

/** A pet handler as a user might have edited it: one id fails with an unexpected error. */
const FAILING_PET_HANDLERS = `import type { PetsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const pets: PetsHandlers = {
  listPets: (request) => store.pets.list(request),
  createPet: (request) => store.pets.create(request),
  getPet: (request) => {
    if (request.path.pet_id === 666) throw new Error('secret stack detail');
    return store.pets.get(request);
  },
  deletePet: (request) => store.pets.remove(request),
};
`;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let work: ReturnType<typeof scratchDir>;
let bookshopDir: string;
let petstoreDir: string;
/** tsc's output for each project: the two examples as generated, and the petstore with its handler edited. */
const diagnostics = { bookshop: '', petstore: '', petstoreEdited: '' };
let bookshop: RunningService;
let petstore: RunningService;

beforeAll(async () => {
  work = scratchDir('specforge-server-');
  bookshopDir = join(work.dir, 'bookshop');
  petstoreDir = join(work.dir, 'petstore');
  await Promise.all([
    (async () => {
      await generateService(join(EXAMPLES, 'bookshop/openapi.yaml'), bookshopDir);
      linkDependencies(bookshopDir);
      diagnostics.bookshop = await compile(bookshopDir);
    })(),
    (async () => {
      await generateService(join(EXAMPLES, 'petstore/openapi.json'), petstoreDir);
      linkDependencies(petstoreDir);
      diagnostics.petstore = await compile(petstoreDir, { emit: false });
      writeFileSync(join(petstoreDir, 'src/handlers/pets.ts'), FAILING_PET_HANDLERS);
      diagnostics.petstoreEdited = await compile(petstoreDir);
    })(),
  ]);
  [bookshop, petstore] = await Promise.all([startService(bookshopDir, SHOP_ENV), startService(petstoreDir, PET_ENV)]);
});

afterAll(async () => {
  await Promise.all([bookshop?.stop(), petstore?.stop()]);
  work?.cleanup();
});

// ---------------------------------------------------------------------------
// HTTP helpers

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: any;
}

interface CallOptions {
  /** Bearer token; null sends none. Defaults to the service's writing credential unless apiKey is given. */
  token?: string | null;
  apiKey?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

async function call(service: RunningService, defaultToken: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? (options.apiKey ? null : defaultToken) : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  let body = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = /^https?:/.test(path) ? path : `${service.baseUrl}${path}`;
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: jsonOf(text) };
}

function jsonOf(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A request through node:http, for control over when its body is sent: the
 * caller writes (or withholds) the body; `reply` settles with the response.
 */
function openRequest(
  service: RunningService,
  method: string,
  path: string,
  headers: Record<string, string>,
): { request: ClientRequest; reply: Promise<Reply> } {
  const url = new URL(`${service.baseUrl}${path}`);
  const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent: false, headers });
  const reply = new Promise<Reply>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => {
        const fields = Object.entries(response.headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
        );
        resolve({ status: response.statusCode ?? 0, headers: new Headers(fields), text, body: jsonOf(text) });
      });
    });
    request.on('error', reject);
  });
  return { request, reply };
}

const shop = (method: string, path: string, options?: CallOptions) => call(bookshop, WRITER, method, path, options);
const pets = (method: string, path: string, options?: CallOptions) => call(petstore, PET_TOKEN, method, path, options);

/** The reply is the error envelope with this status and code, and nothing else. */
function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(reply.body)).toEqual(['error']);
  expect(typeof reply.body.error.message).toBe('string');
  expect(reply.body.error.message).not.toBe('');
  expect(reply.body.error.request_id).toBe(reply.headers.get('x-request-id'));
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

/** A 422 whose details are exactly these fields with these codes. */
function expectInvalid(reply: Reply, expected: Record<string, string>): void {
  expectError(reply, 422, 'VALIDATION_ERROR');
  const details = reply.body.error.details as { field: string; message: string; code: string }[];
  for (const detail of details) {
    expect(Object.keys(detail).sort()).toEqual(['code', 'field', 'message']);
    expect(detail.message).toEqual(expect.any(String));
  }
  expect(Object.fromEntries(details.map((detail) => [detail.field, detail.code]))).toEqual(expected);
  expect(details).toHaveLength(Object.keys(expected).length);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** A time limit to race against: it does not keep the process alive once the race is won. */
const deadline = (ms: number) => new Promise((done) => setTimeout(done, ms).unref());

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

// ---------------------------------------------------------------------------
// Bookshop data

let isbnSerial = 0;
const nextIsbn = () => `978${String(++isbnSerial).padStart(10, '0')}`;

async function createAuthor(overrides: Record<string, unknown> = {}): Promise<any> {
  const reply = await shop('POST', '/authors', { body: { name: 'Chimamanda Ngozi Adichie', country: 'NG', ...overrides } });
  expect(reply.status).toBe(201);
  return reply.body.data;
}

function bookInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Half of a Yellow Sun', isbn: nextIsbn(), genre: 'fiction', pages: 448, published_on: '2006-08-11', in_print: true, ...overrides };
}

async function createBook(authorId: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const reply = await shop('POST', `/authors/${authorId}/books`, { body: bookInput(overrides) });
  expect(reply.status).toBe(201);
  return reply.body.data;
}

async function createReview(overrides: Record<string, unknown> = {}): Promise<any> {
  const reply = await shop('POST', '/reviews', { body: { book_id: randomUUID(), rating: 4, ...overrides } });
  expect(reply.status).toBe(201);
  return reply.body.data;
}

/** The data of a successful list. */
async function list(path: string): Promise<any[]> {
  const reply = await shop('GET', path);
  expect(reply.status).toBe(200);
  return reply.body.data;
}

const titles = (items: any[]) => items.map((item) => item.attributes.title);
const sorted = (values: string[]) => [...values].sort();

// ---------------------------------------------------------------------------

describe('building the examples', () => {
  test('both generated services type-check and build with tsc without a diagnostic, and so does an edited handler', () => {
    expect(diagnostics).toEqual({ bookshop: '', petstore: '', petstoreEdited: '' });
  });

  test('each built service listens on the loopback address under its base path /api/v1', () => {
    expect(bookshop.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(petstore.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  });
});

describe('the envelope', () => {
  test('a success is JSON { data, meta: { timestamp } } with an ISO 8601 UTC timestamp of now', async () => {
    const before = Date.now();
    const reply = await shop('GET', '/genres/history', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta']);
    expect(reply.body.data).toEqual({ id: 'history', name: 'History' });
    expect(Object.keys(reply.body.meta)).toEqual(['timestamp']);
    expect(reply.body.meta.timestamp).toMatch(ISO_UTC);
    const timestamp = Date.parse(reply.body.meta.timestamp);
    expect(timestamp).toBeGreaterThanOrEqual(before - 1000);
    expect(timestamp).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('a list adds pagination beside data and meta', async () => {
    const reply = await shop('GET', '/genres', { token: null });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(reply.body.data).toEqual([{ id: 'history', name: 'History' }]);
    expect(reply.body.pagination).toEqual({ cursor: null, has_more: false });
  });

  test('every response has its own X-Request-Id when the caller sends none', async () => {
    const first = await shop('GET', '/genres', { token: null });
    const second = await shop('GET', '/no-such-thing');
    const firstId = first.headers.get('x-request-id');
    const secondId = second.headers.get('x-request-id');
    expect(firstId).toMatch(/^\S{8,}$/);
    expect(secondId).toMatch(/^\S{8,}$/);
    expect(firstId).not.toBe(secondId);
    expect(second.body.error.request_id).toBe(secondId);
  });

  test("the caller's X-Request-Id is echoed in the header and in error.request_id", async () => {
    const success = await shop('GET', '/genres', { token: null, headers: { 'X-Request-Id': 'trace-abc-123' } });
    expect(success.headers.get('x-request-id')).toBe('trace-abc-123');
    const failure = await shop('GET', '/authors/not-a-uuid', { headers: { 'X-Request-Id': 'trace-def-456' } });
    expect(failure.status).toBe(422);
    expect(failure.headers.get('x-request-id')).toBe('trace-def-456');
    expect(failure.body.error.request_id).toBe('trace-def-456');
  });

  test('an error is JSON { error: { code, message, request_id } } and nothing else', async () => {
    const reply = await shop('GET', '/authors', { token: null });
    expectError(reply, 401, 'UNAUTHORIZED');
    expect(Object.keys(reply.body.error).sort()).toEqual(['code', 'message', 'request_id']);
  });
});

describe('routing', () => {
  test('a path the spec does not have is 404 RESOURCE_NOT_FOUND in the error envelope', async () => {
    expectError(await shop('GET', '/publishers'), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('GET', '/authors/extra/segments/here/too'), 404, 'RESOURCE_NOT_FOUND');
  });

  test("another version's path is 406 NOT_ACCEPTABLE; a path merely starting like the base path is 404", async () => {
    const reply = await shop('GET', `${bookshop.origin}/api/v2/genres`, { token: null });
    expectError(reply, 406, 'NOT_ACCEPTABLE');
    expectError(await shop('GET', `${bookshop.origin}/api/v1genres`, { token: null }), 404, 'RESOURCE_NOT_FOUND');
  });

  test('a known path with another method is 405 METHOD_NOT_ALLOWED with Allow listing its methods', async () => {
    const genres = await shop('DELETE', '/genres', { token: null });
    expectError(genres, 405, 'METHOD_NOT_ALLOWED');
    const genreMethods = genres.headers.get('allow')!.split(/,\s*/);
    expect(genreMethods).toContain('GET');
    expect(genreMethods).not.toContain('DELETE');
    expect(genreMethods).not.toContain('POST');

    const review = await shop('PUT', `/reviews/${randomUUID()}`, { body: { rating: 5 } });
    expectError(review, 405, 'METHOD_NOT_ALLOWED');
    const reviewMethods = review.headers.get('allow')!.split(/,\s*/);
    expect(reviewMethods).toEqual(expect.arrayContaining(['GET', 'DELETE']));
    expect(reviewMethods).not.toContain('PUT');
    expect(reviewMethods).not.toContain('PATCH');
    expect(reviewMethods).not.toContain('POST');

    const authors = await shop('PATCH', '/authors', { body: {} });
    expectError(authors, 405, 'METHOD_NOT_ALLOWED');
    expect(authors.headers.get('allow')!.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST']));
  });
});

describe('authentication and authorization', () => {
  test('a protected operation without a credential is 401 UNAUTHORIZED with the standard message', async () => {
    const reply = await shop('GET', '/authors', { token: null });
    expectError(reply, 401, 'UNAUTHORIZED');
    expect(reply.body.error.message).toBe('The access token is invalid or expired.');
  });

  test('authentication comes before validation: an invalid or unreadable body without a credential is still 401', async () => {
    const invalid = await shop('POST', '/authors', { token: null, body: { colour: 'red' } });
    expectError(invalid, 401, 'UNAUTHORIZED');
    expect(invalid.body.error.message).toBe('The access token is invalid or expired.');
    const unreadable = await shop('POST', '/authors', { token: null, raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expectError(unreadable, 401, 'UNAUTHORIZED');
    const badPath = await shop('GET', '/authors/not-a-uuid', { token: null });
    expectError(badPath, 401, 'UNAUTHORIZED');
  });

  test('an unknown token, an unknown API key and another Authorization scheme are each 401', async () => {
    expectError(await shop('GET', '/authors', { token: 'not-a-token' }), 401, 'UNAUTHORIZED');
    expectError(await shop('GET', '/authors', { apiKey: 'not-a-key' }), 401, 'UNAUTHORIZED');
    expectError(
      await shop('GET', '/authors', { token: null, headers: { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` } }),
      401,
      'UNAUTHORIZED',
    );
    // A token is not a key, nor a key a token.
    expectError(await shop('GET', '/authors', { token: WRITER_KEY }), 401, 'UNAUTHORIZED');
    expectError(await shop('GET', '/authors', { apiKey: WRITER }), 401, 'UNAUTHORIZED');
  });

  test('a valid token without the required scope is 403 FORBIDDEN and changes nothing', async () => {
    const name = `Forbidden ${randomUUID()}`;
    const reply = await shop('POST', '/authors', { token: READER, body: { name, country: 'GB' } });
    expectError(reply, 403, 'FORBIDDEN');
    const found = await list(`/authors?search=${encodeURIComponent(name)}`);
    expect(found).toEqual([]);
  });

  test("a token's scopes open only their own operations", async () => {
    const review = await shop('POST', '/reviews', { token: REVIEWER, body: { book_id: randomUUID(), rating: 3 } });
    expect(review.status).toBe(201);
    expectError(await shop('POST', '/authors', { token: REVIEWER, body: { name: 'X', country: 'GB' } }), 403, 'FORBIDDEN');
    const author = await createAuthor();
    expectError(await shop('DELETE', `/authors/${author.id}`, { token: REVIEWER }), 403, 'FORBIDDEN');
    expect((await shop('GET', `/authors/${author.id}`, { token: REVIEWER })).status).toBe(200);
  });

  test('X-API-Key works like a Bearer token, scopes included', async () => {
    const created = await shop('POST', '/authors', { apiKey: WRITER_KEY, body: { name: 'Keyed Author', country: 'JP' } });
    expect(created.status).toBe(201);
    const read = await shop('GET', `/authors/${created.body.data.id}`, { apiKey: READER_KEY });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.name).toBe('Keyed Author');
    expectError(await shop('POST', '/authors', { apiKey: READER_KEY, body: { name: 'Nope', country: 'JP' } }), 403, 'FORBIDDEN');
    // catalog:write does not include reviews:write.
    expectError(await shop('POST', '/reviews', { apiKey: WRITER_KEY, body: { book_id: randomUUID(), rating: 3 } }), 403, 'FORBIDDEN');
  });

  test('the public genres answer without any credential', async () => {
    const listed = await shop('GET', '/genres', { token: null });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ id: 'history', name: 'History' }]);
    const one = await shop('GET', '/genres/history', { token: null });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ id: 'history', name: 'History' });
    expectError(await shop('GET', '/genres/poetry', { token: null }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('validation', () => {
  test('every invalid body field is reported once, with its name and code', async () => {
    const author = await createAuthor();
    const reply = await shop('POST', `/authors/${author.id}/books`, {
      body: { isbn: '12345', genre: 'romance', pages: 0, in_print: 'yes', colour: 'red' },
    });
    expectInvalid(reply, {
      'body.title': 'REQUIRED',
      'body.isbn': 'INVALID_FORMAT',
      'body.genre': 'INVALID_VALUE',
      'body.pages': 'OUT_OF_RANGE',
      'body.in_print': 'INVALID_TYPE',
      'body.colour': 'UNKNOWN_FIELD',
    });
    expect(await list(`/authors/${author.id}/books`)).toEqual([]);
  });

  test('range and format rules hold at their edges', async () => {
    const author = await createAuthor();
    expectInvalid(await shop('POST', `/authors/${author.id}/books`, { body: bookInput({ pages: 10001, title: '' }) }), {
      'body.pages': 'OUT_OF_RANGE',
      'body.title': 'OUT_OF_RANGE',
    });
    expectInvalid(await shop('POST', `/authors/${author.id}/books`, { body: bookInput({ isbn: '9770000000000', published_on: '11/08/2006' }) }), {
      'body.isbn': 'INVALID_FORMAT',
      'body.published_on': 'INVALID_FORMAT',
    });
    expect((await shop('POST', `/authors/${author.id}/books`, { body: bookInput({ pages: 10000 }) })).status).toBe(201);
    expect((await shop('POST', `/authors/${author.id}/books`, { body: bookInput({ pages: 1 }) })).status).toBe(201);
  });

  test('a required body that is missing is 422 on the field body', async () => {
    expectInvalid(await shop('POST', '/authors'), { body: 'REQUIRED' });
    expectInvalid(await shop('POST', '/authors', { raw: '', headers: { 'content-type': 'application/json' } }), { body: 'REQUIRED' });
  });

  test('a path id that is not a uuid is 422 INVALID_FORMAT on path.<name>', async () => {
    expectInvalid(await shop('GET', '/authors/123'), { 'path.author_id': 'INVALID_FORMAT' });
    const author = await createAuthor();
    expectInvalid(await shop('GET', `/authors/${author.id}/books/not-a-book`), { 'path.book_id': 'INVALID_FORMAT' });
    expectInvalid(await shop('GET', '/genres/History', { token: null }), { 'path.genre_id': 'INVALID_FORMAT' });
  });

  test('query values are coerced to their types: limit=5 pages by five', async () => {
    const author = await createAuthor();
    for (let index = 0; index < 6; index++) await createBook(author.id);
    const reply = await shop('GET', `/authors/${author.id}/books?limit=5`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(5);
    expect(reply.body.pagination.has_more).toBe(true);
    expectInvalid(await shop('GET', `/authors/${author.id}/books?limit=five`), { 'query.limit': 'INVALID_TYPE' });
  });

  test('limit above 100 or below 1 is 422 OUT_OF_RANGE on query.limit', async () => {
    expectInvalid(await shop('GET', '/authors?limit=101'), { 'query.limit': 'OUT_OF_RANGE' });
    expectInvalid(await shop('GET', '/authors?limit=0'), { 'query.limit': 'OUT_OF_RANGE' });
    expect((await shop('GET', '/authors?limit=100')).status).toBe(200);
  });

  test('an unknown query parameter is 422 UNKNOWN_FIELD', async () => {
    expectInvalid(await shop('GET', '/authors?colour=red'), { 'query.colour': 'UNKNOWN_FIELD' });
    expectInvalid(await shop('GET', `/authors/${randomUUID()}?verbose=true`), { 'query.verbose': 'UNKNOWN_FIELD' });
  });

  test('JSON that does not parse is 400 BAD_REQUEST', async () => {
    const reply = await shop('POST', '/authors', { raw: '{"name": "Half', headers: { 'content-type': 'application/json' } });
    expectError(reply, 400, 'BAD_REQUEST');
  });

  test('a body of another media type is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const text = await shop('POST', '/authors', { raw: 'name=Someone&country=GB', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const plain = await shop('POST', '/authors', {
      raw: JSON.stringify({ name: 'Someone', country: 'GB' }),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  /** A JSON author of exactly `size` bytes, its bio (at most 2000 characters) making up the size. */
  const authorOfSize = (size: number) => {
    const frame = '{"name":"Big","country":"GB","bio":""}';
    return `{"name":"Big","country":"GB","bio":"${'a'.repeat(size - frame.length)}"}`;
  };
  const JSON_WRITE = { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json' };

  /**
   * Uploads `body` in 64 KiB pieces, as a client on a real network would. It
   * pauses after `pauseAt` bytes, when the service has all it needs to refuse
   * the request: a service that answers early does so then, before more of the
   * body is on its way (see the next test for what happens otherwise); one that
   * reads the whole body first gets the rest.
   */
  async function upload(headers: Record<string, string>, body: string, pauseAt: number): Promise<Reply> {
    const { request, reply } = openRequest(bookshop, 'POST', '/authors', { ...JSON_WRITE, ...headers });
    let answered = false;
    const settled = reply.then(
      () => void (answered = true),
      () => void (answered = true),
    );
    const bytes = Buffer.from(body);
    const send = async (from: number, to: number) => {
      for (let at = from; at < to && !answered; at += 65536) {
        await new Promise<void>((done) => request.write(bytes.subarray(at, Math.min(at + 65536, to)), () => done()));
        await sleep(1);
      }
    };
    request.flushHeaders();
    await send(0, pauseAt);
    await Promise.race([settled, deadline(500)]);
    await send(pauseAt, bytes.length);
    if (!answered) request.end();
    try {
      return await reply;
    } finally {
      request.destroy();
    }
  }

  test('a body over 1 MiB with a Content-Length is 413 PAYLOAD_TOO_LARGE', async () => {
    const body = authorOfSize(1048577);
    expect(Buffer.byteLength(body)).toBe(1048577);
    expectError(await upload({ 'content-length': '1048577' }, body, 0), 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a streamed body without Content-Length is 413 PAYLOAD_TOO_LARGE once it passes 1 MiB', async () => {
    expectError(await upload({ 'transfer-encoding': 'chunked' }, authorOfSize(2 * 1048576), 1048577), 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a body of exactly 1 MiB is read and validated', async () => {
    expect(Buffer.byteLength(authorOfSize(1048576))).toBe(1048576);
    const reply = await shop('POST', '/authors', { raw: authorOfSize(1048576), headers: { 'content-type': 'application/json' } });
    expectInvalid(reply, { 'body.bio': 'OUT_OF_RANGE' });
  });

  test('a client still sending an oversized body is not cut off: it finishes the upload and reads the 413', async () => {
    // RFC 9112 §9.6: a server that closes the connection under a client still
    // sending makes its TCP stack reset it, and the reset can destroy the
    // answer before the client reads it (fetch then fails with EPIPE instead
    // of seeing the 413). The service must keep reading, or close in stages.
    const total = 2 * 1048576;
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(bookshop.origin).port), allowHalfOpen: true });
    await once(socket, 'connect');
    let received = '';
    let failure: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error.code ?? error.message));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.write(
      `POST ${new URL(bookshop.baseUrl).pathname}/authors HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${WRITER}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
    );
    const piece = Buffer.alloc(65536, 'a');
    let sent = 0;
    while (sent < total && failure === undefined && !socket.destroyed) {
      await new Promise<void>((done) =>
        socket.write(piece, (error) => {
          if (error) failure ??= `write: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
          done();
        }),
      );
      sent += piece.length;
      await sleep(1);
    }
    if (!socket.destroyed) socket.end();
    await Promise.race([closed, deadline(5000)]);
    socket.destroy();
    expect({ status: received.split('\r\n')[0], sent, failure }).toEqual({
      status: 'HTTP/1.1 413 Payload Too Large',
      sent: total,
      failure: undefined,
    });
    expect(received).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });
});

describe('lists', () => {
  test('a cursor walk with limit=2 over five books sees each once and ends with has_more false and cursor null', async () => {
    const author = await createAuthor();
    const created: string[] = [];
    for (let index = 0; index < 5; index++) created.push((await createBook(author.id, { title: `Book ${index}` })).id);

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    let last: any;
    do {
      const query = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : {}) });
      const reply = await shop('GET', `/authors/${author.id}/books?${query}`);
      expect(reply.status).toBe(200);
      sizes.push(reply.body.data.length);
      seen.push(...reply.body.data.map((book: any) => book.id));
      last = reply.body.pagination;
      cursor = last.cursor;
      if (cursor !== null) {
        expect(last.has_more).toBe(true);
        expect(typeof cursor).toBe('string');
      }
    } while (cursor !== null && sizes.length < 10);

    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toHaveLength(5);
    expect(sorted(seen)).toEqual(sorted(created));
    expect(last).toEqual({ cursor: null, has_more: false });
  });

  test('a tampered cursor is 400 BAD_REQUEST', async () => {
    const author = await createAuthor();
    for (let index = 0; index < 3; index++) await createBook(author.id);
    const first = await shop('GET', `/authors/${author.id}/books?limit=2`);
    const cursor: string = first.body.pagination.cursor;
    expect(cursor).toEqual(expect.any(String));
    // The untouched cursor works…
    expect((await shop('GET', `/authors/${author.id}/books?limit=2&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    // …one changed character does not.
    const at = Math.floor(cursor.length / 3);
    const tampered = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    expect(tampered).not.toBe(cursor);
    expectError(await shop('GET', `/authors/${author.id}/books?limit=2&cursor=${encodeURIComponent(tampered)}`), 400, 'BAD_REQUEST');
    expectError(await shop('GET', `/authors/${author.id}/books?limit=2&cursor=not-a-cursor`), 400, 'BAD_REQUEST');
  });

  test('a cursor reused with another sort is 400 BAD_REQUEST', async () => {
    const author = await createAuthor();
    for (let index = 0; index < 3; index++) await createBook(author.id, { title: `T${index}` });
    const first = await shop('GET', `/authors/${author.id}/books?limit=2&sort=title`);
    const cursor = encodeURIComponent(first.body.pagination.cursor);
    expect((await shop('GET', `/authors/${author.id}/books?limit=2&sort=title&cursor=${cursor}`)).status).toBe(200);
    expectError(await shop('GET', `/authors/${author.id}/books?limit=2&sort=-title&cursor=${cursor}`), 400, 'BAD_REQUEST');
    expectError(await shop('GET', `/authors/${author.id}/books?limit=2&sort=pages&cursor=${cursor}`), 400, 'BAD_REQUEST');
  });

  test('limit defaults to 20', async () => {
    const author = await createAuthor();
    for (let index = 0; index < 21; index++) await createBook(author.id);
    const first = await shop('GET', `/authors/${author.id}/books`);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination.has_more).toBe(true);
    const rest = await shop('GET', `/authors/${author.id}/books?cursor=${encodeURIComponent(first.body.pagination.cursor)}`);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.pagination).toEqual({ cursor: null, has_more: false });
  });

  test('/reviews pages by offset: page, limit, total and total_pages, and the items of each page', async () => {
    const book = randomUUID();
    for (const rating of [1, 2, 3, 4, 5]) await createReview({ book_id: book, rating });
    const page = async (query: string) => {
      const reply = await shop('GET', `/reviews?book_id=${book}&${query}`);
      expect(reply.status).toBe(200);
      return { ratings: reply.body.data.map((review: any) => review.attributes.rating), pagination: reply.body.pagination };
    };
    expect(await page('limit=2&page=1&sort=rating')).toEqual({ ratings: [1, 2], pagination: { page: 1, limit: 2, total: 5, total_pages: 3 } });
    expect(await page('limit=2&page=2&sort=rating')).toEqual({ ratings: [3, 4], pagination: { page: 2, limit: 2, total: 5, total_pages: 3 } });
    expect(await page('limit=2&page=3&sort=rating')).toEqual({ ratings: [5], pagination: { page: 3, limit: 2, total: 5, total_pages: 3 } });
    expect(await page('limit=2&page=4&sort=rating')).toEqual({ ratings: [], pagination: { page: 4, limit: 2, total: 5, total_pages: 3 } });
    expect(await page('limit=2&page=1&sort=-rating')).toEqual({ ratings: [5, 4], pagination: { page: 1, limit: 2, total: 5, total_pages: 3 } });
    expect(await page('sort=rating')).toEqual({ ratings: [1, 2, 3, 4, 5], pagination: { page: 1, limit: 20, total: 5, total_pages: 1 } });
    expectInvalid(await shop('GET', '/reviews?page=0'), { 'query.page': 'OUT_OF_RANGE' });
  });

  test('sort=pages is ascending, sort=-pages and order=desc descending', async () => {
    const author = await createAuthor();
    await createBook(author.id, { title: 'Middle', pages: 200 });
    await createBook(author.id, { title: 'Long', pages: 300 });
    await createBook(author.id, { title: 'Short', pages: 100 });
    const pages = async (query: string) => (await list(`/authors/${author.id}/books?${query}`)).map((book) => book.attributes.pages);
    expect(await pages('sort=pages')).toEqual([100, 200, 300]);
    expect(await pages('sort=-pages')).toEqual([300, 200, 100]);
    expect(await pages('sort=pages&order=desc')).toEqual([300, 200, 100]);
    expect(await pages('sort=pages&order=asc')).toEqual([100, 200, 300]);
    expect(titles(await list(`/authors/${author.id}/books?sort=title`))).toEqual(['Long', 'Middle', 'Short']);
  });

  test('sorting by an unknown field is 422 on query.sort', async () => {
    expectInvalid(await shop('GET', '/authors?sort=colour'), { 'query.sort': 'INVALID_FORMAT' });
  });

  // The fields the response schema requires stay (every answer valid against it); optional ones not named go.
  test('fields=title keeps id, type, the title and the required attributes; optional ones not named are left out', async () => {
    const author = await createAuthor({ bio: 'Wrote things.' });
    const one = await createBook(author.id, { title: 'One', published_on: '2001-02-03' });
    const two = await createBook(author.id, { title: 'Two', published_on: '2001-02-04' });
    const items = await list(`/authors/${author.id}/books?fields=title`);
    const withoutPublished = ({ published_on: _left, ...rest }: Record<string, unknown>) => rest;
    expect(items).toEqual([
      { id: one.id, type: 'books', attributes: withoutPublished(one.attributes) },
      { id: two.id, type: 'books', attributes: withoutPublished(two.attributes) },
    ]);
    expect(items[0].attributes).toMatchObject({ title: 'One', isbn: one.attributes.isbn });
    const read = await shop('GET', `/authors/${author.id}?fields=name`);
    const { bio: _bio, ...required } = author.attributes;
    expect(read.body.data).toEqual({ id: author.id, type: 'authors', attributes: required });
  });

  test('an unknown name in fields is 422 on query.fields', async () => {
    expectInvalid(await shop('GET', '/authors?fields=name,colour'), { 'query.fields': 'INVALID_VALUE' });
  });

  test('equality filters keep the items whose field has the value, coerced to its type', async () => {
    const author = await createAuthor();
    await createBook(author.id, { title: 'Poems in print', genre: 'poetry', in_print: true, pages: 100 });
    await createBook(author.id, { title: 'Poems out of print', genre: 'poetry', in_print: false, pages: 200 });
    await createBook(author.id, { title: 'History out of print', genre: 'history', in_print: false, pages: 100 });
    const books = (query: string) => list(`/authors/${author.id}/books?${query}`).then(titles);
    expect(await books('genre=poetry')).toEqual(['Poems in print', 'Poems out of print']);
    expect(await books('in_print=false')).toEqual(['Poems out of print', 'History out of print']);
    expect(await books('genre=poetry&in_print=false')).toEqual(['Poems out of print']);
    expect(await books('pages=100')).toEqual(['Poems in print', 'History out of print']);
    expect(await books('genre=science')).toEqual([]);
    expectInvalid(await shop('GET', `/authors/${author.id}/books?genre=romance`), { 'query.genre': 'INVALID_VALUE' });
    expectInvalid(await shop('GET', `/authors/${author.id}/books?in_print=maybe`), { 'query.in_print': 'INVALID_TYPE' });
  });

  test('created_after and created_before compare with the creation time the server recorded', async () => {
    const author = await createAuthor();
    const first = await createBook(author.id, { title: 'First' });
    // Creation times have millisecond resolution: give each book its own.
    await sleep(5);
    const second = await createBook(author.id, { title: 'Second' });
    await sleep(5);
    const third = await createBook(author.id, { title: 'Third' });
    expect(first.attributes.created_at < second.attributes.created_at).toBe(true);
    expect(second.attributes.created_at < third.attributes.created_at).toBe(true);

    const books = (query: Record<string, string>) => list(`/authors/${author.id}/books?${new URLSearchParams(query)}`).then(titles);
    expect(await books({ created_after: first.attributes.created_at })).toEqual(['Second', 'Third']);
    expect(await books({ created_before: third.attributes.created_at })).toEqual(['First', 'Second']);
    expect(await books({ created_after: first.attributes.created_at, created_before: third.attributes.created_at })).toEqual(['Second']);
    expect(await books({ created_after: '2000-01-01T00:00:00Z' })).toEqual(['First', 'Second', 'Third']);
    expect(await books({ created_before: '2000-01-01T00:00:00Z' })).toEqual([]);
    expectInvalid(await shop('GET', `/authors/${author.id}/books?created_after=yesterday`), {
      'query.created_after': expect.any(String) as unknown as string,
    });
  });

  test('search is a case-insensitive substring match on the string fields', async () => {
    const author = await createAuthor();
    await createBook(author.id, { title: 'The Silent Orchard' });
    await createBook(author.id, { title: 'silent spring' });
    await createBook(author.id, { title: 'Loud Noises' });
    const books = (search: string) => list(`/authors/${author.id}/books?search=${encodeURIComponent(search)}`).then(titles);
    expect(await books('SILENT')).toEqual(['The Silent Orchard', 'silent spring']);
    expect(await books('orch')).toEqual(['The Silent Orchard']);
    expect(await books('quiet')).toEqual([]);

    const marker = randomUUID().slice(0, 8);
    const named = await createAuthor({ name: `Zadie ${marker}x Smith` });
    const found = await list(`/authors?search=${`${marker}X`.toUpperCase()}`);
    expect(found.map((item) => item.id)).toEqual([named.id]);
  });

  test('an unknown filter parameter is 422 UNKNOWN_FIELD', async () => {
    const author = await createAuthor();
    expectInvalid(await shop('GET', `/authors/${author.id}/books?colour=red`), { 'query.colour': 'UNKNOWN_FIELD' });
    expectInvalid(await shop('GET', '/reviews?author=someone'), { 'query.author': 'UNKNOWN_FIELD' });
  });
});

describe('include', () => {
  test('include=author embeds the full author resource in each book under relationships.author', async () => {
    const author = await createAuthor({ name: 'Toni Morrison', country: 'US', bio: 'Novelist.' });
    await createBook(author.id, { title: 'Beloved' });
    await createBook(author.id, { title: 'Jazz' });
    const full = (await shop('GET', `/authors/${author.id}`)).body.data;
    expect(full).toEqual(author);

    const books = await list(`/authors/${author.id}/books?include=author`);
    expect(books).toHaveLength(2);
    for (const book of books) {
      expect(book.relationships).toEqual({ author: full });
      expect(book.type).toBe('books');
      expect(book.attributes.author_id).toBe(author.id);
    }
    const withoutInclude = await list(`/authors/${author.id}/books`);
    expect(withoutInclude.every((book) => !('relationships' in book))).toBe(true);

    const one = await shop('GET', `/authors/${author.id}/books/${books[0].id}?include=author`);
    expect(one.body.data.relationships).toEqual({ author: full });
  });

  test("include=books embeds the list of the author's books under relationships.books", async () => {
    const author = await createAuthor();
    await createBook(author.id, { title: 'Purple Hibiscus' });
    await createBook(author.id, { title: 'Americanah' });
    const books = await list(`/authors/${author.id}/books`);
    const reply = await shop('GET', `/authors/${author.id}?include=books`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toEqual(author.attributes);
    expect(reply.body.data.relationships).toEqual({ books });
    expect(titles(reply.body.data.relationships.books)).toEqual(['Purple Hibiscus', 'Americanah']);

    const bookless = await createAuthor();
    const empty = await shop('GET', `/authors/${bookless.id}?include=books`);
    expect(empty.body.data.relationships).toEqual({ books: [] });
  });

  test('an unknown include name is 422 on query.include', async () => {
    const author = await createAuthor();
    for (const path of [`/authors/${author.id}?include=publisher`, `/authors/${author.id}/books?include=reviews`, '/reviews?include=book']) {
      expectInvalid(await shop('GET', path), { 'query.include': 'INVALID_VALUE' });
    }
  });
});

describe('nested resources', () => {
  test('a book records the author it is nested under', async () => {
    const author = await createAuthor();
    const book = await createBook(author.id);
    expect(book.attributes.author_id).toBe(author.id);
    expect((await shop('GET', `/authors/${author.id}/books/${book.id}`)).body.data).toEqual(book);
  });

  test('a book under an author that does not exist is 404', async () => {
    const author = await createAuthor();
    const book = await createBook(author.id);
    expectError(await shop('GET', `/authors/${randomUUID()}/books/${book.id}`), 404, 'RESOURCE_NOT_FOUND');
  });

  test('a book fetched, changed or deleted under another existing author is 404 and stays as it was', async () => {
    const owner = await createAuthor({ name: 'Owner' });
    const other = await createAuthor({ name: 'Other' });
    const book = await createBook(owner.id);
    expectError(await shop('GET', `/authors/${other.id}/books/${book.id}`), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('PATCH', `/authors/${other.id}/books/${book.id}`, { body: { title: 'Stolen' } }), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('PUT', `/authors/${other.id}/books/${book.id}`, { body: bookInput({ title: 'Stolen' }) }), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('DELETE', `/authors/${other.id}/books/${book.id}`), 404, 'RESOURCE_NOT_FOUND');
    expect((await shop('GET', `/authors/${owner.id}/books/${book.id}`)).body.data).toEqual(book);
    expect(await list(`/authors/${other.id}/books`)).toEqual([]);
  });

  test('listing or adding books of an author that does not exist is 404', async () => {
    const missing = randomUUID();
    expectError(await shop('GET', `/authors/${missing}/books`), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('POST', `/authors/${missing}/books`, { body: bookInput() }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('writes', () => {
  test('POST answers 201 with a generated id and both timestamps, and GET returns the same', async () => {
    const before = Date.now();
    const reply = await shop('POST', '/authors', { body: { name: "Ngũgĩ wa Thiong'o", bio: 'Kenyan writer.', country: 'GB' } });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const data = reply.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      type: 'authors',
      attributes: {
        name: "Ngũgĩ wa Thiong'o",
        bio: 'Kenyan writer.',
        country: 'GB',
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
      },
    });
    expect(data.attributes.updated_at).toBe(data.attributes.created_at);
    expect(Date.parse(data.attributes.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(data.attributes.created_at)).toBeLessThanOrEqual(Date.now() + 1000);

    const read = await shop('GET', `/authors/${data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(data);
    const another = await createAuthor();
    expect(another.id).not.toBe(data.id);
  });

  test('PUT replaces the whole resource: fields not sent are gone, created_at is kept, updated_at moves', async () => {
    const author = await createAuthor({ name: 'Before', bio: 'Will be gone.', country: 'IE' });
    await sleep(5);
    const reply = await shop('PUT', `/authors/${author.id}`, { body: { name: 'After', country: 'FR' } });
    expect(reply.status).toBe(200);
    const after = reply.body.data;
    expect(after.id).toBe(author.id);
    expect(after.attributes).toEqual({
      name: 'After',
      country: 'FR',
      created_at: author.attributes.created_at,
      updated_at: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(after.attributes.updated_at)).toBeGreaterThan(Date.parse(author.attributes.updated_at));
    expect((await shop('GET', `/authors/${author.id}`)).body.data).toEqual(after);
  });

  test('PUT needs the full body', async () => {
    const author = await createAuthor();
    expectInvalid(await shop('PUT', `/authors/${author.id}`, { body: { name: 'Only a name' } }), { 'body.country': 'REQUIRED' });
    expect((await shop('GET', `/authors/${author.id}`)).body.data).toEqual(author);
  });

  test('PATCH changes only the fields it names', async () => {
    const author = await createAuthor({ name: 'Patched', bio: 'Old bio.', country: 'CA' });
    await sleep(5);
    const reply = await shop('PATCH', `/authors/${author.id}`, { body: { bio: 'New bio.' } });
    expect(reply.status).toBe(200);
    const after = reply.body.data;
    expect(after.attributes).toEqual({ ...author.attributes, bio: 'New bio.', updated_at: expect.stringMatching(ISO_UTC) });
    expect(Date.parse(after.attributes.updated_at)).toBeGreaterThan(Date.parse(author.attributes.updated_at));
    expect((await shop('GET', `/authors/${author.id}`)).body.data).toEqual(after);
    expectInvalid(await shop('PATCH', `/authors/${author.id}`, { body: { country: 'XX', id: randomUUID() } }), {
      'body.country': 'INVALID_VALUE',
      'body.id': 'UNKNOWN_FIELD',
    });
  });

  test('a book is replaced and patched in place, keeping its author and creation time', async () => {
    const author = await createAuthor();
    const book = await createBook(author.id, { title: 'Draft', published_on: '2001-01-01', in_print: true });
    const replaced = await shop('PUT', `/authors/${author.id}/books/${book.id}`, {
      body: { title: 'Final', isbn: '9780307265425', genre: 'history', pages: 320, in_print: true },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.attributes).toEqual({
      author_id: author.id,
      title: 'Final',
      isbn: '9780307265425',
      genre: 'history',
      pages: 320,
      in_print: true,
      created_at: book.attributes.created_at,
      updated_at: expect.stringMatching(ISO_UTC),
    });
    const patched = await shop('PATCH', `/authors/${author.id}/books/${book.id}`, { body: { in_print: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toEqual({ ...replaced.body.data.attributes, in_print: false, updated_at: expect.stringMatching(ISO_UTC) });
  });

  test('DELETE answers 204 with an empty body; the resource is then 404, and so is deleting it again', async () => {
    const author = await createAuthor();
    const deleted = await shop('DELETE', `/authors/${author.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers.get('x-request-id')).toEqual(expect.any(String));
    expectError(await shop('GET', `/authors/${author.id}`), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('DELETE', `/authors/${author.id}`), 404, 'RESOURCE_NOT_FOUND');
  });

  test('writing to a resource that does not exist is 404', async () => {
    const missing = randomUUID();
    expectError(await shop('PUT', `/authors/${missing}`, { body: { name: 'Ghost', country: 'GB' } }), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('PATCH', `/authors/${missing}`, { body: { name: 'Ghost' } }), 404, 'RESOURCE_NOT_FOUND');
    expectError(await shop('GET', `/reviews/${missing}`), 404, 'RESOURCE_NOT_FOUND');
  });

  test('a review is posted, read and deleted', async () => {
    const book = randomUUID();
    const review = await createReview({ book_id: book, rating: 5, body: 'A devastating, generous novel.' });
    expect(review).toEqual({
      id: expect.stringMatching(UUID),
      type: 'reviews',
      attributes: { book_id: book, rating: 5, body: 'A devastating, generous novel.', created_at: expect.stringMatching(ISO_UTC) },
    });
    expect((await shop('GET', `/reviews/${review.id}`)).body.data).toEqual(review);
    expectInvalid(await shop('POST', '/reviews', { body: { book_id: 'nope', rating: 6 } }), {
      'body.book_id': 'INVALID_FORMAT',
      'body.rating': 'OUT_OF_RANGE',
    });
    expect((await shop('DELETE', `/reviews/${review.id}`)).status).toBe(204);
    expectError(await shop('GET', `/reviews/${review.id}`), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('caching', () => {
  test('a single GET carries a strong ETag, Cache-Control private, no-cache and Last-Modified from updated_at', async () => {
    const author = await createAuthor();
    const reply = await shop('GET', `/authors/${author.id}`);
    expect(reply.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(reply.headers.get('cache-control')).toBe('private, no-cache');
    expect(reply.headers.get('last-modified')).toBe(new Date(author.attributes.updated_at).toUTCString());
    // The tag describes the resource, not the moment: it is the same on the next read.
    expect((await shop('GET', `/authors/${author.id}`)).headers.get('etag')).toBe(reply.headers.get('etag'));
  });

  test('a list carries an ETag and Cache-Control too, and Last-Modified of its latest item', async () => {
    const author = await createAuthor();
    await createBook(author.id);
    await sleep(5);
    const latest = await createBook(author.id);
    const reply = await shop('GET', `/authors/${author.id}/books`);
    expect(reply.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(reply.headers.get('cache-control')).toBe('private, no-cache');
    expect(reply.headers.get('last-modified')).toBe(new Date(latest.attributes.updated_at).toUTCString());
  });

  test('a resource without updated_at has no Last-Modified', async () => {
    const review = await createReview();
    const reply = await shop('GET', `/reviews/${review.id}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(reply.headers.get('last-modified')).toBeNull();
  });

  test('If-None-Match with the current tag is 304 with an empty body, for an item and for a list', async () => {
    const author = await createAuthor();
    await createBook(author.id);
    for (const path of [`/authors/${author.id}`, `/authors/${author.id}/books`]) {
      const tag = (await shop('GET', path)).headers.get('etag')!;
      const cached = await shop('GET', path, { headers: { 'If-None-Match': tag } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(tag);
      expect(cached.headers.get('x-request-id')).toEqual(expect.any(String));
      const other = await shop('GET', path, { headers: { 'If-None-Match': '"some-other-tag"' } });
      expect(other.status).toBe(200);
    }
  });

  test('after a PATCH the old tag no longer matches', async () => {
    const author = await createAuthor();
    const before = await shop('GET', `/authors/${author.id}`);
    const tag = before.headers.get('etag')!;
    expect((await shop('PATCH', `/authors/${author.id}`, { body: { bio: 'Changed.' } })).status).toBe(200);
    const after = await shop('GET', `/authors/${author.id}`, { headers: { 'If-None-Match': tag } });
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.bio).toBe('Changed.');
    expect(after.headers.get('etag')).not.toBe(tag);
  });
});

describe('rate limiting', () => {
  const expectRateHeaders = (reply: Reply, limit: string) => {
    const now = Date.now() / 1000;
    expect(reply.headers.get('x-ratelimit-limit')).toBe(limit);
    expect(reply.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(reply.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    const reset = Number(reply.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
  };

  const responses: [string, number, () => Promise<Reply>][] = [
    ['a success', 200, () => shop('GET', '/genres', { token: null })],
    ['a 401', 401, () => shop('GET', '/authors', { token: null })],
    ['a 404', 404, () => shop('GET', '/nothing-here')],
    ['a 405', 405, () => shop('DELETE', '/genres')],
    ['a 422', 422, () => shop('GET', '/authors?limit=101')],
    ['a 406', 406, () => shop('GET', '/genres', { token: null, headers: { Accept: 'application/vnd.api+json;version=2' } })],
  ];
  test.each(responses)('%s carries X-RateLimit-Limit, -Remaining and -Reset', async (_name, status, send) => {
    const reply = await send();
    expect(reply.status).toBe(status);
    expectRateHeaders(reply, SHOP_ENV.RATE_LIMIT);
  });

  test('Remaining goes down with each request of a credential, within one window', async () => {
    const first = await shop('GET', '/genres', { token: METER });
    const second = await shop('GET', '/genres', { token: METER });
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeLessThan(Number(SHOP_ENV.RATE_LIMIT));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(second.headers.get('x-ratelimit-reset')).toBe(first.headers.get('x-ratelimit-reset'));
  });

  test('the petstore, with no RATE_LIMIT set, allows the default 100 requests', async () => {
    const reply = await pets('GET', '/pets');
    expect(reply.status).toBe(200);
    expectRateHeaders(reply, '100');
  });

  describe('on an instance limited to three requests a minute', () => {
    let limited: RunningService;
    beforeAll(async () => {
      limited = await startService(bookshopDir, { ...SHOP_ENV, RATE_LIMIT: '3', RATE_LIMIT_WINDOW: '60' });
    });
    afterAll(async () => {
      await limited?.stop();
    });
    const send = (token: string | null) => call(limited, WRITER, 'GET', token ? '/authors' : '/genres', { token });

    test('once a credential has spent its budget it is 429 RATE_LIMITED with Retry-After, while others keep their own', async () => {
      const spent: Reply[] = [];
      for (let index = 0; index < 3; index++) spent.push(await send(READER));
      expect(spent.map((reply) => reply.status)).toEqual([200, 200, 200]);
      expect(spent.map((reply) => reply.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
      for (const reply of spent) expectRateHeaders(reply, '3');

      const refused = await send(READER);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expectRateHeaders(refused, '3');
      expectError(await send(READER), 429, 'RATE_LIMITED');

      // Another token, and an anonymous caller, still have their whole budget.
      const other = await send(METER);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
      const anonymous = await send(null);
      expect(anonymous.status).toBe(200);
      expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('2');
    });
  });
});

const redis = await requireService('Redis', pingRedis());

describe('rate limiting shared through Redis', () => {
  const prefix = `specforge-e2e:${randomUUID()}:`;
  const instances: RunningService[] = [];
  const startShared = async (env: Record<string, string>) => {
    const service = await startService(bookshopDir, { ...SHOP_ENV, RATE_LIMIT: '3', RATE_LIMIT_WINDOW: '60', RATE_LIMIT_KEY_PREFIX: prefix, ...env });
    instances.push(service);
    return service;
  };
  const send = (service: RunningService) => call(service, WRITER, 'GET', '/authors', { token: READER });
  afterAll(async () => {
    await Promise.all(instances.map((service) => service.stop()));
    if (redis.available) await deleteRedisKeys(prefix);
  });

  redis.describe('two instances with one REDIS_URL', () => {
    test('count one budget: requests to either spend it, the 429 comes from the other; both stop with 0', async () => {
      // Patient: on a busy machine a slow first connection would otherwise count in memory.
      const shared = { REDIS_URL: redisUrl(), REDIS_TIMEOUT_MS: '5000' };
      const [a, b] = await Promise.all([startShared(shared), startShared(shared)]);
      const replies = [await send(a), await send(b), await send(a)];
      expect(replies.map((reply) => reply.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
      expectError(await send(b), 429, 'RATE_LIMITED');
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    });
  });

  test('RATE_LIMIT_FAIL=closed with Redis unreachable: 503 SERVICE_UNAVAILABLE with Retry-After, at once, and one log line', async () => {
    const service = await startShared({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_FAIL: 'closed' });
    for (let index = 0; index < 3; index++) {
      const started = Date.now();
      const refused = await send(service);
      expect(Date.now() - started).toBeLessThan(1000);
      expectError(refused, 503, 'SERVICE_UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toBe('1');
    }
    // Log lines reach stdout in batches (up to 25 ms later); all of them by the time it has stopped.
    expect(await service.stop()).toBe(0);
    expect(service.output().match(/Redis/g)).toHaveLength(1);
    expect(service.output()).toContain('Rate limit: Redis at redis://127.0.0.1:1 does not answer');
  });
});

describe('versioning', () => {
  test('Accept: application/vnd.api+json;version=1 is served', async () => {
    const reply = await shop('GET', '/genres', { token: null, headers: { Accept: 'application/vnd.api+json;version=1' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([{ id: 'history', name: 'History' }]);
  });

  test('Accept: application/vnd.api+json;version=2 is 406 NOT_ACCEPTABLE', async () => {
    const reply = await shop('GET', '/genres', { token: null, headers: { Accept: 'application/vnd.api+json;version=2' } });
    expectError(reply, 406, 'NOT_ACCEPTABLE');
    const write = await shop('POST', '/authors', {
      body: { name: 'Versioned', country: 'GB' },
      headers: { Accept: 'application/vnd.api+json; version=2' },
    });
    expectError(write, 406, 'NOT_ACCEPTABLE');
  });

  test('a plain JSON Accept is served', async () => {
    expect((await shop('GET', '/genres', { token: null, headers: { Accept: 'application/json' } })).status).toBe(200);
  });
});

describe('petstore', () => {
  test('pets are created, read, listed and deleted with integer ids in the flat shape', async () => {
    const created = await pets('POST', '/pets', { body: { name: 'Biscuit', tag: 'dog', status: 'available' } });
    expect(created.status).toBe(201);
    const pet = created.body.data;
    expect(pet).toEqual({ id: expect.any(Number), name: 'Biscuit', tag: 'dog', status: 'available', created_at: expect.stringMatching(ISO_UTC) });
    expect(Number.isInteger(pet.id) && pet.id >= 1).toBe(true);

    const next = (await pets('POST', '/pets', { body: { name: 'Crumble', status: 'pending' } })).body.data;
    expect(next.id).toBe(pet.id + 1);

    expect((await pets('GET', `/pets/${pet.id}`)).body.data).toEqual(pet);
    const listed = await pets('GET', '/pets');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(expect.arrayContaining([pet, next]));
    expect(listed.body.pagination).toEqual({ cursor: null, has_more: false });

    const deleted = await pets('DELETE', `/pets/${pet.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await pets('GET', `/pets/${pet.id}`), 404, 'RESOURCE_NOT_FOUND');
    expectError(await pets('DELETE', `/pets/${pet.id}`), 404, 'RESOURCE_NOT_FOUND');
  });

  test('a pet_id that is not an integer is 422 INVALID_TYPE, and 0 is OUT_OF_RANGE', async () => {
    expectInvalid(await pets('GET', '/pets/abc'), { 'path.pet_id': 'INVALID_TYPE' });
    expectInvalid(await pets('GET', '/pets/0'), { 'path.pet_id': 'OUT_OF_RANGE' });
    expectInvalid(await pets('DELETE', '/pets/1.5'), { 'path.pet_id': 'INVALID_TYPE' });
  });

  test('every operation needs a Bearer token or an API key', async () => {
    expectError(await pets('GET', '/pets', { token: null }), 401, 'UNAUTHORIZED');
    expectError(await pets('POST', '/pets', { token: null, body: { name: 'Nope', status: 'sold' } }), 401, 'UNAUTHORIZED');
    expect((await pets('GET', '/pets', { apiKey: PET_KEY })).status).toBe(200);
  });

  test('fields and the body rules apply to the flat shape too', async () => {
    const pet = (await pets('POST', '/pets', { body: { name: 'Pickle', tag: 'cat', status: 'sold' } })).body.data;
    // Pet requires id, name, status and created_at: fields=name leaves out only the optional tag.
    expect((await pets('GET', `/pets/${pet.id}?fields=name`)).body.data).toEqual({ id: pet.id, name: 'Pickle', status: 'sold', created_at: pet.created_at });
    expectInvalid(await pets('POST', '/pets', { body: { name: 'Lost', status: 'lost', owner: 'me' } }), {
      'body.status': 'INVALID_VALUE',
      'body.owner': 'UNKNOWN_FIELD',
    });
    const sold = await pets('GET', '/pets?status=sold');
    expect(sold.body.data.map((item: any) => item.id)).toContain(pet.id);
    expect(sold.body.data.every((item: any) => item.status === 'sold')).toBe(true);
  });

  test('an unexpected error in a handler is 500 INTERNAL_ERROR that reveals nothing, and is logged with the request id', async () => {
    const reply = await pets('GET', '/pets/666', { headers: { 'X-Request-Id': 'failing-request-1' } });
    expectError(reply, 500, 'INTERNAL_ERROR');
    expect(Object.keys(reply.body.error).sort()).toEqual(['code', 'message', 'request_id']);
    expect(reply.body.error.request_id).toBe('failing-request-1');
    expect(reply.text).not.toContain('secret stack detail');
    expect(reply.text).not.toMatch(/\bat\b.*\.(js|ts)|Error:/);
    await until(() => petstore.output().includes('secret stack detail'), 'the error in the log');
    expect(logEntries(petstore.output()).filter((entry) => entry.msg === 'request failed' && entry.requestId === 'failing-request-1')).toEqual([
      expect.objectContaining({ level: 50, error: expect.stringMatching(/^Error: secret stack detail\n\s+at /) }),
    ]);
    // The service carries on.
    expect((await pets('GET', '/pets')).status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  // Instances of their own, so the shared petstore keeps running; stopped here should a test fail half-way.
  const started: RunningService[] = [];
  const start = async () => {
    const service = await startService(petstoreDir, PET_ENV);
    started.push(service);
    return service;
  };
  afterAll(async () => {
    await Promise.all(started.map((service) => service.stop()));
  });

  test('SIGTERM stops a service with exit code 0, idle keep-alive connections not holding it up', async () => {
    const service = await start();
    expect((await call(service, PET_TOKEN, 'GET', '/pets')).status).toBe(200);
    const stopping = Date.now();
    expect(await service.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(3000);
    expect(service.output()).toContain('SIGTERM');
  });

  test('a request in flight when SIGTERM arrives still completes, then the service exits with 0', async () => {
    const service = await start();
    const { request, reply } = openRequest(service, 'POST', '/pets', {
      authorization: `Bearer ${PET_TOKEN}`,
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
      // The service answers 100 Continue once it has the request: from then on it is in flight.
      expect: '100-continue',
    });
    request.flushHeaders();
    await once(request, 'continue');
    request.write('{"name": "Last ');

    const exited = new Promise<number | null>((done) => service.process.once('exit', (code) => done(code)));
    service.process.kill('SIGTERM');
    await until(() => service.output().includes('SIGTERM'), 'the service to take the signal');
    expect(service.process.exitCode).toBeNull();

    request.end('Orders", "status": "pending"}');
    const answer = await reply;
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ name: 'Last Orders', status: 'pending' });
    expect(await exited).toBe(0);
  });
});
