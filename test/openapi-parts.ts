/** Small pieces of an OpenAPI document, for unit tests that write their spec inline. */
import type { SchemaObject } from '../src/openapi/document.js';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const ok = (schema?: unknown) => ({ description: 'ok', ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }) });
export const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
export const idParam = (name: string, schema: SchemaObject = { type: 'string', format: 'uuid' }) => ({ name, in: 'path' as const, required: true, schema });

/** An author: an integer id, a required name, a creation time. */
export const AUTHOR: SchemaObject = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
};

/** `/authors` (list, create) and `/authors/{author_id}` (read, delete) over the `Author` schema, with integer ids. */
export function authorPaths({ deleteOperationId = 'deleteAuthor' } = {}) {
  return {
    '/authors': {
      get: { operationId: 'listAuthors', responses: { '200': ok({ type: 'array', items: ref('Author') }) } },
      post: { operationId: 'createAuthor', requestBody: body('Author'), responses: { '201': ok(ref('Author')) } },
    },
    '/authors/{author_id}': {
      parameters: [idParam('author_id', { type: 'integer' })],
      get: { operationId: 'getAuthor', responses: { '200': ok(ref('Author')) } },
      delete: { operationId: deleteOperationId, responses: { '204': ok() } },
    },
  };
}
