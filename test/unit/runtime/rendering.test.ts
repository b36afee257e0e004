/**
 * An item's JSON text and ETag, made once per version of it by the memory
 * store (representation.ts, `Rendering`): a write changes both, and an item a
 * handler changed is serialized anew, never answered from what was made
 * before.
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type {
  ListRequest,
  OperationContext,
  OperationRequest,
  OperationRoute,
} from '../../../src/runtime/server/generated/conventions/operation.js';
import {
  noteRenderings,
  renderedCopy,
  renderingFor,
  renderingOf,
} from '../../../src/runtime/server/generated/conventions/representation.js';
import { entityTag } from '../../../src/runtime/server/generated/conventions/caching.js';
import { routesFor } from '../../../src/runtime/server/generated/conventions/router.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';
import type { Validator } from '../../../src/runtime/server/generated/conventions/validation.js';
import { MemoryCollection } from '../../../src/runtime/server/store/memory.js';

type Item = { id: string; type: string; attributes: Record<string, unknown> };
type Request = OperationRequest<object, unknown, unknown>;

/** What the handlers do with the store's answer before returning it (by default, nothing). */
let change: (item: Item) => unknown = (item) => item;

const books = new MemoryCollection<Item>({
  type: 'books',
  shape: 'typed',
  idParam: 'book_id',
  ids: 'uuid',
  updatedField: 'updated_at',
});
const handlers = {
  get: async (request: Request) => {
    const item = await books.get<Item>(request);
    return item && change(item);
  },
  list: async (request: ListRequest<object, unknown>) => {
    const page = await books.list<Item>(request);
    return page && { ...page, items: page.items.map((item) => change(item)) };
  },
};
type Handlers = typeof handlers;

const valid: Validator = () => true;
const route = (fields: Partial<OperationRoute<Handlers>>): OperationRoute<Handlers> => ({
  operationId: 'getBook',
  method: 'get',
  path: '/books/:book_id',
  template: '/books/{book_id}',
  kind: 'read',
  status: 200,
  hasData: true,
  security: { public: true, alternatives: [] },
  parameters: valid,
  shape: 'typed',
  fields: ['title', 'pages', 'updated_at'],
  includes: [],
  updatedField: 'updated_at',
  cacheControl: 'private, no-cache',
  invoke: (all, request) => all.get(request as Request),
  ...fields,
});
const ROUTES = [
  route({}),
  route({
    operationId: 'listBooks',
    path: '/books',
    template: '/books',
    kind: 'list',
    paging: { style: 'cursor', defaultLimit: 20, maxLimit: 100, filters: [] },
    invoke: (all, request) => all.list(request as ListRequest<object, unknown>),
  }),
];
const context: OperationContext<Handlers> = {
  handlers,
  routes: new Map(ROUTES.map((entry) => [entry.operationId, entry])),
  cursorSecret: 'secret',
  validationStatus: 422,
  realm: { name: 'test', apiKeyHeaders: [] },
  bodyBounds: { maxDepth: 64, maxMembers: 10_000 },
  streams: { uploads: { fileSize: 1, parts: 1 }, keepAliveMs: 1_000, stopping: new AbortController().signal },
  handlerTimeoutMs: 60_000,
};

