/** Prints the types on their own thread (see typesTarget): openapi-typescript and TypeScript load there, not in the main thread. */
import { parentPort } from 'node:worker_threads';
import type { OpenApiDocument } from '../../openapi/document.js';
import { printTypes } from './types-print.js';

parentPort!.on('message', (document: OpenApiDocument) => {
  parentPort!.postMessage([...printTypes(document)]);
});
