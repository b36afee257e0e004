import { resolveConfig } from '../../src/config.js';
import { applyConventions } from '../../src/conventions/index.js';
import { buildModel, type ApiModel, type OperationModel, type ResourceModel } from '../../src/model/index.js';
import type { JsonObject, OpenApiDocument, ParameterObject, SchemaObject } from '../../src/openapi/document.js';
import { loadResources } from '../../src/resources.js';

const { fragments } = loadResources();

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema?: unknown) => ({ description: 'ok', ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }) });
const list = (item: string) => ok({ type: 'array', items: ref(item) });
const pathParam = (name: string): ParameterObject => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const BOOK: SchemaObject = {
  type: 'object',
  required: ['title'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'published'] },
    pages: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

/** Paths deliberately not in alphabetical order: the model keeps the spec's. */
function spec(extra: JsonObject = {}): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 'Bookshop', version: '2.1.0' },
    servers: [{ url: 'https://h/api' }],
    security: [{ oauth: ['books:read'] }, { apiKey: [] }],
    paths: {
      '/tags': { get: { operationId: 'listTags', responses: { '200': list('Tag') } } },
      '/books': {
        get: { operationId: 'listBooks', summary: 'List books', tags: ['books'], responses: { '200': list('Book') } },
        post: {
          operationId: 'createBook',
          requestBody: { required: true, content: { 'application/json': { schema: ref('Book') } } },
          responses: { '201': ok(ref('Book')) },
        },
      },
      '/books/{book_id}': {
        parameters: [pathParam('book_id'), { name: 'X-Tenant', in: 'header', schema: { type: 'string' } }],
        get: {
          operationId: 'getBook',
          deprecated: true,
          parameters: [
            { name: 'lang', in: 'query', description: 'Language', schema: { type: 'string' } },
            { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
          ],
          responses: { '200': ok(ref('Book')) },
        },
        put: { operationId: 'replaceBook', requestBody: { content: { 'application/json': { schema: ref('Book') } } }, responses: { '200': ok(ref('Book')) } },
        delete: { operationId: 'deleteBook', responses: { '204': { description: 'gone' } } },
      },
      '/authors/{author_id}/books': {
        parameters: [pathParam('author_id')],
        get: { operationId: 'listAuthorBooks', responses: { '200': list('Book') } },
      },
      '/publishers/{publisher_id}/books': {
        parameters: [pathParam('publisher_id')],
        get: { operationId: 'listPublisherBooks', responses: { '200': list('Book') } },
      },
      '/book-reviews/{review_id}': {
        parameters: [pathParam('review_id')],
        get: { operationId: 'getReview', responses: { '200': ok({ type: 'object', properties: { id: { type: 'string' }, stars: { type: 'integer' } } }) } },
      },
      '/categories': {
        get: { operationId: 'listCategories', security: [], responses: { '200': list('Tag') } },
      },
      '/me': {
        get: { operationId: 'me', security: [{}, { oauth: ['read'] }], responses: { '200': ok({ type: 'object' }) } },
      },
    },
    components: {
      schemas: {
        Book: BOOK,
        Tag: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } },
      },
      securitySchemes: {
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://h/token', scopes: { 'books:read': 'read', read: 'read' } } } },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'Bearer' },
      },
    },
    ...extra,
  } as OpenApiDocument;
}

function model(input: OpenApiDocument = spec()): ApiModel {
  const { document, config } = applyConventions(input, fragments);
  return buildModel(document, config);
}

