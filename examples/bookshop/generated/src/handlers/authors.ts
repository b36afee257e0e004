/**
 * Operations on authors (/authors/{author_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { AuthorsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const authors: AuthorsHandlers = {
  listAuthors: (request) => store.authors.list(request),
  createAuthor: (request) => store.authors.create(request),
  getAuthor: (request) => store.authors.get(request),
  replaceAuthor: (request) => store.authors.replace(request),
  deleteAuthor: (request) => store.authors.remove(request),
  updateAuthor: (request) => store.authors.update(request),
};
