/**
 * Random requests from the spec's schemas, as fast-check arbitraries: what
 * the property-based checks send. Values are drawn from each keyword (type,
 * format, pattern, bounds, enum, const, allOf, oneOf, nested arrays and
 * objects), then checked with the same validator that checks answers; a
 * value it refuses is repaired field by field from the plan's valid sample,
 * so a schema too hard to draw from narrows what is tried, never stops it.
 */
import type { Arbitrary } from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { requestSchemaAt, validatorOf } from './assertions.js';
import { perWorker, type Json, type JsonObject } from './harness.js';

/** fast-check, loaded once per jest worker. */
export const fc: typeof import('fast-check') = await perWorker(
  'fast-check',
  () => import('fast-check'),
);

type Schema = { [keyword: string]: any };

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isJsonObject = (value: Json | undefined): value is JsonObject => isObject(value);

/** How deep optional members are drawn: below it, objects hold only what they require. */
const MAX_DEPTH = 4;

/** Longest string drawn where the schema sets no `maxLength`. */
const LONGEST = 40;

/** A random value for the schema (request direction: read-only properties left out). */
export function arbitraryOf(schema: unknown, depth = 0): Arbitrary<Json> {
  const resolved = normalized(schema);
  if (resolved.const !== undefined) return fc.constant(resolved.const as Json);
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0)
    return fc.constantFrom(...(resolved.enum as Json[]));
  const branches = resolved.oneOf ?? resolved.anyOf;
  if (Array.isArray(branches) && branches.length > 0) return branchesOf(resolved, branches, depth);
  const types = typesOf(resolved);
  const arbitraries = types.map((type) => typed(type, resolved, depth));
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}

/** A `$ref` followed (its siblings kept, as 2020-12 does) and `allOf` merged into one schema. */
export function normalized(schema: unknown, hops = 0): Schema {
  if (schema === false) return { not: {} };
  if (!isObject(schema) || hops > 16) return {};
  let result = schema;
  if (typeof result.$ref === 'string') {
    const { $ref, ...siblings } = result;
    const target = normalized(requestSchemaAt($ref), hops + 1);
    result = Object.keys(siblings).length > 0 ? merged([target, siblings]) : target;
  }
  if (Array.isArray(result.allOf)) {
    const { allOf, ...rest } = result;
    result = merged([rest, ...allOf.map((part: unknown) => normalized(part, hops + 1))]);
  }
  return result;
}

/** Schemas that must all hold, as one: properties and `required` united, bounds narrowed, else the first word wins. */
function merged(schemas: Schema[]): Schema {
  const result: Schema = {};
  for (const schema of schemas) {
    for (const [keyword, value] of Object.entries(schema)) {
      const known = result[keyword];
      if (known === undefined) result[keyword] = value;
      else if (keyword === 'properties') result.properties = { ...value, ...known };
      else if (keyword === 'required') result.required = [...new Set([...known, ...value])];
      else if (keyword === 'additionalProperties' && value === false) result[keyword] = false;
      else if (['minimum', 'minLength', 'minItems', 'minProperties'].includes(keyword))
        result[keyword] = Math.max(known, value);
      else if (['maximum', 'maxLength', 'maxItems', 'maxProperties'].includes(keyword))
        result[keyword] = Math.min(known, value);
    }
  }
  return result;
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type: string) => TYPES.includes(type));
  if (schema.properties || schema.required || schema.additionalProperties !== undefined)
    return ['object'];
  if (schema.items || schema.prefixItems) return ['array'];
  if (schema.pattern !== undefined || schema.format !== undefined || schema.minLength !== undefined)
    return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined) return ['number'];
  return ['string', 'integer', 'boolean'];
}

function typed(type: string, schema: Schema, depth: number): Arbitrary<Json> {
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayOf(schema, depth);
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.constant(null);
  }
}

/**
 * One of the branches, each with what the schema says beside them; a
 * discriminator's property carries the name its mapping gives the branch.
 */
