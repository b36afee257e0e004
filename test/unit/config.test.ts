import { DEFAULTS, operationConfig, resolveConfig, validateConfig, type OperationConfig } from '../../src/config.js';
import { diagnosticsOf } from '../helpers.js';

/** A small spec with the given root extension (and optionally paths). */
function spec(extension?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1.0.0' },
    paths: {},
    ...(extension === undefined ? {} : { 'x-specforge': extension }),
    ...extra,
  };
}


describe('config defaults (DESIGN.md)', () => {
  test('a spec without x-specforge resolves to the documented defaults', () => {
    expect(resolveConfig(spec())).toEqual({
      resourceShape: 'flat',
      paging: { style: 'cursor', defaultLimit: 20, maxLimit: 100 },
      cacheControl: 'private, no-cache',
      validation: { status: 422 },
      versioning: { mechanism: 'both', version: 1 },
      rateLimit: { limit: 100, windowSeconds: 60 },
      bodyLimit: 1048576,
      uploadLimit: 10485760,
    });
  });

  test('DEFAULTS holds the same figures', () => {
    expect(DEFAULTS.paging).toEqual({ style: 'cursor', defaultLimit: 20, maxLimit: 100 });
    expect(DEFAULTS.rateLimit).toEqual({ limit: 100, windowSeconds: 60 });
    expect(DEFAULTS.bodyLimit).toBe(1024 * 1024);
    expect(DEFAULTS.uploadLimit).toBe(10 * 1024 * 1024);
    expect(DEFAULTS.validation.status).toBe(422);
    expect(DEFAULTS.resourceShape).toBe('flat');
  });

  test.each([
    { given: '1.0.0', want: 1 },
    { given: '2.4.1', want: 2 },
    { given: '10.0', want: 10 },
    { given: '0.3.0', want: 1 },
    { given: 'beta', want: 1 },
    { given: undefined, want: 1 },
  ])('versioning.version from info.version $given → $want', ({ given, want }) => {
    const document = spec(undefined, { info: { title: 'T', ...(given === undefined ? {} : { version: given }) } });
    expect(resolveConfig(document).versioning.version).toBe(want);
  });

  test('an explicit versioning.version wins over info.version', () => {
    const document = spec({ versioning: { version: 3 } }, { info: { title: 'T', version: '7.0.0' } });
    expect(resolveConfig(document).versioning).toEqual({ mechanism: 'both', version: 3 });
  });
});

describe('root overrides', () => {
  test('given values replace defaults, member by member', () => {
    const config = resolveConfig(
      spec({
        resourceShape: 'typed',
        paging: { style: 'offset', maxLimit: 50 },
        cacheControl: 'no-store',
        validation: { status: 400 },
        versioning: { mechanism: 'header' },
        rateLimit: { limit: 10 },
        bodyLimit: 2048,
        uploadLimit: 4096,
      }),
    );
    expect(config).toEqual({
      resourceShape: 'typed',
      paging: { style: 'offset', defaultLimit: 20, maxLimit: 50 },
      cacheControl: 'no-store',
      validation: { status: 400 },
      versioning: { mechanism: 'header', version: 1 },
      rateLimit: { limit: 10, windowSeconds: 60 },
      bodyLimit: 2048,
      uploadLimit: 4096,
    });
  });

  test('does not mutate DEFAULTS', () => {
    const before = structuredClone(DEFAULTS);
    resolveConfig(spec({ paging: { defaultLimit: 5 }, rateLimit: { limit: 3 } }));
    expect(DEFAULTS).toEqual(before);
  });
});

