import type { OpenApiDocument, SchemaObject } from '../../src/openapi/document.js';
import { handlerFileOf, serverView, type RouteView } from '../../src/render/targets/server/view.js';
import { conformanceView } from '../../src/render/targets/conformance/view.js';
import { mergedModel } from '../model.js';
import { AUTHOR, authorPaths, body, idParam, ok, ref } from '../openapi-parts.js';

const BOOK: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    author_id: { type: 'integer' },
    title: { type: 'string' },
    genre: { type: 'string', enum: ['poetry', 'fiction'] },
    updated_at: { type: 'string', format: 'date-time' },
  },
};
const GENRE: SchemaObject = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, examples: [{ id: 'poetry', name: 'Poetry' }, { name: 'no id' }] };

function view() {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Shop', version: '1.0.0' },
    servers: [{ url: '/api' }],
    security: [{ bearerAuth: ['read'] }, { apiKeyAuth: [] }],
    paths: {
      '/': { get: { operationId: 'root', security: [], responses: { '200': ok({ type: 'object' }) } } },
      ...authorPaths({ deleteOperationId: 'delete' }),
      '/authors/{author_id}/books': {
        parameters: [idParam('author_id', { type: 'integer' })],
        get: { operationId: 'listBooks', 'x-specforge': { paging: { style: 'offset' } }, responses: { '200': ok({ type: 'array', items: ref('Book') }) } },
      },
      '/genres': { get: { operationId: 'listGenres', security: [], responses: { '200': ok({ type: 'array', items: ref('Genre') }) } } },
      '/genres/{genre_id}': { get: { operationId: 'getGenre', security: [], parameters: [idParam('genre_id', { type: 'string' })], responses: { '200': ok(ref('Genre')) } } },
    },
    components: {
      schemas: { Author: AUTHOR, Book: BOOK, Genre: GENRE },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
  const merged = mergedModel(document);
  return { model: merged.model, view: serverView(merged.model, merged.document) };
}

const { model, view: server } = view();
const route = (operationId: string): RouteView => server.routes.find((candidate) => candidate.operationId === operationId)!;

describe('server view: the route table', () => {
  test('one route per operation, in spec order, with its kind, status and route path', () => {
    expect(server.routes.map((r) => [r.operationId, r.kind, r.status, r.routePath])).toEqual([
      ['root', 'other', 200, '/'],
      ['listAuthors', 'list', 200, '/authors'],
      ['createAuthor', 'create', 201, '/authors'],
      ['getAuthor', 'read', 200, '/authors/:author_id'],
      ['delete', 'delete', 204, '/authors/:author_id'],
      ['listBooks', 'list', 200, '/authors/:author_id/books'],
      ['listGenres', 'list', 200, '/genres'],
      ['getGenre', 'read', 200, '/genres/:genre_id'],
    ]);
    expect(route('delete').hasData).toBe(false);
    expect(route('getAuthor').hasData).toBe(true);
  });

  test('security by credential kind, with scopes; `security: []` is public', () => {
    expect(route('listAuthors').security).toEqual({
      public: false,
      alternatives: [[{ scheme: 'bearer', scopes: ['read'] }], [{ scheme: 'apiKey', scopes: [] }]],
    });
    expect(route('getGenre').security).toEqual({ public: true, alternatives: [] });
  });

  test('validator names are usable as exports, and never one of ajv\'s own (validate10, schema3…)', () => {
    expect(route('delete').validator).toBe('deleteValidator');
    expect(new Set(server.routes.map((r) => r.validator)).size).toBe(server.routes.length);
  });

  test('paging: style, limits, the filters the operation declares, the creation field', () => {
    expect(route('listAuthors').paging).toEqual({ style: 'cursor', defaultLimit: 20, maxLimit: 100, filters: ['name'], createdField: 'created_at' });
    expect(route('listBooks').paging).toMatchObject({ style: 'offset', filters: ['title', 'genre'] });
    expect(route('listBooks').paging).not.toHaveProperty('createdField');
  });

  test('sparse fieldsets: a list or read keeps what its item schema requires (not id); nothing where none is required or no fields is taken', () => {
    expect(route('listAuthors').requiredFields).toEqual(['name']);
    expect(route('getAuthor').requiredFields).toEqual(['name']);
    expect(route('createAuthor')).not.toHaveProperty('requiredFields');
    expect(route('listBooks')).not.toHaveProperty('requiredFields');
  });

  test('include: a child reads its parent through the parent read; a parent its children through their list', () => {
    expect(route('listBooks').includes).toEqual([{ name: 'author', operationId: 'getAuthor' }]);
    expect(route('getAuthor').includes).toEqual([{ name: 'books', operationId: 'listBooks', itemParam: 'author_id' }]);
    expect(route('getGenre').includes).toEqual([]);
  });

  test('handler signatures from the named types of each resource', () => {
    expect(route('listBooks')).toMatchObject({
      requestType: 'ListRequest<BooksTypes.ListBooksPath, BooksTypes.ListBooksQuery>',
      returnType: 'OffsetPage<BooksTypes.ListBooksData[number]> | undefined',
    });
    expect(route('createAuthor')).toMatchObject({
      requestType: 'OperationRequest<NoParameters, NoParameters, AuthorsTypes.CreateAuthorBody>',
      returnType: 'AuthorsTypes.CreateAuthorData | undefined',
    });
    expect(route('delete').returnType).toBe('boolean');
    expect(route('root')).toMatchObject({ group: 'root', returnType: 'RootTypes.RootData | undefined' });
    expect(route('root')).not.toHaveProperty('storeMethod');
  });
});

describe('server view: handler groups and the default store', () => {
  test('one handler group per resource, and `root` for the operations of none', () => {
    expect(server.groups.map((group) => [group.key, group.file, group.interfaceName])).toEqual([
      ['root', 'root', 'RootHandlers'],
      ['authors', 'authors', 'AuthorsHandlers'],
      ['books', 'books', 'BooksHandlers'],
      ['genres', 'genres', 'GenresHandlers'],
    ]);
    expect(model.operations.map((operation) => handlerFileOf(model, operation))).toContain('src/handlers/books.ts');
    expect(handlerFileOf(model, model.operations[0]!)).toBe('src/handlers/root.ts');
  });

  test('collections: parents first, ids by the id type, children scoped by the parent id and stamped with it', () => {
    const collections = Object.fromEntries(server.collections.map((collection) => [collection.variable, collection]));
    expect(server.collections.map((collection) => collection.variable)).toEqual(['authors', 'genres', 'books']);
    expect(collections.authors).toMatchObject({ ids: 'integer', idParam: 'author_id', scope: [], createdField: 'created_at' });
    expect(collections.books).toMatchObject({ ids: 'uuid', parent: 'authors', scope: ['author_id'], pathFields: ['author_id'], updatedField: 'updated_at' });
  });

  test('a resource the API cannot create starts with the examples that carry an id; one it can create starts empty', () => {
    const collections = Object.fromEntries(server.collections.map((collection) => [collection.variable, collection]));
    expect(collections.genres!.seed).toEqual([{ id: 'poetry', name: 'Poetry' }]);
    expect(collections.authors).not.toHaveProperty('seed');
  });
});

describe('server view: numeric ids', () => {
  /** A collection whose item has `id` typed `idType` and whose item path's id is typed `paramType`. */
  function idsOf(idType: string, paramType: string): string {
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/groups': { post: { operationId: 'createGroup', requestBody: body('NewGroup'), responses: { '201': ok(ref('Group')) } } },
        '/groups/{group_id}': {
          parameters: [idParam('group_id', { type: paramType })],
          get: { operationId: 'getGroup', responses: { '200': ok(ref('Group')) } },
        },
      },
      components: {
        schemas: {
          NewGroup: { type: 'object', properties: { name: { type: 'string' } } },
          Group: { type: 'object', properties: { id: { type: idType }, name: { type: 'string' } } },
        },
      },
    };
    const merged = mergedModel(document);
    return serverView(merged.model, merged.document).collections[0]!.ids;
  }

  test('an id field typed `number` (GitHub runner groups) gets counted ids, not UUIDs', () => {
    expect(idsOf('number', 'integer')).toBe('integer');
    expect(idsOf('number', 'number')).toBe('integer');
  });

  test('an item path whose id is numeric gets counted ids, even where the `id` field is untyped or a string', () => {
    expect(idsOf('string', 'integer')).toBe('integer');
    expect(idsOf('string', 'string')).toBe('uuid');
  });
});

