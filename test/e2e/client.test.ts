/**
 * The generated client against the real generated server (bookshop): CRUD,
 * iterators over both paging styles, typed errors, retries honouring
 * Retry-After, timeouts, the conditional-GET cache; and type-level tests
 * that `tsc` must reject.
 */
import { createServer, type Server } from 'node:http';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXAMPLES, FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is imported from a generated project at run time */
type AnyClient = Record<string, any>;

const scratch = scratchDir();
const project = join(scratch.dir, 'bookshop');
let service: RunningService;
let limited: RunningService;
let client: typeof import('../../examples/bookshop/generated/src/client/index.js');
const TOKEN = 'writer';

beforeAll(async () => {
  await generateService(join(EXAMPLES, 'bookshop/openapi.yaml'), project);
  linkDependencies(project);
  expect(await compile(project)).toBe('');
  const env = { API_TOKENS: `${TOKEN}:catalog:write reviews:write`, CURSOR_SECRET: 'test' };
  service = await startService(project, { ...env, RATE_LIMIT: '10000' });
  limited = await startService(project, { ...env, RATE_LIMIT: '2', RATE_LIMIT_WINDOW: '1' });
  client = await import(pathToFileURL(join(project, 'dist/client/index.js')).href);
});
afterAll(async () => {
  await Promise.all([service?.stop(), limited?.stop()]);
  scratch.cleanup();
});

const connect = (options: Record<string, unknown> = {}): AnyClient => client.createClient({ baseUrl: service.baseUrl, token: TOKEN, ...options });
const author = { name: 'Chinua Achebe', country: 'NG' } as const;
const book = (n: number) => ({ title: `Book ${n}`, isbn: `97800000000${String(n).padStart(2, '0')}`, genre: 'fiction', pages: 100 + n, in_print: true });

describe('operations', () => {
  test('CRUD round trip: create, read, patch, replace, delete, then 404', async () => {
    const api = connect();
    const created = await api.createAuthor({ body: author });
    expect(created).toMatchObject({ type: 'authors', attributes: author });
    expect(await api.getAuthor({ author_id: created.id })).toEqual(created);
    const patched = await api.updateAuthor({ author_id: created.id, body: { name: 'C. Achebe' } });
    expect(patched.attributes).toMatchObject({ name: 'C. Achebe', country: 'NG' });
    const replaced = await api.replaceAuthor({ author_id: created.id, body: { name: 'Achebe', country: 'GB' } });
    expect(replaced.attributes).toMatchObject({ name: 'Achebe', country: 'GB' });
    expect(await api.deleteAuthor({ author_id: created.id })).toBeUndefined();
    await expect(api.getAuthor({ author_id: created.id })).rejects.toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });

  test('withResponse gives the envelope, status, request id and rate-limit figures', async () => {
    const answer = await connect().createAuthor.withResponse({ body: author, headers: { 'X-Request-Id': 'client-test-1' } });
    expect(answer.status).toBe(201);
    expect(answer.requestId).toBe('client-test-1');
    expect(answer.envelope.meta.timestamp).toMatch(/Z$/);
    expect(answer.rateLimit).toEqual({ limit: 10000, remaining: expect.any(Number), reset: expect.any(Number) });
  });

  test('fields as an array travels comma-separated; the answer keeps the required fields and id', async () => {
    const urls: string[] = [];
    const api = connect({ fetch: (url: string, init: RequestInit) => (urls.push(url), fetch(url, init)) });
    const created = await api.createAuthor({ body: { ...author, bio: 'Nigerian novelist.' } });
    const sparse = await api.getAuthor({ author_id: created.id, query: { fields: ['name', 'country'] } });
    expect(urls.at(-1)).toMatch(/\?fields=name,country$/);
    // bio, optional, left out; created_at and updated_at kept: the author's response schema requires them.
    const { bio, ...required } = created.attributes;
    expect(bio).toBe('Nigerian novelist.');
    expect(sparse).toEqual({ id: created.id, type: 'authors', attributes: required });
    const trimmed = await api.listAuthors({ query: { fields: 'country', limit: 100 } });
    const listed = trimmed.find((item: { id: string }) => item.id === created.id);
    expect(Object.keys(listed.attributes).sort()).toEqual(['country', 'created_at', 'name', 'updated_at']);
  });

  test('a token may be a function, asked for each request', async () => {
    let asked = 0;
    const api = connect({ token: async () => (asked++, TOKEN) });
    await api.listAuthors({});
    await api.listAuthors({});
    expect(asked).toBe(2);
  });
});