describe('operationConfig: operation over path item over API', () => {
  const api: OperationConfig = {
    resourceShape: 'flat',
    paging: { style: 'cursor', defaultLimit: 20, maxLimit: 100 },
    cacheControl: 'private, no-cache',
  };

  test.each([
    { name: 'nothing given', pathItem: undefined, operation: undefined, want: api },
    {
      name: 'path item only',
      pathItem: { paging: { style: 'offset' } },
      operation: undefined,
      want: { ...api, paging: { style: 'offset', defaultLimit: 20, maxLimit: 100 } },
    },
    {
      name: 'operation only',
      pathItem: undefined,
      operation: { resourceShape: 'typed', cacheControl: 'no-store' },
      want: { ...api, resourceShape: 'typed', cacheControl: 'no-store' },
    },
    {
      name: 'operation over path item, paging merged member by member',
      pathItem: { paging: { style: 'offset', maxLimit: 50 }, resourceShape: 'typed' },
      operation: { paging: { defaultLimit: 10, maxLimit: 30 } },
      want: { ...api, resourceShape: 'typed', paging: { style: 'offset', defaultLimit: 10, maxLimit: 30 } },
    },
    {
      name: 'operation wins on the same key',
      pathItem: { resourceShape: 'typed' },
      operation: { resourceShape: 'flat' },
      want: api,
    },
  ])('$name', ({ pathItem, operation, want }) => {
    expect(operationConfig(api, pathItem, operation)).toEqual(want);
  });
});

