/**
 * Responses (conventions §2, §4, §7, §8): success bodies wrapped in the
 * envelope, every response given the request-id and rate-limit headers, reads
 * given caching headers and a 304, and the error responses that apply, each
 * with the error envelope.
 */
import type { PagingStyle } from '../config.js';
import { isEnvelope, isArraySchema, isJsonMediaType, type OperationKind } from '../openapi/classify.js';
import {
  deref,
  type OpenApiDocument,
  type Reference,
  type ResponseObject,
  type SchemaObject,
} from '../openapi/document.js';
import type { ComponentNames } from './component-names.js';
import { standardHeaders } from './components.js';
import { ERRORS, OWNED_ERROR_STATUSES, type ErrorKind } from './errors.js';

export interface ResponseInput {
  kind: OperationKind;
  paging: PagingStyle;
  /** Whether the resource has an update timestamp (→ Last-Modified). */
  hasUpdatedAt: boolean;
  errors: ErrorKind[];
  /** Rewrites a resource schema into the configured shape (typed or flat). */
  shapeResource: (schema: SchemaObject | Reference) => SchemaObject | Reference;
  /** Where the conventions' components are installed. */
  names: ComponentNames;
}

const CACHEABLE: OperationKind[] = ['list', 'read'];

export function conventionResponses(
  document: OpenApiDocument,
  declared: Record<string, ResponseObject | Reference>,
  input: ResponseInput,
): Record<string, ResponseObject | Reference> {
  const responses: Record<string, ResponseObject | Reference> = {};
  for (const [status, response] of Object.entries(declared)) {
    if (OWNED_ERROR_STATUSES.has(status)) continue;
    responses[status] = SUCCESS.test(status) ? successResponse(document, response, input) : withStandardHeaders(document, response, input.names);
  }
  if (CACHEABLE.includes(input.kind)) responses['304'] = input.names.ref('responses', 'NotModified');
  // An error status the spec declares stays declared, with the convention's envelope, even where
  // no rule would add it (a 404 on a search); the rules add the rest.
  const declaredErrors = Object.values(ERRORS).filter((error) => String(error.status) in declared);
  for (const error of [...declaredErrors, ...input.errors]) responses[String(error.status)] = input.names.ref('responses', error.response);
  return sortByStatus(responses);
}

const SUCCESS = /^2(\d\d|XX)$/i;

/** Any other response the spec declares (a redirect, a 410, `default`) carries the standard headers too. */
function withStandardHeaders(document: OpenApiDocument, declared: ResponseObject | Reference, names: ComponentNames): ResponseObject | Reference {
  const response = deref<ResponseObject>(document, declared);
  if (!response) return declared;
  return { ...structuredClone(response), headers: { ...response.headers, ...standardHeaders(names) } };
}

function successResponse(document: OpenApiDocument, declared: ResponseObject | Reference, input: ResponseInput): ResponseObject {
  // A shared response component may serve other operations too: work on a copy.
  const response = structuredClone(deref<ResponseObject>(document, declared) ?? { description: 'Success' });
  const content = response.content ?? {};
  for (const [mediaType, media] of Object.entries(content)) {
    if (!isJsonMediaType(mediaType) || !media.schema) continue;
    const wrapped = wrapInEnvelope(document, media.schema, input);
    if (wrapped === media.schema) continue;
    media.schema = wrapped;
    // An example of the bare resource would no longer match the envelope.
    delete media.example;
    delete media.examples;
  }
  response.headers = { ...response.headers, ...successHeaders(input) };
  return response;
}

function successHeaders({ kind, hasUpdatedAt, names }: ResponseInput): Record<string, Reference> {
  const headers: Record<string, Reference> = {};
  if (CACHEABLE.includes(kind)) {
    headers.ETag = names.ref('headers', 'ETag');
    headers['Cache-Control'] = names.ref('headers', 'Cache-Control');
    if (hasUpdatedAt) headers['Last-Modified'] = names.ref('headers', 'Last-Modified');
  }
  return { ...headers, ...standardHeaders(names) };
}

/** `{ data, meta, pagination? }` around the declared body; an envelope is left as it is. */
export function wrapInEnvelope(
  document: OpenApiDocument,
  schema: SchemaObject | Reference,
  input: Pick<ResponseInput, 'kind' | 'paging' | 'shapeResource' | 'names'>,
): SchemaObject | Reference {
  if (isEnvelope(document, schema)) return schema;
  const isList = input.kind === 'list';
  const data = isList && isArraySchema(document, schema) ? shapeItems(document, schema, input) : shapeSingle(schema, input);
  const pagination = input.paging === 'cursor' ? 'CursorPagination' : 'OffsetPagination';
  return {
    type: 'object',
    required: isList ? ['data', 'meta', 'pagination'] : ['data', 'meta'],
    properties: {
      data,
      meta: input.names.ref('schemas', 'EnvelopeMeta'),
      ...(isList ? { pagination: input.names.ref('schemas', pagination) } : {}),
    },
  };
}

function shapeSingle(schema: SchemaObject | Reference, input: Pick<ResponseInput, 'kind' | 'shapeResource'>) {
  return input.kind === 'other' ? schema : input.shapeResource(schema);
}

function shapeItems(document: OpenApiDocument, schema: SchemaObject | Reference, input: Pick<ResponseInput, 'shapeResource'>) {
  const array = deref<SchemaObject>(document, schema)!;
  return array.items ? { ...array, items: input.shapeResource(array.items) } : array;
}

function sortByStatus<T>(responses: Record<string, T>): Record<string, T> {
  const rank = (status: string) => (/^\d{3}$/.test(status) ? Number(status) : /^\dXX$/i.test(status) ? Number(status[0]) * 100 + 99 : 1000);
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => rank(a) - rank(b)));
}
