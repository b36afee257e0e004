/**
 * Operations on documents (/documents/{document_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import { ApiError } from '../generated/conventions/errors.js';
import type { DocumentsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const documents: DocumentsHandlers = {
  listDocuments: async (request) => store.documents.list(request),
  uploadDocument: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'POST /documents is not implemented yet.',
    );
  },
  getDocument: async (request) => store.documents.get(request),
  downloadDocumentContent: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'GET /documents/{document_id}/content is not implemented yet.',
    );
  },
  replaceDocumentContent: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'PUT /documents/{document_id}/content is not implemented yet.',
    );
  },
};
