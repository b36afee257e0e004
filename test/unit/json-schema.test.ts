import { toJsonSchema, type ConvertOptions } from '../../src/openapi/json-schema.js';

const request: ConvertOptions = { direction: 'request', ref: (ref) => `spec${ref}` };
const response: ConvertOptions = { direction: 'response', ref: (ref) => ref };

describe('OpenAPI schemas as JSON Schema 2020-12', () => {
  test.each([
    { name: '3.0 nullable joins the type', given: { type: 'string', nullable: true }, want: { type: ['string', 'null'] } },
    {
      name: '3.0 nullable enum accepts null',
      given: { type: 'string', enum: ['a', 'b'], nullable: true },
      want: { type: ['string', 'null'], enum: ['a', 'b', null] },
    },
    { name: 'nullable without a type becomes an alternative', given: { allOf: [{ $ref: '#/x' }], nullable: true }, want: { anyOf: [{ allOf: [{ $ref: 'spec#/x' }] }, { type: 'null' }] } },
    { name: 'nullable: false is dropped', given: { type: 'integer', nullable: false }, want: { type: 'integer' } },
    { name: '3.0 exclusiveMinimum: true moves the bound', given: { type: 'number', minimum: 0, exclusiveMinimum: true }, want: { type: 'number', exclusiveMinimum: 0 } },
    { name: '3.0 exclusiveMaximum: false keeps maximum', given: { type: 'number', maximum: 9, exclusiveMaximum: false }, want: { type: 'number', maximum: 9 } },
    { name: '3.1 numeric exclusive bounds stay', given: { type: 'number', exclusiveMaximum: 9 }, want: { type: 'number', exclusiveMaximum: 9 } },
    {
      name: 'annotations a validator has no use for are dropped',
      given: { type: 'string', example: 'x', xml: { name: 'a' }, externalDocs: { url: 'u' }, 'x-internal': true, discriminator: { propertyName: 'k' } },
      want: { type: 'string' },
    },
    { name: '$ref is rewritten; its siblings stay in force (2020-12)', given: { $ref: '#/components/schemas/Book', maxLength: 3 }, want: { $ref: 'spec#/components/schemas/Book', maxLength: 3 } },
    { name: '3.0 nullable beside a $ref', given: { $ref: '#/components/schemas/Id', nullable: true }, want: { anyOf: [{ $ref: 'spec#/components/schemas/Id' }, { type: 'null' }] } },
  ])('$name', ({ given, want }) => {
    expect(toJsonSchema(given, request)).toEqual(want);
  });

  test('nested schemas are converted wherever a keyword holds them', () => {
    const given = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', nullable: true } } },
      additionalProperties: { $ref: '#/a' },
      oneOf: [{ nullable: true, type: 'integer' }],
      not: { example: 1, type: 'boolean' },
    };
    expect(toJsonSchema(given, request)).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: ['string', 'null'] } } },
      additionalProperties: { $ref: 'spec#/a' },
      oneOf: [{ type: ['integer', 'null'] }],
      not: { type: 'boolean' },
    });
  });

  test('annotations: false drops what no validator reads, at every schema, and keeps `default`, values and properties so named', () => {
    const given = {
      title: 'Book',
      description: 'A book',
      $comment: 'internal',
      type: 'object',
      properties: {
        description: { type: 'string', description: 'the blurb', examples: ['x'], deprecated: true, default: 'none' },
        id: { type: 'integer', readOnly: true, title: 'Id' },
        secret: { type: 'string', writeOnly: true, enum: ['description', 'title'] },
      },
      items: { allOf: [{ description: 'branch', minLength: 1 }] },
    };
    const options = { ...request, annotations: false };
    expect(toJsonSchema(given, options)).toEqual({
      type: 'object',
      properties: {
        description: { type: 'string', default: 'none' },
        id: { type: 'integer' },
        secret: { type: 'string', enum: ['description', 'title'] },
      },
      items: { allOf: [{ minLength: 1 }] },
    });
    // Kept by default: the suite's schemas show them to its readers.
    expect(toJsonSchema(given, request)).toMatchObject({ title: 'Book', description: 'A book', properties: { id: { readOnly: true } } });
  });

  test('places: each schema made is named by its pointer in the spec (a nullable alternative and what it wraps alike)', () => {
    const of = new WeakMap<object, string>();
    const given = { type: 'object', properties: { 'a/b': { allOf: [{ $ref: '#/x' }], nullable: true } }, items: { anyOf: [{ type: 'string' }] } };
    const made = toJsonSchema(given, { ...request, places: { at: '#/components/schemas/T', of } }) as any;
    expect(of.get(made)).toBe('#/components/schemas/T');
    const wrapped = made.properties['a/b'];
    expect(of.get(wrapped)).toBe('#/components/schemas/T/properties/a~1b');
    expect(of.get(wrapped.anyOf[0])).toBe('#/components/schemas/T/properties/a~1b/anyOf/0');
    expect(of.get(wrapped.anyOf[0].allOf[0])).toBe('#/components/schemas/T/properties/a~1b/anyOf/0/allOf/0');
    expect(of.get(made.items.anyOf[0])).toBe('#/components/schemas/T/items/anyOf/0');
  });

  test('a property named like a keyword is a property, not a keyword', () => {
    const given = { type: 'object', properties: { example: { type: 'string' }, nullable: { type: 'boolean' } } };
    expect(toJsonSchema(given, request)).toEqual(given);
  });

  test('in a request, readOnly properties are not required (OpenAPI §4.7.24.1); in a response they are', () => {
    const given = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' } } };
    expect(toJsonSchema(given, request)).toMatchObject({ required: ['title'] });
    expect(toJsonSchema(given, response)).toMatchObject({ required: ['id', 'title'] });
    const onlyReadOnly = { type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true } } };
    expect(toJsonSchema(onlyReadOnly, request)).not.toHaveProperty('required');
  });

  test('readOnly seen through references and across allOf branches', () => {
    const components: Record<string, unknown> = {
      Id: { type: 'string', readOnly: true },
      Base: { type: 'object', properties: { id: { $ref: '#/components/schemas/Id' }, created_at: { type: 'string', readOnly: true } } },
    };
    const resolve = (ref: string) => components[ref.split('/').at(-1)!];
    const owner = { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['id', 'name', 'created_at'], properties: { name: { type: 'string' } } }] };
    expect(toJsonSchema(owner, { ...request, resolve })).toEqual({
      allOf: [{ $ref: 'spec#/components/schemas/Base' }, { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }],
    });
    const withSibling = { type: 'object', required: ['id'], properties: { id: { $ref: '#/components/schemas/Uuid', readOnly: true } } };
    expect(toJsonSchema(withSibling, request)).not.toHaveProperty('required');
  });

  test('the input is not changed', () => {
    const given = { type: 'string', nullable: true, example: 'x' };
    toJsonSchema(given, request);
    expect(given).toEqual({ type: 'string', nullable: true, example: 'x' });
  });
});
