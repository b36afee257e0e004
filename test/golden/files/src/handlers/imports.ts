/**
 * Operations on imports (/imports). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { ImportsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const imports: ImportsHandlers = {
  createImport: (request) => store.imports.create(request),
};
