import {
  classifyOperation,
  isEnvelope,
  isTypedResource,
  itemSchemaOf,
  pathParams,
  pathShape,
  propertiesOf,
  requiredResourceFields,
  resourceFields,
  scalarTypeOf,
  type OperationKind,
} from '../../src/openapi/classify.js';
import type { HttpMethod, OpenApiDocument, OperationObject, SchemaObject } from '../../src/openapi/document.js';

const BOOK: SchemaObject = {
  type: 'object',
  required: ['id', 'title'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    pages: { type: 'integer' },
  },
};

function doc(schemas: Record<string, SchemaObject> = {}): OpenApiDocument {
  return { openapi: '3.0.3', info: { title: 'T', version: '1.0.0' }, paths: {}, components: { schemas: { Book: BOOK, ...schemas } } };
}

/** An operation whose 200 response has the given JSON schema (or no body). */
function returning(schema?: unknown, status = '200'): OperationObject {
  return {
    responses: {
      [status]: { description: 'ok', ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }) },
    },
  } as OperationObject;
}

const bookRef = { $ref: '#/components/schemas/Book' };
const bookList = { type: 'array', items: bookRef };

describe('pathShape', () => {
  test.each([
    { given: '/books', want: { prefix: [], pairs: [{ collection: 'books', idParams: [] }], addressesItem: false } },
    { given: '/books/{id}', want: { prefix: [], pairs: [{ collection: 'books', idParams: ['id'] }], addressesItem: true } },
    {
      given: '/api/v2/authors/{a}/books/{b}',
      want: {
        prefix: ['api', 'v2'],
        pairs: [
          { collection: 'authors', idParams: ['a'] },
          { collection: 'books', idParams: ['b'] },
        ],
        addressesItem: true,
      },
    },
    {
      given: '/repos/{owner}/{repo}/issues',
      want: {
        prefix: [],
        pairs: [
          { collection: 'repos', idParams: ['owner', 'repo'] },
          { collection: 'issues', idParams: [] },
        ],
        addressesItem: false,
      },
    },
    { given: '/api/books/', want: { prefix: ['api'], pairs: [{ collection: 'books', idParams: [] }], addressesItem: false } },
    { given: '/v1/books', want: { prefix: ['v1'], pairs: [{ collection: 'books', idParams: [] }], addressesItem: false } },
    { given: '/', want: { prefix: [], pairs: [], addressesItem: false } },
  ])('pathShape($given)', ({ given, want }) => {
    expect(pathShape(given)).toEqual(want);
  });

  test.each([
    { given: '/books', want: [] },
    { given: '/authors/{author_id}/books/{book_id}', want: ['author_id', 'book_id'] },
    { given: '/repos/{owner}/{repo}/issues', want: ['owner', 'repo'] },
  ])('pathParams($given)', ({ given, want }) => {
    expect(pathParams(given)).toEqual(want);
  });
});