describe('iterators', () => {
  test('cursor paging: every item once, across pages, stopping at the end', async () => {
    const api = connect();
    const { id } = await api.createAuthor({ body: author });
    for (let n = 0; n < 5; n++) await api.createBook({ author_id: id, body: book(n) });
    const titles: string[] = [];
    for await (const item of api.listBooks.all({ author_id: id, query: { limit: 2, sort: 'pages' } })) titles.push(item.attributes.title);
    expect(titles).toEqual(['Book 0', 'Book 1', 'Book 2', 'Book 3', 'Book 4']);
    const pages: number[] = [];
    for await (const page of api.listBooks.pages({ author_id: id, query: { limit: 2 } })) pages.push(page.data.length);
    expect(pages).toEqual([2, 2, 1]);
  });

  test('offset paging: pages until total_pages', async () => {
    const api = connect();
    const before = (await api.listReviews.withResponse({ query: { limit: 1 } })).envelope.pagination.total;
    const { id: authorId } = await api.createAuthor({ body: author });
    const { id: bookId } = await api.createBook({ author_id: authorId, body: book(50) });
    for (let n = 1; n <= 5; n++) await api.createReview({ body: { book_id: bookId, rating: n } });
    const pages: number[] = [];
    for await (const page of api.listReviews.pages({ query: { limit: 2 } })) pages.push(page.data.length);
    const total = before + 5;
    expect(pages.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(pages.length).toBe(Math.ceil(total / 2));
  });
});

describe('errors', () => {
  test('ApiError carries status, code, message, request_id, details and headers', async () => {
    const api = connect();
    const missing = await api.getAuthor({ author_id: '00000000-0000-4000-8000-000000000000' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(client.ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', request_id: expect.any(String), details: [] });
    expect(missing.headers.get('x-request-id')).toBe(missing.request_id);
    await expect(connect({ token: undefined }).listAuthors({})).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const invalid = await api.createAuthor({ body: { name: '', country: 'XX' } }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(invalid.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['body.country', 'body.name']);
  });

  test('a timeout is a TimeoutError; a refused connection a NetworkError; neither is an ApiError', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const port = (silent.address() as AddressInfo).port;
    const slow = client.createClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, timeoutMs: 150, retry: false });
    const timedOut = await slow.listGenres({}).catch((error: unknown) => error);
    silent.closeAllConnections();
    silent.close();
    expect(timedOut).toBeInstanceOf(client.TimeoutError);
    const refused = await client.createClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, retry: false }).listGenres({}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(client.NetworkError);
    expect(refused).not.toBeInstanceOf(client.ApiError);
  });
});

describe('retries and the cache', () => {
  /** A fetch that records each answer's status. */
  function recording(statuses: number[]) {
    return async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
  }

  test('a GET answered 429 is retried after Retry-After, and succeeds', async () => {
    const statuses: number[] = [];
    const api = client.createClient({ baseUrl: limited.baseUrl, token: TOKEN, fetch: recording(statuses) });
    for (let n = 0; n < 3; n++) await api.listGenres({});
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(200);
  });

  test('a POST answered 429 is not retried (not idempotent), and retries can be turned off', async () => {
    await new Promise((done) => setTimeout(done, 1100)); // a fresh window
    const statuses: number[] = [];
    const api = client.createClient({ baseUrl: limited.baseUrl, token: TOKEN, fetch: recording(statuses) });
    await api.listGenres({});
    await api.listGenres({});
    await expect(api.createAuthor({ body: author })).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(statuses).toEqual([200, 200, 429]);
    const noRetry = client.createClient({ baseUrl: limited.baseUrl, token: TOKEN, retry: false });
    await expect(noRetry.listGenres({})).rejects.toMatchObject({ status: 429 });
  });

  test('with cache: true, an unchanged GET is answered 304 and served from memory', async () => {
    const statuses: number[] = [];
    const api = connect({ cache: true, fetch: recording(statuses) });
    const first = await api.getGenre({ genre_id: 'history' });
    const second = await api.getGenre.withResponse({ genre_id: 'history' });
    expect(statuses).toEqual([200, 304]);
    expect(second.status).toBe(304);
    expect(second.data).toEqual(first);
  });
});

describe('types', () => {
  const cases = [
    ['a wrong parameter name', "client.getAuthor({ authorId: 'x' });"],
    ['a body field of the wrong type', "client.createAuthor({ body: { name: 42, country: 'NG' } });"],
    ['a missing required path parameter', "client.getBook({ author_id: 'a' });"],
    ['an unknown query parameter', "client.listAuthors({ query: { colour: 'red' } });"],
  ];

  test('tsc accepts correct calls and rejects each wrong one', async () => {
    const lines = [
      "import { createClient } from './client/index.js';",
      "const client = createClient({ baseUrl: 'http://127.0.0.1:1/api/v1' });",
      "void client.getBook({ author_id: 'a', book_id: 'b', timeoutMs: 10 });",
      "void client.listBooks.all({ author_id: 'a', query: { genre: 'poetry', limit: 5 } });",
      ...cases.map(([name, code]) => `// ${name}\n// @ts-expect-error\nvoid ${code}`),
    ];
    writeFileSync(join(project, 'src/client-types.ts'), `${lines.join('\n')}\n`);
    expect(await compile(project, { emit: false })).toBe('');
  });

  test('a call with fields as an array answers only those, the required fields and id, in its type', async () => {
    copyFileSync(join(FIXTURES, 'client/sparse-fields.ts'), join(project, 'src/sparse-fields.ts'));
    try {
      expect(await compile(project, { emit: false })).toBe('');
    } finally {
      rmSync(join(project, 'src/sparse-fields.ts'));
    }
  });

  test.each(cases)('without @ts-expect-error, %s does not compile', async (_name, code) => {
    writeFileSync(join(project, 'src/client-types.ts'), `import { createClient } from './client/index.js';\nconst client = createClient({ baseUrl: 'x' });\nvoid ${code}\n`);
    expect(await compile(project, { emit: false })).toContain('src/client-types.ts');
  });
});
