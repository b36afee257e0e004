/**
 * The store the default handlers use: one in-memory collection per resource
 * (a singleton where the resource is one object with no id).
 * specforge created this file once; it is yours.
 */
import { MemoryCollection } from './memory.js';
import { MemorySingleton } from './singleton.js';
import type * as TasksTypes from '../generated/resources/tasks.js';
import type * as NotesTypes from '../generated/resources/notes.js';
import type * as FieldsTypes from '../generated/resources/fields.js';
import type * as SettingsTypes from '../generated/resources/settings.js';
import type * as SummaryTypes from '../generated/resources/summary.js';

const tasks = new MemoryCollection<TasksTypes.Task>({
  type: 'tasks',
  shape: 'flat',
  idParam: 'task_id',
  ids: 'integer',
});

const notes = new MemoryCollection<NotesTypes.Note>({
  type: 'notes',
  shape: 'flat',
  idParam: 'note_id',
  ids: 'uuid',
});

const fields = new MemoryCollection<FieldsTypes.Field>({
  type: 'fields',
  shape: 'flat',
  idParam: 'field_id',
  ids: 'integer',
  scope: ['collection'],
});

const settings = new MemorySingleton<SettingsTypes.Settings>({
  initial: { theme: 'light', page_size: 1 },
});

const summary = new MemorySingleton<SummaryTypes.Summary>({
  scope: ['task_id'],
  parent: tasks,
  initial: { words: 1 },
  defaults: { words: 1 },
});

export const store = {
  tasks,
  notes,
  fields,
  settings,
  summary,
};