describe('classifyOperation', () => {
  const enveloped = {
    type: 'object',
    properties: { data: bookList, meta: { type: 'object' }, pagination: { type: 'object' } },
  };
  test.each<{ name: string; method: HttpMethod; path: string; operation: OperationObject; want: OperationKind }>([
    { name: 'GET collection returning an array', method: 'get', path: '/books', operation: returning(bookList), want: 'list' },
    { name: 'GET of an object at a path with no id (a singleton)', method: 'get', path: '/stats', operation: returning({ type: 'object', properties: { n: { type: 'integer' } } }), want: 'read' },
    { name: 'GET collection, already enveloped list', method: 'get', path: '/books', operation: returning(enveloped), want: 'list' },
    { name: 'GET singleton, enveloped single object', method: 'get', path: '/me', operation: returning({ type: 'object', properties: { data: bookRef } }), want: 'read' },
    { name: 'GET collection without a body', method: 'get', path: '/books', operation: returning(undefined), want: 'other' },
    { name: 'GET collection, list under a $ref', method: 'get', path: '/books', operation: returning({ $ref: '#/components/schemas/BookList' }), want: 'list' },
    { name: 'GET collection, 3.1 type array', method: 'get', path: '/books', operation: returning({ type: ['array', 'null'], items: bookRef }), want: 'list' },
    { name: 'GET item', method: 'get', path: '/books/{id}', operation: returning(bookRef), want: 'read' },
    { name: 'GET nested item', method: 'get', path: '/authors/{a}/books/{b}', operation: returning(bookRef), want: 'read' },
    { name: 'GET nested collection', method: 'get', path: '/authors/{a}/books', operation: returning(bookList), want: 'list' },
    { name: 'POST collection', method: 'post', path: '/books', operation: returning(bookRef, '201'), want: 'create' },
    { name: 'POST item (action)', method: 'post', path: '/books/{id}', operation: returning(bookRef), want: 'other' },
    { name: 'PUT item', method: 'put', path: '/books/{id}', operation: returning(bookRef), want: 'replace' },
    { name: 'PUT alone at a path with no id (a singleton)', method: 'put', path: '/settings', operation: returning(bookRef), want: 'replace' },
    { name: 'PATCH item', method: 'patch', path: '/books/{id}', operation: returning(bookRef), want: 'update' },
    { name: 'PATCH alone at a path with no id (a singleton)', method: 'patch', path: '/settings', operation: returning(bookRef), want: 'update' },
    { name: 'DELETE item', method: 'delete', path: '/books/{id}', operation: returning(undefined, '204'), want: 'delete' },
    { name: 'DELETE collection', method: 'delete', path: '/books', operation: returning(undefined, '204'), want: 'other' },
    { name: 'HEAD item', method: 'head', path: '/books/{id}', operation: returning(undefined), want: 'other' },
    { name: 'OPTIONS collection', method: 'options', path: '/books', operation: returning(undefined), want: 'other' },
    // The store answers one item, and lists objects: an array answered by a write, or a list of scalars, is no CRUD (GitHub).
    { name: 'POST collection answering an array (POST /user/emails)', method: 'post', path: '/emails', operation: returning(bookList, '201'), want: 'other' },
    { name: 'PUT item answering an array', method: 'put', path: '/books/{id}', operation: returning(bookList), want: 'other' },
    { name: 'PATCH singleton answering an array (PATCH /user/email/visibility)', method: 'patch', path: '/visibility', operation: returning(bookList), want: 'other' },
    { name: 'GET collection of strings (…/required_status_checks/contexts)', method: 'get', path: '/contexts', operation: returning({ type: 'array', items: { type: 'string' } }), want: 'other' },
    { name: 'GET collection of arrays', method: 'get', path: '/pairs', operation: returning({ type: 'array', items: { type: 'array', items: { type: 'integer' } } }), want: 'other' },
  ])('$name → $want', ({ method, path, operation, want }) => {
    const document = doc({ BookList: bookList as SchemaObject });
    expect(classifyOperation(document, path, method, operation)).toBe(want);
  });
});

describe('isEnvelope', () => {
  const document = doc({ Env: { type: 'object', properties: { data: bookRef, meta: { type: 'object' } } } });
  test.each([
    { name: 'data only', given: { type: 'object', properties: { data: bookRef } }, want: true },
    { name: 'data, meta, pagination', given: { type: 'object', properties: { data: bookList, meta: {}, pagination: {} } }, want: true },
    { name: 'data, links, included', given: { type: 'object', properties: { data: bookRef, links: {}, included: {} } }, want: true },
    { name: 'through a $ref', given: { $ref: '#/components/schemas/Env' }, want: true },
    { name: 'a resource with a data field among others', given: { type: 'object', properties: { data: {}, name: {} } }, want: false },
    { name: 'a blob: a scalar data alone', given: { type: 'object', properties: { data: { type: 'string' } } }, want: false },
    // Before: the merged envelope of a create answering its new id was wrapped again on the next merge.
    { name: 'a scalar data with the envelope meta: the envelope of an id', given: { type: 'object', properties: { data: { type: 'string' }, meta: { type: 'object', properties: { timestamp: { type: 'string' } } } } }, want: true },
    { name: 'a scalar data with a meta of its own: a resource', given: { type: 'object', properties: { data: { type: 'string' }, meta: { type: 'object' } } }, want: false },
    { name: 'no data', given: { type: 'object', properties: { meta: {}, pagination: {} } }, want: false },
    { name: 'a plain resource', given: bookRef, want: false },
    { name: 'an array', given: bookList, want: false },
    { name: 'undefined', given: undefined, want: false },
    { name: 'a dangling $ref', given: { $ref: '#/components/schemas/Nope' }, want: false },
  ])('$name → $want', ({ given, want }) => {
    expect(isEnvelope(document, given as SchemaObject | undefined)).toBe(want);
  });
});

