/** ajv's errors as the conventions' 422 details: one entry per field, with its `field`, `message` and `code`. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { problemsOf, type Validator } from '../../../src/runtime/server/generated/conventions/validation.js';

/** Compiled as the generator compiles the services' validators (validators.ts): every error, formats checked. */
function compile(schema: object, coerce = false): Validator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, ...(coerce ? { coerceTypes: 'array' as const } : {}) });
  addFormats.default(ajv);
  return ajv.compile(schema) as Validator;
}

const book = compile({
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 5 },
    pages: { type: 'integer', minimum: 1 },
    published_on: { type: 'string', format: 'date', maxLength: 10 },
    isbn: { type: 'string', pattern: '^97[89][0-9]{10}$' },
    genre: { enum: ['poetry', 'fiction'] },
    rating: { type: 'number', multipleOf: 0.5 },
    tags: { type: 'array', maxItems: 2, uniqueItems: true, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    'a/b~c': { type: 'string' },
  },
});

describe('each problem of a body is a detail of its field, coded by the keyword that failed', () => {
  test.each([
    { given: {}, want: { field: 'body.title', code: 'REQUIRED', message: "must have required property 'title'" } },
    { given: { title: 'Dune', pages: 'many' }, want: { field: 'body.pages', code: 'INVALID_TYPE', message: 'must be integer' } },
    { given: { title: 'Dune', pages: 0 }, want: { field: 'body.pages', code: 'OUT_OF_RANGE', message: 'must be >= 1' } },
    { given: { title: 'Dune Messiah' }, want: { field: 'body.title', code: 'OUT_OF_RANGE', message: 'must NOT have more than 5 characters' } },
    { given: { title: 'Dune', rating: 4.2 }, want: { field: 'body.rating', code: 'OUT_OF_RANGE', message: 'must be multiple of 0.5' } },
    { given: { title: 'Dune', published_on: '1965-13-01' }, want: { field: 'body.published_on', code: 'INVALID_FORMAT', message: 'must match format "date"' } },
    { given: { title: 'Dune', isbn: '123' }, want: { field: 'body.isbn', code: 'INVALID_FORMAT', message: 'must match pattern "^97[89][0-9]{10}$"' } },
    { given: { title: 'Dune', genre: 'drama' }, want: { field: 'body.genre', code: 'INVALID_VALUE', message: 'must be equal to one of the allowed values' } },
    { given: { title: 'Dune', subtitle: 'x' }, want: { field: 'body.subtitle', code: 'UNKNOWN_FIELD', message: 'is not a known field' } },
    { given: { title: 'Dune', tags: [{ name: 'sf' }, {}] }, want: { field: 'body.tags[1].name', code: 'REQUIRED', message: "must have required property 'name'" } },
    { given: { title: 'Dune', tags: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, want: { field: 'body.tags', code: 'OUT_OF_RANGE', message: 'must NOT have more than 2 items' } },
    { given: { title: 'Dune', tags: [{ name: 'a' }, { name: 'a' }] }, want: { field: 'body.tags', code: 'INVALID_VALUE', message: expect.stringContaining('duplicate items') } }, // a keyword with no code of its own
    { given: { title: 'Dune', 'a/b~c': 1 }, want: { field: 'body.a/b~c', code: 'INVALID_TYPE', message: 'must be string' } }, // JSON Pointer escapes undone
    { given: [], want: { field: 'body', code: 'INVALID_TYPE', message: 'must be object' } },
  ])('$want.code at $want.field', ({ given, want }) => {
    expect(problemsOf(book, given, 'body')).toEqual([want]);
  });

  test('a valid body has no problems', () => {
    expect(problemsOf(book, { title: 'Dune', pages: 412, published_on: '1965-08-01', tags: [{ name: 'sf' }] }, 'body')).toEqual([]);
  });

  test('every invalid field is told, each once', () => {
    expect(problemsOf(book, { pages: -1, genre: 'drama', extra: true }, 'body').map(({ field, code }) => `${field} ${code}`).sort()).toEqual([
      'body.extra UNKNOWN_FIELD',
      'body.genre INVALID_VALUE',
      'body.pages OUT_OF_RANGE',
      'body.title REQUIRED',
    ]);
  });
});

describe('one detail per field', () => {
  test('a format problem is the one told, even after another problem of the field', () => {
    // maxLength is checked (and reported) before format: the format says more about what the field should be.
    expect(problemsOf(book, { title: 'Dune', published_on: 'the sixties, roughly' }, 'body')).toEqual([
      { field: 'body.published_on', code: 'INVALID_FORMAT', message: 'must match format "date"' },
    ]);
  });

  test('otherwise the first problem ajv reports is told', () => {
    const schema = compile({ type: 'object', properties: { colour: { enum: ['red', 'green'], minLength: 3 } } });
    expect(problemsOf(schema, { colour: 'x' }, 'body')).toEqual([
      { field: 'body.colour', code: 'INVALID_VALUE', message: 'must be equal to one of the allowed values' },
    ]);
  });

  test('a concrete problem wins over a keyword that only summarises others; a summary alone is still told', () => {
    const schema = compile({
      type: 'object',
      properties: { name: { not: { const: 'x' }, minLength: 2 }, id: { oneOf: [{ type: 'string' }, { minLength: 1 }] } },
    });
    expect(problemsOf(schema, { name: 'x', id: 'a' }, 'body')).toEqual([
      { field: 'body.name', code: 'OUT_OF_RANGE', message: 'must NOT have fewer than 2 characters' },
      { field: 'body.id', code: 'INVALID_VALUE', message: 'must match exactly one schema in oneOf' },
    ]);
  });

  test('unevaluatedProperties is an unknown field too', () => {
    const schema = compile({ type: 'object', allOf: [{ properties: { a: {} } }], unevaluatedProperties: false });
    expect(problemsOf(schema, { a: 1, b: 2 }, 'body')).toEqual([{ field: 'body.b', code: 'UNKNOWN_FIELD', message: 'is not a known field' }]);
  });
});

describe('parameters: the location is the first segment, and `headers` is told as `header`', () => {
  const parameters = compile(
    {
      type: 'object',
      properties: {
        path: { type: 'object', properties: { book_id: { type: 'integer' } } },
        query: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', maximum: 100 } } },
        headers: { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string' } } },
      },
    },
    true,
  );

  test.each([
    { given: { path: { book_id: 'abc' }, query: {}, headers: { 'x-tenant': 't' } }, want: { field: 'path.book_id', code: 'INVALID_TYPE' } },
    { given: { path: {}, query: { limit: '500' }, headers: { 'x-tenant': 't' } }, want: { field: 'query.limit', code: 'OUT_OF_RANGE' } },
    { given: { path: {}, query: { limt: '5' }, headers: { 'x-tenant': 't' } }, want: { field: 'query.limt', code: 'UNKNOWN_FIELD' } },
    { given: { path: {}, query: {}, headers: {} }, want: { field: 'header.x-tenant', code: 'REQUIRED' } },
  ])('$want.field', ({ given, want }) => {
    expect(problemsOf(parameters, given)).toEqual([expect.objectContaining(want)]);
  });

  test('the validator runs on the values themselves, so its coercion reaches the handler', () => {
    const given = { path: { book_id: '42' }, query: { limit: '10' }, headers: { 'x-tenant': 't' } };
    expect(problemsOf(parameters, given)).toEqual([]);
    expect(given).toMatchObject({ path: { book_id: 42 }, query: { limit: 10 } });
  });
});
