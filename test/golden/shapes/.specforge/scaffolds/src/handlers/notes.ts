/**
 * Operations on notes (/notes/{note_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { NotesHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const notes: NotesHandlers = {
  createNote: async (request) => (await store.notes.create<{ id: string }>(request))?.id,
  getNote: (request) => store.notes.get(request),
  deleteNote: (request) => store.notes.remove(request),
};
