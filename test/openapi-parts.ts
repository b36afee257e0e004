/** Small pieces of an OpenAPI document, for unit tests that write their spec inline. */
import type { SchemaObject } from '../src/openapi/document.js';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const ok = (schema?: unknown) => ({ description: 'ok', ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }) });
export const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
export const idParam = (name: string, schema: SchemaObject = { type: 'string', format: 'uuid' }) => ({ name, in: 'path' as const, required: true, schema });
