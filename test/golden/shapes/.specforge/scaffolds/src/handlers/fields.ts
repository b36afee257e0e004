/**
 * Operations on fields (/fields/{collection}/{field_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { FieldsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const fields: FieldsHandlers = {
  listFields: (request) => store.fields.list(request),
  createField: (request) => store.fields.create(request),
  getField: (request) => store.fields.get(request),
};
