/**
 * The lint rules in memory (`lintSpec` on a document, no loading): what each
 * rule must flag and, as important, what it must leave alone. The CLI tests
 * (test/cli/lint.test.ts) cover files, lines, output and exit codes.
 */
import { DIAGNOSTIC_CATALOG } from '../../src/diagnostics.js';
import { LINT_CODES, lintSpec, RULES } from '../../src/lint/index.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { loadFragments } from '../../src/resources.js';

type Json = Record<string, unknown>;

const fragments = loadFragments();

const ok = (schema?: Json, status = '200'): Json => ({
  [status]: { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) },
});
const ITEM: Json = { type: 'object', properties: { name: { type: 'string' } } };
const list = (operationId: string, extra: Json = {}): Json => ({ operationId, responses: ok({ type: 'array', items: ITEM }), ...extra });
const read = (operationId: string, extra: Json = {}): Json => ({ operationId, responses: ok(ITEM), ...extra });
const create = (operationId: string, schema: Json, extra: Json = {}): Json => ({
  operationId,
  requestBody: { content: { 'application/json': { schema } } },
  responses: ok(undefined, '201'),
  ...extra,
});
const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const query = (name: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', schema });

function doc(paths: Json, extra: Json = {}): OpenApiDocument {
  return { openapi: '3.0.3', info: { title: 'T', version: '1.0.0' }, paths, ...extra } as OpenApiDocument;
}

/** A collection and its items: `/<name>` (list) and `/<name>/{id}` (read). */
function collection(name: string): Json {
  return {
    [`/${name}`]: { get: list(`list_${name}`) },
    [`/${name}/{id}`]: { parameters: [pathParam('id')], get: read(`get_${name}`) },
  };
}

/** [code, pointer, severity] of each finding, optionally of one code. */
function found(document: OpenApiDocument, code?: string): [string, string, string][] {
  return lintSpec(document, fragments)
    .filter((d) => code === undefined || d.code === code)
    .map((d) => [d.code, d.pointer ?? '', d.severity]);
}
const pointers = (document: OpenApiDocument, code: string) => found(document, code).map(([, pointer]) => pointer);

describe('the rule set', () => {
  test('one rule per LINT_ code of the catalog', () => {
    const catalogued = Object.keys(DIAGNOSTIC_CATALOG).filter((code) => code.startsWith('LINT_'));
    expect([...LINT_CODES].sort()).toEqual(catalogued.sort());
    expect(new Set(LINT_CODES).size).toBe(LINT_CODES.length);
  });

  test('errors are the certain ones; the rest are warnings', () => {
    const errors = RULES.filter((rule) => rule.severity === 'error').map((rule) => rule.code).sort();
    expect(errors).toEqual(['LINT_OPERATION_ID_DUPLICATE', 'LINT_PATH_PARAMETER', 'LINT_QUERY_KEY_SCHEME', 'LINT_VERSION_SEGMENT']);
    expect(RULES.filter((rule) => rule.severity === 'warning')).toHaveLength(15);
  });

  test('a conforming API gives nothing', () => {
    expect(found(doc({ ...collection('books'), ...collection('authors') }))).toEqual([]);
  });
});

describe('LINT_PATH_VERB', () => {
  test.each(['/getUsers', '/users/create', '/delete-user', '/users/{id}/cancel', '/users/reset-password'])('%s is flagged', (path) => {
    const params = path.includes('{id}') ? { parameters: [pathParam('id')] } : {};
    expect(pointers(doc({ [path]: { ...params, post: { operationId: 'x', responses: ok() } } }), 'LINT_PATH_VERB')).toEqual([
      `#/paths/${path.replace(/\//g, '~1')}`,
    ]);
  });

  test.each(['/settings', '/check-runs', '/posts', '/imports', '/downloads', '/updates', '/listings'])('%s (a noun) is not', (path) => {
    expect(pointers(doc({ [path]: { get: list('x') } }), 'LINT_PATH_VERB')).toEqual([]);
  });

  const action = (path: string) => ({
    ...collection('tasks'),
    [path]: { ...(path.includes('{id}') ? { parameters: [pathParam('id')] } : {}), post: { operationId: 'act', responses: ok(ITEM) } },
  });

  test.each(['/tasks/{id}/close', '/tasks/{id}/merge', '/tasks/{id}/lock', '/tasks/{id}/archive', '/tasks/cleanse'])(
    'the action %s is named, with the way the conventions write it',
    (path) => {
      const [finding] = lintSpec(doc(action(path)), fragments).filter((d) => d.code === 'LINT_PATH_VERB');
      const segment = path.split('/').at(-1)!;
      const owner = path.slice(0, path.lastIndexOf('/'));
      expect(finding?.pointer).toBe(`#/paths/${path.replace(/\//g, '~1')}`);
      expect(finding?.message).toContain(`"${segment}" is an action on ${owner}`);
      expect(finding?.message).toContain(owner.endsWith('}') ? `PATCH ${owner}` : 'POST a resource named by a noun');
    },
  );

  test('an action whose segment is a noun is not flagged (RPC-style POST /markdown), nor is a merge that is a collection', () => {
    expect(pointers(doc(action('/markdown')), 'LINT_PATH_VERB')).toEqual([]);
    expect(pointers(doc({ ...collection('tasks'), '/tasks/{id}/merges': { parameters: [pathParam('id')], get: list('x') } }), 'LINT_PATH_VERB')).toEqual([]);
  });
});

describe('LINT_COLLECTION_SINGULAR', () => {
  test.each(['users', 'people', 'categories', 'statuses', 'addresses', 'children', 'data', 'analyses', 'codes-of-conduct', 'projectsV2'])(
    '/%s/{id} is plural',
    (name) => {
      expect(pointers(doc(collection(name)), 'LINT_COLLECTION_SINGULAR')).toEqual([]);
    },
  );

  test.each(['user', 'status', 'address', 'category', 'book-shelf'])('/%s/{id} is singular', (name) => {
    expect(pointers(doc(collection(name)), 'LINT_COLLECTION_SINGULAR')).toEqual([`#/paths/~1${name}`, `#/paths/~1${name}~1{id}`]);
  });

  test.each(['menus', 'apis', 'emojis', 'taxis'])('/%s/{id}: a plural ending in -us/-is is a plural (no false positive)', (name) => {
    expect(pointers(doc(collection(name)), 'LINT_COLLECTION_SINGULAR')).toEqual([]);
  });

  test('a GET that does not return a list, on a path without an id, is not a collection', () => {
    expect(pointers(doc({ '/users/me': { get: read('me') } }), 'LINT_COLLECTION_SINGULAR')).toEqual([]);
  });

  test('x-specforge.lint.plurals adds words, case-insensitively', () => {
    const document = doc(collection('cacti'));
    expect(pointers(document, 'LINT_COLLECTION_SINGULAR')).toHaveLength(2);
    expect(pointers({ ...document, 'x-specforge': { lint: { plurals: ['CACTI'] } } }, 'LINT_COLLECTION_SINGULAR')).toEqual([]);
  });
});

describe('LINT_PATH_CASING', () => {
  const paths = (...names: string[]) => Object.fromEntries(names.map((name) => [`/${name}`, { get: list(name) }]));

  test('the majority sets the style: camelCase here, so the kebab-case segment is flagged', () => {
    expect(pointers(doc(paths('userGroups', 'accessTokens', 'api-keys')), 'LINT_PATH_CASING')).toEqual(['#/paths/~1api-keys']);
  });

  test('a tie goes to kebab-case', () => {
    expect(pointers(doc(paths('user-groups', 'accessTokens')), 'LINT_PATH_CASING')).toEqual(['#/paths/~1accessTokens']);
  });

  test('snake_case is never one of the styles', () => {
    expect(found(doc(paths('user_groups')), 'LINT_PATH_CASING')).toEqual([['LINT_PATH_CASING', '#/paths/~1user_groups', 'warning']]);
  });

  test('one-word segments and parameters fit any style', () => {
    expect(pointers(doc({ ...paths('userGroups', 'books'), '/books/{book-id}': { parameters: [pathParam('book-id')], get: read('b') } }), 'LINT_PATH_CASING')).toEqual([]);
  });
});

describe('LINT_PATH_SHAPE', () => {
  test('the root path "/" is not a trailing slash', () => {
    expect(pointers(doc({ '/': { get: read('root') } }), 'LINT_PATH_SHAPE')).toEqual([]);
  });
});

describe('LINT_VERSION_SEGMENT', () => {
  test('/api/v1 in every path is fine', () => {
    expect(pointers(doc({ '/api/v1/books': { get: list('a') }, '/api/v1/authors': { get: list('b') } }), 'LINT_VERSION_SEGMENT')).toEqual([]);
  });

  test('a version after a resource is misplaced', () => {
    const findings = lintSpec(doc({ '/books/v1': { get: list('a') } }), fragments).filter((d) => d.code === 'LINT_VERSION_SEGMENT');
    expect(findings.map((d) => [d.pointer, d.severity])).toEqual([['#/paths/~1books~1v1', 'error']]);
    expect(findings[0]!.message).toContain('must come first');
  });

  test('one versioned path, one not: the unversioned one is flagged', () => {
    expect(pointers(doc({ '/v1/books': { get: list('a') }, '/authors': { get: list('b') } }), 'LINT_VERSION_SEGMENT')).toEqual(['#/paths/~1authors']);
  });

  test.each(['/version', '/api/version'])('%s is a resource (the service version), not a malformed version segment', (path) => {
    expect(pointers(doc({ '/books': { get: list('a') }, [path]: { get: read('version') } }), 'LINT_VERSION_SEGMENT')).toEqual([]);
  });
});

describe('LINT_OPERATION_ID / LINT_OPERATION_ID_DUPLICATE', () => {
  test('URL-safe ids with - . _ ~ are fine', () => {
    expect(pointers(doc({ '/books': { get: list('books.list_all-v2~x') } }), 'LINT_OPERATION_ID')).toEqual([]);
  });

  test('three operations with one id: the second and third are flagged, each naming the first', () => {
    const document = doc({
      '/books': { get: list('same'), post: create('same', { type: 'object' }) },
      '/books/{id}': { parameters: [pathParam('id')], get: read('same') },
    });
    const findings = lintSpec(document, fragments).filter((d) => d.code === 'LINT_OPERATION_ID_DUPLICATE');
    expect(findings.map((d) => d.pointer)).toEqual(['#/paths/~1books/post/operationId', '#/paths/~1books~1{id}/get/operationId']);
    for (const d of findings) expect(d.message).toContain('also used by GET /books');
  });
});

describe('LINT_PATH_PARAMETER', () => {
  test('a parameter declared on the path item, or through a $ref, counts as declared', () => {
    const document = doc(
      {
        '/books/{book_id}': { parameters: [{ $ref: '#/components/parameters/BookId' }], get: read('a') },
        '/authors/{author_id}': { get: read('b', { parameters: [pathParam('author_id')] }) },
      },
      { components: { parameters: { BookId: pathParam('book_id') } } },
    );
    expect(pointers(document, 'LINT_PATH_PARAMETER')).toEqual([]);
  });
});

describe('LINT_LIST_NOT_ARRAY', () => {
  test('an envelope whose data is an array is a list', () => {
    const envelope = { type: 'object', properties: { data: { type: 'array', items: ITEM }, pagination: { type: 'object' } } };
    const document = doc({
      '/books': { get: { operationId: 'a', responses: ok(envelope) } },
      '/books/{id}': { parameters: [pathParam('id')], get: read('b') },
    });
    expect(pointers(document, 'LINT_LIST_NOT_ARRAY')).toEqual([]);
  });

  test('a GET returning an object on a path with no item path is not known to be a collection', () => {
    expect(pointers(doc({ '/stats': { get: read('stats') } }), 'LINT_LIST_NOT_ARRAY')).toEqual([]);
  });
});

// Before: an upload's body was dropped (the store created an empty item) and a download answered JSON, silently.
describe('LINT_MEDIA_NOT_SERVED', () => {
  const content = (type: string) => ({ content: { [type]: { schema: { type: 'string', format: 'binary' } } } });
  test('files up and down and event streams are named; JSON is not', () => {
    const document = doc({
      '/files': {
        post: { operationId: 'upload', requestBody: content('multipart/form-data'), responses: ok(ITEM, '201') },
        get: { operationId: 'list', responses: ok({ type: 'array', items: ITEM }) },
      },
      '/files/{id}': { parameters: [pathParam('id')], get: { operationId: 'download', responses: { '200': { description: 'the file', ...content('application/pdf') } } } },
      '/events': { get: { operationId: 'events', responses: { '200': { description: 'events', ...content('text/event-stream') } } } },
      '/notes': { post: { operationId: 'note', requestBody: content('application/merge-patch+json'), responses: ok(ITEM, '201') } },
    });
    // The form's schema is a string, not an object with a file field: nothing the store could keep.
    expect(pointers(document, 'LINT_MEDIA_NOT_SERVED')).toEqual(['#/paths/~1files/post', '#/paths/~1files~1{id}/get', '#/paths/~1events/get']);
  });

  test('files the default store does not keep are named: an upload that creates no item, a download nothing uploads to, an upload to an action', () => {
    const document = doc({
      '/files': {
        post: { operationId: 'upload', requestBody: content('multipart/form-data'), responses: { '202': { description: 'queued' } } },
        get: { operationId: 'list', responses: ok({ type: 'array', items: ITEM }) },
      },
      '/files/{id}': { parameters: [pathParam('id')], get: { operationId: 'download', responses: { '200': { description: 'the file', ...content('application/pdf') } } } },
      '/files/{id}/scan': { parameters: [pathParam('id')], post: { operationId: 'scan', requestBody: content('image/png'), responses: ok(ITEM) } },
    });
    expect(pointers(document, 'LINT_MEDIA_NOT_SERVED')).toEqual(['#/paths/~1files/post', '#/paths/~1files~1{id}/get', '#/paths/~1files~1{id}~1scan/post']);
  });
});

describe('LINT_FIELD_CASING', () => {
  test('a body from components.requestBodies is reported at its schema there', () => {
    const document = doc(
      { '/books': { post: { operationId: 'a', requestBody: { $ref: '#/components/requestBodies/Book' }, responses: ok(undefined, '201') } } },
      {
        components: {
          requestBodies: {
            Book: { content: { 'application/json': { schema: { type: 'object', properties: { pageCount: { type: 'integer', maximum: 9 } } } } } },
          },
        },
      },
    );
    expect(pointers(document, 'LINT_FIELD_CASING')).toEqual(['#/components/requestBodies/Book/content/application~1json/schema/properties/pageCount']);
  });

  test('a field shared by two operations is reported once', () => {
    const schema = { $ref: '#/components/schemas/BookInput' };
    const document = doc(
      { '/books': { post: create('a', schema) }, '/books/{id}': { parameters: [pathParam('id')], put: create('b', schema) } },
      { components: { schemas: { BookInput: { type: 'object', properties: { pageCount: { type: 'integer', maximum: 9 } } } } } },
    );
    expect(pointers(document, 'LINT_FIELD_CASING')).toEqual(['#/components/schemas/BookInput/properties/pageCount']);
  });

  test('header and path parameters are not held to snake_case', () => {
    const document = doc({
      '/books/{bookId}': { get: read('a', { parameters: [pathParam('bookId'), { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } }] }) },
    });
    expect(pointers(document, 'LINT_FIELD_CASING')).toEqual([]);
  });

  test('a field of an object nested in the request body is a body field too', () => {
    const body = { type: 'object', properties: { author: { type: 'object', properties: { firstName: { type: 'string', maxLength: 9 } } } } };
    expect(pointers(doc({ '/books': { post: create('a', body) } }), 'LINT_FIELD_CASING')).toEqual([
      '#/paths/~1books/post/requestBody/content/application~1json/schema/properties/author/properties/firstName',
    ]);
  });

  test('a field of a response body is a body field too (the conventions name has_more, total_pages, request_id)', () => {
    const body = { type: 'array', items: { type: 'object', properties: { pageCount: { type: 'integer' } } } };
    expect(pointers(doc({ '/books': { get: { operationId: 'a', responses: ok(body) } } }), 'LINT_FIELD_CASING')).toEqual([
      '#/paths/~1books/get/responses/200/content/application~1json/schema/items/properties/pageCount',
    ]);
  });
});

