import { applyConventions } from '../../src/conventions/index.js';
import { findBrokenRefs } from '../../src/load/validate.js';
import {
  deref,
  operationsOf,
  visitRefs,
  type JsonObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
  type SchemaObject,
} from '../../src/openapi/document.js';
import { loadResources } from '../../src/resources.js';
import { diagnosticsOf } from '../helpers.js';

const { fragments } = loadResources();

// ── tiny spec builders ───────────────────────────────────────────────────────

const BOOK: SchemaObject = {
  type: 'object',
  required: ['id', 'title'],
  properties: {
    id: { type: 'string', readOnly: true },
    title: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'published'] },
    pages: { type: 'integer' },
    price: { type: 'number' },
    in_print: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    author: { type: 'object', properties: { name: { type: 'string' } } },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
    updated_at: { type: 'string', format: 'date-time', readOnly: true },
  },
};

/** A tag-like resource without timestamps. */
const TAG: SchemaObject = {
  type: 'object',
  required: ['id', 'label'],
  properties: { id: { type: 'integer' }, label: { type: 'string' } },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema?: unknown, description = 'ok'): ResponseObject => ({ description, ...(schema === undefined ? {} : json(schema)) }) as ResponseObject;
const idParam = (name: string): ParameterObject => ({ name, in: 'path', required: true, schema: { type: 'string' } });

/** The full CRUD surface of `books`, plus an action-like GET. */
function bookPaths(): Record<string, JsonObject> {
  return {
    '/books': {
      get: { operationId: 'listBooks', responses: { '200': ok({ type: 'array', items: ref('Book') }) } },
      post: {
        operationId: 'createBook',
        requestBody: { required: true, ...json(ref('Book')) },
        responses: { '201': ok(ref('Book')) },
      },
    },
    '/books/{book_id}': {
      parameters: [idParam('book_id')],
      get: { operationId: 'getBook', responses: { '200': ok(ref('Book')) } },
      put: { operationId: 'replaceBook', requestBody: json(ref('Book')), responses: { '200': ok(ref('Book')) } },
      patch: { operationId: 'updateBook', requestBody: json(ref('Book')), responses: { '200': ok(ref('Book')) } },
      delete: { operationId: 'deleteBook', responses: { '204': { description: 'gone' } } },
    },
    '/tags': {
      get: { operationId: 'listTags', responses: { '200': ok({ type: 'array', items: ref('Tag') }) } },
    },
    '/health': {
      get: { operationId: 'health', responses: { '200': ok({ type: 'object', properties: { status: { type: 'string' } } }) } },
    },
  };
}

function spec(overrides: Partial<OpenApiDocument> & JsonObject = {}): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 'Books', version: '1.0.0' },
    servers: [{ url: 'http://h/api' }],
    paths: bookPaths(),
    components: { schemas: { Book: structuredClone(BOOK), Tag: structuredClone(TAG) } },
    ...overrides,
  } as OpenApiDocument;
}

function merge(input: OpenApiDocument) {
  return applyConventions(input, fragments);
}