describe('config validation', () => {
  test('an unknown root key → CONFIG_UNKNOWN_KEY with pointer and a suggestion', () => {
    const [problem, ...rest] = diagnosticsOf(() => resolveConfig(spec({ pagign: { style: 'offset' } }, {}), 'api.yaml'));
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', severity: 'error', pointer: '#/x-specforge/pagign', file: 'api.yaml' });
    expect(problem!.message).toContain('"pagign"');
    expect(problem!.message).toContain('did you mean "paging"?');
    expect(problem!.hint).toContain('paging');
  });

  test('an unknown nested key → pointer into the nested mapping, suggestion from that level', () => {
    const [problem] = diagnosticsOf(() => resolveConfig(spec({ paging: { stlye: 'offset' } })));
    expect(problem).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', pointer: '#/x-specforge/paging/stlye' });
    expect(problem!.message).toContain('did you mean "style"?');
  });

  test('a key far from every option gets no suggestion', () => {
    const [problem] = diagnosticsOf(() => resolveConfig(spec({ zzzzzzzz: 1 })));
    expect(problem!.code).toBe('CONFIG_UNKNOWN_KEY');
    expect(problem!.message).not.toContain('did you mean');
  });

  test('a root-only option on an operation is unknown there; pointer escapes the path', () => {
    const document = spec(undefined, {
      paths: { '/books': { get: { responses: {}, 'x-specforge': { bodyLimit: 10 } } } },
    });
    const [problem] = diagnosticsOf(() => resolveConfig(document));
    expect(problem).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', pointer: '#/paths/~1books/get/x-specforge/bodyLimit' });
  });

  test('store settings stand on a path item; on an operation they are unknown', () => {
    const good = spec(undefined, { paths: { '/books': { 'x-specforge': { store: { unique: ['isbn', ['owner', 'name']], onParentDelete: 'cascade' } } } } });
    expect(validateConfig(good)).toEqual([]);
    const onOperation = spec(undefined, { paths: { '/books': { post: { responses: {}, 'x-specforge': { store: { unique: ['isbn'] } } } } } });
    expect(validateConfig(onOperation)).toEqual([expect.objectContaining({ code: 'CONFIG_UNKNOWN_KEY', pointer: '#/paths/~1books/post/x-specforge/store' })]);
    const bad = spec(undefined, { paths: { '/books': { 'x-specforge': { store: { unique: 'isbn', onParentDelete: 'nullify' } } } } });
    expect(validateConfig(bad).map((problem) => problem.pointer)).toEqual(['#/paths/~1books/x-specforge/store/unique', '#/paths/~1books/x-specforge/store/onParentDelete']);
  });

  test('a path-item extension is validated too', () => {
    const document = spec(undefined, { paths: { '/books': { 'x-specforge': { paging: { style: 'pages' } } } } });
    const [problem] = diagnosticsOf(() => resolveConfig(document));
    expect(problem).toMatchObject({ code: 'CONFIG_INVALID_VALUE', pointer: '#/paths/~1books/x-specforge/paging/style' });
  });

  test.each([
    { name: 'paging.style: pages', given: { paging: { style: 'pages' } }, pointer: '#/x-specforge/paging/style' },
    { name: 'bodyLimit: -1', given: { bodyLimit: -1 }, pointer: '#/x-specforge/bodyLimit' },
    { name: 'bodyLimit: 1.5', given: { bodyLimit: 1.5 }, pointer: '#/x-specforge/bodyLimit' },
    { name: 'bodyLimit: 1MiB', given: { bodyLimit: '1MiB' }, pointer: '#/x-specforge/bodyLimit' },
    { name: 'paging.maxLimit: 0', given: { paging: { maxLimit: 0 } }, pointer: '#/x-specforge/paging/maxLimit' },
    { name: 'resourceShape: nested', given: { resourceShape: 'nested' }, pointer: '#/x-specforge/resourceShape' },
    { name: 'validation.status: 418', given: { validation: { status: 418 } }, pointer: '#/x-specforge/validation/status' },
    { name: 'versioning.mechanism: query', given: { versioning: { mechanism: 'query' } }, pointer: '#/x-specforge/versioning/mechanism' },
    { name: 'versioning.version: 0', given: { versioning: { version: 0 } }, pointer: '#/x-specforge/versioning/version' },
    { name: 'rateLimit.windowSeconds: -60', given: { rateLimit: { windowSeconds: -60 } }, pointer: '#/x-specforge/rateLimit/windowSeconds' },
    { name: 'cacheControl: blank', given: { cacheControl: '  ' }, pointer: '#/x-specforge/cacheControl' },
    { name: 'cacheControl: a line break', given: { cacheControl: 'no-store\r\nX-Injected: 1' }, pointer: '#/x-specforge/cacheControl' },
    { name: 'cacheControl: not ASCII', given: { cacheControl: 'max-age=60 ✓' }, pointer: '#/x-specforge/cacheControl' },
    { name: 'paging: a string', given: { paging: 'cursor' }, pointer: '#/x-specforge/paging' },
  ])('bad value $name → CONFIG_INVALID_VALUE at $pointer', ({ given, pointer }) => {
    const problems = diagnosticsOf(() => resolveConfig(spec(given)));
    expect(problems).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', pointer })]);
  });

  test('x-specforge that is not a mapping → CONFIG_INVALID_VALUE', () => {
    expect(validateConfig(spec(5))).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', pointer: '#/x-specforge' })]);
  });

  test('every problem is reported at once', () => {
    const document = spec({ pagign: {}, bodyLimit: 0 }, { paths: { '/a': { get: { 'x-specforge': { paging: { style: 'x' } } } } } });
    expect(validateConfig(document).map((d) => [d.code, d.pointer])).toEqual([
      ['CONFIG_UNKNOWN_KEY', '#/x-specforge/pagign'],
      ['CONFIG_INVALID_VALUE', '#/x-specforge/bodyLimit'],
      ['CONFIG_INVALID_VALUE', '#/paths/~1a/get/x-specforge/paging/style'],
    ]);
  });

  test('a valid configuration gives no problems', () => {
    expect(validateConfig(spec({ paging: { style: 'offset', defaultLimit: 5, maxLimit: 5 }, validation: { status: 400 } }))).toEqual([]);
  });

  test('defaultLimit above maxLimit is rejected', () => {
    const problems = diagnosticsOf(() => resolveConfig(spec({ paging: { defaultLimit: 50, maxLimit: 40 } })));
    expect(problems).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', pointer: '#/x-specforge/paging' })]);
    expect(problems[0]!.message).toContain('50');
    expect(problems[0]!.message).toContain('40');
  });

  test('defaultLimit above the default maxLimit (100) is rejected', () => {
    const problems = diagnosticsOf(() => resolveConfig(spec({ paging: { defaultLimit: 101 } })));
    expect(problems[0]!.code).toBe('CONFIG_INVALID_VALUE');
  });

  test('an operation whose paging ends up with defaultLimit above maxLimit is rejected too', () => {
    // The API allows 100; the operation asks for a default page of 150 → its limit parameter would be
    // `{ default: 150, maximum: 100 }`, a default the server itself rejects with 422.
    const document = spec(undefined, {
      paths: { '/books': { get: { responses: {}, 'x-specforge': { paging: { defaultLimit: 150 } } } } },
    });
    const problems = diagnosticsOf(() => resolveConfig(document));
    expect(problems).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE' })]);
    expect(problems[0]!.pointer).toMatch(/^#\/paths\/~1books\/get\/x-specforge/);
  });

  test('defaultLimit equal to maxLimit is accepted', () => {
    expect(resolveConfig(spec({ paging: { defaultLimit: 100 } })).paging.defaultLimit).toBe(100);
  });
});
