/**
 * The property-based layer's data: random values valid for every keyword the
 * specs use, repaired from a sample where a draw is not, and bodies that each
 * break one rule.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as fc from 'fast-check';

const requestRegistry = {
  $id: 'specforge:requests',
  components: {
    schemas: {
      Cat: { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer', minimum: 1, maximum: 9 } } },
      Dog: { type: 'object', required: ['kind', 'good'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
    },
  },
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(requestRegistry);
// The suite's modules load their validators and fast-check once per jest worker: given here (no schemas.json).
(globalThis as { specforgeConformanceWorker?: Map<string, unknown> }).specforgeConformanceWorker = new Map<string, unknown>([
  ['api', {}],
  ['validators', Promise.resolve({ schemas: { requestRegistry }, ajv, compiled: new WeakMap() })],
  ['fast-check', Promise.resolve(fc)],
]);
const { arbitraryOf, validOrRepaired, validValuesOf } = await import('../../../src/runtime/conformance/arbitraries.js');
const { violationsOf } = await import('../../../src/runtime/conformance/violations.js');

const draws = (schema: object, count = 200) => fc.sample(arbitraryOf(schema), { seed: 7, numRuns: count });
const validShare = (schema: object) => {
  const validate = ajv.compile(schema);
  const values = draws(schema);
  return values.filter((value) => validate(value)).length / values.length;
};

// Before: the sampler gave up on a plain pattern, and every check that needed an item went with it.
describe('draws from each keyword are valid', () => {
  test.each([
    ['an ISBN pattern', { type: 'string', pattern: '^97[89][0-9]{10}$' }],
    ...['date', 'date-time', 'time', 'email', 'uuid', 'uri', 'hostname', 'ipv4', 'ipv6', 'byte', 'duration', 'json-pointer'].map((format) => [`format ${format}`, { type: 'string', format }] as [string, object]),
    ['bounded text', { type: 'string', minLength: 3, maxLength: 5 }],
    ['a multiple of 0.5 within bounds', { type: 'number', multipleOf: 0.5, minimum: 1, exclusiveMaximum: 10 }],
    ['an integer multiple of 5', { type: 'integer', multipleOf: 5 }],
    ['unique items', { type: 'array', uniqueItems: true, minItems: 2, maxItems: 4, items: { type: 'integer', minimum: 0, maximum: 3 } }],
    ['a const', { const: 'fixed' }],
    ['enums of numbers', { enum: [1, 2.5, 10] }],
    ['nullable text', { type: ['string', 'null'], maxLength: 4 }],
    ['nested arrays of objects', { type: 'array', items: { type: 'object', required: ['tags'], properties: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } } }],
    ['an allOf of two objects', { allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'boolean' } } }] }],
    ['a oneOf with a discriminator', { oneOf: [{ $ref: 'specforge:requests#/components/schemas/Cat' }, { $ref: 'specforge:requests#/components/schemas/Dog' }], discriminator: { propertyName: 'kind' } }],
  ])('%s', (_what, schema) => {
    expect(validShare(schema)).toBeGreaterThanOrEqual(0.9);
  });

  test('a discriminator names the branch drawn', () => {
    const schema = { oneOf: [{ $ref: 'specforge:requests#/components/schemas/Cat' }, { $ref: 'specforge:requests#/components/schemas/Dog' }], discriminator: { propertyName: 'kind', mapping: { cat: 'specforge:requests#/components/schemas/Cat' } } };
    const kinds = new Set(draws(schema).map((value) => (value as { kind: string }).kind));
    expect(kinds).toEqual(new Set(['cat', 'Dog']));
  });

  test('read-only members are left out of requests; optional ones come and go', () => {
    const schema = { type: 'object', properties: { id: { type: 'string', readOnly: true }, note: { type: 'string' } } };
    const values = draws(schema) as Record<string, unknown>[];
    expect(values.some((value) => 'id' in value)).toBe(false);
    expect(values.some((value) => 'note' in value)).toBe(true);
    expect(values.some((value) => !('note' in value))).toBe(true);
  });

  test('some strings are as long as the schema allows', () => {
    const lengths = draws({ type: 'string', maxLength: 300 }).map((value) => (value as string).length);
    expect(Math.max(...lengths)).toBeGreaterThan(296);
  });
});

describe('a draw the validator refuses is repaired from the sample', () => {
  const schema = { type: 'object', additionalProperties: false, minProperties: 1, required: ['isbn'], properties: { isbn: { type: 'string', pattern: '^97[89][0-9]{10}$' }, note: { type: 'string', maxLength: 3 } } };
  const validate = ajv.compile(schema);
  const sample = { isbn: '9780007200283' };

  test('member by member: what the sample has is taken, what it lacks left out', () => {
    expect(validOrRepaired({ isbn: 'nope', note: 'ok' }, sample, validate)).toEqual({ isbn: '9780007200283', note: 'ok' });
    expect(validOrRepaired({ isbn: '9790000000000', note: 'too long' }, sample, validate)).toEqual({ isbn: '9790000000000' });
    expect(validOrRepaired({}, sample, validate)).toEqual(sample);
  });

  test('every value of validValuesOf is valid', () => {
    const values = fc.sample(validValuesOf(schema, sample), { seed: 3, numRuns: 100 });
    expect(values.every((value) => validate(value))).toBe(true);
  });
});

describe('violations break one rule of a valid body, at any depth', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'pages', 'authors'],
    properties: {
      title: { type: 'string', maxLength: 10, pattern: '^[A-Z]' },
      pages: { type: 'integer', minimum: 1, maximum: 100 },
      genre: { enum: ['fiction', 'poetry'] },
      authors: { type: 'array', maxItems: 2, uniqueItems: true, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } },
    },
  };
  const validate = ajv.compile(schema);
  const body = { title: 'Dune', pages: 10, genre: 'fiction', authors: [{ name: 'Frank' }] };
  const violations = violationsOf(schema, body, validate);

  test('each is refused by the validator', () => {
    expect(violations.length).toBeGreaterThan(10);
    for (const violation of violations) expect(validate(violation.body)).toBe(false);
  });

  test('they name the rule and where', () => {
    expect(violations.map(({ pointer, rule }) => `${pointer} ${rule}`)).toEqual(
      expect.arrayContaining([
        '/title missing required title',
        '/unexpected_member a member the object does not name',
        '/title longer than 10',
        '/title not matching ^[A-Z]',
        '/pages above 100',
        '/pages below 1',
        '/pages a string where integer is expected',
        '/genre a value outside the enum',
        '/authors a repeated item',
        '/authors/0/name missing required name',
        '/authors/0/name shorter than 1',
      ]),
    );
  });

  test('the rest of the body stays as it was', () => {
    const nested = violations.find((violation) => violation.pointer === '/authors/0/name' && violation.rule.startsWith('shorter'))!;
    expect(nested.body).toEqual({ ...body, authors: [{ name: '' }] });
  });
});

// Before: a oneOf body had no rule to break, and its violation property was skipped.
test('a oneOf body breaks the rules of the branch its value takes', () => {
  const schema = { oneOf: [{ $ref: 'specforge:requests#/components/schemas/Cat' }, { $ref: 'specforge:requests#/components/schemas/Dog' }] };
  const validate = ajv.compile(schema);
  const rules = violationsOf(schema, { kind: 'Cat', lives: 3 }, validate).map(({ pointer, rule }) => `${pointer} ${rule}`);
  expect(rules).toEqual(expect.arrayContaining(['/lives above 9', '/lives below 1', ' a string where object is expected']));
});

test('draws are plain objects: a deep equality (uniqueItems of objects) can read them', () => {
  const schema = { type: 'array', uniqueItems: true, minItems: 2, items: { type: 'object', properties: { a: { type: 'integer' } } } };
  expect(draws(schema).every((items) => (items as object[]).every((item) => Object.getPrototypeOf(item) === Object.prototype))).toBe(true);
  expect(validShare(schema)).toBeGreaterThanOrEqual(0.9);
});

// Before: GitHub's 5001 deployments made a body the service refused for its size (413) before its schema.
test('no violation makes a body larger than a service takes', () => {
  const schema = { type: 'object', properties: { tags: { type: 'array', maxItems: 5000, items: { type: 'string', maxLength: 1_000_000 } } } };
  const rules = violationsOf(schema, { tags: ['a'] }, ajv.compile(schema)).map(({ rule }) => rule);
  expect(rules.filter((rule) => /more than|longer than/.test(rule))).toEqual([]);
});
