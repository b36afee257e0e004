/** The default store's answers hold what the spec promises, whatever a write sent. */
import { MemoryCollection } from '../../../src/runtime/server/store/memory.js';

type Row = Record<string, unknown>;
type Options = ConstructorParameters<typeof MemoryCollection<Row>>[0];

/** A flat collection of `type` whose items `idParam` names (uuid ids unless `options` say otherwise). */
const collection = (type: string, idParam: string, options: Partial<Options> = {}) =>
  new MemoryCollection<Row>({ type, shape: 'flat', idParam, ids: 'uuid', ...options });

const books = () =>
  new MemoryCollection<Row>({
    type: 'books',
    shape: 'flat',
    idParam: 'book_id',
    ids: 'integer',
    // What a server makes (GitHub's `url`, `node_id`): required in every answer, set by no request.
    defaults: { url: 'https://example.com/resource', node_id: 'sample' },
  });

test('a created item holds the server-made fields; what the body sends wins', async () => {
  const created = await books().create<Row>({ path: {}, body: { title: 'Dune', node_id: 'given' } });
  expect(created).toEqual({ id: 1, title: 'Dune', url: 'https://example.com/resource', node_id: 'given' });
});

test('a replaced item keeps holding them; a body cannot take its id', async () => {
  const store = books();
  await store.create({ path: {}, body: { title: 'Dune' } });
  const replaced = await store.replace<Row>({ path: { book_id: 1 }, body: { title: 'Emma', id: 7 } });
  expect(replaced).toEqual({ id: 1, title: 'Emma', url: 'https://example.com/resource', node_id: 'sample' });
  expect(await store.get({ path: { book_id: 1 } })).toEqual(replaced);
});

// Before: Directus's `GET /fields` listed nothing of what `POST /fields/{collection}` created.
test('a list whose path names only part of the scope shows the items under every value of the rest', async () => {
  const fields = collection('fields', 'field', { scope: ['collection'] });
  await fields.create({ path: { collection: 'books' }, body: { name: 'title' } });
  await fields.create({ path: { collection: 'authors' }, body: { name: 'born' } });
  const list = { limit: 10, sort: [], filters: {} };
  const names = async (path: object) => (await fields.list<Row>({ path, list }))!.items.map((item) => item.name);
  expect(await names({})).toEqual(['title', 'born']);
  expect(await names({ collection: 'books' })).toEqual(['title']);
  expect(await names({ collection: 'films' })).toEqual([]);
});

// Before: Blockfrost's `/addresses/{address}/utxos` (scoped by address, and by asset below it)
// answered an empty page under a missing address.
test('a list naming part of the scope is still undefined (404) under a missing parent', async () => {
  const addresses = collection('addresses', 'address');
  const utxos = collection('utxos', 'id', { scope: ['address', 'asset'], parent: addresses });
  const list = { limit: 10, sort: [], filters: {} };
  expect(await utxos.list({ path: { address: 'nowhere' }, list })).toBeUndefined();
  const { id } = (await addresses.create<Row>({ path: {}, body: {} }))!;
  expect(await utxos.list({ path: { address: id }, list })).toMatchObject({ items: [] });
  // A path that names no parent item (GitHub's `/repos/{owner}/{repo}/pulls/comments` beside
  // `…/pulls/{pull_number}/comments`) lists under every parent.
  await utxos.create({ path: { address: id, asset: 'ada' }, body: { amount: 1 } });
  expect((await utxos.list<Row>({ path: {}, list }))!.items.map((item) => item.amount)).toEqual([1]);
});

// Before: GitHub's `POST …/git/tags` wrote `object` as a sha and every read answered it where the spec declares an object.
test('a field whose written value does not fit the answer holds the server-made value, on every write', async () => {
  const tags = collection('tags', 'tag_sha', { defaults: { object: { sha: 'sample', type: 'commit' } }, serverFields: ['object'] });
  const created = await tags.create<Row>({ path: {}, body: { tag: 'v1', object: 'abc123' } });
  expect(created).toMatchObject({ tag: 'v1', object: { sha: 'sample', type: 'commit' } });
  const updated = await tags.update<Row>({ path: { tag_sha: created!.id }, body: { object: 'def456', tag: 'v2' } });
  expect(updated).toMatchObject({ tag: 'v2', object: { sha: 'sample', type: 'commit' } });
});

