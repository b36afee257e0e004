/**
 * Operations on documents (/documents/{document_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { DocumentsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';
import { UPLOADS } from '../generated/store.js';
import { createWithFiles, fileOf, replaceFile } from '../store/uploads.js';

export const documents: DocumentsHandlers = {
  listDocuments: (request) => store.documents.list(request),
  uploadDocument: (request) =>
    createWithFiles(store.documents, store.files, UPLOADS.documents, request),
  getDocument: (request) => store.documents.get(request),
  downloadDocumentContent: (request) =>
    fileOf(store.documents, store.files, UPLOADS.documents, request),
  replaceDocumentContent: async (request) =>
    (await replaceFile(store.documents, store.files, UPLOADS.documents, request)) !== undefined,
};
