/** How the client writes a query: `fields` as an array travels comma-separated; other arrays repeat the parameter. */
import { Transport } from '../../../src/runtime/client/runtime.js';

/** A fetch that records the URLs it saw and answers each with one page. */
function recording(pages: unknown[] = [{ data: [], meta: {}, pagination: { has_more: false } }]) {
  const urls: string[] = [];
  const fetch = (async (url: string) => {
    urls.push(url);
    return new Response(JSON.stringify(pages.shift()), { status: 200 });
  }) as typeof globalThis.fetch;
  return { fetch, urls };
}

const transport = (fetch: typeof globalThis.fetch) =>
  new Transport({ baseUrl: 'http://api.test', fetch, apiKeyHeader: 'X-API-Key', retry: false });

type Book = { id: string; title: string; isbn?: string };
type Params = { query?: { fields?: string; tag?: string[]; cursor?: string } };
const list = { method: 'GET', path: '/books', paging: 'cursor' } as const;

test('a sparse call joins the fields array with commas; another array parameter is repeated', async () => {
  const { fetch, urls } = recording();
  const books = transport(fetch).sparseList<Params, Book, { required: 'title'; shape: 'flat' }>(list);
  await books({ query: { fields: ['isbn', 'title'], tag: ['a', 'b'] } });
  expect(urls).toEqual(['http://api.test/books?fields=isbn,title&tag=a&tag=b']);
});

test('the string form of fields is sent as it is', async () => {
  const { fetch, urls } = recording();
  const read = transport(fetch).sparseOperation<{ id: string } & Params, Book, { required: never; shape: 'flat' }>({ method: 'GET', path: '/books/{id}' });
  await read({ id: '1', query: { fields: 'isbn' } });
  expect(urls).toEqual(['http://api.test/books/1?fields=isbn']);
});

test('every page of a sparse walk asks for the same fields', async () => {
  const { fetch, urls } = recording([
    { data: [{ id: '1', title: 'A' }], meta: {}, pagination: { has_more: true, cursor: 'next' } },
    { data: [{ id: '2', title: 'B' }], meta: {}, pagination: { has_more: false } },
  ]);
  const books = transport(fetch).sparseList<Params, Book, { required: 'title'; shape: 'flat' }>(list);
  const seen = [];
  for await (const book of books.all({ query: { fields: ['id'] } })) seen.push(book.title);
  expect(seen).toEqual(['A', 'B']);
  expect(urls).toEqual(['http://api.test/books?fields=id', 'http://api.test/books?fields=id&cursor=next']);
});
