/**
 * Operations on authors (/authors/{author_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { AuthorsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const authors: AuthorsHandlers = {
  listAuthors: async (request) => store.authors.list(request),
  createAuthor: async (request) => store.authors.create(request),
  getAuthor: async (request) => store.authors.get(request),
  replaceAuthor: async (request) => store.authors.replace(request),
  deleteAuthor: async (request) => store.authors.remove(request),
  updateAuthor: async (request) => store.authors.update(request),
};
