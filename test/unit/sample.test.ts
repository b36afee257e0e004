import type { OpenApiDocument } from '../../src/openapi/document.js';
import { defeatText, mergeSamples, requestSampleOf, requiredResponseValuesOf, responseSampleOf, sampleOf, valuesOf, violationsOf, writablePropertiesOf } from '../../src/render/targets/conformance/sample.js';
import { exampleCheckOf } from '../../src/render/targets/conformance/example-check.js';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  components: {
    schemas: {
      Genre: { type: 'string', enum: ['poetry', 'fiction'] },
      Base: { type: 'object', properties: { id: { type: 'string', readOnly: true } } },
      Book: {
        allOf: [{ $ref: '#/components/schemas/Base' }],
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title', 'genre', 'pages', 'published_on'],
        properties: {
          title: { type: 'string', minLength: 12, maxLength: 20 },
          genre: { $ref: '#/components/schemas/Genre' },
          pages: { type: 'integer', minimum: 1, maximum: 10000 },
          published_on: { type: 'string', format: 'date' },
          isbn: { type: 'string', pattern: '^97[89][0-9]{10}$' },
        },
      },
      Review: { type: 'object', required: ['rating'], properties: { rating: { type: 'integer' } }, examples: [{ id: 'r1', rating: 4 }] },
    },
  },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('samples', () => {
  test('built from types, formats, bounds and enums; required properties only; read-only ones left out', () => {
    expect(sampleOf(document, ref('Book'))).toEqual({ title: 'samplexxxxxx', genre: 'poetry', pages: 1, published_on: '2024-01-02' });
  });

  test("a schema's own example wins, without read-only properties", () => {
    const withId = { ...document, components: { schemas: { ...document.components!.schemas, Review: { ...(document.components!.schemas!.Review as object), properties: { id: { type: 'string', readOnly: true }, rating: { type: 'integer' } } } } } };
    expect(sampleOf(withId as OpenApiDocument, ref('Review'))).toEqual({ rating: 4 });
  });

  // Before: Directus's field create requires `datatype` and `length` without describing them; the sample lacked them (422).
  test('a required property the schema does not describe gets a value (any will do); no body where no other property is allowed', () => {
    const open = { type: 'object', required: ['name', 'datatype'], properties: { name: { type: 'string', maxLength: 8 } } };
    expect(sampleOf(document, open)).toEqual({ datatype: 'sample', name: 'sample' });
    // Closed, it can hold no `datatype`: no valid body (before, one without `datatype`, which the service refused).
    expect(requestSampleOf(document, { ...open, additionalProperties: false })).toEqual({ defeat: { keyword: 'required', at: '#' } });
  });

  test('an allOf part does not fill what its siblings describe (a read-only id from the base stays out)', () => {
    const base = { type: 'object', properties: { id: { type: 'integer', readOnly: true } } };
    const owner = { allOf: [base, { type: 'object', required: ['id', 'name'], properties: { name: { type: 'string' } } }] };
    expect(sampleOf(document, owner)).toEqual({ name: 'sample' });
  });

  test('a response sample keeps read-only properties and leaves write-only ones out', () => {
    const schema = { type: 'object', required: ['id', 'secret'], properties: { id: { type: 'integer', readOnly: true }, secret: { type: 'string', writeOnly: true } } };
    expect(responseSampleOf(document, schema)).toEqual({ id: 1 });
    expect(sampleOf(document, schema)).toEqual({ secret: 'sample' });
  });

  // Before: Ideal Postcodes' address examples hold values outside their enums; the store served them and the suite failed them.
  test('an example that breaks its own schema is passed over; one that fits is kept', () => {
    expect(sampleOf(document, { type: 'string', enum: ['GBR', 'IMN'], example: 'ITA' })).toBe('GBR');
    expect(sampleOf(document, { type: 'string', enum: ['GBR', 'IMN'], example: 'IMN' })).toBe('IMN');
    expect(responseSampleOf(document, { type: 'object', required: ['n'], properties: { n: { type: 'integer', maximum: 5 } }, example: { n: 9 } })).toEqual({ n: 1 });
  });

  test('allOf parts that disagree (an example in one, an enum in another) are sampled as they combine', () => {
    const schema = {
      type: 'object',
      allOf: [
        { type: 'object', required: ['country'], properties: { country: { type: 'string', example: 'ITA' } } },
        { type: 'object', properties: { country: { enum: ['GBR'] } } },
      ],
    };
    expect(responseSampleOf(document, schema)).toEqual({ country: 'GBR' });
  });

  // Before: Dialogporten's required `conditionType: { allOf: [$ref: Enum] }` had no sample, so every request was a 422.
  test('an allOf over a scalar samples the scalar', () => {
    expect(sampleOf(document, { allOf: [ref('Genre')] })).toBe('poetry');
  });

  test('a oneOf takes the first alternative whose value the whole schema accepts', () => {
    const schema = { oneOf: [{ type: 'string' }, { type: 'string', enum: ['sample'] }, { type: 'integer' }] };
    // 'sample' matches the first two alternatives, so oneOf refuses it; 1 matches only the third.
    expect(sampleOf(document, schema)).toBe(1);
  });

  // Before: GitHub's add-item and custom-pattern bodies require one of several property sets (`oneOf: [{ required: [id] }, …]`
  // beside `properties`); no alternative alone had a sample, so the suite sent no body and got 422 where it wanted a 404.
  test('a oneOf (or anyOf) of required sets beside the properties: the first set, filled from the properties', () => {
    const item = {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: { type: { type: 'string', enum: ['Issue', 'PullRequest'] }, id: { type: 'integer' }, owner: { type: 'string' }, number: { type: 'integer' } },
      oneOf: [{ required: ['id'] }, { required: ['owner', 'number'] }],
    };
    expect(sampleOf(document, item)).toEqual({ type: 'Issue', id: 1 });
    const pages = {
      type: 'object',
      nullable: true,
      properties: { build_type: { type: 'string', enum: ['legacy', 'workflow'] }, source: { type: 'object', required: ['branch'], properties: { branch: { type: 'string' } } } },
      anyOf: [{ required: ['source'] }, { required: ['build_type'] }],
    };
    expect(sampleOf(document, pages)).toEqual({ source: { branch: 'sample' } });
  });

  // Before: a patterned string the plain sample misses had no sample (GitHub's base64 `encrypted_value`, `^sha256:[a-f0-9]{64}$`).
  test('a string with a pattern the plain sample misses is built from the pattern, within its bounds', () => {
    const digest = sampleOf(document, { type: 'string', pattern: '^sha256:[a-f0-9]{64}$' });
    expect(digest).toMatch(/^sha256:[a-f0-9]{64}$/);
    const base64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$';
    expect(sampleOf(document, { type: 'object', required: ['value'], properties: { value: { type: 'string', pattern: base64 } } })).toEqual({ value: expect.stringMatching(new RegExp(base64)) });
    expect(sampleOf(document, { type: 'string', pattern: '^[a-z]+$', minLength: 3, maxLength: 5 })).toMatch(/^[a-z]{3,5}$/);
    expect(sampleOf(document, { type: 'string', pattern: '^sample' })).toBe('sample'); // the plain sample still first
  });

  test('a pattern the generator cannot follow, or one a format must also hold, gives no sample (never a string that breaks it)', () => {
    expect(sampleOf(document, { type: 'string', pattern: '^(?=x)y' })).toBeUndefined();
    expect(sampleOf(document, { type: 'string', format: 'date', pattern: '^x' })).toBeUndefined();
    expect(sampleOf(document, { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^(?=x)y' } } })).toBeUndefined();
  });

  test('deterministic', () => {
    expect(JSON.stringify(sampleOf(document, ref('Book')))).toBe(JSON.stringify(sampleOf(document, ref('Book'))));
  });
});

describe('values a server makes', () => {
  test('required response fields: a sample each, null where null is allowed, write-only ones left out', () => {
    const schema = {
      type: 'object',
      required: ['url', 'archived_at', 'secret', 'missing'],
      properties: { url: { type: 'string', format: 'uri' }, archived_at: { type: ['string', 'null'], format: 'date-time' }, secret: { type: 'string', writeOnly: true }, note: { type: 'string' } },
    };
    expect(requiredResponseValuesOf(document, schema)).toEqual({ url: 'https://example.com/resource', archived_at: null });
  });

  test('asked again for the same schema: the same values, each caller its own copy', () => {
    const schema = { type: 'object', required: ['meta'], properties: { meta: { type: 'object', required: ['tags'], properties: { tags: { type: 'array', items: { type: 'string' } } } } } };
    const first = requiredResponseValuesOf(document, schema);
    expect(first).toEqual({ meta: { tags: ['sample'] } });
    (first.meta as { tags: string[] }).tags.push('changed by a caller');
    first.added = 1;
    expect(requiredResponseValuesOf(document, schema)).toEqual({ meta: { tags: ['sample'] } });
  });

  test('samples of several answers merge member by member; the first scalar wins', () => {
    expect(mergeSamples([{ code: 1, result: { token: 'a' } }, { code: 2, result: { user: 'b' } }])).toEqual({ code: 1, result: { token: 'a', user: 'b' } });
    // One answer allows null where another requires a value (GitHub's `pushed_at`): the value fits both.
    expect(mergeSamples([{ pushed_at: null }, { pushed_at: '2024-01-01T00:00:00Z' }])).toEqual({ pushed_at: '2024-01-01T00:00:00Z' });
  });
});

describe('violations', () => {
  const violations = violationsOf(document, ref('Book'));
  const rules = violations.map((violation) => [violation.rule, violation.field, violation.code]);

  test('one per rule: missing required, wrong type, enum, format, pattern, bounds, unknown property', () => {
    expect(rules).toEqual(expect.arrayContaining([
      ['missing required title', 'body.title', 'REQUIRED'],
      ['pages of the wrong type', 'body.pages', 'INVALID_TYPE'],
      ['genre outside its enum', 'body.genre', 'INVALID_VALUE'],
      ['published_on not a date', 'body.published_on', 'INVALID_FORMAT'],
      ['isbn against its pattern', 'body.isbn', 'INVALID_FORMAT'],
      ['pages above its maximum', 'body.pages', 'OUT_OF_RANGE'],
      ['pages below its minimum', 'body.pages', 'OUT_OF_RANGE'],
      ['title longer than 20', 'body.title', 'OUT_OF_RANGE'],
      ['an unknown property', 'body.unknown_property', 'UNKNOWN_FIELD'],
    ]));
    expect(rules.map(([rule]) => rule)).not.toContain('missing required id'); // read-only: never asked of a request
  });

  // Before: GitHub's `POST …/pages/deployments` was expected to refuse a body without `pages_build_version`, which the service fills in.
  test('no missing required field that has a default', () => {
    const schema = { type: 'object', required: ['version', 'token'], properties: { version: { type: 'string', default: 'GITHUB_SHA' }, token: { type: 'string' } } };
    expect(violationsOf(document, schema).filter((violation) => violation.code === 'REQUIRED').map((violation) => violation.field)).toEqual(['body.token']);
  });

  test('each breaks only its own field of an otherwise valid body', () => {
    const valid = sampleOf(document, ref('Book')) as Record<string, unknown>;
    for (const violation of violations) {
      const name = violation.field.replace(/^body\./, '');
      const others = Object.keys(valid).filter((key) => key !== name);
      for (const key of others) expect((violation.body as Record<string, unknown>)[key]).toEqual(valid[key]);
    }
  });
});

describe('distinct values', () => {
  test('in ascending order (an enum in its declared order), within the schema: plain strings, enums, numbers, dates', () => {
    expect(valuesOf(document, ref('Book'), 'title', 3)).toEqual(['a-samplexxxx', 'b-samplexxxx', 'c-samplexxxx']);
    expect(valuesOf(document, ref('Book'), 'genre', 2)).toEqual(['poetry', 'fiction']); // in declared order: the order an enum sorts in
    expect(valuesOf(document, ref('Book'), 'pages', 3)).toEqual([1, 2, 3]);
    expect(valuesOf(document, ref('Book'), 'published_on', 2)).toEqual(['2024-01-10', '2024-01-11']);
  });

  test('none where the schema allows no spread: a pattern, too few enum values, a read-only field', () => {
    expect(valuesOf(document, ref('Book'), 'isbn', 2)).toBeUndefined();
    expect(valuesOf(document, ref('Book'), 'genre', 3)).toBeUndefined();
    expect(valuesOf(document, ref('Book'), 'id', 2)).toBeUndefined();
  });
});

describe('every keyword the service validates: each sample is valid', () => {
  const v30: OpenApiDocument = { ...document, openapi: '3.0.3' };
  const valid = (schema: object, value: unknown, within = document) => exampleCheckOf(within, 'request')(schema, value);

  // Before: only date-time, date, uuid, email and uri had values; any other format got `sample`, which the service refused.
  test.each(['date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte', 'password', 'binary'])(
    'format %s',
    (format) => {
      const schema = { type: 'string', format };
      expect(valid(schema, sampleOf(document, schema))).toBe(true);
    },
  );

  // Dialogporten's `guid`: a format no validator knows constrains nothing, so a plain string does (not: no id at all).
  test('a format the validator does not know: a plain string', () => {
    expect(sampleOf(document, { type: 'string', format: 'guid' })).toBe('sample');
  });

  test('a format within length bounds, and one fitted to a minLength', () => {
    for (const schema of [{ type: 'string', format: 'password', minLength: 12 }, { type: 'string', format: 'email', minLength: 30 }, { type: 'string', format: 'uri', minLength: 40 }]) {
      expect(valid(schema, sampleOf(document, schema))).toBe(true);
    }
  });

  // Before: `minimum` with `exclusiveMinimum: true` (3.0) gave the bound itself; `multipleOf` was not read.
  test('numbers: exclusive bounds both ways, multipleOf (integers and decimals), numeric formats', () => {
    const cases: [OpenApiDocument, object][] = [
      [v30, { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.01 }],
      [document, { type: 'number', exclusiveMinimum: 5, exclusiveMaximum: 30 }],
      [document, { type: 'integer', minimum: 101, multipleOf: 50 }],
      [document, { type: 'integer', minimum: 10, maximum: 5000, multipleOf: 10 }],
      [document, { type: 'number', minimum: 1, multipleOf: 0.5 }],
      [document, { type: 'integer', format: 'int32', maximum: -3 }],
      [document, { type: 'number', format: 'float', exclusiveMinimum: 0, maximum: 1 }],
    ];
    for (const [within, schema] of cases) expect([schema, valid(schema, sampleOf(within, schema), within)]).toEqual([schema, true]);
    expect(sampleOf(document, { type: 'integer', minimum: 101, multipleOf: 50 })).toBe(150);
  });

  // Before: an array repeated one item `minItems` times.
  test('uniqueItems: distinct items, objects and enums alike; none where too few distinct values exist', () => {
    const sections = { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'object', required: ['heading', 'level'], properties: { heading: { type: 'string' }, level: { type: 'integer', minimum: 1, maximum: 3 } } } };
    const letters = { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c'] } };
    const tags = { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string', pattern: '^[a-z]{3,10}$' } };
    for (const schema of [sections, letters, tags]) expect(valid(schema, sampleOf(document, schema))).toBe(true);
    expect(requestSampleOf(document, { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'boolean' } })).toEqual({ defeat: { keyword: 'uniqueItems', at: '#' } });
  });

  // Before: a PATCH body with `minProperties: 1` and nothing required was sent empty (422, also where a 404 was expected).
  test('minProperties: optional properties until it is met; maxProperties kept', () => {
    const patch = { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: false, properties: { name: { type: 'string' }, pages: { type: 'integer' } } };
    expect(sampleOf(document, patch)).toEqual({ name: 'sample' });
    const nested = { type: 'object', required: ['size'], properties: { size: { type: 'object', minProperties: 2, properties: { length: { type: 'integer' }, width: { type: 'integer' }, height: { type: 'integer' } } } } };
    expect(sampleOf(document, nested)).toEqual({ size: { length: 1, width: 1 } });
  });

  test('dependentRequired (and draft 7 dependencies): a present property brings its dependents', () => {
    const shipment = { type: 'object', required: ['insured'], dependentRequired: { insured: ['value'] }, properties: { insured: { type: 'boolean' }, value: { type: 'number', minimum: 1, multipleOf: 0.5 } } };
    expect(sampleOf(document, shipment)).toEqual({ insured: true, value: 1 });
    expect(sampleOf(v30, { ...shipment, dependentRequired: undefined, dependencies: { insured: ['value'] } })).toEqual({ insured: true, value: 1 });
  });

  test('const, and enums of numbers', () => {
    expect(sampleOf(document, { type: 'object', required: ['kind', 'step'], properties: { kind: { const: 'parcel' }, step: { type: 'number', enum: [0.5, 1, 2] } } })).toEqual({ kind: 'parcel', step: 0.5 });
  });

  // Before: the discriminator's property got `sample`, which no branch names (and the answers' enum refused).
  test('a discriminator: its property carries the mapping key of the branch, else the name of the schema it references', () => {
    const payments: OpenApiDocument = {
      ...document,
      components: {
        schemas: {
          Card: { type: 'object', required: ['method', 'number'], properties: { method: { type: 'string' }, number: { type: 'string', pattern: '^[0-9]{16}$' } } },
          Bank: { type: 'object', required: ['method', 'iban'], properties: { method: { type: 'string' }, iban: { type: 'string' } } },
        },
      },
    };
    const mapped = { oneOf: [ref('Card'), ref('Bank')], discriminator: { propertyName: 'method', mapping: { card: '#/components/schemas/Card', bank: '#/components/schemas/Bank' } } };
    expect(sampleOf(payments, mapped)).toEqual({ method: 'card', number: expect.stringMatching(/^[0-9]{16}$/) });
    expect(sampleOf(payments, { ...mapped, discriminator: { propertyName: 'method' } })).toMatchObject({ method: 'Card' });
  });

  // Before: each part's sample was merged, the later part's `country` (`sample`) over the earlier's pattern.
  test('a property several allOf parts describe keeps the rules of each', () => {
    const vendor = { allOf: [{ type: 'object', required: ['country'], properties: { country: { type: 'string', pattern: '^[A-Z]{2}$' } } }, { type: 'object', required: ['country'], properties: { country: { type: 'string', minLength: 2 } } }] };
    expect(sampleOf(document, vendor)).toEqual({ country: expect.stringMatching(/^[A-Z]{2}$/) });
  });
});

describe('closed allOf branches, read as JSON Schema reads them (the service alike)', () => {
  const closed: OpenApiDocument = {
    ...document,
    components: {
      schemas: {
        Core: { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string' }, isbn: { type: 'string' } } },
        Input: { allOf: [ref('Core'), { type: 'object', properties: { pages: { type: 'integer' } } }] },
        Required: { allOf: [ref('Core'), { type: 'object', required: ['pages'], properties: { pages: { type: 'integer' } } }] },
      },
    },
  };

  // Before: `pages` was sorted, filtered and changed by: the service refused it as an unknown field.
  test('what a sibling adds is no property anyone can write: no values, no change', () => {
    expect(sampleOf(closed, ref('Input'))).toEqual({ title: 'sample' });
    expect(writablePropertiesOf(closed, ref('Input'))).toEqual(['title', 'isbn']);
    expect(valuesOf(closed, ref('Input'), 'pages', 2)).toBeUndefined();
  });

  test('where a sibling requires one, no body is valid: the defeat names additionalProperties at the closed branch', () => {
    expect(requestSampleOf(closed, ref('Required'))).toEqual({ defeat: { keyword: 'additionalProperties', at: '#/components/schemas/Core' } });
  });

  test('an unknown property is one violation of it', () => {
    expect(violationsOf(closed, ref('Input')).map((violation) => violation.code)).toContain('UNKNOWN_FIELD');
  });
});

describe('what defeats the sampler is named, with its place in the spec', () => {
  test('a pattern the generator cannot follow, at the property that has it', () => {
    const books: OpenApiDocument = { ...document, components: { schemas: { Book: { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^(?=x)y' } } } } } };
    const { sample, defeat } = requestSampleOf(books, ref('Book'));
    expect(sample).toBeUndefined();
    expect(defeatText(defeat!)).toBe('`pattern` at #/components/schemas/Book/properties/code');
    expect(requestSampleOf(books, { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^(?=x)y' } } }).defeat).toEqual({ keyword: 'pattern', at: '#/properties/code' });
  });

  test('a rule in a schema a $ref names, at its place in that schema (not where the $ref stands)', () => {
    const parts: OpenApiDocument = {
      ...document,
      components: {
        schemas: {
          P1: { type: 'object', maxProperties: 1, required: ['x'], properties: { x: { type: 'string' } } },
          P2: { type: 'object', required: ['y'], properties: { y: { type: 'string' } } },
          Both: { allOf: [ref('P1'), ref('P2')] },
        },
      },
    };
    expect(requestSampleOf(parts, ref('Both')).defeat).toEqual({ keyword: 'maxProperties', at: '#/components/schemas/P1' });
    expect(requestSampleOf(parts, { type: 'object', required: ['f'], properties: { f: ref('Both') } }).defeat).toEqual({ keyword: 'maxProperties', at: '#/components/schemas/P1' });
  });

  test('a rule in a referenced schema that itself holds a $ref (ajv calls it, and reports from its root), at its place in the spec', () => {
    const parts: OpenApiDocument = {
      ...document,
      components: {
        schemas: {
          Text: { type: 'string' },
          P1: { type: 'object', maxProperties: 1, required: ['x'], properties: { x: ref('Text'), n: { type: 'integer', maximum: 5 } } },
          P2: { type: 'object', required: ['y'], properties: { y: ref('Text') } },
          Both: { allOf: [ref('P1'), ref('P2')] },
        },
      },
    };
    expect(requestSampleOf(parts, ref('Both')).defeat).toEqual({ keyword: 'maxProperties', at: '#/components/schemas/P1' });
    expect(requestSampleOf(parts, { type: 'object', required: ['f'], properties: { f: { allOf: [ref('P1'), ref('P2')] } } }).defeat).toEqual({ keyword: 'maxProperties', at: '#/components/schemas/P1' });
  });

  test('a keyword the sampler does not read, found by the validator, at its place below the property', () => {
    const meta = { allOf: [{ type: 'object', required: ['tag'], properties: { tag: { type: 'string' } } }, { not: { required: ['tag'] } }] };
    expect(requestSampleOf(document, { type: 'object', required: ['meta'], properties: { meta } }).defeat).toEqual({ keyword: 'not', at: '#/properties/meta/allOf/1' });
  });
});

describe('violations break one rule only', () => {
  // The service folds a nullable's own pattern error into its anyOf (INVALID_VALUE): no INVALID_FORMAT violation
  // may be offered for it, whether the schema is written in place or named by a $ref (ajv calls a named one).
  test('none for the rule of a 3.0 nullable schema without a type, inline or referenced', () => {
    const maybeCode = { nullable: true, pattern: '^[A-Z]+$', example: 'ABC' };
    const nullables: OpenApiDocument = {
      ...document,
      openapi: '3.0.3',
      components: {
        schemas: {
          MaybeCode: maybeCode,
          ByRef: { type: 'object', required: ['code'], properties: { code: ref('MaybeCode') } },
          Inline: { type: 'object', required: ['code'], properties: { code: { ...maybeCode } } },
        },
      },
    };
    for (const name of ['ByRef', 'Inline']) {
      expect(violationsOf(nullables, ref(name)).filter((violation) => violation.field === 'body.code' && violation.code === 'INVALID_FORMAT')).toEqual([]);
    }
  });

  // Before: leaving `name` out also broke `minProperties`: a 422 for the wrong reason would pass.
  test('none that also breaks another rule (a removal below minProperties)', () => {
    const schema = { type: 'object', minProperties: 2, required: ['name', 'size'], properties: { name: { type: 'string' }, size: { type: 'integer' } } };
    expect(violationsOf(document, schema).filter((violation) => violation.code === 'REQUIRED')).toEqual([]);
    expect(violationsOf(document, schema).map((violation) => violation.rule)).toContain('name of the wrong type');
  });
});

// GitHub's `PUT …/issues/{issue_number}/labels`: `{}` matches both alternatives, so the oneOf refuses it.
test('a oneOf whose alternatives a minimal value cannot tell apart: one with every property of the first that tells', () => {
  const labels = {
    oneOf: [
      { type: 'object', properties: { labels: { type: 'array', minItems: 1, items: { type: 'string' } } } },
      { type: 'object', properties: { labels: { type: 'array', minItems: 1, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
    ],
  };
  expect(sampleOf(document, labels)).toEqual({ labels: ['sample'] });
});

describe('violations beside a composition', () => {
  // GitHub's `PATCH …/check-runs/{id}`: a wrong `status` fails the anyOf too, through the status it names: still one rule.
  test('a value that fails every branch of an anyOf breaks one rule', () => {
    const update = {
      type: 'object',
      properties: { status: { type: 'string', enum: ['queued', 'completed'] }, conclusion: { type: 'string' } },
      anyOf: [{ properties: { status: { enum: ['completed'] } }, required: ['conclusion'] }, { properties: { status: { enum: ['queued'] } } }],
    };
    expect(violationsOf(document, update).map((violation) => violation.rule)).toContain('status outside its enum');
  });

  // GitHub's variant analyses: `repository_owners` (any value) makes a second branch of the oneOf match: two rules broken.
  test('none that makes a oneOf match two branches', () => {
    const analysis = {
      type: 'object',
      properties: { repositories: { type: 'array', items: { type: 'string' } }, owners: { type: 'array', items: { type: 'string' } } },
      oneOf: [{ required: ['repositories'] }, { required: ['owners'] }],
    };
    expect(violationsOf(document, analysis).map((violation) => violation.rule)).toEqual(['repositories of the wrong type']);
  });
});
