/**
 * The store the default handlers use: a table per resource (see
 * ../generated/tables.ts and migrations/), in the database DATABASE_URL
 * names (./database.ts). specforge created this file once; it is yours.
 */
import { TABLES } from '../generated/tables.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';
import { SqlCollection } from './sql.js';
import type * as AuthorsTypes from '../generated/resources/authors.js';
import type * as ReviewsTypes from '../generated/resources/reviews.js';
import type * as GenresTypes from '../generated/resources/genres.js';
import type * as BooksTypes from '../generated/resources/books.js';

let opened: Promise<Database> | undefined;

/** The database, opened on first use. */
export function database(): Promise<Database> {
  opened ??= openDatabase(databaseSettingsFromEnv());
  return opened;
}

/** Closes the database, for a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const db = opened;
  opened = undefined;
  if (db) await (await db).destroy();
}

const authors = new SqlCollection<AuthorsTypes.Author>(database, {
  table: TABLES.authors,
  type: 'authors',
  shape: 'typed',
  idParam: 'author_id',
  ids: 'uuid',
  createdField: 'created_at',
  updatedField: 'updated_at',
  sortOrders: { country: ['GB', 'IE', 'US', 'CA', 'FR', 'DE', 'NG', 'JP'] },
});

const reviews = new SqlCollection<ReviewsTypes.Review>(database, {
  table: TABLES.reviews,
  type: 'reviews',
  shape: 'typed',
  idParam: 'review_id',
  ids: 'uuid',
  createdField: 'created_at',
});

const genres = new SqlCollection<GenresTypes.Genre>(database, {
  table: TABLES.genres,
  type: 'genres',
  shape: 'flat',
  idParam: 'genre_id',
  ids: 'uuid',
  seed: [{ id: 'history', name: 'History' }],
  defaults: { name: 'sample' },
});

const books = new SqlCollection<BooksTypes.Book>(database, {
  table: TABLES.books,
  type: 'books',
  shape: 'typed',
  idParam: 'book_id',
  ids: 'uuid',
  scope: ['author_id'],
  parent: authors,
  pathFields: ['author_id'],
  createdField: 'created_at',
  updatedField: 'updated_at',
  sortOrders: { genre: ['fiction', 'poetry', 'history', 'science'] },
});

export const store = {
  authors,
  reviews,
  genres,
  books,
};