describe('server view: a DELETE that answers the deleted resource', () => {
  test('is typed as the resource (not a boolean) and the store takes the item out', () => {
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/tags/{tag_id}': {
          parameters: [idParam('tag_id', { type: 'string' })],
          get: { operationId: 'getTag', responses: { '200': ok(ref('Tag')) } },
          delete: { operationId: 'deleteTag', responses: { '200': ok(ref('Tag')) } },
        },
      },
      components: { schemas: { Tag: { type: 'object', properties: { id: { type: 'string' } } } } },
    };
    const merged = mergedModel(document);
    const routes = serverView(merged.model, merged.document).routes;
    expect(routes[1]).toMatchObject({ kind: 'delete', hasData: true, returnType: 'TagsTypes.DeleteTagData | undefined', storeMethod: 'take' });
  });
});

describe('server view: what the store keeps of a write', () => {
  /** A collection of variables read at `/variables/{name}`, created with `created` as its body. */
  function variables(created: SchemaObject): ReturnType<typeof serverView>['collections'][number] {
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/variables': { post: { operationId: 'createVariable', requestBody: { required: true, content: { 'application/json': { schema: created } } }, responses: { '201': ok(ref('Variable')) } } },
        '/variables/{name}': {
          parameters: [idParam('name', { type: 'string' })],
          get: { operationId: 'getVariable', responses: { '200': ok(ref('Variable')) } },
          patch: { operationId: 'updateVariable', requestBody: body('Patch'), responses: { '200': ok(ref('Variable')) } },
        },
      },
      components: {
        schemas: {
          Variable: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' }, homepage: { type: 'string', format: 'uri' }, count: { type: 'integer', format: 'int64' } } },
          Patch: { type: 'object', properties: { value: { type: 'string', nullable: true }, homepage: { type: 'string' } } },
        },
      },
    };
    const merged = mergedModel(document);
    return serverView(merged.model, merged.document).collections[0]!;
  }

  // Before: GitHub's variables were stored under a UUID and `GET /variables/{name}` found none.
  test('items are keyed by the field their path names where every create sends it', () => {
    const sent = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } } as SchemaObject;
    expect(variables(sent).keyField).toBe('name');
    expect(variables({ ...sent, required: ['value'] }).keyField).toBeUndefined();
  });

  // Before (review): `count` written `integer`, answered `integer, int64`, was dropped; a merge-patch's nullable `value` too.
  test('a field written looser than it is answered is the server\'s; one that differs only by null refuses the null; a number format is no difference', () => {
    const store = variables({ type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' }, count: { type: 'integer' } } });
    expect(store.serverFields).toEqual(['homepage']);
    expect(store.nonNullFields).toEqual(['value']);
  });
});