function branchesOf(schema: Schema, branches: unknown[], depth: number): Arbitrary<Json> {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator, ...beside } = schema;
  const mapping = Object.entries((discriminator?.mapping ?? {}) as Record<string, string>);
  return fc.oneof(
    ...branches.map((branch) => {
      const ref = isObject(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
      const tag =
        ref && (mapping.find(([, target]) => ref.endsWith(target))?.[0] ?? lastToken(ref));
      const named =
        discriminator?.propertyName && tag
          ? { properties: { [discriminator.propertyName]: { const: tag } } }
          : {};
      return arbitraryOf(merged([named, normalized(branch), beside]), depth);
    }),
  );
}

const lastToken = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

// ── scalars ─────────────────────────────────────────────────────────────────

function stringOf(schema: Schema): Arbitrary<Json> {
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern JavaScript cannot read without the `u` flag: drawn as plain text, repaired from the sample.
    }
  }
  const format = FORMATS[schema.format as string];
  if (format) return format();
  const minLength = Number(schema.minLength ?? 0);
  // Bounded: a body past the service's size limit is refused (413), rightly.
  const longest = Math.min(
    Number(schema.maxLength ?? minLength + LONGEST * 5),
    Math.max(minLength, 1000),
  );
  const maxLength = Math.min(longest, minLength + LONGEST);
  // Mostly readable text, sometimes any code point, sometimes as long as allowed: all must come back as sent.
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
    {
      weight: 1,
      arbitrary: fc.string({ minLength: Math.max(minLength, longest - 3), maxLength: longest }),
    },
  );
}

const isoDate = () =>
  fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true });

/** A value for each format ajv-formats checks. */
const FORMATS: Record<string, () => Arbitrary<Json>> = {
  date: () => isoDate().map((date) => date.toISOString().slice(0, 10)),
  'date-time': () => isoDate().map((date) => date.toISOString()),
  time: () => isoDate().map((date) => date.toISOString().slice(11)),
  duration: () => fc.constantFrom('P1D', 'PT1H30M', 'P1Y2M3DT4H5M6S', 'P2W'),
  email: () => fc.emailAddress(),
  'idn-email': () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  iri: () => fc.webUrl(),
  'uri-reference': () => fc.oneof(fc.webUrl(), fc.webPath()),
  'iri-reference': () => fc.oneof(fc.webUrl(), fc.webPath()),
  'uri-template': () => fc.constantFrom('https://example.com/{id}', '/items{?page}'),
  hostname: () => fc.domain(),
  'idn-hostname': () => fc.domain(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  byte: () => fc.base64String({ maxLength: 64 }),
  regex: () => fc.constantFrom('^[a-z]+$', '\\d{3}', 'a|b'),
  'json-pointer': () => fc.constantFrom('', '/a', '/a/0', '/b~1c'),
  'relative-json-pointer': () => fc.constantFrom('0', '1/a', '2#'),
};

/** Bounds as JSON Schema 2020-12 writes them (the 3.0 boolean forms are converted before). */
function boundsOf(schema: Schema, step: number): { min?: number; max?: number } {
  const min =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum + step
      : (schema.minimum as number | undefined);
  const max =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum - step
      : (schema.maximum as number | undefined);
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

const INT32 = 2 ** 31 - 1;

function integerOf(schema: Schema): Arbitrary<Json> {
  const { min = -INT32, max = INT32 } = boundsOf(schema, 1);
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : 1;
  const low = Math.max(Math.ceil(min / step), -INT32);
  const high = Math.min(Math.floor(max / step), INT32);
  if (low > high) return fc.constant(Math.ceil(min));
  return fc.integer({ min: low, max: high }).map((count) => count * step);
}

function numberOf(schema: Schema): Arbitrary<Json> {
  if (typeof schema.multipleOf === 'number') return integerOf(schema);
  const { min, max } = boundsOf(schema, Number.EPSILON);
  return fc.oneof(
    integerOf(schema),
    fc.double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(min !== undefined ? { min } : { min: -1e9 }),
      ...(max !== undefined ? { max } : { max: 1e9 }),
    }),
  );
}

