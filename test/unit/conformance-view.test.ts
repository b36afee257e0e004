import type { OpenApiDocument, SchemaObject } from '../../src/openapi/document.js';
import { apiTests, conformanceView, type TestView } from '../../src/render/targets/conformance/view.js';
import { mergedModel } from '../model.js';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema?: unknown) => ({ description: 'ok', ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }) });
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const idParam = (name: string, schema: SchemaObject) => ({ name, in: 'path' as const, required: true, schema });
const write = [{ bearerAuth: ['shop:write'] }, { apiKeyAuth: ['shop:write'] }];

const AUTHOR: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string', maxLength: 40 },
    status: { type: 'string', enum: ['active', 'retired'] },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
  },
};
const BOOK: SchemaObject = { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, title: { type: 'string' } } };

function build(versioning = 'url') {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Shop', version: '1.0.0' },
    servers: [{ url: '/api' }],
    'x-specforge': { versioning: { mechanism: versioning } },
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
    paths: {
      '/authors': {
        get: { operationId: 'listAuthors', responses: { '200': ok({ type: 'array', items: ref('Author') }) } },
        post: { operationId: 'createAuthor', security: write, requestBody: body('Author'), responses: { '201': ok(ref('Author')) } },
      },
      '/authors/{author_id}': {
        parameters: [idParam('author_id', { type: 'integer' })],
        get: { operationId: 'getAuthor', responses: { '200': ok(ref('Author')) } },
        patch: { operationId: 'updateAuthor', security: write, requestBody: body('Author'), responses: { '200': ok(ref('Author')) } },
      },
      '/authors/{author_id}/books': {
        parameters: [idParam('author_id', { type: 'integer' })],
        get: { operationId: 'listBooks', security: [], 'x-specforge': { paging: { style: 'offset' } }, responses: { '200': ok({ type: 'array', items: ref('Book') }) } },
      },
      '/authors/{author_id}/books/{book_id}': {
        parameters: [idParam('author_id', { type: 'integer' }), idParam('book_id', { type: 'string', format: 'uuid' })],
        delete: { operationId: 'deleteBook', security: write, responses: { '204': ok() } },
      },
    },
    components: {
      schemas: { Author: AUTHOR, Book: BOOK },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Token' } },
    },
  };
  const merged = mergedModel(document);
  return { model: merged.model, view: conformanceView(merged.model, merged.document) };
}

const { model, view } = build();
const testsOf = (operationId: string): TestView[] => view.files.flatMap((file) => file.operations).flatMap((operation) => operation.tests).filter((test) => test.operationId === operationId);
const checksOf = (operationId: string) => testsOf(operationId).map((test) => test.check);

describe('conformance view: what the suite knows of the API', () => {
  test('credentials: the schemes each operation takes alone, and the scopes a 403 needs', () => {
    expect(view.api.scopes).toEqual(['shop:write']);
    expect(view.api.apiKeyHeader).toBe('X-Token');
    expect(view.api.operations.createAuthor!.security).toEqual({ public: false, schemes: ['bearer', 'apiKey'], scopes: ['shop:write'] });
    // An alternative without scopes: any valid credential will do, so no 403 can be asked for.
    expect(view.api.operations.listAuthors!.security.scopes).toEqual([]);
    expect(view.api.operations.listBooks!.security.public).toBe(true);
  });

  test('resources: a valid create body, the parent chain, and an id no item has, valid for its schema', () => {
    expect(view.api.resources.authors).toMatchObject({ idParam: 'author_id', parentParams: [], sample: { name: 'sample' }, unknownId: 2147483647 });
    expect(view.api.resources.books).toMatchObject({ idParam: 'book_id', parent: 'authors', parentParams: ['author_id'], unknownId: '00000000-0000-4000-8000-000000000000' });
    expect(view.api.resources.books!.sample).toBeUndefined();
  });
});