// Before: GitHub's `GET /orgs/{org}/actions/hosted-runners/limits` answered 404 for every org: its store checked
// for a hosted runner the path never names (`hosted_runner_id` undefined).
describe('server view: a resource beside the items of the collection above it', () => {
  test('lives under no item of that collection', () => {
    const object = ok({ type: 'object', properties: { id: { type: 'integer' }, maximum: { type: 'integer' } } });
    const org = idParam('org', { type: 'string' });
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/orgs/{org}': { parameters: [org], get: { operationId: 'getOrg', responses: { '200': object } } },
        '/orgs/{org}/runners': {
          parameters: [org],
          get: { operationId: 'listRunners', responses: { '200': ok({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }) } },
          post: { operationId: 'createRunner', responses: { '201': object } },
        },
        '/orgs/{org}/runners/{runner_id}': { parameters: [org, idParam('runner_id', { type: 'integer' })], get: { operationId: 'getRunner', responses: { '200': object } } },
        '/orgs/{org}/runners/limits': { parameters: [org], get: { operationId: 'getRunnerLimits', responses: { '200': object } } },
      },
    };
    const merged = mergedModel(document);
    const server = serverView(merged.model, merged.document);
    const limits = server.singletons.find((singleton) => singleton.variable.toLowerCase().includes('limits'));
    expect(limits).toMatchObject({ scope: ['org'] });
    expect(limits).not.toHaveProperty('parent');
    expect(server.collections.find((collection) => collection.type === 'runners')).toMatchObject({ parent: 'orgs', scope: ['org'] });
  });
});