function op(api: ApiModel, operationId: string): OperationModel {
  const found = api.operations.find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

function resource(api: ApiModel, key: string): ResourceModel {
  const found = api.resources.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no resource ${key}`);
  return found;
}

describe('model: API', () => {
  const api = model();

  test('title, versions, base path with the version segment', () => {
    expect(api).toMatchObject({ title: 'Bookshop', version: '2.1.0', openapi: '3.0.3', basePath: '/api/v2' });
    expect(api.config.versioning.version).toBe(2);
  });

  test('security schemes by kind', () => {
    expect(api.securitySchemes).toEqual([
      { name: 'oauth', kind: 'bearer', header: 'Authorization' },
      { name: 'apiKey', kind: 'apiKey', header: 'X-API-Key' },
      { name: 'bearer', kind: 'bearer', header: 'Authorization' },
    ]);
  });

  // Before: the key header was Authorization itself, so a Bearer request carried an API key the operation refused (401).
  test('an API key sent in the Authorization header is read as a Bearer token there', () => {
    const withKeyInAuthorization = spec({
      components: { securitySchemes: { auth: { type: 'apiKey', in: 'header', name: 'authorization' } }, schemas: { Book: BOOK } },
    });
    expect(model(withKeyInAuthorization).securitySchemes).toEqual([{ name: 'auth', kind: 'bearer', header: 'Authorization' }]);
  });

  // Before: GitHub's /orgs/{org}/code-security/configurations/defaults (a list) and …/{configuration_id}/defaults
  // (a singleton) share a key; the resource was a singleton whose store had no list (2 tsc errors in the output).
  test('a key reached by a singleton path and by a list is a collection', () => {
    const object = { type: 'object', properties: { scope: { type: 'string' } } };
    const shared = spec({
      paths: {
        '/orgs/{org}/configs/defaults': { get: { operationId: 'listDefaults', parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok({ type: 'array', items: object }) } } },
        '/orgs/{org}/configs/{config_id}/defaults': {
          put: { operationId: 'setDefault', parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }, { name: 'config_id', in: 'path', required: true, schema: { type: 'integer' } }], requestBody: { content: { 'application/json': { schema: object } } }, responses: { '200': ok(object) } },
        },
        '/settings': { get: { operationId: 'getSettings', responses: { '200': ok(object) } } },
      },
    });
    const api = model(shared);
    expect(resource(api, 'settings').singleton).toBe(true);
    // A singleton is one object: its type keeps the path's noun, plural or not.
    expect(resource(api, 'settings').typeName).toBe('Settings');
    expect(resource(api, 'orgs/configs/defaults').typeName).toBe('Default');
    expect(resource(api, 'orgs/configs/defaults')).toMatchObject({ singleton: false, operations: ['listDefaults', 'setDefault'] });
  });

  test('the error catalog, in status order', () => {
    const statuses = api.errors.map((error) => error.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
    expect(api.errors.map((error) => error.code)).toEqual(
      expect.arrayContaining(['BAD_REQUEST', 'UNAUTHORIZED', 'RESOURCE_NOT_FOUND', 'VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR']),
    );
  });
});

describe('model: operations', () => {
  const api = model();

  test('in spec order (paths as written, methods in HTTP method order), with their kind', () => {
    expect(api.operations.map(({ operationId, kind }) => [operationId, kind])).toEqual([
      ['listTags', 'list'],
      ['listBooks', 'list'],
      ['createBook', 'create'],
      ['getBook', 'read'],
      ['replaceBook', 'replace'],
      ['deleteBook', 'delete'],
      ['listAuthorBooks', 'list'],
      ['listPublisherBooks', 'list'],
      ['getReview', 'read'],
      ['listCategories', 'list'],
      ['me', 'read'],
    ]);
  });

  test.each([
    { operationId: 'listBooks', method: 'get', httpMethod: 'GET', path: '/books', routePath: '/books', resource: 'books' },
    { operationId: 'getBook', method: 'get', httpMethod: 'GET', path: '/books/{book_id}', routePath: '/books/:book_id', resource: 'books' },
    { operationId: 'deleteBook', method: 'delete', httpMethod: 'DELETE', path: '/books/{book_id}', routePath: '/books/:book_id', resource: 'books' },
    {
      operationId: 'listAuthorBooks',
      method: 'get',
      httpMethod: 'GET',
      path: '/authors/{author_id}/books',
      routePath: '/authors/:author_id/books',
      resource: 'authors/books',
    },
  ])('$operationId: $httpMethod $routePath', ({ operationId, ...want }) => {
    expect(op(api, operationId)).toMatchObject(want);
  });

  test('names, summary, tags, deprecated', () => {
    expect(op(api, 'listBooks')).toMatchObject({ name: 'listBooks', summary: 'List books', tags: ['books'], deprecated: false });
    expect(op(api, 'getBook')).toMatchObject({ deprecated: true, tags: [] });
    expect(op(api, 'getBook')).not.toHaveProperty('summary');
  });

  test('parameters grouped by location; path-item ones merged, the operation’s win', () => {
    const { parameters } = op(api, 'getBook');
    expect(parameters.path).toEqual([{ name: 'book_id', in: 'path', required: true, schema: { type: 'string' }, style: 'simple', explode: false }]);
    expect(parameters.query.map((p) => p.name)).toEqual(['lang', 'fields', 'include']);
    expect(parameters.query[0]).toEqual({ name: 'lang', in: 'query', required: false, description: 'Language', schema: { type: 'string' }, style: 'form', explode: true });
    expect(parameters.header.map((p) => [p.name, p.required])).toEqual([
      ['X-Tenant', true],
      ['If-None-Match', false],
    ]);
    expect(parameters.header[0]!.schema).toEqual({ type: 'string', minLength: 1 });
    expect(parameters.cookie).toEqual([]);
  });

  test('path-item parameters reach every operation of the path', () => {
    for (const id of ['replaceBook', 'deleteBook']) {
      const { parameters } = op(api, id);
      expect(parameters.path.map((p) => p.name)).toEqual(['book_id']);
      expect(parameters.header.map((p) => [p.name, p.required])).toEqual([['X-Tenant', false]]);
    }
  });

  test('list parameters are resolved from their $refs', () => {
    const { parameters } = op(api, 'listBooks');
    expect(parameters.query.map((p) => p.name)).toEqual([
      'cursor', 'limit', 'sort', 'order', 'fields', 'include', 'search', 'created_after', 'created_before', 'title', 'status', 'pages',
    ]);
    expect(parameters.query.find((p) => p.name === 'limit')!.schema).toMatchObject({ maximum: 100, default: 20 });
  });

  test('paging only on lists', () => {
    for (const operation of api.operations) {
      if (operation.kind === 'list') expect(operation.paging).toEqual({ style: 'cursor', defaultLimit: 20, maxLimit: 100 });
      else expect(operation).not.toHaveProperty('paging');
    }
  });

  test('paging follows per-operation configuration', () => {
    const input = spec();
    (input.paths!['/tags']!.get as JsonObject)['x-specforge'] = { paging: { style: 'offset', maxLimit: 40 } };
    expect(op(model(input), 'listTags').paging).toEqual({ style: 'offset', defaultLimit: 20, maxLimit: 40 });
    expect(op(model(input), 'listBooks').paging).toEqual({ style: 'cursor', defaultLimit: 20, maxLimit: 100 });
  });

  test('request body and success status', () => {
    expect(op(api, 'createBook').requestBody).toMatchObject({ required: true, contentTypes: ['application/json'] });
    expect(op(api, 'replaceBook').requestBody).toMatchObject({ required: false });
    expect(op(api, 'getBook')).not.toHaveProperty('requestBody');
    expect(op(api, 'createBook').success.status).toBe(201);
    expect(op(api, 'deleteBook').success.status).toBe(204);
  });

  // Before: Directus's envelopes leave `data` optional, and `…Data[number]` was 40 × TS2537 in its client.
  test("an envelope the spec wrote with an optional data is marked so; the conventions' own is not", () => {
    const enveloped = { type: 'object', properties: { data: { type: 'array', items: ref('Book') }, meta: { type: 'object' } } };
    const input = spec();
    input.paths!['/shelves'] = { get: { operationId: 'listShelves', responses: { '200': ok(enveloped) } } };
    const api = model(input);
    expect(op(api, 'listShelves').success).toMatchObject({ optionalData: true });
    expect(op(api, 'getBook').success).not.toHaveProperty('optionalData');
  });

  test('security: alternatives with their scopes', () => {
    expect(op(api, 'listBooks').security).toEqual({
      public: false,
      alternatives: [[{ scheme: 'oauth', scopes: ['books:read'] }], [{ scheme: 'apiKey', scopes: [] }]],
    });
  });

  test('security: [] is public', () => {
    expect(op(api, 'listCategories').security).toEqual({ public: true, alternatives: [] });
  });

  test('security with an empty alternative is public, the credential optional', () => {
    expect(op(api, 'me').security).toEqual({ public: true, alternatives: [[{ scheme: 'oauth', scopes: ['read'] }]] });
  });

  test('security with several schemes in one alternative', () => {
    const input = spec({ security: [{ oauth: ['a', 'b'], apiKey: [] }] });
    expect(op(model(input), 'listBooks').security).toEqual({
      public: false,
      alternatives: [[{ scheme: 'oauth', scopes: ['a', 'b'] }, { scheme: 'apiKey', scopes: [] }]],
    });
  });

  test('errors: the catalog entries of the declared error statuses', () => {
    expect(op(api, 'getBook').errors.map((error) => `${error.status} ${error.code}`)).toEqual([
      '400 BAD_REQUEST',
      '401 UNAUTHORIZED',
      '403 FORBIDDEN',
      '404 RESOURCE_NOT_FOUND',
      '406 NOT_ACCEPTABLE',
      '422 VALIDATION_ERROR',
      '429 RATE_LIMITED',
      '500 INTERNAL_ERROR',
      '503 SERVICE_UNAVAILABLE',
    ]);
    expect(op(api, 'listCategories').errors.map((error) => error.status)).toEqual([400, 406, 422, 429, 500, 503]);
    expect(op(api, 'createBook').errors.map((error) => error.status)).toEqual([400, 401, 403, 406, 409, 413, 415, 422, 429, 500, 503]);
  });

  test('statuses in declared order', () => {
    expect(op(api, 'getBook').statuses).toEqual(['200', '304', '400', '401', '403', '404', '406', '422', '429', '500', '503']);
  });

  test('cacheControl and resourceShape per operation', () => {
    const input = spec({ 'x-specforge': { cacheControl: 'no-store' } });
    (input.paths!['/tags']!.get as JsonObject)['x-specforge'] = { resourceShape: 'typed', cacheControl: 'max-age=60' };
    const api2 = model(input);
    expect(op(api2, 'listTags')).toMatchObject({ resourceShape: 'typed', cacheControl: 'max-age=60' });
    expect(op(api2, 'listBooks')).toMatchObject({ resourceShape: 'flat', cacheControl: 'no-store' });
  });
});

describe('model: resources', () => {
  const api = model();

  test('one per collection, in spec order', () => {
    expect(api.resources.map((r) => r.key)).toEqual([
      'tags',
      'books',
      'authors/books',
      'publishers/books',
      'book-reviews',
      'categories',
      'me',
    ]);
  });

  test('books: paths, id params, operations, singular PascalCase type name', () => {
    expect(resource(api, 'books')).toMatchObject({
      name: 'books',
      identifier: 'books',
      typeName: 'Book',
      type: 'books',
      collectionPath: '/books',
      itemPath: '/books/{book_id}',
      idParams: ['book_id'],
      parents: [],
      shape: 'flat',
      operations: ['listBooks', 'createBook', 'getBook', 'replaceBook', 'deleteBook'],
      createdField: 'created_at',
      updatedField: 'updated_at',
    });
  });

  test.each([
    { key: 'tags', typeName: 'Tag' },
    { key: 'book-reviews', typeName: 'BookReview' },
    { key: 'categories', typeName: 'Category' },
  ])('typeName of $key is $typeName', ({ key, typeName }) => {
    expect(resource(api, key).typeName).toBe(typeName);
  });

  test('fields with sortable and filterable flags', () => {
    expect(resource(api, 'books').fields).toEqual([
      { name: 'id', type: 'string', required: true, readOnly: false, sortable: true, filterable: false },
      { name: 'title', type: 'string', required: true, readOnly: false, sortable: true, filterable: true },
      { name: 'status', type: 'string', required: false, readOnly: false, sortable: true, filterable: true, enum: ['draft', 'published'] },
      { name: 'pages', type: 'integer', required: false, readOnly: false, sortable: true, filterable: true },
      { name: 'tags', type: 'array', required: false, readOnly: false, sortable: false, filterable: false },
      { name: 'created_at', type: 'string', required: false, readOnly: false, sortable: true, filterable: false },
      { name: 'updated_at', type: 'string', required: false, readOnly: false, sortable: true, filterable: false },
    ]);
  });

  test('no createdField/updatedField without timestamps', () => {
    expect(resource(api, 'tags')).not.toHaveProperty('createdField');
    expect(resource(api, 'tags')).not.toHaveProperty('updatedField');
  });

  test('a nested collection knows its parents', () => {
    expect(resource(api, 'authors/books')).toMatchObject({
      parents: [{ collection: 'authors', idParams: ['author_id'] }],
      collectionPath: '/authors/{author_id}/books',
      idParams: [],
      operations: ['listAuthorBooks'],
    });
    expect(resource(api, 'book-reviews')).toMatchObject({ parents: [], itemPath: '/book-reviews/{review_id}', idParams: ['review_id'] });
  });

  test('two resources ending in `books` under different parents get distinct names', () => {
    const names = api.resources.map((r) => r.name);
    const identifiers = api.resources.map((r) => r.identifier);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(identifiers).size).toBe(identifiers.length);
    expect(resource(api, 'authors/books')).toMatchObject({ name: 'authors-books', identifier: 'authorsBooks' });
    expect(resource(api, 'publishers/books')).toMatchObject({ name: 'publishers-books', identifier: 'publishersBooks' });
  });

  test('a unique name stays short', () => {
    expect(resource(api, 'book-reviews')).toMatchObject({ name: 'book-reviews', identifier: 'bookReviews' });
  });

  test('a typed resource: its fields are its id and its attributes; shape typed', () => {
    const input = spec({ 'x-specforge': { resourceShape: 'typed' } });
    delete input.paths!['/categories']; // shares Tag with /tags (see conventions.test.ts)
    const typed = model(input);
    const books = resource(typed, 'books');
    expect(books.shape).toBe('typed');
    expect(books.fields.map((f) => f.name)).toEqual(['id', 'title', 'status', 'pages', 'tags', 'created_at', 'updated_at']);
    expect(books.fields.find((f) => f.name === 'title')!.required).toBe(true);
    expect(books).toMatchObject({ createdField: 'created_at', updatedField: 'updated_at' });
  });

  test('two nested item paths: idParams of the resource’s own segment only', () => {
    const input = spec();
    input.paths!['/authors/{author_id}/books/{book_id}'] = {
      parameters: [pathParam('author_id'), pathParam('book_id')],
      get: { operationId: 'getAuthorBook', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref('Book') } } } } },
    };
    const nested = resource(model(input), 'authors/books');
    expect(nested).toMatchObject({
      itemPath: '/authors/{author_id}/books/{book_id}',
      idParams: ['book_id'],
      parents: [{ collection: 'authors', idParams: ['author_id'] }],
      operations: ['listAuthorBooks', 'getAuthorBook'],
    });
  });
});

// Before: the first path gave the parents, `/authors/reviews/{review_id}` here: the reviews' store looked for an author
// no path named, and a resource beside the items above it could not be told from one under them (GitHub's pull comments).
test('model: paths sharing a key, one naming the parent item: the parents are the ones it names', () => {
  const input = spec();
  const review = ok({ type: 'object', properties: { id: { type: 'string' } } });
  input.paths = {
    '/authors/reviews/{review_id}': { parameters: [pathParam('review_id')], get: { operationId: 'getReview', responses: { '200': review } } },
    '/authors/{author_id}/reviews': { parameters: [pathParam('author_id')], post: { operationId: 'createReview', responses: { '201': review } } },
    ...input.paths,
  };
  expect(resource(model(input), 'authors/reviews')).toMatchObject({
    parents: [{ collection: 'authors', idParams: ['author_id'] }],
    itemPath: '/authors/reviews/{review_id}',
    idParams: ['review_id'],
  });
});

// Before: `:base...:head`, which the router read as one parameter named `base...:head`, shadowing `/compare/:basehead`.
test('model: a route path keeps the parameters of a segment mixing text and parameters in braces', () => {
  const input = spec();
  input.paths!['/compare/{base}...{head}'] = {
    parameters: [pathParam('base'), pathParam('head')],
    get: { operationId: 'compare', responses: { '200': ok(ref('Book')) } },
  };
  input.paths!['/books/{book_id}/files/{name}.json'] = {
    parameters: [pathParam('book_id'), pathParam('name')],
    get: { operationId: 'getBookFile', responses: { '200': ok(ref('Book')) } },
  };
  expect(op(model(input), 'compare').routePath).toBe('/compare/{base}...{head}');
  expect(op(model(input), 'getBookFile').routePath).toBe('/books/:book_id/files/{name}.json');
});

// Before: GitHub's `/gists/{gist_id}/{sha}` (a revision) was the gists' item path too, its GET their read.
test('model: a path adding an id to an item path is no second item path of the resource', () => {
  const input = spec();
  const revision = {
    parameters: [pathParam('book_id'), pathParam('revision')],
    get: { operationId: 'getBookRevision', responses: { '200': ok(ref('Book')) } },
  };
  input.paths = { '/books/{book_id}/{revision}': revision, ...input.paths };
  const api = model(input);
  expect(resource(api, 'books')).toMatchObject({ itemPath: '/books/{book_id}', idParams: ['book_id'] });
  expect(op(api, 'getBookRevision')).toMatchObject({ resource: 'books', kind: 'other' });
  expect(op(api, 'getBook').kind).toBe('read');
});

describe('model on an unmerged spec', () => {
  test('buildModel reads a plain spec too (no conventions applied)', () => {
    const input = spec();
    const api = buildModel(input, resolveConfig(input));
    expect(op(api, 'getBook').parameters.query.map((p) => p.name)).toEqual(['lang']);
    expect(api.basePath).toBe('/api');
    expect(op(api, 'listBooks').errors).toEqual([]);
  });
});

// Before: `/books` and `/authors/{author_id}/books` were two collections, the top-level one always empty.
describe('model: a resource reachable nested and top-level', () => {
  const REVIEW: SchemaObject = { type: 'object', properties: { id: { type: 'string' }, stars: { type: 'integer' } } };
  const reachable = (paths: JsonObject, schemas: JsonObject = {}): ApiModel =>
    model({
      openapi: '3.0.3',
      info: { title: 'Shop', version: '1' },
      paths: {
        '/authors/{author_id}': { parameters: [pathParam('author_id')], get: { operationId: 'getAuthor', responses: { '200': ok(ref('Tag')) } } },
        '/authors/{author_id}/books': {
          parameters: [pathParam('author_id')],
          get: { operationId: 'listAuthorBooks', responses: { '200': list('Book') } },
          post: { operationId: 'createBook', requestBody: { content: { 'application/json': { schema: ref('Book') } } }, responses: { '201': ok(ref('Book')) } },
        },
        ...paths,
      },
      components: { schemas: { Book: BOOK, Tag: { type: 'object', properties: { id: { type: 'string' } } }, Review: REVIEW, ...schemas } },
    } as OpenApiDocument);
  const topLevel = {
    '/books': { get: { operationId: 'listBooks', responses: { '200': list('Book') } } },
    '/books/{book_id}': { parameters: [pathParam('book_id')], get: { operationId: 'getBook', responses: { '200': ok(ref('Book')) } } },
    '/books/{book_id}/reviews': { parameters: [pathParam('book_id')], get: { operationId: 'listReviews', responses: { '200': list('Review') } } },
  };

  test('the top-level paths join the nested resource when they describe the same item', () => {
    const api = reachable(topLevel);
    expect(api.resources.map((r) => r.key)).toEqual(['authors', 'authors/books', 'books/reviews']);
    expect(resource(api, 'authors/books')).toMatchObject({
      name: 'books',
      collectionPath: '/authors/{author_id}/books',
      itemPath: '/books/{book_id}',
      idParams: ['book_id'],
      parents: [{ collection: 'authors', idParams: ['author_id'] }],
      reachedAs: ['books'],
      operations: ['listAuthorBooks', 'createBook', 'listBooks', 'getBook'],
    });
    expect(op(api, 'getBook').resource).toBe('authors/books');
  });

  test('an item of another schema that shares the segment name stays apart', () => {
    const api = reachable({ '/books': { get: { operationId: 'listBooks', responses: { '200': list('Tag') } } } });
    expect(api.resources.map((r) => r.key)).toEqual(['authors', 'authors/books', 'books']);
  });

  test('a top-level create whose body names no parent keeps its own collection (GitHub `POST /gists`)', () => {
    const create = { operationId: 'createTopBook', requestBody: { content: { 'application/json': { schema: ref('Book') } } }, responses: { '201': ok(ref('Book')) } };
    expect(reachable({ '/books': { ...topLevel['/books'], post: create } }).resources.map((r) => r.key)).toContain('books');
    const placed = { ...create, requestBody: { content: { 'application/json': { schema: { ...BOOK, properties: { ...BOOK.properties, author_id: { type: 'string' } } } } } } };
    const joined = reachable({ '/books': { get: { operationId: 'listBooks', responses: { '200': ok({ type: 'array', items: { ...BOOK } }) } }, post: placed } });
    expect(joined.resources.map((r) => r.key)).not.toContain('books');
  });

  test('items put at ids the client names, with no create, are memberships: not joined (GitHub `/organizations`)', () => {
    const put = { operationId: 'assignTag', responses: { '200': ok(ref('Tag')) } };
    const api = reachable({
      '/shelves/{shelf_id}/tags': { parameters: [pathParam('shelf_id')], get: { operationId: 'listShelfTags', responses: { '200': list('Tag') } } },
      '/shelves/{shelf_id}/tags/{tag_id}': { parameters: [pathParam('shelf_id'), pathParam('tag_id')], put },
      '/tags': { get: { operationId: 'listTags', responses: { '200': list('Tag') } } },
    });
    expect(api.resources.map((r) => r.key)).toContain('tags');
  });

  test('two nested resources it could join: none', () => {
    const api = reachable({ ...topLevel, '/publishers/{publisher_id}/books': { parameters: [pathParam('publisher_id')], get: { operationId: 'listPublisherBooks', responses: { '200': list('Book') } } } });
    expect(api.resources.map((r) => r.key)).toContain('books');
  });
});
