/**
 * The store the default handlers use: one in-memory collection per resource
 * (a singleton where the resource is one object with no id).
 * specforge created this file once; it is yours.
 */
import { MemoryCollection } from './memory.js';
import type * as NotesTypes from '../generated/resources/notes.js';

const notes = new MemoryCollection<NotesTypes.Note>({
  type: 'notes',
  shape: 'flat',
  idParam: 'note_id',
  ids: 'uuid',
  defaults: { text: 'sample' },
});

export const store = {
  notes,
};
