/**
 * Operations on imports (/imports). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import { ApiError } from '../generated/conventions/errors.js';
import type { ImportsHandlers } from '../generated/handlers.js';

export const imports: ImportsHandlers = {
  createImport: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'POST /imports is not implemented yet.',
    );
  },
};
