/**
 * The bookshop API (examples/bookshop/openapi.yaml), written by hand on
 * node:http: authors (typed), their books (typed, nested), reviews (typed,
 * offset paging), genres (flat, public, fixed). Its own ids: random UUIDs.
 */
import { randomUUID } from 'node:crypto';
import { Collection, type CollectionSpec } from './collection.js';
import { EXAMPLE_BASE_PATH, exampleApi, listen, type RunningApi, type ServerInputs } from './http-kit.js';
import { resourceOperations, type ResourceRoutes } from './resources.js';
import type { Field, Rule } from './schema-check.js';

const UUID: Rule = { type: 'string', format: 'uuid' };
const COUNTRY: Rule = { type: 'string', enum: ['GB', 'IE', 'US', 'CA', 'FR', 'DE', 'NG', 'JP'] };
const GENRE: Rule = { type: 'string', enum: ['fiction', 'poetry', 'history', 'science'] };
const TEXT: Rule = { type: 'string' };

const AUTHOR_INPUT: Record<string, Field> = {
  name: { rule: { type: 'string', minLength: 1, maxLength: 200 }, required: true },
  bio: { rule: { type: 'string', maxLength: 2000 } },
  country: { rule: COUNTRY, required: true },
};

const BOOK_INPUT: Record<string, Field> = {
  title: { rule: { type: 'string', minLength: 1, maxLength: 300 }, required: true },
  isbn: { rule: { type: 'string', pattern: /^97[89][0-9]{10}$/, maxLength: 13 }, required: true },
  genre: { rule: GENRE, required: true },
  pages: { rule: { type: 'integer', minimum: 1, maximum: 10000 }, required: true },
  published_on: { rule: { type: 'string', format: 'date', maxLength: 10 } },
  in_print: { rule: { type: 'boolean' }, required: true },
};

const REVIEW_INPUT: Record<string, Field> = {
  book_id: { rule: { type: 'string', format: 'uuid', maxLength: 36 }, required: true },
  rating: { rule: { type: 'integer', minimum: 1, maximum: 5 }, required: true },
  body: { rule: { type: 'string', maxLength: 5000 } },
};

const PAGE = { maxLimit: 100, defaultLimit: 20 };

const SPECS: Record<string, CollectionSpec> = {
  authors: {
    type: 'authors',
    shape: 'typed',
    paging: 'cursor',
    filters: { name: TEXT, bio: TEXT, country: COUNTRY },
    sortable: ['id', 'name', 'bio', 'country', 'created_at', 'updated_at'],
    searchable: ['name', 'bio'],
    optional: ['bio'],
    createdRange: true,
    ...PAGE,
  },
  books: {
    type: 'books',
    shape: 'typed',
    paging: 'cursor',
    filters: {
      title: TEXT,
      isbn: TEXT,
      genre: GENRE,
      pages: { type: 'integer' },
      published_on: { type: 'string', format: 'date' },
      in_print: { type: 'boolean' },
    },
    sortable: ['id', 'author_id', 'title', 'isbn', 'genre', 'pages', 'published_on', 'in_print', 'created_at', 'updated_at'],
    searchable: ['title', 'isbn'],
    optional: ['published_on'],
    createdRange: true,
    ...PAGE,
  },
  reviews: {
    type: 'reviews',
    shape: 'typed',
    paging: 'offset',
    filters: { book_id: UUID, rating: { type: 'integer' }, body: TEXT },
    sortable: ['id', 'book_id', 'rating', 'body', 'created_at'],
    searchable: ['body'],
    optional: ['body'],
    createdRange: true,
    ...PAGE,
  },
  genres: {
    type: 'genres',
    shape: 'flat',
    paging: 'cursor',
    filters: { name: TEXT },
    sortable: ['id', 'name'],
    searchable: ['id', 'name'],
    optional: [],
    createdRange: false,
    ...PAGE,
  },
};

export interface BookshopOptions extends ServerInputs {
  /** A deliberate flaw, to show the suite catches it: cursor pages overlap by one item. */
  breaks?: { overlap?: boolean };
}

export function bookshopServer(options: BookshopOptions) {
  const authors = new Collection(SPECS.authors!);
  const books = new Collection(SPECS.books!);
  const reviews = new Collection(SPECS.reviews!);
  const genres = new Collection(SPECS.genres!);
  for (const [id, name] of [['fiction', 'Fiction'], ['poetry', 'Poetry'], ['history', 'History'], ['science', 'Science']])
    genres.put({ id, name });

  const write = ['catalog:write'];
  const common = { idRule: UUID, newId: randomUUID, ...(options.breaks ? { breaks: options.breaks } : {}) };
  const routes: ResourceRoutes[] = [
    {
      ...common,
      collection: authors,
      listPath: '/authors',
      idParam: 'author_id',
      methods: ['list', 'create', 'read', 'replace', 'update', 'delete'],
      readScopes: [],
      writeScopes: write,
      input: AUTHOR_INPUT,
      updated: true,
      // An author's books go with them.
      afterDelete: (id) => books.all().filter((book) => book.author_id === id).forEach((book) => books.remove(String(book.id))),
    },
    {
      ...common,
      collection: books,
      listPath: '/authors/{author_id}/books',
      idParam: 'book_id',
      parent: { param: 'author_id', rule: UUID, field: 'author_id', exists: (id) => authors.get(id) !== undefined },
      methods: ['list', 'create', 'read', 'replace', 'update', 'delete'],
      readScopes: [],
      writeScopes: write,
      input: BOOK_INPUT,
      updated: true,
    },
    {
      ...common,
      collection: reviews,
      listPath: '/reviews',
      idParam: 'review_id',
      methods: ['list', 'create', 'read', 'delete'],
      readScopes: [],
      writeScopes: ['reviews:write'],
      input: REVIEW_INPUT,
      updated: false,
    },
    {
      ...common,
      collection: genres,
      listPath: '/genres',
      idParam: 'genre_id',
      idRule: { type: 'string', pattern: /^[a-z-]{1,40}$/ },
      methods: ['list', 'read'],
      readScopes: 'public',
      writeScopes: 'public',
      input: {},
      updated: false,
    },
  ];
  return exampleApi(options, routes.flatMap(resourceOperations));
}

export function startBookshop(options: BookshopOptions): Promise<RunningApi> {
  return listen(bookshopServer(options), EXAMPLE_BASE_PATH);
}