describe('conformance view: the tests each operation gets', () => {
  test('names read like a report: method, path, outcome', () => {
    expect(testsOf('getAuthor').map((test) => test.name)).toEqual([
      'GET /authors/{author_id} → 200 with the success envelope, data valid against the schema',
      'GET /authors/{author_id} → 401 UNAUTHORIZED without a credential',
      'GET /authors/{author_id} → 401 UNAUTHORIZED with an invalid credential',
      'GET /authors/{author_id} → 404 RESOURCE_NOT_FOUND for an unknown id',
      'GET /authors/{author_id} → ETag, and 304 with no body for If-None-Match',
      'GET /authors/{author_id} → changed by PATCH, the resource no longer matches its old ETag',
      'GET /authors/{author_id} → returns only the fields named in fields, with id and the required ones',
      'GET /authors/{author_id} → property: random valid queries never answer 5xx and are answered as the spec says',
      'GET /authors/{author_id} → property: random ids answer 404 in the error envelope, never 5xx',
      'GET /authors/{author_id} → 405 METHOD_NOT_ALLOWED with Allow for DELETE',
    ]);
  });

  test('a create: 403 without the scope, one 422 per rule the schema states, 400, 413 and 415', () => {
    const tests = testsOf('createAuthor');
    expect(tests.map((test) => test.check)).toEqual(expect.arrayContaining(['creates', 'forbiddenWithoutScope', 'rejectsMalformedJson', 'rejectsOversizedBody', 'rejectsWrongContentType']));
    const violations = tests.filter((test) => test.check === 'rejectsInvalidBody').map((test) => (test.argument as { field: string; code: string; values: unknown[]; body: unknown }));
    expect(violations.map((violation) => [violation.field, violation.code])).toEqual([
      ['body.name', 'REQUIRED'],
      ['body.name', 'INVALID_TYPE'],
      ['body.name', 'OUT_OF_RANGE'],
      ['body.status', 'INVALID_TYPE'],
      ['body.status', 'INVALID_VALUE'],
      ['body.unknown_property', 'UNKNOWN_FIELD'],
    ]);
    // Each body breaks that one rule: the rest is the valid sample.
    expect(violations[3]!.body).toEqual({ name: 'sample', status: 12345 });
  });

  test('a partial update: changes one field to another valid value; leaving a required field out is no violation', () => {
    const tests = testsOf('updateAuthor');
    // Two changes: the check sends the one that changes the item it creates.
    expect(tests.find((test) => test.check === 'updatesOnlyWhatItNames')?.argument).toEqual([{ name: 'a-sample' }, { name: 'b-sample' }]);
    expect(tests.filter((test) => test.check === 'rejectsInvalidBody').map((test) => (test.argument as { field: string; code: string; values: unknown[]; body: unknown }).code)).not.toContain('REQUIRED');
  });

  test('a cursor list: limit, the walk, a tampered cursor, sort, fields, filters, the creation range, search', () => {
    expect(checksOf('listAuthors')).toEqual(
      expect.arrayContaining(['lists', 'rejectsLimitAboveMaximum', 'walksCursorPages', 'rejectsTamperedCursor', 'selectsFields', 'filters', 'filtersByCreationDate', 'searches', 'revalidates']),
    );
    const sorts = testsOf('listAuthors').filter((test) => test.check === 'sorts').map((test) => (test.argument as { field: string; code: string; values: unknown[]; body: unknown }));
    // Sorted on values the suite can set, and on the creation time it cannot.
    expect(sorts).toEqual(
      expect.arrayContaining([
        { field: 'name', values: ['a-sample', 'b-sample', 'c-sample'] },
        { field: 'created_at', values: null },
      ]),
    );
    expect(testsOf('listAuthors').find((test) => test.check === 'filters' && (test.argument as { field: string }).field === 'status')?.argument).toEqual({ field: 'status', values: ['active', 'retired'] });
  });

  test('fields: asks for an optional field and expects the required ones kept', () => {
    const argumentOf = (operationId: string) => testsOf(operationId).find((test) => test.check === 'selectsFields')!.argument;
    expect(argumentOf('listAuthors')).toEqual({ field: 'status', required: ['name'] });
    expect(argumentOf('getAuthor')).toEqual({ field: 'status', required: ['name'] });
  });

  test('an offset list under a parent, public: the offset walk, 404 under a missing parent, no 401', () => {
    const checks = checksOf('listBooks');
    expect(checks).toEqual(expect.arrayContaining(['walksOffsetPages', 'notFoundUnderMissingParent', 'publicWithoutCredential']));
    expect(checks).not.toContain('walksCursorPages');
    expect(checks).not.toContain('unauthorizedWithoutCredential');
  });

  test('one wrong method per path, with a method the path does not declare', () => {
    const methods = view.files.flatMap((file) => file.operations).flatMap((operation) => operation.tests).filter((test) => test.check === 'methodNotAllowed');
    expect(methods.map((test) => [test.operationId, test.argument])).toEqual([
      ['listAuthors', 'DELETE'],
      ['getAuthor', 'DELETE'],
      ['listBooks', 'DELETE'],
      ['deleteBook', 'POST'],
    ]);
  });
});

