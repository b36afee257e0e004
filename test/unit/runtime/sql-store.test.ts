/**
 * The SQL store on an in-memory PGlite: what a row keeps, the list
 * conventions as SQL, `fields` reading only its columns, and a unique index
 * answered as 409 naming its fields.
 */
import { sql } from 'kysely';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import type { ListQuery } from '../../../src/runtime/server/generated/conventions/paging.js';
import { isoTimestamp, openDatabase, type Database } from '../../../src/runtime/server/store/database.js';
import { SqlCollection, type Table } from '../../../src/runtime/server/store/sql.js';

type Author = { id: string; name: string; country?: string; pages?: unknown; created_at: string };

const TABLE: Table = {
  name: 'authors',
  id: 'uuid',
  owners: [],
  columns: [
    { field: 'name', column: 'name', type: 'text' },
    { field: 'country', column: 'country', type: 'text' },
    { field: 'pages', column: 'pages', type: 'bigint' },
    { field: 'created_at', column: 'created_at', type: 'timestamptz' },
  ],
  search: false,
  unique: [{ index: 'authors_name_unique_idx', fields: ['name'] }],
};

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ url: 'memory:' });
  await sql
    .raw(
      `create table authors ("_seq" bigint generated always as identity, "id" uuid primary key, "name" text collate "C",
        "country" text collate "C", "pages" bigint, "created_at" timestamptz, "_extra" json);
       create unique index authors_name_unique_idx on authors ("name");`,
    )
    .execute(db);
});
afterAll(() => db.destroy());
beforeEach(() => sql`delete from authors`.execute(db));

const authors = new SqlCollection<Author>(() => Promise.resolve(db), {
  table: TABLE,
  type: 'authors',
  shape: 'flat',
  idParam: 'author_id',
  ids: 'uuid',
  createdField: 'created_at',
});

const create = (body: object) => authors.create({ path: {}, body }) as Promise<Author>;
const page = (list: Partial<ListQuery>) => authors.list({ path: {}, list: { limit: 10, sort: [], filters: {}, ...list } });

test('a value that does not fit its column is kept beside the row and read back as written', async () => {
  const created = await create({ name: 'Ursula', pages: 'many' });
  expect(created).toEqual({ id: expect.any(String), name: 'Ursula', pages: 'many', created_at: expect.any(String) });
  expect(await authors.get({ path: { author_id: created.id } })).toEqual(created);
  const [row] = (await sql<{ pages: unknown; _extra: unknown }>`select pages, _extra from authors`.execute(db)).rows;
  expect(row).toEqual({ pages: null, _extra: { pages: 'many' } });
});

test('filters, a descending sort with missing values last, and a cursor walk that sees each item once', async () => {
  for (const [name, country] of [['A', 'NO'], ['B', undefined], ['C', 'SE'], ['D', 'NO'], ['E', 'DK']])
    await create({ name, ...(country ? { country } : {}) });
  const filtered = await page({ filters: { country: 'NO' } });
  expect(filtered!.items.map((item) => item.name)).toEqual(['A', 'D']);
  const names: string[] = [];
  let after: ListQuery['after'];
  do {
    const next = await page({ limit: 2, sort: [{ field: 'country', descending: true }], ...(after === undefined ? {} : { after }) });
    names.push(...next!.items.map((item) => item.name));
    after = next!.next;
  } while (after !== undefined);
  expect(names).toEqual(['C', 'A', 'D', 'E', 'B']);
});

test('search matches the words of any field; a search holding a NUL (no text column holds one) matches nothing', async () => {
  await sql
    .raw(
      `create table notes ("_seq" bigint generated always as identity, "id" uuid primary key, "title" text collate "C",
        "_extra" json, "_search" text generated always as (lower(coalesce("title", '') || ' ' || coalesce("_extra"::text, ''))) stored)`,
    )
    .execute(db);
  const notes = new SqlCollection<{ id: string; title: string }>(() => Promise.resolve(db), {
    table: { name: 'notes', id: 'uuid', owners: [], columns: [{ field: 'title', column: 'title', type: 'text' }], search: true, unique: [] },
    type: 'notes',
    shape: 'flat',
    idParam: 'note_id',
    ids: 'uuid',
  });
  await notes.create({ path: {}, body: { title: 'Dune' } });
  await notes.create({ path: {}, body: { title: 'Emma', mood: 'dunes' } });
  const search = async (text: string) =>
    (await notes.list({ path: {}, list: { limit: 10, sort: [], filters: {}, search: text } }))!.items.map((note) => note.title);
  expect(await search('DUNE')).toEqual(['Dune', 'Emma']);
  expect(await search('\u0000')).toEqual([]);
  expect(await search('dune\u0000')).toEqual([]);
});

test('`fields` reads only the columns of the fields asked for (and the sort\'s), not the rest', async () => {
  await create({ name: 'Octavia', country: 'US', pages: 300 });
  const sparse = await page({ fields: ['name'], sort: [{ field: 'pages', descending: false }] });
  expect(sparse!.items).toEqual([{ id: expect.any(String), name: 'Octavia', pages: 300 }]);
  const whole = await page({});
  expect(whole!.items[0]).toMatchObject({ country: 'US', created_at: expect.any(String) });
});

test('a write that breaks a unique index is 409 CONFLICT naming its fields; another value is written', async () => {
  const first = await create({ name: 'Ursula' });
  const refused = await create({ name: 'Ursula' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ status: 409, code: 'CONFLICT', message: 'Another item has the same name.', details: [{ field: 'body.name', code: 'CONFLICT' }] });
  const second = await create({ name: 'Octavia' });
  const renamed = await authors.update({ path: { author_id: second.id }, body: { name: 'Ursula' } }).catch((error: unknown) => error);
  expect(renamed).toMatchObject({ status: 409, code: 'CONFLICT' });
  expect(await authors.get({ path: { author_id: first.id } })).toMatchObject({ name: 'Ursula' });
});

test('a timestamptz reads back as the API writes times: ISO 8601 in UTC, milliseconds', async () => {
  expect(isoTimestamp('2026-11-24 23:21:17.528+00')).toBe('2026-11-24T23:21:17.528Z');
  expect(isoTimestamp('2026-11-24 23:21:17+00')).toBe('2026-11-24T23:21:17.000Z');
  expect(isoTimestamp('2026-11-24 23:21:17.5+00')).toBe('2026-11-24T23:21:17.500Z');
  expect(isoTimestamp('2026-11-24 23:21:17.528999+00')).toBe('2026-11-24T23:21:17.528Z'); // as a Date truncates
  expect(isoTimestamp('2026-11-25 00:21:17.528+01')).toBe('2026-11-24T23:21:17.528Z');
  expect(isoTimestamp('infinity')).toBe('infinity');
  const created = await create({ name: 'Ursula' });
  expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const { rows } = await sql<{ created_at: unknown }>`select created_at from authors`.execute(db);
  expect(rows[0]!.created_at).toBe(created.created_at);
});

