/**
 * Operations on books (/authors/{author_id}/books/{book_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { BooksHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const books: BooksHandlers = {
  listBooks: (request) => store.books.list(request),
  createBook: (request) => store.books.create(request),
  getBook: (request) => store.books.get(request),
  replaceBook: (request) => store.books.replace(request),
  deleteBook: (request) => store.books.remove(request),
  updateBook: (request) => store.books.update(request),
};