// Before: Blockfrost's `/nutlink/tickers/{ticker}` (beside `/nutlink/{address}/tickers`) expected 404 under a missing address it never names.
test('404 under a missing parent only on paths that name the parent item', () => {
  const array = ok({ type: 'array', items: { type: 'object', properties: { tx: { type: 'string' } } } });
  const address = idParam('address', { type: 'string' });
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Chain', version: '1.0.0' },
    paths: {
      '/nutlink/{address}': { parameters: [address], get: { operationId: 'getNutlink', responses: { '200': ok({ type: 'object' }) } } },
      '/nutlink/{address}/tickers': { parameters: [address], get: { operationId: 'listTickers', responses: { '200': array } } },
      '/nutlink/tickers/{ticker}': { parameters: [idParam('ticker', { type: 'string' })], get: { operationId: 'listTickersByName', responses: { '200': array } } },
    },
  };
  const merged = mergedModel(document);
  const checks = (operationId: string) =>
    conformanceView(merged.model, merged.document).files.flatMap((file) => file.operations).flatMap((operation) => operation.tests).filter((test) => test.operationId === operationId).map((test) => test.check);
  expect(checks('listTickers')).toContain('notFoundUnderMissingParent');
  expect(checks('listTickersByName')).not.toContain('notFoundUnderMissingParent');
});

describe('conformance view: data that fits every schema it meets', () => {
  const digest = idParam('digest', { type: 'string', pattern: '^sha256:[a-f0-9]{64}$' });
  const document: OpenApiDocument = {
    openapi: '3.0.3',
    info: { title: 'Sites', version: '1.0.0' },
    paths: {
      '/sites': {
        get: { operationId: 'listSites', parameters: [{ name: 'homepage', in: 'query', schema: { type: 'string', format: 'uri' } }, { name: 'blog', in: 'query', schema: { type: 'string' } }], responses: { '200': ok({ type: 'array', items: ref('Site') }) } },
        post: { operationId: 'createSite', requestBody: body('NewSite'), responses: { '201': ok(ref('Site')) } },
      },
      '/sites/{site_id}': {
        parameters: [idParam('site_id', { type: 'integer' })],
        get: { operationId: 'getSite', responses: { '200': ok(ref('Site')) } },
        patch: { operationId: 'capSite', requestBody: body('Cap'), responses: { '200': ok(ref('Site')) } },
      },
      '/notes/{note_id}': {
        parameters: [idParam('note_id', { type: 'integer' })],
        get: { operationId: 'getNote', responses: { '200': ok(ref('Note')) } },
        patch: { operationId: 'updateNote', requestBody: body('NotePatch'), responses: { '200': ok(ref('Note')) } },
      },
      '/artifacts/{digest}/records': { parameters: [digest], get: { operationId: 'listRecords', responses: { '200': ok({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }) } } },
      '/locks': {
        post: {
          operationId: 'lock',
          parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string', pattern: '^\\p{Lu}+$' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^\\p{Lu}+$' } } } } } },
          responses: { '204': ok() },
        },
      },
      '/vaults/{key}/entries': {
        parameters: [idParam('key', { type: 'string', pattern: '^\\p{Lu}+$' })],
        get: { operationId: 'listEntries', responses: { '200': ok({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }) } },
      },
    },
    components: {
      schemas: {
        NewSite: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, homepage: { type: 'string', format: 'uri' }, blog: { type: 'string' } } },
        Site: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, homepage: { type: 'string', format: 'uri', nullable: true }, blog: { type: 'string', format: 'uri' }, enabled: { type: 'boolean' }, cap: { type: 'integer' } } },
        Cap: { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' }, cap: { type: 'integer', minimum: 1 } } },
        Note: { type: 'object', properties: { id: { type: 'integer' }, text: { type: 'string' } } },
        NotePatch: { type: 'object', minProperties: 1, additionalProperties: false, properties: { text: { type: 'string', maxLength: 200 } } },
      },
    },
  };
  const merged = mergedModel(document);
  const built = conformanceView(merged.model, merged.document);
  const argumentOf = (operationId: string, check: string, field?: string) =>
    built.files
      .flatMap((file) => file.operations)
      .flatMap((operation) => operation.tests)
      .find((test) => test.operationId === operationId && test.check === check && (field === undefined || (test.argument as { field: string }).field === field))!.argument as Record<string, never>;

  // Before: GitHub's creation-cap PATCH requires `enabled`; the change sent only `max_open_pull_requests` (422).
  test('a change carries what the body requires beside the changed field', () => {
    expect(argumentOf('capSite', 'updatesOnlyWhatItNames')).toEqual([
      { cap: 1, enabled: true },
      { cap: 2, enabled: true },
    ]);
  });

  // Before: GitHub's billing budget held the server-made `budget_amount: 1`, the PATCH set it to 1, and the ETag stayed (304).
  test('the ETag check gets two changes: the item may already hold the first', () => {
    expect(argumentOf('getSite', 'changesETag')).toEqual({ operationId: 'capSite', changes: [{ cap: 1, enabled: true }, { cap: 2, enabled: true }] });
  });

  // Before: GitHub's /user/repos filtered on `homepage=a-sample`, which its `uri` query parameter refuses (422), and stored it where answers say `uri`.
  test('filters and sorts use values the query parameter and the answered field take', () => {
    expect(argumentOf('listSites', 'filters', 'homepage').values).toEqual(['https://example.com/a-sample', 'https://example.com/b-sample']);
    expect(argumentOf('listSites', 'sorts', 'homepage').values).toEqual(['https://example.com/a-sample', 'https://example.com/b-sample', 'https://example.com/c-sample']);
  });

  // GitHub's `POST /user/repos` writes any string where its answers declare a URI: the service answers its own value there.
  test('a field written looser than it is answered is the service\'s: no change, filter or sort writes it', () => {
    const sites = Object.values(built.api.resources).find((resource) => resource.operations.list === 'listSites')!;
    expect(sites.serverFields).toEqual(['blog']);
    const tests = built.files.flatMap((file) => file.operations).flatMap((operation) => operation.tests);
    expect(tests.filter((test) => ['filters', 'sorts', 'updatesOnlyWhatItNames'].includes(test.check) && JSON.stringify(test.argument).includes('"blog"'))).toEqual([]);
  });

  // Before: GitHub's `subject_digest` (`^sha256:[a-f0-9]{64}$`) got `sample` and `no-such-id`: every request a 422.
  // Before: a PATCH whose body needs one property sent `{}`: its 404 check got the service's 422 for the body, an order the conventions do not fix.
  test('the 404 of a partial update sends a valid patch: one property where minProperties asks for one', () => {
    expect(built.api.operations.updateNote!.body!.sample).toEqual({ text: 'sample' });
    expect(built.files.flatMap((file) => file.operations).flatMap((operation) => operation.tests).some((test) => test.operationId === 'updateNote' && test.check === 'notFoundForUnknownId')).toBe(true);
  });

  test('path parameters with a pattern: a made-up value and an unknown id that match it, and differ', () => {
    const records = Object.values(built.api.resources).find((resource) => resource.parentParams.includes('digest'))!;
    expect(records.scope!.digest).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(records.unknownParents.digest).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(records.unknownParents.digest).not.toBe(records.scope!.digest);
  });

  test('a pattern no value is built for: no made-up value, no unknown id, and the plan says which input is missing', () => {
    const entries = Object.values(built.api.resources).find((resource) => resource.parentParams.includes('key'))!;
    expect(entries.scope ?? {}).not.toHaveProperty('key');
    expect(entries.unknownParents).not.toHaveProperty('key');
    expect(entries.unbuilt).toEqual(['path.key']);
    // Required inputs of an operation: named, so the checks that need the service past validation skip.
    expect(built.api.operations.lock).toMatchObject({ unbuilt: ['body', 'query.token'], defeat: '`pattern` at #/properties/code' });
    expect(built.api.operations.lock).not.toHaveProperty('body');
  });
});