// Before: GitHub's `POST /orgs/{org}/actions/variables` made a UUID, while `GET …/variables/{name}` looks the item up by its name.
test('an item named by a key field is found by what was written there, keeps it, and a second one of that name conflicts', async () => {
  const variables = collection('variables', 'name', { keyField: 'name' });
  await variables.create({ path: {}, body: { name: 'TOKEN', value: 'a' } });
  expect(await variables.get<Row>({ path: { name: 'TOKEN' } })).toMatchObject({ name: 'TOKEN', value: 'a' });
  expect(await variables.update<Row>({ path: { name: 'TOKEN' }, body: { name: 'OTHER', value: 'b' } })).toMatchObject({ name: 'TOKEN', value: 'b' });
  expect(() => variables.create({ path: {}, body: { name: 'TOKEN', value: 'c' } })).toThrow(/exists already/);
});

// From review: a merge-patch body allows null everywhere; the answers require values.
test('a null written where answers require a value leaves what the item held', async () => {
  const notes = collection('notes', 'id', { ids: 'integer', nonNullFields: ['title'] });
  await notes.create({ path: {}, body: { title: 'Dune', tag: 'sf' } });
  expect(await notes.update<Row>({ path: { id: 1 }, body: { title: null, tag: null } })).toEqual({ id: 1, title: 'Dune', tag: null });
});

// From review: a seeded `{ id: 1 }` made the first create conflict (409) in a collection with no key field.
test('new integer ids follow the seeded ones', async () => {
  const genres = collection('genres', 'id', { ids: 'integer', seed: [{ id: 1, name: 'sf' }] });
  expect(await genres.create<Row>({ path: {}, body: { name: 'crime' } })).toMatchObject({ id: 2 });
});

// Before: `/books/{book_id}` beside `/authors/{author_id}/books` found nothing (404), and `/books/{book_id}/reviews` could not create.
describe('a collection kept under parents, reached by paths that name none', () => {
  const list = { limit: 10, sort: [], filters: {} };
  const shop = async () => {
    const authors = collection('authors', 'author_id', { ids: 'integer' });
    const books = collection('books', 'book_id', { ids: 'integer', scope: ['author_id'], parent: authors, pathFields: ['author_id'] });
    const reviews = collection('reviews', 'review_id', { ids: 'integer', scope: ['book_id'], parent: books, parentParams: ['book_id'] });
    await authors.create({ path: {}, body: { name: 'Le Guin' } });
    await authors.create({ path: {}, body: { name: 'Austen' } });
    await books.create({ path: { author_id: 1 }, body: { title: 'Earthsea' } });
    await books.create({ path: { author_id: 2 }, body: { title: 'Emma' } });
    return { authors, books, reviews };
  };

  test('lists, reads, changes and deletes an item by its id alone', async () => {
    const { books } = await shop();
    expect((await books.list<Row>({ path: {}, list }))!.items.map((book) => book.title)).toEqual(['Earthsea', 'Emma']);
    expect(await books.get({ path: { book_id: 2 } })).toEqual({ id: 2, title: 'Emma', author_id: 2 });
    expect(await books.update<Row>({ path: { book_id: 2 }, body: { title: 'Persuasion' } })).toMatchObject({ title: 'Persuasion', author_id: 2 });
    // A path that names the parent still finds the item only under it.
    expect(await books.get({ path: { author_id: 1, book_id: 2 } })).toBeUndefined();
    expect(await books.remove({ path: { book_id: 2 } })).toBe(true);
    expect(await books.get({ path: { author_id: 2, book_id: 2 } })).toBeUndefined();
  });

  test('a child of the top-level path lives under the item whatever its parent', async () => {
    const { reviews } = await shop();
    expect(await reviews.create({ path: { book_id: 2 }, body: { stars: 5 } })).toEqual({ id: 1, stars: 5 });
    expect((await reviews.list<Row>({ path: { book_id: 2 }, list }))!.items).toHaveLength(1);
    expect(await reviews.create({ path: { book_id: 9 }, body: { stars: 1 } })).toBeUndefined();
  });

  test('a create naming no parent takes it from the body, else answers 422', async () => {
    const { books } = await shop();
    expect(await books.create({ path: {}, body: { title: 'Lathe', author_id: 1 } })).toEqual({ id: 3, title: 'Lathe', author_id: 1 });
    expect(await books.create({ path: {}, body: { title: 'Lathe', author_id: 9 } })).toBeUndefined();
    expect(() => books.create({ path: {}, body: { title: 'Lathe' } })).toThrow(expect.objectContaining({ status: 422 }));
  });
});