describe('LINT_UNBOUNDED_INPUT', () => {
  const body = (properties: Json) => doc({ '/books': { post: create('a', { type: 'object', properties }) } });
  const at = (name: string) => `#/paths/~1books/post/requestBody/content/application~1json/schema/properties/${name}`;

  test('enums, consts, bounded formats and booleans need no bound', () => {
    const document = body({
      genre: { type: 'string', enum: ['a', 'b'] },
      kind: { type: 'string', const: 'book' },
      published: { type: 'string', format: 'date' },
      updated_at: { type: 'string', format: 'date-time' },
      uuid: { type: 'string', format: 'uuid' },
      draft: { type: 'boolean' },
      score: { type: 'number', exclusiveMaximum: 10 },
    });
    expect(pointers(document, 'LINT_UNBOUNDED_INPUT')).toEqual([]);
  });

  test('free-form strings, arrays and numbers are flagged, nested ones too', () => {
    const document = body({
      email: { type: 'string', format: 'email' },
      tags: { type: 'array', items: { type: 'string' } },
      meta: { type: 'object', properties: { weight: { type: 'number' } } },
    });
    expect(pointers(document, 'LINT_UNBOUNDED_INPUT')).toEqual([at('email'), at('tags'), `${at('tags')}/items`, `${at('meta')}/properties/weight`]);
  });

  test('a recursive schema is visited once and the rule terminates', () => {
    const document = doc(
      { '/nodes': { post: create('a', { $ref: '#/components/schemas/Node' }) } },
      {
        components: {
          schemas: {
            Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', maxItems: 5, items: { $ref: '#/components/schemas/Node' } } } },
          },
        },
      },
    );
    expect(pointers(document, 'LINT_UNBOUNDED_INPUT')).toEqual(['#/components/schemas/Node/properties/label']);
  });

  test('a readOnly property is never input: no bound is asked of it', () => {
    const document = body({ id: { type: 'string', readOnly: true }, title: { type: 'string', maxLength: 100 } });
    expect(pointers(document, 'LINT_UNBOUNDED_INPUT')).toEqual([]);
  });
});

