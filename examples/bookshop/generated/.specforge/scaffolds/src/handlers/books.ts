/**
 * Operations on books (/authors/{author_id}/books/{book_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { BooksHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const books: BooksHandlers = {
  listBooks: async (request) => store.books.list(request),
  createBook: async (request) => store.books.create(request),
  getBook: async (request) => store.books.get(request),
  replaceBook: async (request) => store.books.replace(request),
  deleteBook: async (request) => store.books.remove(request),
  updateBook: async (request) => store.books.update(request),
};