describe('fields', () => {
  const typed: SchemaObject = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      type: { type: 'string' },
      attributes: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
      },
    },
  };

  test('resourceFields of a typed resource: its id, then its attributes', () => {
    const document = doc({ BookResource: typed });
    const fields = resourceFields(document, { $ref: '#/components/schemas/BookResource' });
    expect(fields.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'id', required: false },
      { name: 'title', required: true },
      { name: 'created_at', required: false },
    ]);
    expect(fields.find((field) => field.name === 'created_at')!.schema).toEqual({ type: 'string', format: 'date-time' });
  });

  test('resourceFields of a flat resource: its properties', () => {
    expect(resourceFields(doc(), bookRef).map(({ name, required }) => [name, required])).toEqual([
      ['id', true],
      ['title', true],
      ['pages', false],
    ]);
  });

  test('resourceFields of nothing is empty', () => {
    expect(resourceFields(doc(), undefined)).toEqual([]);
  });

  test('requiredResourceFields: what a sparse answer keeps besides id — a flat item\'s required names, its allOf parts\' too', () => {
    const document = doc({ Tagged: { allOf: [{ $ref: '#/components/schemas/Book' }, { type: 'object', required: ['tag'], properties: { tag: { type: 'string' } } }] } });
    expect(requiredResourceFields(document, bookRef)).toEqual(['title']);
    expect(requiredResourceFields(document, { $ref: '#/components/schemas/Tagged' })).toEqual(['title', 'tag']);
    expect(requiredResourceFields(document, undefined)).toEqual([]);
  });

  // Before: a sparse answer left out `insured_value`, which `insured` (required) makes required by dependentRequired: the answer broke its schema.
  test('requiredResourceFields: with what dependentRequired makes required beside them, in turn', () => {
    const document = doc({
      Shipment: { type: 'object', required: ['insured'], dependentRequired: { insured: ['insured_value'], insured_value: ['currency'], note: ['author'] }, properties: { insured: { type: 'boolean' }, insured_value: { type: 'number' }, currency: { type: 'string' }, note: { type: 'string' } } },
    });
    expect(requiredResourceFields(document, { $ref: '#/components/schemas/Shipment' })).toEqual(['insured', 'insured_value', 'currency']);
  });

  test('requiredResourceFields of a typed resource: its required attributes, not id, type or attributes', () => {
    const document = doc({ BookResource: { ...typed, required: ['id', 'type', 'attributes'] } });
    expect(requiredResourceFields(document, { $ref: '#/components/schemas/BookResource' })).toEqual(['title']);
  });

  test('isTypedResource needs exactly id, type and attributes', () => {
    const document = doc();
    expect(isTypedResource(document, typed)).toBe(true);
    expect(isTypedResource(document, bookRef)).toBe(false);
    expect(isTypedResource(document, { type: 'object', properties: { id: {}, type: {}, attributes: {}, extra: {} } })).toBe(false);
  });

  test('propertiesOf follows allOf; own properties override inherited ones', () => {
    const document = doc({ Base: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, note: { type: 'string' } } } });
    const fields = propertiesOf(document, {
      allOf: [{ $ref: '#/components/schemas/Base' }],
      properties: { note: { type: 'integer' }, extra: { type: 'boolean' } },
    });
    expect(fields.map(({ name, schema }) => [name, schema.type])).toEqual([
      ['id', 'integer'],
      ['note', 'integer'],
      ['extra', 'boolean'],
    ]);
  });

  test('itemSchemaOf: items of a list, data of an envelope, the body otherwise', () => {
    const document = doc();
    expect(itemSchemaOf(document, returning(bookList))).toEqual(bookRef);
    expect(itemSchemaOf(document, returning({ type: 'object', properties: { data: bookList } }))).toEqual(bookRef);
    expect(itemSchemaOf(document, returning(bookRef))).toEqual(bookRef);
    expect(itemSchemaOf(document, returning(undefined))).toBeUndefined();
  });

  test.each([
    { given: { type: 'string' }, want: 'string' },
    { given: { type: 'integer' }, want: 'integer' },
    { given: { type: ['number', 'null'] }, want: 'number' },
    { given: { type: 'boolean' }, want: 'boolean' },
    { given: { type: 'object' }, want: undefined },
    { given: { type: 'array' }, want: undefined },
    { given: { enum: ['a', 'b'] }, want: 'string' },
    { given: { type: ['string', 'integer'] }, want: undefined },
  ])('scalarTypeOf($given) = $want', ({ given, want }) => {
    expect(scalarTypeOf(given as SchemaObject)).toBe(want);
  });
});
