/**
 * The store the default handlers use: one in-memory collection per resource
 * (a singleton where the resource is one object with no id).
 * specforge created this file once; it is yours.
 */
import { MemoryCollection } from './memory.js';
import type * as AuthorsTypes from '../generated/resources/authors.js';
import type * as ReviewsTypes from '../generated/resources/reviews.js';
import type * as GenresTypes from '../generated/resources/genres.js';
import type * as BooksTypes from '../generated/resources/books.js';

const authors = new MemoryCollection<AuthorsTypes.Author>({
  type: 'authors',
  shape: 'typed',
  idParam: 'author_id',
  ids: 'uuid',
  createdField: 'created_at',
  updatedField: 'updated_at',
  sortOrders: { country: ['GB', 'IE', 'US', 'CA', 'FR', 'DE', 'NG', 'JP'] },
});

const reviews = new MemoryCollection<ReviewsTypes.Review>({
  type: 'reviews',
  shape: 'typed',
  idParam: 'review_id',
  ids: 'uuid',
  createdField: 'created_at',
});

const genres = new MemoryCollection<GenresTypes.Genre>({
  type: 'genres',
  shape: 'flat',
  idParam: 'genre_id',
  ids: 'uuid',
  seed: [{ id: 'history', name: 'History' }],
  defaults: { name: 'sample' },
});

const books = new MemoryCollection<BooksTypes.Book>({
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