let origin = '';
let close = () => {};
beforeAll(async () => {
  const app = new Koa<ServiceState>();
  app.use(routesFor(ROUTES, context, { basePath: '' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
afterEach(() => {
  change = (item) => item;
});

async function read(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}${path}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    data: text === '' ? undefined : (JSON.parse(text) as { data: unknown }).data,
  };
}

async function newBook(attributes: Record<string, unknown>): Promise<Item> {
  return (await books.create<Item>({ path: {}, body: attributes }))!;
}

test('a write changes the body and the ETag; the old ETag no longer matches', async () => {
  const book = await newBook({ title: 'Dune', pages: 412 });
  const first = await read(`/books/${book.id}`);
  expect(first).toMatchObject({ status: 200, data: { id: book.id, attributes: { title: 'Dune' } } });
  // Answered again from what was made: the same text, the same tag.
  expect(await read(`/books/${book.id}`)).toEqual(first);
  expect((await read(`/books/${book.id}`, { 'If-None-Match': first.etag! })).status).toBe(304);

  await books.update({ path: { book_id: book.id }, body: { title: 'Dune Messiah' } });
  const second = await read(`/books/${book.id}`, { 'If-None-Match': first.etag! });
  expect(second.status).toBe(200);
  expect(second.data).toMatchObject({ attributes: { title: 'Dune Messiah', pages: 412 } });
  expect(second.etag).not.toBe(first.etag);

  await books.replace({ path: { book_id: book.id }, body: { title: 'Children of Dune' } });
  const third = await read(`/books/${book.id}`);
  expect(third.data).toEqual({ id: book.id, type: 'books', attributes: expect.objectContaining({ title: 'Children of Dune' }) });
  expect((third.data as Item).attributes).not.toHaveProperty('pages');
  expect(third.etag).not.toBe(second.etag);
});

test('an item the handler changed is serialized anew, never answered from the store version', async () => {
  const book = await newBook({ title: 'Emma', pages: 300 });
  const stored = await read(`/books/${book.id}`);
  change = (item) => {
    item.attributes.title = 'Changed';
    return item;
  };
  const changed = await read(`/books/${book.id}`);
  expect(changed.data).toMatchObject({ attributes: { title: 'Changed', pages: 300 } });
  expect(changed.etag).not.toBe(stored.etag);
  // And the store still holds, and answers, its own version.
  change = (item) => item;
  expect(await read(`/books/${book.id}`)).toEqual(stored);
});

test.each([
  ['a field added', (item: Item) => Object.assign(item.attributes, { extra: 1 }) && item],
  ['a field removed', (item: Item) => delete item.attributes.pages && item],
  [
    'the same fields in another order',
    (item: Item) => {
      const { title } = item.attributes;
      delete item.attributes.title;
      item.attributes.title = title;
      return item;
    },
  ],
  ['a copy the store did not hand out', (item: Item) => JSON.parse(JSON.stringify(item)) as Item],
])('%s: the answer is the handler’s item', async (_case, changeItem) => {
  const book = await newBook({ title: 'Persuasion', pages: 250 });
  change = changeItem;
  const expected = changeItem((await books.get<Item>({ path: { book_id: book.id } }))!);
  const answered = await read(`/books/${book.id}`);
  expect(JSON.stringify(answered.data)).toBe(JSON.stringify(expected));
});

test('a list page shows each item as it is now, and its ETag and Last-Modified follow a write', async () => {
  const list = await books.list<Item>({ path: {}, list: { limit: 100, sort: [], filters: {} } });
  const before = await read('/books');
  expect((before.data as Item[]).map((item) => item.id)).toEqual(list!.items.map((item) => item.id));
  const target = (before.data as Item[])[0]!;
  await books.update({ path: { book_id: target.id }, body: { title: 'Rewritten' } });
  const after = await read('/books');
  expect((after.data as Item[])[0]).toMatchObject({ id: target.id, attributes: { title: 'Rewritten' } });
  expect(after.etag).not.toBe(before.etag);
  expect(Date.parse(after.lastModified!)).toBeGreaterThanOrEqual(Date.parse(before.lastModified!));
});

test('a list page asked again is the same text and tag; one item a handler changed makes it anew', async () => {
  const first = await read('/books');
  expect(await read('/books')).toEqual(first);
  change = (item) => (item.id === (first.data as Item[])[1]!.id ? { ...item, attributes: { ...item.attributes, title: 'Changed' } } : item);
  const changed = await read('/books');
  expect((changed.data as Item[]).map((item) => item.attributes.title)).toEqual(
    (first.data as Item[]).map((item, index) => (index === 1 ? 'Changed' : item.attributes.title)),
  );
  expect(changed.etag).not.toBe(first.etag);
  change = (item) => item;
  expect(await read('/books')).toEqual(first);
});

test("the ETag is the hash of an item's JSON text, and of a page's with its pagination", async () => {
  const book = await newBook({ title: 'Ulysses', pages: 730 });
  const item = await fetch(`${origin}/books/${book.id}`);
  const { data } = (await item.json()) as { data: unknown };
  expect(item.headers.get('etag')).toBe(entityTag(JSON.stringify(data)));
  const page = await fetch(`${origin}/books`);
  const body = (await page.json()) as { data: unknown; pagination: unknown };
  expect(page.headers.get('etag')).toBe(entityTag(`${JSON.stringify(body.data)}\n${JSON.stringify(body.pagination)}`));
});

describe('renderingOf', () => {
  const rendering = renderingFor({ id: '1', type: 'books', attributes: { title: 'Dune' } }, 'typed')!;

  test('knows a copy handed out during the handler’s call, and only while it is unchanged', () => {
    const { result: copy, noted } = noteRenderings(() => renderedCopy(rendering));
    expect(renderingOf(copy, noted)).toBe(rendering);
    (copy.attributes as Record<string, unknown>).title = 'Emma';
    expect(renderingOf(copy, noted)).toBeUndefined();
  });

  test('knows no copy whose top-level fields changed: its id, its type, its attributes replaced', () => {
    const { result: renamed, noted } = noteRenderings(() => renderedCopy(rendering));
    renamed.id = '2';
    expect(renderingOf(renamed, noted)).toBeUndefined();
    const { result: kind, noted: kindNoted } = noteRenderings(() => renderedCopy(rendering));
    kind.type = 'authors';
    expect(renderingOf(kind, kindNoted)).toBeUndefined();
    const { result: flat, noted: flatNoted } = noteRenderings(() => renderedCopy(rendering));
    flat.attributes = 'Dune';
    expect(renderingOf(flat, flatNoted)).toBeUndefined();
  });

  test('knows no copy handed out outside it', () => {
    const copy = renderedCopy(rendering);
    const { noted } = noteRenderings(() => renderedCopy(rendering));
    expect(renderingOf(copy, noted)).toBeUndefined();
  });

  test('an item holding an object or an array has no rendering (a copy could change it in place)', () => {
    expect(renderingFor({ id: '1', type: 'books', attributes: { tags: ['a'] } }, 'typed')).toBeUndefined();
    expect(renderingFor({ id: '1', meta: { a: 1 } }, 'flat')).toBeUndefined();
    expect(renderingFor({ id: '1', title: 'Dune', pages: 1, done: false, none: null }, 'flat')).toBeDefined();
  });
});
