/**
 * Operations on the API root. specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import { ApiError } from '../generated/conventions/errors.js';
import type { RootHandlers } from '../generated/handlers.js';

export const root: RootHandlers = {
  streamEvents: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'GET /events is not implemented yet.',
    );
  },
  streamTicks: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'GET /ticks is not implemented yet.',
    );
  },
};
