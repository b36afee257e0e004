/**
 * What is made of the whole merged spec, on a thread of its own (see
 * ./document-work.ts): its YAML text and its types (openapi-typescript and
 * TypeScript load here rather than in the main thread), in one answer. The
 * YAML is written before the types are printed only because
 * openapi-typescript adds to the document it is given (the enums of
 * discriminator properties).
 */
import { parentPort } from 'node:worker_threads';
import type { OpenApiDocument } from '../../openapi/document.js';
import { serializeSpec } from '../../openapi/serialize.js';
import type { DocumentWork } from './document-work.js';
import { printTypes } from './types-print.js';

parentPort!.on('message', (document: OpenApiDocument) => {
  const yaml = serializeSpec(document, 'yaml');
  const work: DocumentWork = { yaml, types: [...printTypes(document)] };
  parentPort!.postMessage(work);
});