function operation(document: OpenApiDocument, path: string, method: string): OperationObject {
  const found = document.paths?.[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found as OperationObject;
}

/** `in:name` of every parameter of an operation, refs followed. */
function parameterKeys(document: OpenApiDocument, op: OperationObject): string[] {
  return (op.parameters ?? []).map((p) => {
    const resolved = deref<ParameterObject>(document, p)!;
    return `${resolved.in}:${resolved.name}`;
  });
}

function parameter(document: OpenApiDocument, op: OperationObject, name: string): ParameterObject {
  const found = (op.parameters ?? []).map((p) => deref<ParameterObject>(document, p)!).filter((p) => p.name === name);
  if (found.length !== 1) throw new Error(`${found.length} parameters named ${name}`);
  return found[0]!;
}

function response(document: OpenApiDocument, op: OperationObject, status: string): ResponseObject {
  return deref<ResponseObject>(document, op.responses![status]!)!;
}

function bodySchema(document: OpenApiDocument, op: OperationObject, status: string): SchemaObject {
  return response(document, op, status).content!['application/json']!.schema as SchemaObject;
}


const SCALARS = ['id', 'title', 'status', 'pages', 'price', 'in_print', 'created_at', 'updated_at'];

// ── list and read parameters ─────────────────────────────────────────────────

describe('list parameters', () => {
  const { document } = merge(spec());
  const list = operation(document, '/books', 'get');

  test('cursor paging, the owned parameters, then one equality filter per scalar field', () => {
    expect(parameterKeys(document, list)).toEqual([
      'query:cursor',
      'query:limit',
      'query:sort',
      'query:order',
      'query:fields',
      'query:include',
      'query:search',
      'query:created_after',
      'query:created_before',
      'header:If-None-Match',
      // not id, not the date-time fields, not arrays or objects
      'query:title',
      'query:status',
      'query:pages',
      'query:price',
      'query:in_print',
    ]);
  });

  test('limit carries the default and the maximum', () => {
    expect(parameter(document, list, 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
  });

  test('limit follows a configured page size', () => {
    const merged = merge(spec({ 'x-specforge': { paging: { defaultLimit: 5, maxLimit: 50 } } })).document;
    expect(parameter(merged, operation(merged, '/books', 'get'), 'limit').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      default: 5,
    });
  });

  test('sort pattern lists the scalar fields and allows a leading -', () => {
    const sort = parameter(document, list, 'sort');
    const pattern = (sort.schema as SchemaObject).pattern as string;
    const field = `(${SCALARS.join('|')})`;
    expect(pattern).toBe(`^-?${field}(,-?${field})*$`);
    const regex = new RegExp(pattern);
    expectMatches(regex, ['title', '-created_at', 'pages,-price', 'id,-status,in_print'], true);
    expectMatches(regex, ['tags', 'author', 'title,', '--title', 'title desc', '', 'updated_atx'], false);
  });

  function expectMatches(regex: RegExp, values: string[], want: boolean) {
    for (const value of values) expect([value, regex.test(value)]).toEqual([value, want]);
  }

  test('order, fields, include, search and the date range are the shared components', () => {
    const byName = Object.fromEntries((list.parameters ?? []).map((p) => [deref<ParameterObject>(document, p)!.name, p]));
    expect(byName.cursor).toEqual({ $ref: '#/components/parameters/Cursor' });
    expect(byName.order).toEqual({ $ref: '#/components/parameters/Order' });
    expect(byName.fields).toEqual({ $ref: '#/components/parameters/Fields' });
    expect(byName.include).toEqual({ $ref: '#/components/parameters/Include' });
    expect(byName.search).toEqual({ $ref: '#/components/parameters/Search' });
    expect(byName.created_after).toEqual({ $ref: '#/components/parameters/CreatedAfter' });
    expect(byName.created_before).toEqual({ $ref: '#/components/parameters/CreatedBefore' });
    expect(byName['If-None-Match']).toEqual({ $ref: '#/components/parameters/IfNoneMatch' });
  });

  test('an equality filter keeps the field type, format and enum', () => {
    expect(parameter(document, list, 'status')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', enum: ['draft', 'published'] } });
    expect(parameter(document, list, 'pages').schema).toEqual({ type: 'integer' });
    expect(parameter(document, list, 'in_print').schema).toEqual({ type: 'boolean' });
  });

  test('no created_after / created_before when the item has no created_at', () => {
    const keys = parameterKeys(document, operation(document, '/tags', 'get'));
    expect(keys).not.toContain('query:created_after');
    expect(keys).not.toContain('query:created_before');
    expect(keys).toEqual([
      'query:cursor',
      'query:limit',
      'query:sort',
      'query:order',
      'query:fields',
      'query:include',
      'query:search',
      'header:If-None-Match',
      'query:label',
    ]);
  });

  test('offset paging: page instead of cursor, OffsetPagination in the envelope', () => {
    const input = spec();
    (input.paths!['/books']!.get as JsonObject)['x-specforge'] = { paging: { style: 'offset' } };
    const merged = merge(input).document;
    const offsetList = operation(merged, '/books', 'get');
    const keys = parameterKeys(merged, offsetList);
    expect(keys.slice(0, 2)).toEqual(['query:page', 'query:limit']);
    expect(keys).not.toContain('query:cursor');
    expect(bodySchema(merged, offsetList, '200').properties!.pagination).toEqual(ref('OffsetPagination'));
    // the other list keeps the API's cursor style
    expect(parameterKeys(merged, operation(merged, '/tags', 'get'))[0]).toBe('query:cursor');
  });

  test('offset paging configured at the root applies to every list', () => {
    const merged = merge(spec({ 'x-specforge': { paging: { style: 'offset' } } })).document;
    for (const path of ['/books', '/tags']) {
      expect(parameterKeys(merged, operation(merged, path, 'get'))[0]).toBe('query:page');
      expect(bodySchema(merged, operation(merged, path, 'get'), '200').properties!.pagination).toEqual(ref('OffsetPagination'));
    }
  });

  test('a user-declared limit without a maximum is replaced by the conventions’ one', () => {
    const input = spec();
    (input.paths!['/books']!.get as JsonObject).parameters = [
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
      { name: 'cursor', in: 'query', schema: { type: 'integer' } },
      { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
    ];
    const merged = merge(input).document;
    const op = operation(merged, '/books', 'get');
    expect(parameter(merged, op, 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(parameter(merged, op, 'cursor')).toEqual(deref(merged, { $ref: '#/components/parameters/Cursor' }));
    // a parameter the conventions do not own is kept, first
    expect(parameterKeys(merged, op)[0]).toBe('header:X-Trace');
  });

  test('a user-declared filter with a field’s name is kept as declared, once', () => {
    const custom: ParameterObject = { name: 'status', in: 'query', description: 'Custom status filter', schema: { type: 'string', enum: ['published'] } };
    const input = spec();
    (input.paths!['/books']!.get as JsonObject).parameters = [custom];
    const merged = merge(input).document;
    const op = operation(merged, '/books', 'get');
    expect(parameter(merged, op, 'status')).toEqual(custom);
    expect(parameterKeys(merged, op).filter((key) => key === 'query:status')).toHaveLength(1);
  });

  test('a filter the spec declares on the path item is the one in force', () => {
    // Operation parameters override path-item ones of the same name and location, so a generated
    // `status` filter on the operation would silently replace the user's.
    const custom: ParameterObject = { name: 'status', in: 'query', description: 'Custom status filter', schema: { type: 'string', enum: ['published'] } };
    const input = spec();
    input.paths!['/authors/{author_id}/books'] = {
      parameters: [idParam('author_id'), custom],
      get: { responses: { '200': ok({ type: 'array', items: ref('Book') }) } },
    };
    const merged = merge(input).document;
    const op = operation(merged, '/authors/{author_id}/books', 'get');
    const onOperation = (op.parameters ?? []).map((p) => deref<ParameterObject>(merged, p)!).find((p) => p.name === 'status' && p.in === 'query');
    expect(onOperation ?? custom).toEqual(custom);
  });

  test('a writeOnly field is neither a filter nor a sort field', () => {
    const input = spec();
    (input.components!.schemas!.Tag as SchemaObject).properties!.secret = { type: 'string', writeOnly: true };
    const merged = merge(input).document;
    const op = operation(merged, '/tags', 'get');
    expect(parameterKeys(merged, op)).not.toContain('query:secret');
    const pattern = new RegExp((parameter(merged, op, 'sort').schema as SchemaObject).pattern as string);
    expect(pattern.test('label')).toBe(true);
    expect(pattern.test('secret')).toBe(false);
  });

  test('a read-only field the server computes is no filter (nothing in a store holds it), but it sorts', () => {
    const input = spec();
    (input.components!.schemas!.Tag as SchemaObject).properties!.usage_count = { type: 'integer', readOnly: true };
    const merged = merge(input).document;
    const op = operation(merged, '/tags', 'get');
    expect(parameterKeys(merged, op)).not.toContain('query:usage_count');
    expect(parameterKeys(merged, op)).toContain('query:label');
    expect(new RegExp((parameter(merged, op, 'sort').schema as SchemaObject).pattern as string).test('usage_count')).toBe(true);
  });

  test("a read-only field named like a path parameter (a parent's id, taken from the path) stays a filter", () => {
    const input = spec();
    (input.components!.schemas!.Tag as SchemaObject).properties!.book_id = { type: 'string', readOnly: true };
    const merged = merge(input).document;
    expect(parameterKeys(merged, operation(merged, '/tags', 'get'))).toContain('query:book_id');
  });

  test('a user-declared If-None-Match header is not duplicated', () => {
    const input = spec();
    (input.paths!['/books']!.get as JsonObject).parameters = [{ name: 'if-none-match', in: 'header', schema: { type: 'string' } }];
    const merged = merge(input).document;
    const keys = parameterKeys(merged, operation(merged, '/books', 'get')).map((key) => key.toLowerCase());
    expect(keys.filter((key) => key === 'header:if-none-match')).toHaveLength(1);
  });
});

describe('read operations', () => {
  const { document } = merge(spec());
  const read = operation(document, '/books/{book_id}', 'get');

  test('fields, include and If-None-Match (path-item parameters stay on the path item)', () => {
    expect(parameterKeys(document, read)).toEqual(['query:fields', 'query:include', 'header:If-None-Match']);
    expect(document.paths!['/books/{book_id}']!.parameters).toEqual([idParam('book_id')]);
  });

  test('a 304 Not Modified response', () => {
    expect(read.responses!['304']).toEqual({ $ref: '#/components/responses/NotModified' });
    const notModified = response(document, read, '304');
    expect(notModified.content).toBeUndefined();
    expect(Object.keys(notModified.headers!)).toEqual(
      expect.arrayContaining(['ETag', 'Cache-Control', 'X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
  });

  test('ETag, Cache-Control and Last-Modified (the resource has updated_at)', () => {
    const headers = response(document, read, '200').headers!;
    expect(headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(headers['Cache-Control']).toEqual({ $ref: '#/components/headers/Cache-Control' });
    expect(headers['Last-Modified']).toEqual({ $ref: '#/components/headers/Last-Modified' });
  });

  test('no Last-Modified without updated_at', () => {
    const input = spec();
    input.paths!['/tags/{tag_id}'] = { parameters: [idParam('tag_id')], get: { responses: { '200': ok(ref('Tag')) } } };
    const merged = merge(input).document;
    const headers = response(merged, operation(merged, '/tags/{tag_id}', 'get'), '200').headers!;
    expect(headers.ETag).toBeDefined();
    expect(headers['Last-Modified']).toBeUndefined();
    const listHeaders = response(merged, operation(merged, '/tags', 'get'), '200').headers!;
    expect(listHeaders.ETag).toBeDefined();
    expect(listHeaders['Last-Modified']).toBeUndefined();
  });

  test('lists get the caching headers and the 304 too; writes get neither', () => {
    const list = operation(document, '/books', 'get');
    expect(list.responses!['304']).toBeDefined();
    expect(response(document, list, '200').headers!.ETag).toBeDefined();
    for (const [path, method] of [
      ['/books', 'post'],
      ['/books/{book_id}', 'put'],
      ['/books/{book_id}', 'delete'],
    ] as const) {
      const op = operation(document, path, method);
      expect(op.responses!['304']).toBeUndefined();
      const success = Object.keys(op.responses!).find((status) => status.startsWith('2'))!;
      expect(response(document, op, success).headers!.ETag).toBeUndefined();
    }
  });

  test('writes get no list/read query parameters', () => {
    expect(operation(document, '/books', 'post').parameters).toBeUndefined();
    expect(operation(document, '/books/{book_id}', 'delete').parameters).toBeUndefined();
  });
});

// ── responses ────────────────────────────────────────────────────────────────

describe('success envelope', () => {
  const { document } = merge(spec());

  test('a list is wrapped in { data, meta, pagination }', () => {
    expect(bodySchema(document, operation(document, '/books', 'get'), '200')).toEqual({
      type: 'object',
      required: ['data', 'meta', 'pagination'],
      properties: {
        data: { type: 'array', items: ref('Book') },
        meta: ref('EnvelopeMeta'),
        pagination: ref('CursorPagination'),
      },
    });
  });

  test.each([
    ['/books', 'post', '201'],
    ['/books/{book_id}', 'get', '200'],
    ['/books/{book_id}', 'put', '200'],
    ['/books/{book_id}', 'patch', '200'],
  ])('%s %s → %s is wrapped in { data, meta }', (path, method, status) => {
    expect(bodySchema(document, operation(document, path, method), status)).toEqual({
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: ref('Book'), meta: ref('EnvelopeMeta') },
    });
  });

  // A singleton: read whole, cached like any single-resource GET, with nothing to include.
  test('a GET of a singleton (an object at a path with no id) is wrapped without pagination, and cached', () => {
    const health = operation(document, '/health', 'get');
    expect(bodySchema(document, health, '200')).toEqual({
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: { type: 'object', properties: { status: { type: 'string' } } }, meta: ref('EnvelopeMeta') },
    });
    expect(health.parameters).toEqual([{ $ref: '#/components/parameters/Fields' }, { $ref: '#/components/parameters/IfNoneMatch' }]);
    expect(health.responses!['304']).toEqual({ $ref: '#/components/responses/NotModified' });
  });

  // Before: GitHub's `GET /user/interaction-limits` (an anyOf of two shapes) took `fields`, and its sparse answers broke both.
  test('a read whose item has no top-level fields (an anyOf of shapes, a free-form object) takes no sparse fieldset', () => {
    const shapes = { anyOf: [{ type: 'object', required: ['limit'], properties: { limit: { type: 'string' } } }, { type: 'object', additionalProperties: false }] };
    const paths = { ...bookPaths(), '/limits': { get: { operationId: 'getLimits', responses: { '200': ok(shapes) } } } };
    const { document: merged } = merge(spec({ paths }));
    expect(operation(merged, '/limits', 'get').parameters).toEqual([{ $ref: '#/components/parameters/IfNoneMatch' }]);
  });

  test('a 204 stays without a body', () => {
    expect(response(document, operation(document, '/books/{book_id}', 'delete'), '204').content).toBeUndefined();
  });

  test('an example of the bare resource is dropped from the wrapped body', () => {
    const input = spec();
    const get = input.paths!['/books/{book_id}']!.get as OperationObject;
    (get.responses!['200'] as JsonObject).content = { 'application/json': { schema: ref('Book'), example: { id: '1', title: 'x' } } };
    const merged = merge(input).document;
    const media = response(merged, operation(merged, '/books/{book_id}', 'get'), '200').content!['application/json']!;
    expect(media.example).toBeUndefined();
    expect((media.schema as SchemaObject).properties!.data).toEqual(ref('Book'));
  });

  test('an already-enveloped spec is not wrapped twice', () => {
    const listEnvelope = {
      type: 'object',
      required: ['data', 'pagination'],
      properties: {
        data: { type: 'array', items: ref('Book') },
        meta: { type: 'object', properties: { timestamp: { type: 'string' } } },
        pagination: { type: 'object', properties: { cursor: { type: 'string' }, has_more: { type: 'boolean' } } },
      },
    };
    const readEnvelope = { type: 'object', required: ['data'], properties: { data: ref('Book') } };
    const input = spec();
    (input.paths!['/books']!.get as OperationObject).responses = { '200': ok(listEnvelope) };
    (input.paths!['/books/{book_id}']!.get as OperationObject).responses = { '200': ok(readEnvelope) };
    const merged = merge(input).document;
    expect(bodySchema(merged, operation(merged, '/books', 'get'), '200')).toEqual(listEnvelope);
    expect(bodySchema(merged, operation(merged, '/books/{book_id}', 'get'), '200')).toEqual(readEnvelope);
    // still a list: it gets the list parameters
    expect(parameterKeys(merged, operation(merged, '/books', 'get'))).toContain('query:cursor');
  });

  test('a shared response component is wrapped in a copy, the component itself left as it is', () => {
    const input = spec();
    input.components!.responses = { OneBook: ok(ref('Book'), 'One book') };
    (input.paths!['/books/{book_id}']!.get as OperationObject).responses = { '200': { $ref: '#/components/responses/OneBook' } };
    const merged = merge(input).document;
    expect(bodySchema(merged, operation(merged, '/books/{book_id}', 'get'), '200').properties!.data).toEqual(ref('Book'));
    expect((merged.components!.responses!.OneBook as ResponseObject).content!['application/json']!.schema).toEqual(ref('Book'));
  });

  test('every 2xx carries X-Request-Id and the three rate-limit headers', () => {
    let count = 0;
    for (const { operation: op } of operationsOf(document)) {
      for (const [status, value] of Object.entries(op.responses ?? {})) {
        if (!/^2/.test(status)) continue;
        count++;
        const headers = deref<ResponseObject>(document, value)!.headers!;
        expect([status, headers['X-Request-Id'], headers['X-RateLimit-Limit'], headers['X-RateLimit-Remaining'], headers['X-RateLimit-Reset']]).toEqual([
          status,
          { $ref: '#/components/headers/X-Request-Id' },
          { $ref: '#/components/headers/X-RateLimit-Limit' },
          { $ref: '#/components/headers/X-RateLimit-Remaining' },
          { $ref: '#/components/headers/X-RateLimit-Reset' },
        ]);
      }
    }
    expect(count).toBe(8);
  });

  test('the header components exist', () => {
    expect(Object.keys(document.components!.headers!)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag', 'Last-Modified', 'Cache-Control']),
    );
  });
});

describe('error responses', () => {
  const errorStatuses = (document: OpenApiDocument, path: string, method: string) =>
    Object.keys(operation(document, path, method).responses!).filter((status) => /^[45]/.test(status));

  // Default config: default security (secured), versioning "both" (406), validation 422.
  test.each([
    { path: '/books', method: 'get', want: ['400', '401', '403', '406', '422', '429', '500', '503'] },
    { path: '/books', method: 'post', want: ['400', '401', '403', '406', '409', '413', '415', '422', '429', '500', '503'] },
    { path: '/books/{book_id}', method: 'get', want: ['400', '401', '403', '404', '406', '422', '429', '500', '503'] },
    { path: '/books/{book_id}', method: 'put', want: ['400', '401', '403', '404', '406', '409', '413', '415', '422', '429', '500', '503'] },
    { path: '/books/{book_id}', method: 'patch', want: ['400', '401', '403', '404', '406', '409', '413', '415', '422', '429', '500', '503'] },
    { path: '/books/{book_id}', method: 'delete', want: ['400', '401', '403', '404', '406', '409', '422', '429', '500', '503'] },
    { path: '/health', method: 'get', want: ['400', '401', '403', '406', '422', '429', '500', '503'] },
  ])('$method $path → $want', ({ path, method, want }) => {
    const { document } = merge(spec());
    expect(errorStatuses(document, path, method)).toEqual(want);
  });

  test('all statuses are in ascending order, success first', () => {
    const { document } = merge(spec());
    expect(Object.keys(operation(document, '/books/{book_id}', 'get').responses!)).toEqual([
      '200', '304', '400', '401', '403', '404', '406', '422', '429', '500', '503',
    ]);
  });

  test('each error response is a $ref to the catalog response with the error envelope', () => {
    const { document } = merge(spec());
    const op = operation(document, '/books/{book_id}', 'put');
    expect(op.responses!['404']).toEqual({ $ref: '#/components/responses/NotFoundError' });
    expect(op.responses!['409']).toEqual({ $ref: '#/components/responses/ConflictError' });
    expect(op.responses!['422']).toEqual({ $ref: '#/components/responses/ValidationError' });
    const notFound = response(document, op, '404');
    expect(notFound.content!['application/json']!.schema).toEqual(ref('ErrorEnvelope'));
    expect((notFound.content!['application/json']!.example as JsonObject).error).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(Object.keys(notFound.headers!)).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
  });

  test('RateLimitedError and ServiceUnavailableError carry Retry-After', () => {
    const { document } = merge(spec());
    for (const name of ['RateLimitedError', 'ServiceUnavailableError']) {
      const response = document.components!.responses![name] as ResponseObject;
      expect(response.headers!['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
    expect((document.components!.responses!.InternalError as ResponseObject).headers!['Retry-After']).toBeUndefined();
  });

  test('a spec’s own responses for owned statuses are replaced; others are kept, with the standard headers', () => {
    const input = spec();
    (input.paths!['/books/{book_id}']!.get as OperationObject).responses = {
      '200': ok(ref('Book')),
      '404': { description: 'my own not found' },
      '418': { description: 'teapot' },
      default: { description: 'anything' },
    };
    const { document } = merge(input);
    const responses = operation(document, '/books/{book_id}', 'get').responses!;
    expect(responses['404']).toEqual({ $ref: '#/components/responses/NotFoundError' });
    const standard = {
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
      'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
      'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
    };
    expect(responses['418']).toEqual({ description: 'teapot', headers: standard });
    expect(responses.default).toEqual({ description: 'anything', headers: standard });
  });

  test('an owned error status the spec declares stays declared where no rule adds it', () => {
    const input = spec();
    const search = { responses: { '200': ok({ type: 'object', properties: { hits: { type: 'integer' } } }), '404': { description: 'none' }, '405': { description: 'x' } } };
    input.paths!['/search'] = { get: search as OperationObject };
    const responses = operation(merge(input).document, '/search', 'get').responses!;
    expect(responses['404']).toEqual({ $ref: '#/components/responses/NotFoundError' });
    expect(responses['405']).toEqual({ $ref: '#/components/responses/MethodNotAllowedError' });
  });

  test('a resource whose `data` field is a scalar is wrapped like any other', () => {
    const input = spec();
    const blob = { type: 'object', properties: { data: { type: 'string', format: 'byte' }, meta: { type: 'object' } } };
    input.paths!['/blobs/{blob_id}'] = {
      parameters: [{ name: 'blob_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': ok(blob) } } as OperationObject,
    };
    const schema = deref<SchemaObject>(merge(input).document, (operation(merge(input).document, '/blobs/{blob_id}', 'get').responses!['200'] as ResponseObject).content!['application/json']!.schema!)!;
    expect(Object.keys(schema.properties!)).toEqual(['data', 'meta']);
    expect(schema.properties!.meta).toEqual({ $ref: '#/components/schemas/EnvelopeMeta' });
    expect(schema.properties!.data).toEqual(blob);
  });

  test('security: [] → no 401/403 on that operation', () => {
    const input = spec();
    (input.paths!['/health']!.get as OperationObject).security = [];
    (input.paths!['/books']!.get as OperationObject).security = [{ bearerAuth: [] }];
    input.components!.securitySchemes = { bearerAuth: { type: 'http', scheme: 'bearer' } };
    const { document } = merge(input);
    expect(errorStatuses(document, '/health', 'get')).toEqual(['400', '406', '422', '429', '500', '503']);
    expect(errorStatuses(document, '/books', 'get')).toEqual(expect.arrayContaining(['401', '403']));
  });

  test('an optional-auth alternative ({}) counts as public', () => {
    const input = spec({ security: [{}, { bearerAuth: [] }] });
    input.components!.securitySchemes = { bearerAuth: { type: 'http', scheme: 'bearer' } };
    const { document } = merge(input);
    expect(errorStatuses(document, '/health', 'get')).not.toContain('401');
  });

  test('validation.status 400 → no 422 anywhere, 400 documents schema violations', () => {
    const { document } = merge(spec({ 'x-specforge': { validation: { status: 400 } } }));
    for (const { operation: op } of operationsOf(document)) expect(Object.keys(op.responses!)).not.toContain('422');
    expect((document.components!.responses!.BadRequestError as ResponseObject).description).toContain('VALIDATION_ERROR');
  });

  test('versioning none → no 406', () => {
    const { document } = merge(spec({ 'x-specforge': { versioning: { mechanism: 'none' } } }));
    for (const { operation: op } of operationsOf(document)) expect(Object.keys(op.responses!)).not.toContain('406');
  });

  test.each(['url', 'header', 'both'])('versioning %s → 406 on every operation', (mechanism) => {
    const { document } = merge(spec({ 'x-specforge': { versioning: { mechanism } } }));
    for (const { operation: op } of operationsOf(document)) expect(Object.keys(op.responses!)).toContain('406');
  });

  test('404 only where the path has parameters (nested collections included)', () => {
    const input = spec();
    input.paths!['/authors/{author_id}/books'] = {
      parameters: [idParam('author_id')],
      get: { responses: { '200': ok({ type: 'array', items: ref('Book') }) } },
    };
    const { document } = merge(input);
    expect(errorStatuses(document, '/authors/{author_id}/books', 'get')).toContain('404');
    expect(errorStatuses(document, '/books', 'get')).not.toContain('404');
  });

  test('413 and 415 follow the request body, not the method', () => {
    const input = spec();
    (input.paths!['/books']!.post as OperationObject).requestBody = undefined;
    delete (input.paths!['/books']!.post as OperationObject).requestBody;
    const { document } = merge(input);
    const statuses = errorStatuses(document, '/books', 'post');
    expect(statuses).not.toContain('413');
    expect(statuses).not.toContain('415');
    expect(statuses).toContain('409');
  });
});

// ── security ─────────────────────────────────────────────────────────────────

describe('security', () => {
  test('a spec without security gets Bearer or X-API-Key on every operation', () => {
    const { document } = merge(spec());
    expect(document.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(document.components!.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
  });

  test('a spec with its own root security keeps it, and gets no default schemes', () => {
    const input = spec({ security: [{ oauth: ['books:read'] }] });
    input.components!.securitySchemes = { oauth: { type: 'oauth2', flows: {} } };
    const { document } = merge(input);
    expect(document.security).toEqual([{ oauth: ['books:read'] }]);
    expect(Object.keys(document.components!.securitySchemes!)).toEqual(['oauth']);
  });

  test('a spec with operation-level security only keeps it', () => {
    const input = spec();
    (input.paths!['/books']!.get as OperationObject).security = [{ key: [] }];
    input.components!.securitySchemes = { key: { type: 'apiKey', in: 'header', name: 'X-Key' } };
    const { document } = merge(input);
    expect(document.security).toBeUndefined();
    expect(Object.keys(document.components!.securitySchemes!)).toEqual(['key']);
  });
});

// ── versioning ───────────────────────────────────────────────────────────────

describe('versioning', () => {
  test.each([
    { name: 'server with /api', servers: [{ url: 'http://h/api' }], want: ['http://h/api/v1'], version: 1 },
    { name: 'trailing slash', servers: [{ url: 'http://h/api/' }], want: ['http://h/api/v1'], version: 1 },
    { name: 'relative', servers: [{ url: '/api' }], want: ['/api/v1'], version: 1 },
    { name: 'already /v2', servers: [{ url: 'http://h/api/v2' }], want: ['http://h/api/v2'], version: 2 },
    // No /api and no version: URLs the API's clients already call (GitHub's https://api.github.com), left as they are.
    { name: 'host only', servers: [{ url: 'https://h' }], want: ['https://h'], version: 1 },
    { name: 'not every server under /api', servers: [{ url: 'http://a/api' }, { url: 'http://b' }], want: ['http://a/api', 'http://b'], version: 1 },
    { name: 'no servers', servers: undefined, want: undefined, version: 1 },
  ])('$name → $want', ({ servers, want, version }) => {
    const input = spec();
    if (servers) input.servers = servers;
    else delete input.servers;
    const { document, config } = merge(input);
    expect(document.servers?.map((server) => server.url)).toEqual(want);
    expect(config.versioning.version).toBe(version);
  });

  test("a published API's URLs are not moved under its info.version's major; the Accept header's version is still that major", () => {
    const { document, config } = merge(spec({ info: { title: 'GitHub', version: '23.0.2' }, servers: [{ url: 'https://api.github.com' }] }));
    expect(document.servers).toEqual([{ url: 'https://api.github.com' }]);
    expect(Object.keys(document.paths!).every((path) => !path.startsWith('/v'))).toBe(true);
    expect(config.versioning).toEqual({ mechanism: 'header', version: 23 });
    // The resolved configuration says so, and merging the merged spec changes nothing.
    expect(merge(document).document).toEqual(document);
  });

  test.each([
    { servers: [{ url: 'https://h' }], want: ['https://h/v2'] },
    { servers: undefined, want: ['/v2'] },
  ])('an explicit versioning.version adds the segment wherever the URLs are ($want)', ({ servers, want }) => {
    const input = spec({ 'x-specforge': { versioning: { version: 2 } } });
    if (servers) input.servers = servers;
    else delete input.servers;
    expect(merge(input).document.servers?.map((server) => server.url)).toEqual(want);
  });

  test('the segment number comes from info.version', () => {
    const { document, config } = merge(spec({ info: { title: 'B', version: '3.2.1' } }));
    expect(document.servers).toEqual([{ url: 'http://h/api/v3' }]);
    expect(config.versioning.version).toBe(3);
  });

  test('paths that already carry /v2 → no segment added, and the version is 2', () => {
    const input = spec();
    input.paths = Object.fromEntries(Object.entries(input.paths!).map(([path, item]) => [`/v2${path}`, item]));
    const { document, config } = merge(input);
    expect(document.servers).toEqual([{ url: 'http://h/api' }]);
    expect(config.versioning.version).toBe(2);
    expect((document['x-specforge'] as { versioning: { version: number } }).versioning.version).toBe(2);
  });

  test('mechanism url → the segment wherever the URLs are, and the mechanism stays url', () => {
    const input = spec({ info: { title: 'GitHub', version: '23.0.2' }, servers: [{ url: 'https://api.github.com' }], 'x-specforge': { versioning: { mechanism: 'url' } } });
    const { document, config } = merge(input);
    expect(document.servers).toEqual([{ url: 'https://api.github.com/v23' }]);
    expect(config.versioning).toEqual({ mechanism: 'url', version: 23 });
  });

  test('mechanism header → no segment', () => {
    const { document } = merge(spec({ 'x-specforge': { versioning: { mechanism: 'header' } } }));
    expect(document.servers).toEqual([{ url: 'http://h/api' }]);
  });

  test('mechanism header, no servers → none added', () => {
    const input = spec({ 'x-specforge': { versioning: { mechanism: 'header' } } });
    delete input.servers;
    expect(merge(input).document.servers).toBeUndefined();
  });

  test('server variables are kept', () => {
    const input = spec({ servers: [{ url: 'http://h/api', description: 'prod', variables: {} }] });
    expect(merge(input).document.servers).toEqual([{ url: 'http://h/api/v1', description: 'prod', variables: {} }]);
  });
});

// ── typed shape ──────────────────────────────────────────────────────────────

describe('typed resource shape', () => {
  const { document } = merge(spec({ 'x-specforge': { resourceShape: 'typed' } }));

  test('XAttributes is the resource without its id', () => {
    const attributes = document.components!.schemas!.BookAttributes as SchemaObject;
    expect(Object.keys(attributes.properties!)).toEqual([
      'title',
      'status',
      'pages',
      'price',
      'in_print',
      'tags',
      'author',
      'created_at',
      'updated_at',
    ]);
    expect(attributes.required).toEqual(['title']);
    expect(attributes.type).toBe('object');
  });

  test('XResource is { id, type, attributes }', () => {
    expect(document.components!.schemas!.BookResource).toEqual({
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string', description: 'Identifier of the resource.' },
        type: { type: 'string', enum: ['books'], description: 'Kind of the resource.' },
        attributes: ref('BookAttributes'),
      },
    });
  });

  test('data refers to XResource on lists, reads and writes', () => {
    expect(bodySchema(document, operation(document, '/books', 'get'), '200').properties!.data).toEqual({
      type: 'array',
      items: ref('BookResource'),
    });
    expect(bodySchema(document, operation(document, '/books/{book_id}', 'get'), '200').properties!.data).toEqual(ref('BookResource'));
    expect(bodySchema(document, operation(document, '/books', 'post'), '201').properties!.data).toEqual(ref('BookResource'));
    expect(bodySchema(document, operation(document, '/tags', 'get'), '200').properties!.data).toEqual({
      type: 'array',
      items: ref('TagResource'),
    });
  });

  test('the original component is left in place; a non-resource body is not reshaped', () => {
    expect(document.components!.schemas!.Book).toEqual(BOOK);
    expect(bodySchema(document, operation(document, '/health', 'get'), '200').properties!.data).toEqual({
      type: 'object',
      properties: { status: { type: 'string' } },
    });
  });

  test('the list filters are still those of the attributes', () => {
    expect(parameterKeys(document, operation(document, '/books', 'get'))).toEqual(
      expect.arrayContaining(['query:title', 'query:status', 'query:created_after']),
    );
  });

  test('one component served by two collections merges, each with its own type', () => {
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    input.paths!['/labels'] = { get: { operationId: 'listLabels', responses: { '200': ok({ type: 'array', items: ref('Tag') }) } } };
    const merged = merge(input).document;
    const typeOf = (path: string) => {
      const data = bodySchema(merged, operation(merged, path, 'get'), '200').properties!.data as SchemaObject;
      const item = deref<SchemaObject>(merged, data.items!)!;
      return (deref<SchemaObject>(merged, item.properties!.type!)!).enum;
    };
    expect(typeOf('/tags')).toContain('tags');
    expect(typeOf('/labels')).toContain('labels');
  });

  test('typed on one operation only', () => {
    const input = spec();
    (input.paths!['/books/{book_id}']!.get as JsonObject)['x-specforge'] = { resourceShape: 'typed' };
    const merged = merge(input).document;
    expect(bodySchema(merged, operation(merged, '/books/{book_id}', 'get'), '200').properties!.data).toEqual(ref('BookResource'));
    expect(bodySchema(merged, operation(merged, '/books', 'get'), '200').properties!.data).toEqual({ type: 'array', items: ref('Book') });
  });

  test('the spec\'s own BookResource and BookAttributes stay; the wrapper and its attributes take Specforge… names', () => {
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    input.components!.schemas!.BookResource = { type: 'string' };
    input.components!.schemas!.BookAttributes = { type: 'object', properties: { colour: { type: 'string' } } };
    const merged = merge(input).document;
    const schemas = merged.components!.schemas!;
    expect(schemas.BookResource).toEqual({ type: 'string' });
    expect(schemas.BookAttributes).toEqual(input.components!.schemas!.BookAttributes);
    expect(bodySchema(merged, operation(merged, '/books/{book_id}', 'get'), '200').properties!.data).toEqual(ref('SpecforgeBookResource'));
    expect((schemas.SpecforgeBookResource as SchemaObject).properties!.attributes).toEqual(ref('SpecforgeBookAttributes'));
    expect(findBrokenRefs(merged)).toEqual([]);
    expect(merge(merged).document).toEqual(merged);
  });
});

// ── components ───────────────────────────────────────────────────────────────

describe('convention components', () => {

  test('3.0 keeps nullable; 3.1 gets type arrays and no nullable anywhere in the installed components', () => {
    const v30 = merge(spec()).document;
    expect((v30.components!.schemas!.CursorPagination as SchemaObject).properties!.cursor).toMatchObject({ type: 'string', nullable: true });

    const v31 = merge(spec({ openapi: '3.1.0' })).document;
    const cursor = (v31.components!.schemas!.CursorPagination as SchemaObject).properties!.cursor as SchemaObject;
    expect(cursor.type).toEqual(['string', 'null']);
    expect(cursor).not.toHaveProperty('nullable');
    expect(JSON.stringify(v31.components)).not.toContain('"nullable"');
  });

  test('the resolved configuration travels with the merged spec', () => {
    const { document, config } = merge(spec());
    expect(document['x-specforge']).toEqual(config);
  });
});

// ── the spec's own components under the conventions' names ──────────────────

/** Offset paging, so lists refer to the conventions' `Page`. */
const offsetPaged = () => spec({ 'x-specforge': { paging: { style: 'offset', defaultLimit: 10, maxLimit: 30 } } });

type OwnComponent = [section: string, name: string, component: JsonObject];

/** Components of the spec's own under names the conventions use, each different from theirs. */
const OWN: OwnComponent[] = [
  ['parameters', 'Page', { name: 'page', in: 'query', description: 'Zero-based.', schema: { type: 'integer', minimum: 0 } }],
  ['responses', 'NotFoundError', { description: 'No such thing.', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } }],
  ['responses', 'BadRequestError', { description: 'Bad request.' }],
  ['schemas', 'ErrorEnvelope', { type: 'object', properties: { message: { type: 'string' } } }],
  ['schemas', 'ErrorDetail', { type: 'string' }],
  ['headers', 'ETag', { description: 'Version.', schema: { type: 'string', maxLength: 64 } }],
];

function withOwn(own: OwnComponent[], input = offsetPaged()): OpenApiDocument {
  const components = input.components as Record<string, Record<string, unknown>>;
  for (const [section, name, component] of own) (components[section] ??= {})[name] = structuredClone(component);
  return input;
}

function refsOf(document: OpenApiDocument): string[] {
  const found: string[] = [];
  visitRefs(document, ({ $ref }) => found.push($ref));
  return found;
}

const componentsOf = (document: OpenApiDocument) => document.components as Record<string, Record<string, unknown>>;
const count = (refs: string[], ref: string) => refs.filter((candidate) => candidate === ref).length;

describe.each(OWN)("the spec's own components.%s.%s", (section, name, component) => {
  const plain = () => merge(offsetPaged()).document;
  const merged = () => merge(withOwn([[section, name, component]])).document;
  const refTo = (installed: string) => `#/components/${section}/${installed}`;

  test("stays byte for byte; the conventions' goes under Specforge…", () => {
    const components = componentsOf(merged());
    expect(JSON.stringify(components[section]![name])).toBe(JSON.stringify(component));
    expect(components[section]![`Specforge${name}`]).toEqual(componentsOf(plain())[section]![name]);
  });

  test('every $ref the conventions write to theirs points at Specforge…, and resolves', () => {
    const document = merged();
    const refs = refsOf(document);
    expect(count(refs, refTo(name))).toBe(0);
    expect(count(refs, refTo(`Specforge${name}`))).toBe(count(refsOf(plain()), refTo(name)));
    expect(count(refs, refTo(`Specforge${name}`))).toBeGreaterThan(0);
    expect(findBrokenRefs(document)).toEqual([]);
  });

  test('merging the merged spec changes nothing', () => {
    const once = merged();
    expect(merge(once).document).toEqual(once);
  });
});

describe("the spec's own components under the conventions' names, all at once", () => {
  test('every one stays byte for byte, every $ref resolves, and a second merge changes nothing', () => {
    const input = withOwn(OWN);
    const merged = merge(input).document;
    for (const [section, name] of OWN) expect(JSON.stringify(componentsOf(merged)[section]![name])).toBe(JSON.stringify(componentsOf(input)[section]![name]));
    expect(findBrokenRefs(merged)).toEqual([]);
    expect(merge(merged).document).toEqual(merged);
  });

  test("the conventions' components refer to each other by the names they were given", () => {
    const merged = merge(withOwn(OWN)).document;
    const { responses, schemas } = componentsOf(merged) as { responses: Record<string, ResponseObject>; schemas: Record<string, SchemaObject> };
    expect(responses.SpecforgeNotFoundError!.content!['application/json']!.schema).toEqual(ref('SpecforgeErrorEnvelope'));
    expect(responses.ConflictError!.content!['application/json']!.schema).toEqual(ref('SpecforgeErrorEnvelope'));
    expect(responses.NotModified!.headers!.ETag).toEqual({ $ref: '#/components/headers/SpecforgeETag' });
    const error = schemas.SpecforgeErrorEnvelope!.properties!.error as SchemaObject;
    expect((error.properties!.details as SchemaObject).items).toEqual(ref('SpecforgeErrorDetail'));
  });

  test('in 3.1 as well', () => {
    const merged31 = merge(withOwn(OWN, spec({ openapi: '3.1.0', 'x-specforge': { paging: { style: 'offset' } } }))).document;
    expect(findBrokenRefs(merged31)).toEqual([]);
    expect(merge(merged31).document).toEqual(merged31);
    expect(refsOf(merged31)).toContain('#/components/parameters/SpecforgePage');
  });
});

describe("the conventions' names, further", () => {
  test("a component of the spec's equal to the conventions' keeps the plain name", () => {
    const input = offsetPaged();
    input.components!.parameters = { Page: structuredClone(fragments.parameters!.Page!) as ParameterObject };
    input.components!.schemas!.ErrorEnvelope = structuredClone(fragments.schemas!.ErrorEnvelope!) as SchemaObject;
    const merged = merge(input).document;
    expect(refsOf(merged)).toEqual(expect.arrayContaining(['#/components/parameters/Page', '#/components/schemas/ErrorEnvelope']));
    expect(JSON.stringify(merged)).not.toContain('Specforge');
  });

  test('SpecforgePage taken too, differently → SpecforgePage2, deterministically', () => {
    const taken: OwnComponent = ['parameters', 'SpecforgePage', { name: 'page', in: 'query', schema: { type: 'string' } }];
    const input = withOwn([OWN[0]!, taken]);
    const merged = merge(input).document;
    expect(merged.components!.parameters!.SpecforgePage).toEqual(taken[2]);
    expect(merged.components!.parameters!.SpecforgePage2).toEqual(fragments.parameters!.Page);
    expect(refsOf(merged)).toContain('#/components/parameters/SpecforgePage2');
    expect(merge(merged).document).toEqual(merged);
    expect(merge(withOwn([OWN[0]!, taken]))).toEqual(merge(input));
  });

  test("a header's namespaced name is a valid component key: SpecforgeX-Request-Id", () => {
    const merged = merge(withOwn([['headers', 'X-Request-Id', { schema: { type: 'integer' } }]])).document;
    expect(Object.keys(merged.components!.headers!)).toContain('SpecforgeX-Request-Id');
    expect(Object.keys(merged.components!.headers!).every((key) => /^[a-zA-Z0-9.\-_]+$/.test(key))).toBe(true);
    expect(findBrokenRefs(merged)).toEqual([]);
  });

  test("a scheme of the spec's own named bearerAuth, and no security → the conventions' Bearer is SpecforgeBearerAuth", () => {
    const input = spec();
    input.components!.securitySchemes = { bearerAuth: { type: 'http', scheme: 'basic' } };
    const merged = merge(input).document;
    expect(merged.security).toEqual([{ SpecforgeBearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(merged.components!.securitySchemes!.bearerAuth).toEqual({ type: 'http', scheme: 'basic' });
    expect(merged.components!.securitySchemes!.SpecforgeBearerAuth).toEqual(fragments.securitySchemes!.bearerAuth);
  });
});

// ── operationIds ─────────────────────────────────────────────────────────────

describe('operationIds', () => {
  const anonymous = () => {
    const input = spec();
    for (const { operation: op } of operationsOf(input)) delete op.operationId;
    return input;
  };

  test('missing operationIds are filled from method and path', () => {
    const { document } = merge(anonymous());
    expect([...operationsOf(document)].map(({ operation: op }) => op.operationId)).toEqual([
      'getBooks',
      'postBooks',
      'getBooksBookId',
      'putBooksBookId',
      'deleteBooksBookId',
      'patchBooksBookId',
      'getTags',
      'getHealth',
    ]);
  });

  test('deterministically', () => {
    expect(merge(anonymous())).toEqual(merge(anonymous()));
  });

  test('declared operationIds are kept', () => {
    const { document } = merge(spec());
    expect(operation(document, '/books', 'get').operationId).toBe('listBooks');
  });

  test('a filled id never repeats one the spec declares later', () => {
    const input = anonymous();
    // `/tags` comes after `/books` and declares the id `/books` GET would get.
    (input.paths!['/tags']!.get as OperationObject).operationId = 'getBooks';
    const ids = [...operationsOf(merge(input).document)].map(({ operation: op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

// ── purity and idempotence ───────────────────────────────────────────────────

describe('purity', () => {
  test('the input document is not mutated', () => {
    for (const input of [spec(), spec({ openapi: '3.1.0', 'x-specforge': { resourceShape: 'typed' } })]) {
      const before = structuredClone(input);
      merge(input);
      expect(input).toEqual(before);
    }
  });

  test('the fragments are not mutated', () => {
    const before = structuredClone(fragments);
    merge(spec({ 'x-specforge': { resourceShape: 'typed' } }));
    merge(spec({ openapi: '3.1.0' }));
    expect(fragments).toEqual(before);
  });
});

describe('idempotence: merging the merged spec changes nothing', () => {
  const enveloped = () => {
    const input = spec();
    (input.paths!['/books']!.get as OperationObject).responses = {
      '200': ok({ type: 'object', properties: { data: { type: 'array', items: ref('Book') }, pagination: { type: 'object' } } }),
    };
    (input.paths!['/books/{book_id}']!.get as OperationObject).responses = {
      '200': ok({ type: 'object', properties: { data: ref('Book') } }),
    };
    return input;
  };
  const secured = () => {
    const input = spec({ security: [{ bearerAuth: ['books:read'] }] });
    input.components!.securitySchemes = { bearerAuth: { type: 'http', scheme: 'bearer' } };
    (input.paths!['/health']!.get as OperationObject).security = [];
    return input;
  };
  const idLast = () => {
    // a typed resource whose id is not its first property
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    const { id, ...rest } = BOOK.properties!;
    input.components!.schemas!.Book = { ...BOOK, properties: { ...rest, id: id! } };
    return input;
  };
  const filtersDeclared = () => {
    const input = spec();
    (input.paths!['/books']!.get as OperationObject).parameters = [
      { name: 'status', in: 'query', schema: { type: 'string' } },
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
      { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
    ];
    return input;
  };
  const anonymous = () => {
    const input = spec();
    for (const { operation: op } of operationsOf(input)) delete op.operationId;
    return input;
  };

  test.each([
    { name: '3.0 flat cursor', input: () => spec() },
    { name: '3.1', input: () => spec({ openapi: '3.1.0' }) },
    { name: 'typed', input: () => spec({ 'x-specforge': { resourceShape: 'typed' } }) },
    { name: 'typed 3.1', input: () => spec({ openapi: '3.1.0', 'x-specforge': { resourceShape: 'typed' } }) },
    { name: 'typed, id declared last', input: idLast },
    { name: 'offset', input: () => spec({ 'x-specforge': { paging: { style: 'offset', defaultLimit: 10, maxLimit: 30 } } }) },
    { name: 'secured with a public operation', input: secured },
    { name: 'public (security: [])', input: () => spec({ security: [] }) },
    { name: 'already enveloped', input: enveloped },
    { name: 'declared filters and limit', input: filtersDeclared },
    { name: 'operationIds filled', input: anonymous },
    { name: 'header versioning, no servers', input: () => spec({ servers: [], 'x-specforge': { versioning: { mechanism: 'header' } } }) },
    { name: 'validation 400, versioning none', input: () => spec({ 'x-specforge': { validation: { status: 400 }, versioning: { mechanism: 'none' } } }) },
  ])('$name', ({ input }) => {
    const once = merge(input()).document;
    const twice = merge(once).document;
    expect(twice).toEqual(once);
  });
});

describe('versioning conflicts', () => {
  test('an explicit version that contradicts the servers is CONFIG_INVALID_VALUE', () => {
    const input = spec({ servers: [{ url: 'http://h/api/v1' }], 'x-specforge': { versioning: { version: 3 } } });
    const problems = diagnosticsOf(() => merge(input));
    expect(problems).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', pointer: '#/x-specforge/versioning/version' })]);
    expect(problems[0]!.message).toContain('/v1');
  });

  test('an explicit version that agrees with the servers is accepted', () => {
    const input = spec({ servers: [{ url: 'http://h/api/v3' }], 'x-specforge': { versioning: { version: 3 } } });
    expect(merge(input).config.versioning.version).toBe(3);
  });
});

describe('typed shape: more schemas', () => {
  test('a list of BookSummary beside reads of Book gives two wrappers, no conflict', () => {
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    input.components!.schemas!.BookSummary = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, title: { type: 'string' } } };
    (input.paths!['/books']!.get as OperationObject).responses = { '200': ok({ type: 'array', items: ref('BookSummary') }) };
    const merged = merge(input).document;
    expect(Object.keys(merged.components!.schemas!)).toEqual(expect.arrayContaining(['BookSummaryResource', 'BookResource']));
  });

  test('an allOf schema is flattened into its attributes', () => {
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    input.components!.schemas!.Book = {
      allOf: [{ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }, { type: 'object', required: ['title'], properties: { title: { type: 'string' } } }],
    };
    const attributes = merge(input).document.components!.schemas!.BookAttributes as SchemaObject;
    expect(attributes).toEqual({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] });
  });
});

describe('paths', () => {
  test('paths that start with /api get the version segment after it, and keep their order', () => {
    const input = spec();
    input.paths = Object.fromEntries(Object.entries(input.paths!).map(([path, item]) => [`/api${path}`, item]));
    delete input.servers;
    const merged = merge(input).document;
    expect(Object.keys(merged.paths!)).toEqual(Object.keys(input.paths).map((path) => path.replace('/api', '/api/v1')));
    expect(merged.servers).toBeUndefined();
    expect(merge(merged).document).toEqual(merged);
  });

  test('a 3.1 path item given as a $ref is merged like any other, on its own copy', () => {
    const input = spec({ openapi: '3.1.0' });
    (input.components as JsonObject).pathItems = { Books: input.paths!['/books'] };
    input.paths!['/books'] = { $ref: '#/components/pathItems/Books' } as JsonObject;
    const merged = merge(input).document;
    const list = operation(merged, '/books', 'get');
    expect(Object.keys(list.responses!)).toEqual(expect.arrayContaining(['200', '304', '400', '429', '500', '503']));
    // The shared component itself is left as the spec wrote it.
    const pathItems = (document: OpenApiDocument) => (document.components as JsonObject & { pathItems: JsonObject }).pathItems;
    expect(pathItems(merged).Books).toEqual(pathItems(input).Books);
  });
});