describe('conformance view: the API-wide checks', () => {
  test('tried on a list without path parameters; the version checks follow the versioning mechanism', () => {
    const url = apiTests(model)!;
    expect(url.probe).toBe('listAuthors');
    expect(url.tests.map((test) => test.check)).toEqual(expect.arrayContaining(['echoesRequestId', 'rateLimitHeaders', 'unknownUrlVersion', 'acceptsApiKey']));
    expect(url.tests.map((test) => test.check)).not.toContain('unknownHeaderVersion');
    const header = apiTests(build('header').model)!;
    expect(header.tests.map((test) => test.check)).toContain('unknownHeaderVersion');
    expect(header.tests.map((test) => test.check)).not.toContain('unknownUrlVersion');
  });
});

describe('conformance view: the property-based checks', () => {
  const properties = (operationId: string) => testsOf(operationId).filter((test) => test.module === 'properties').map((test) => test.check);

  test('a create gets random bodies, violations and the random sequences of its resource; an update its bodies; a list its queries', () => {
    expect(properties('createAuthor')).toEqual(['acceptsRandomValidBodies', 'rejectsRandomViolations', 'keepsInvariants']);
    expect(properties('updateAuthor')).toEqual(['acceptsRandomValidBodies', 'rejectsRandomViolations']);
    expect(properties('listAuthors')).toEqual(['answersRandomQueries']);
    expect(properties('deleteBook')).toEqual([]);
  });

  test('the sequence names the operations it calls, and the file imports the module of each check it uses', () => {
    expect(testsOf('createAuthor').find((test) => test.check === 'keepsInvariants')?.name).toBe("POST /authors → property: random sequences of create, read, update and list keep authors's invariants");
    const authors = view.files.find((file) => file.operations.some((operation) => operation.tests.some((test) => test.operationId === 'createAuthor')))!;
    expect(authors.modules).toEqual(['checks', 'properties']);
  });
});
