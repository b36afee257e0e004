/** The default store's answers hold what the spec promises, whatever a write sent. */
import { MemoryCollection } from '../../../src/runtime/server/store/memory.js';

type Row = Record<string, unknown>;

const books = () =>
  new MemoryCollection<Row>({
    type: 'books',
    shape: 'flat',
    idParam: 'book_id',
    ids: 'integer',
    // What a server makes (GitHub's `url`, `node_id`): required in every answer, set by no request.
    defaults: { url: 'https://example.com/resource', node_id: 'sample' },
  });

test('a created item holds the server-made fields; what the body sends wins', () => {
  const created = books().create<Row>({ path: {}, body: { title: 'Dune', node_id: 'given' } });
  expect(created).toEqual({ id: 1, title: 'Dune', url: 'https://example.com/resource', node_id: 'given' });
});

test('a replaced item keeps holding them; a body cannot take its id', () => {
  const store = books();
  store.create({ path: {}, body: { title: 'Dune' } });
  const replaced = store.replace<Row>({ path: { book_id: 1 }, body: { title: 'Emma', id: 7 } });
  expect(replaced).toEqual({ id: 1, title: 'Emma', url: 'https://example.com/resource', node_id: 'sample' });
  expect(store.get({ path: { book_id: 1 } })).toEqual(replaced);
});

// Before: Directus's `GET /fields` listed nothing of what `POST /fields/{collection}` created.
test('a list whose path names only part of the scope shows the items under every value of the rest', () => {
  const fields = new MemoryCollection<Row>({
    type: 'fields',
    shape: 'flat',
    idParam: 'field',
    ids: 'uuid',
    scope: ['collection'],
  });
  fields.create({ path: { collection: 'books' }, body: { name: 'title' } });
  fields.create({ path: { collection: 'authors' }, body: { name: 'born' } });
  const list = { limit: 10, sort: [], filters: {} };
  const names = (path: object) => fields.list<Row>({ path, list })!.items.map((item) => item.name);
  expect(names({})).toEqual(['title', 'born']);
  expect(names({ collection: 'books' })).toEqual(['title']);
  expect(names({ collection: 'films' })).toEqual([]);
});

// Before: Blockfrost's `/addresses/{address}/utxos` (scoped by address, and by asset below it)
// answered an empty page under a missing address.
test('a list naming part of the scope is still undefined (404) under a missing parent', () => {
  const addresses = new MemoryCollection<Row>({ type: 'addresses', shape: 'flat', idParam: 'address', ids: 'uuid' });
  const utxos = new MemoryCollection<Row>({
    type: 'utxos',
    shape: 'flat',
    idParam: 'id',
    ids: 'uuid',
    scope: ['address', 'asset'],
    parent: addresses,
  });
  const list = { limit: 10, sort: [], filters: {} };
  expect(utxos.list({ path: { address: 'nowhere' }, list })).toBeUndefined();
  const { id } = addresses.create<Row>({ path: {}, body: {} })!;
  expect(utxos.list({ path: { address: id }, list })).toMatchObject({ items: [] });
  // A path that names no parent item (GitHub's `/repos/{owner}/{repo}/pulls/comments` beside
  // `…/pulls/{pull_number}/comments`) lists under every parent.
  utxos.create({ path: { address: id, asset: 'ada' }, body: { amount: 1 } });
  expect(utxos.list<Row>({ path: {}, list })!.items.map((item) => item.amount)).toEqual([1]);
});