// Before: an exploded form object whose properties come through `allOf` listed none, and the service read it as empty.
describe('server view: an exploded form-style query object', () => {
  test('lists the properties its `allOf` parts declare (through `$ref`), not those named like another parameter', () => {
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters: [
              { name: 'filter', in: 'query', style: 'form', explode: true, schema: { allOf: [ref('Range'), { type: 'object', properties: { color: { type: 'string' }, limit: { type: 'integer' } } }] } },
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
            ],
            responses: { '200': ok({ type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } }) },
          },
        },
      },
      components: { schemas: { Range: { type: 'object', properties: { low: { type: 'integer' }, high: { type: 'integer' } } } } },
    };
    const merged = mergedModel(document);
    const routes = serverView(merged.model, merged.document).routes;
    expect(routes[0]!.styles?.query).toEqual([{ name: 'filter', style: 'form', explode: true, type: 'object', properties: ['low', 'high', 'color'] }]);
  });
});

// Before: `/books/{book_id}/reviews` beside `/authors/{author_id}/books` and `/books/{book_id}` had no parent the store kept,
// and its store and suite would have read the parent's author from the book's id (matched by position).
describe('server view and suite plan: a child of a top-level path joined to a nested resource', () => {
  test('lives under the joined resource, found by the parameters its path names', () => {
    const object = ok({ type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } });
    const items = ok({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } });
    const review = ok({ type: 'object', properties: { id: { type: 'integer' }, stars: { type: 'integer' } } });
    const author = idParam('author_id', { type: 'integer' });
    const book = idParam('book_id', { type: 'integer' });
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {
        '/authors': { post: { operationId: 'createAuthor', responses: { '201': object } } },
        '/authors/{author_id}': { parameters: [author], get: { operationId: 'getAuthor', responses: { '200': object } } },
        '/authors/{author_id}/books': { parameters: [author], post: { operationId: 'createBook', responses: { '201': object } } },
        '/books': { get: { operationId: 'listBooks', responses: { '200': items } } },
        '/books/{book_id}': { parameters: [book], get: { operationId: 'getBook', responses: { '200': object } } },
        '/books/{book_id}/reviews': { parameters: [book], post: { operationId: 'createReview', responses: { '201': review } } },
      },
    };
    const merged = mergedModel(document);
    const server = serverView(merged.model, merged.document);
    expect(server.collections.find((collection) => collection.type === 'books')).toMatchObject({ parent: 'authors', idParam: 'book_id', scope: ['author_id'] });
    expect(server.collections.find((collection) => collection.type === 'reviews')).toMatchObject({ parent: 'books', parentParams: ['book_id'], scope: ['book_id'] });
    const plan = conformanceView(merged.model, merged.document).api.resources;
    expect(plan.reviews).toMatchObject({ parent: 'books', parentParams: ['book_id'], parentItemParams: ['book_id'] });
  });
});