describe('a page asked again', () => {
  const list = { limit: 2, sort: [{ field: 'pages', descending: true }], filters: { genre: 'poetry' } };
  const titles = async (store: MemoryCollection<Row>, query: object = list) =>
    (await store.list<Row>({ path: {}, list: query as typeof list }))!.items.map((item) => item.title);
  const shelf = async () => {
    const store = books();
    for (const [title, pages] of [['Odes', 90], ['Iliad', 700], ['Ariel', 80]] as const)
      await store.create({ path: {}, body: { title, pages, genre: 'poetry' } });
    return store;
  };

  test('answers what the store holds after every kind of write', async () => {
    const store = await shelf();
    expect(await titles(store)).toEqual(['Iliad', 'Odes']);
    await store.create({ path: {}, body: { title: 'Beowulf', pages: 300, genre: 'poetry' } });
    expect(await titles(store)).toEqual(['Iliad', 'Beowulf']);
    await store.update({ path: { book_id: 2 }, body: { pages: 10 } });
    expect(await titles(store)).toEqual(['Beowulf', 'Odes']);
    await store.replace({ path: { book_id: 4 }, body: { title: 'Beowulf', pages: 300, genre: 'epic' } });
    expect(await titles(store)).toEqual(['Odes', 'Ariel']);
    await store.remove({ path: { book_id: 1 } });
    expect(await titles(store)).toEqual(['Ariel', 'Iliad']);
    await store.take({ path: { book_id: 3 } });
    expect(await titles(store)).toEqual(['Iliad']);
  });

  test('is told apart from another page by every part of its query, and hands out fresh copies', async () => {
    const store = await shelf();
    expect(await titles(store)).toEqual(['Iliad', 'Odes']);
    expect(await titles(store, { ...list, limit: 1 })).toEqual(['Iliad']);
    expect(await titles(store, { ...list, offset: 1 })).toEqual(['Odes', 'Ariel']);
    expect(await titles(store, { ...list, sort: [{ field: 'pages', descending: false }] })).toEqual(['Ariel', 'Odes']);
    expect(await titles(store, { ...list, filters: { genre: 'epic' } })).toEqual([]);
    expect(await titles(store, { ...list, search: 'ari' })).toEqual(['Ariel']);
    const first = (await store.list<Row>({ path: {}, list }))!;
    first.items[0]!.title = 'changed by a handler';
    const again = (await store.list<Row>({ path: {}, list }))!;
    expect(again.items[0]!.title).toBe('Iliad');
    expect(again).toMatchObject({ total: 3, next: { values: [90] } });
  });
});

describe('a page is never answered for another query that JSON would write alike', () => {
  const list = { limit: 10, sort: [], filters: {} as Record<string, unknown> };
  const notes = async (store: MemoryCollection<Row>, path: object, filters: Record<string, unknown> = {}) =>
    (await store.list<Row>({ path, list: { ...list, filters } }))!.items.map((item) => item.text);

  test('path values that are not finite numbers', async () => {
    const store = collection('notes', 'note_id', { scope: ['user_id'], ids: 'integer' });
    await store.create({ path: { user_id: Infinity }, body: { text: 'private' } });
    expect(await notes(store, { user_id: Infinity })).toEqual(['private']);
    expect(await notes(store, { user_id: -Infinity })).toEqual([]);
    expect(await notes(store, { user_id: NaN })).toEqual([]);
  });

  test('a filter that is undefined, null, not finite or a Date', async () => {
    const store = books();
    await store.create({ path: {}, body: { text: 'blank', pages: null, owner: 'ann' } });
    expect(await notes(store, {}, { pages: null })).toEqual(['blank']);
    expect(await notes(store, {}, { pages: Infinity })).toEqual([]);
    expect(await notes(store, {}, {})).toEqual(['blank']);
    expect(await notes(store, {}, { owner: undefined })).toEqual([]);
    const when = new Date(0);
    await store.create({ path: {}, body: { text: 'dated', at: String(when) } });
    expect(await notes(store, {}, { at: when.toISOString() })).toEqual([]);
    expect(await notes(store, {}, { at: when })).toEqual(['dated']);
  });
});

test('a handler that changes a nested value of an item it was handed does not change the store', async () => {
  const store = books();
  await store.create({ path: {}, body: { title: 'Odes', tags: ['poetry'], meta: { shelf: 'A' } } });
  const list = { limit: 10, sort: [], filters: { tags: 'poetry' } };
  const handed = (await store.list<Row>({ path: {}, list }))!.items[0]!;
  (handed.tags as string[])[0] = 'prose';
  (handed.meta as Row).shelf = 'Z';
  const read = (await store.get<Row>({ path: { book_id: 1 } }))!;
  expect(read).toMatchObject({ tags: ['poetry'], meta: { shelf: 'A' } });
  expect((await store.list<Row>({ path: {}, list }))!.items).toHaveLength(1);
});