// ── structures ──────────────────────────────────────────────────────────────

function arrayOf(schema: Schema, depth: number): Arbitrary<Json> {
  const minLength = Number(schema.minItems ?? 0);
  const maxLength = Math.min(Number(schema.maxItems ?? minLength + 3), minLength + 3);
  const item = isObject(schema.items) ? arbitraryOf(schema.items, depth + 1) : fc.string();
  const rest = schema.uniqueItems
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(item, { minLength, maxLength });
  if (!Array.isArray(schema.prefixItems)) return rest;
  const prefix = schema.prefixItems.map((each: unknown) => arbitraryOf(each, depth + 1));
  return fc.tuple(fc.tuple(...prefix), rest).map(([first, more]) => [...first, ...more]);
}

function objectOf(schema: Schema, depth: number): Arbitrary<Json> {
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  const members = Object.entries((schema.properties ?? {}) as Record<string, unknown>).filter(
    ([name, member]) =>
      normalized(member).readOnly !== true && (depth < MAX_DEPTH || required.has(name)),
  );
  if (members.length === 0 && isObject(schema.additionalProperties))
    return fc.dictionary(
      fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/),
      arbitraryOf(schema.additionalProperties, depth + 1),
      // Plain objects: a validator's deep equality (uniqueItems) reads their prototype.
      { maxKeys: 3, noNullPrototype: true },
    );
  const record = Object.fromEntries(
    members.map(([name, member]) => [name, arbitraryOf(member, depth + 1)]),
  );
  return fc.record(record, {
    noNullPrototype: true,
    requiredKeys: members.map(([name]) => name).filter((name) => required.has(name)),
  }) as Arbitrary<Json>;
}

// ── validity ────────────────────────────────────────────────────────────────

/**
 * The value, if the validator takes it; else repaired from `sample` (a
 * valid value of the same schema): each top-level member the validator
 * names taken from the sample, or left out where the sample has none.
 * The sample itself where the value cannot be repaired.
 */
export function validOrRepaired(
  value: Json,
  sample: Json | undefined,
  validate: ValidateFunction,
): Json | undefined {
  // Not ajv's type guard: a refused value stays a Json.
  const accepts = (data: Json) => validate(data) === true;
  if (accepts(value)) return value;
  if (!isJsonObject(value) || !isJsonObject(sample)) return sample;
  let repaired: JsonObject = { ...value };
  for (let round = 0; round < 3; round++) {
    const members = new Set((validate.errors ?? []).map(memberOf));
    if (members.has(undefined)) repaired = { ...repaired, ...rootRepairs(validate, sample) };
    for (const member of members) {
      if (member === undefined) continue;
      if (member in sample) repaired[member] = sample[member] as Json;
      else delete repaired[member];
    }
    if (accepts(repaired)) return repaired;
  }
  return sample;
}

/** The top-level member an error is about; undefined for an error about the object itself. */
function memberOf(error: {
  instancePath: string;
  params: Record<string, unknown>;
}): string | undefined {
  const [, first] = error.instancePath.split('/');
  if (first !== undefined) return first.replace(/~1/g, '/').replace(/~0/g, '~');
  const named = error.params.missingProperty ?? error.params.additionalProperty;
  return typeof named === 'string' ? named : undefined;
}

/** For errors about the object as a whole (too few members): the sample's members it lacks. */
function rootRepairs(validate: ValidateFunction, sample: JsonObject): JsonObject {
  const aboutRoot = (validate.errors ?? []).some((error) => memberOf(error) === undefined);
  return aboutRoot ? sample : {};
}

/**
 * Random valid values of a request schema, repaired from a valid sample
 * where needed; undefined where neither the draw nor the sample is valid
 * (the property passes such a run over).
 */
export function validValuesOf(
  schema: object,
  sample: Json | undefined,
): Arbitrary<Json | undefined> {
  const validate = validatorOf(schema);
  return arbitraryOf(schema).map((value) => validOrRepaired(value, sample, validate));
}
