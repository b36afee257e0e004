/**
 * Operations on genres (/genres/{genre_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { GenresHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const genres: GenresHandlers = {
  listGenres: (request) => store.genres.list(request),
  getGenre: (request) => store.genres.get(request),
};