describe('security rules', () => {
  const schemes = (securitySchemes: Json, security?: Json[]) =>
    doc({ '/books': { get: list('a') } }, { components: { securitySchemes }, ...(security ? { security } : {}) });

  test('an unused non-convention scheme is not flagged; a used one is', () => {
    expect(pointers(schemes({ basic: { type: 'http', scheme: 'basic' } }), 'LINT_SECURITY_SCHEME')).toEqual([]);
    expect(pointers(schemes({ oauth: { type: 'oauth2', flows: {} } }, [{ oauth: [] }]), 'LINT_SECURITY_SCHEME')).toEqual(['#/components/securitySchemes/oauth']);
  });

  test('Bearer (any case) and an X-API-Key header are the conventions', () => {
    const document = schemes(
      { bearer: { type: 'http', scheme: 'Bearer' }, key: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      [{ bearer: [] }, { key: [] }],
    );
    expect(found(document)).toEqual([]);
  });

  test('an apiKey in a header other than X-API-Key, or in a cookie, is flagged', () => {
    const document = schemes(
      { other: { type: 'apiKey', in: 'header', name: 'X-Token' }, cookie: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      [{ other: [] }, { cookie: [] }],
    );
    expect(pointers(document, 'LINT_SECURITY_SCHEME')).toEqual(['#/components/securitySchemes/other', '#/components/securitySchemes/cookie']);
  });

  test('a query key scheme is an error even unused, and not also a LINT_SECURITY_SCHEME', () => {
    const document = schemes({ key: { type: 'apiKey', in: 'query', name: 'key' } }, [{ key: [] }]);
    expect(found(document)).toEqual([['LINT_QUERY_KEY_SCHEME', '#/components/securitySchemes/key', 'error']]);
  });

  test.each(['api_key', 'apiKey', 'password', 'access_token', 'client_secret'])('query parameter %s is a credential', (name) => {
    expect(pointers(doc({ '/books': { get: list('a', { parameters: [query(name)] }) } }), 'LINT_CREDENTIAL_IN_QUERY')).toEqual([
      '#/paths/~1books/get/parameters/0',
    ]);
  });

  test('token_type in a query, and token in a header or path, are not', () => {
    const document = doc({
      '/tokens/{token}': {
        get: read('a', { parameters: [pathParam('token'), query('token_type'), { name: 'token', in: 'header', schema: { type: 'string' } }] }),
      },
    });
    expect(pointers(document, 'LINT_CREDENTIAL_IN_QUERY')).toEqual([]);
  });
});

describe('LINT_CONVENTION_PARAMETER', () => {
  test('only lists and reads: a `limit` on a create is its own', () => {
    const document = doc({ '/books': { post: create('a', { type: 'object' }, { parameters: [query('limit', { type: 'integer' })] }) } });
    expect(pointers(document, 'LINT_CONVENTION_PARAMETER')).toEqual([]);
  });

  test('a limit with a maximum is still the conventions\', but not said to lack one', () => {
    const document = doc({ '/books': { get: list('a', { parameters: [query('limit', { type: 'integer', maximum: 50 }), query('page', { type: 'integer' })] }) } });
    const findings = lintSpec(document, fragments).filter((d) => d.code === 'LINT_CONVENTION_PARAMETER');
    expect(findings.map((d) => d.pointer)).toEqual(['#/paths/~1books/get/parameters/0', '#/paths/~1books/get/parameters/1']);
    expect(findings[0]!.message).not.toContain('no maximum');
  });

  test("a $ref to the conventions' own parameter is theirs, wherever the merge installed it; to the spec's own `Page` it is not", () => {
    const theirs = fragments.parameters!.Page!;
    const own = { name: 'page', in: 'query', description: 'Zero-based.', schema: { type: 'integer', minimum: 0 } };
    const listing = (parameter: string, parameters: Json) =>
      doc({ '/books': { get: list('a', { parameters: [{ $ref: `#/components/parameters/${parameter}` }] }) } }, { components: { parameters } });
    expect(pointers(listing('Page', { Page: theirs }), 'LINT_CONVENTION_PARAMETER')).toEqual([]);
    expect(pointers(listing('Page', { Page: own }), 'LINT_CONVENTION_PARAMETER')).toEqual(['#/components/parameters/Page']);
    // A merged spec: the spec's `Page` beside the conventions' `SpecforgePage`.
    expect(pointers(listing('SpecforgePage', { Page: own, SpecforgePage: theirs }), 'LINT_CONVENTION_PARAMETER')).toEqual([]);
  });
});

describe('LINT_CONVENTION_ERROR_BODY', () => {
  const NOT_FOUND = { description: 'no', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } };

  test('a shared response is reported once', () => {
    const ref = { $ref: '#/components/responses/NotFound' };
    const document = doc(
      {
        '/books/{id}': { parameters: [pathParam('id')], get: read('a', { responses: { ...ok(ITEM), '404': ref } }) },
        '/authors/{id}': { parameters: [pathParam('id')], get: read('b', { responses: { ...ok(ITEM), '404': ref } }) },
      },
      { components: { responses: { NotFound: NOT_FOUND } } },
    );
    // Reported where it is written, the shared component, once.
    expect(pointers(document, 'LINT_CONVENTION_ERROR_BODY')).toEqual(['#/components/responses/NotFound']);
  });

  test('statuses the conventions do not own, and non-JSON bodies, are left alone', () => {
    const document = doc({
      '/books/{id}': {
        parameters: [pathParam('id')],
        get: read('a', {
          responses: { ...ok(ITEM), '418': NOT_FOUND, '500': { description: 'x', content: { 'text/plain': { schema: { type: 'string' } } } } },
        }),
      },
    });
    expect(pointers(document, 'LINT_CONVENTION_ERROR_BODY')).toEqual([]);
  });
});

describe('settings', () => {
  const noIds = (paths: Json, extra: Json = {}) => doc(paths, extra);
  const anonymous = (extra: Json = {}): Json => ({ responses: ok(ITEM), ...extra });

  test('operation over path item over API', () => {
    const document = noIds(
      {
        '/a': { get: anonymous() },
        '/b': { 'x-specforge': { lint: { rules: { LINT_OPERATION_ID: 'off' } } }, get: anonymous(), put: anonymous({ 'x-specforge': { lint: { rules: { LINT_OPERATION_ID: 'warning' } } } }) },
      },
      { 'x-specforge': { lint: { rules: { LINT_OPERATION_ID: 'error' } } } },
    );
    expect(found(document, 'LINT_OPERATION_ID')).toEqual([
      ['LINT_OPERATION_ID', '#/paths/~1a/get', 'error'],
      ['LINT_OPERATION_ID', '#/paths/~1b/put', 'warning'],
    ]);
  });

  test('a path rule turned off on its path item is silenced there', () => {
    const document = doc({
      '/create-book': { 'x-specforge': { lint: { rules: { LINT_PATH_VERB: 'off' } } }, post: { operationId: 'a', responses: ok() } },
      '/delete-book': { post: { operationId: 'b', responses: ok() } },
    });
    expect(pointers(document, 'LINT_PATH_VERB')).toEqual(['#/paths/~1delete-book']);
  });

  test('a shared schema stays reported for an operation that did not turn the rule off', () => {
    const schema = { $ref: '#/components/schemas/BookInput' };
    const document = doc(
      {
        '/books': { post: create('a', schema, { 'x-specforge': { lint: { rules: { LINT_UNBOUNDED_INPUT: 'off' } } } }) },
        '/books/{id}': { parameters: [pathParam('id')], put: create('b', schema) },
      },
      { components: { schemas: { BookInput: { type: 'object', properties: { title: { type: 'string' } } } } } },
    );
    expect(pointers(document, 'LINT_UNBOUNDED_INPUT')).toEqual(['#/components/schemas/BookInput/properties/title']);
  });
});

describe('review findings (each reproduced before its fix)', () => {
  const messages = (document: OpenApiDocument, code: string) => lintSpec(document, fragments).filter((d) => d.code === code).map((d) => d.message);

  test('two problems at one place are both reported', () => {
    const document = doc({ '/things/{a}/{b}': { get: read('get_thing') } });
    expect(messages(document, 'LINT_PATH_PARAMETER')).toEqual(['path parameter {a} is not declared', 'path parameter {b} is not declared']);
  });

  test('the version most paths use is the reference; a lone other version is the odd one', () => {
    const document = doc({ '/v2/a': { get: list('a') }, '/v1/bs': { get: list('bs') }, '/v1/cs': { get: list('cs') } });
    expect(pointers(document, 'LINT_VERSION_SEGMENT')).toEqual(['#/paths/~1v2~1a']);
  });

  test('`exclusiveMaximum: true` (3.0) bounds nothing', () => {
    const document = doc({ '/things': { post: create('create_thing', { type: 'object', properties: { n: { type: 'integer', exclusiveMaximum: true } } }) } });
    expect(messages(document, 'LINT_UNBOUNDED_INPUT')).toEqual(['an integer without maximum']);
  });

  test('an `error` that is a $ref to a string is not the error envelope', () => {
    const document = doc(
      { '/things/{id}': { parameters: [pathParam('id')], get: { operationId: 'get_thing', responses: { ...ok(ITEM), ...ok({ type: 'object', properties: { error: { $ref: '#/components/schemas/Text' } } }, '404') } } } },
      { components: { schemas: { Text: { type: 'string' } } } },
    );
    expect(pointers(document, 'LINT_CONVENTION_ERROR_BODY')).toEqual(['#/paths/~1things~1{id}/get/responses/404']);
  });

  test('query parameters of the path item count, and credential names are read without - and _', () => {
    const document = doc({ '/things': { parameters: [query('pageSize'), query('api-key')], get: list('list_things') } });
    expect(pointers(document, 'LINT_FIELD_CASING')).toEqual(['#/paths/~1things/parameters/0', '#/paths/~1things/parameters/1']);
    expect(pointers(document, 'LINT_CREDENTIAL_IN_QUERY')).toEqual(['#/paths/~1things/parameters/1']);
  });

  test('`download-links` names things; `{id}:cancel` is an action; `{owner}_{repo}` is not snake_case', () => {
    const document = doc({
      '/download-links': { get: list('list_download_links') },
      '/jobs/{id}:cancel': { parameters: [pathParam('id')], post: { operationId: 'cancel_job', responses: ok() } },
      '/repos/{owner}_{repo}': { parameters: [pathParam('owner'), pathParam('repo')], get: read('get_repo') },
    });
    expect(pointers(document, 'LINT_PATH_VERB')).toEqual(['#/paths/~1jobs~1{id}:cancel']);
    expect(pointers(document, 'LINT_PATH_CASING')).toEqual([]);
  });
});
