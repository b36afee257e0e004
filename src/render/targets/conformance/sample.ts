/**
 * Test data from schemas, for the conformance suite: a valid request body
 * (the schema's examples and defaults first, then a value built from its
 * type, format and bounds), and bodies that each break one rule of it.
 * Deterministic: the same schema gives the same data on every run.
 */
import { deref, isObject, type OpenApiDocument, type SchemaObject } from '../../../openapi/document.js';
import { requiredNamesOf } from '../../../openapi/classify.js';
import type { Json, Violation } from '../../../runtime/conformance/plan.js';
import { exampleCheckOf } from './example-check.js';
import { matchesPattern, patternSample } from './pattern.js';

/** Which properties a value leaves out: a request the read-only ones, a response the write-only ones. */
type Direction = 'request' | 'response';
const HIDDEN: Record<Direction, 'readOnly' | 'writeOnly'> = { request: 'readOnly', response: 'writeOnly' };

/** A valid value for a request: read-only properties left out. */
export function sampleOf(document: OpenApiDocument, schema: unknown, depth = 0): Json | undefined {
  return sampleIn(document, schema, 'request', depth);
}

/** A valid value for a response (what a service may hold before anyone writes it): write-only properties left out. */
export function responseSampleOf(document: OpenApiDocument, schema: unknown): Json | undefined {
  return sampleIn(document, schema, 'response', 0);
}

/** A valid value for each required property of a response object that a sample can fill (write-only ones left out). */
export function requiredResponseValuesOf(document: OpenApiDocument, schema: unknown): { [key: string]: Json } {
  const resolved = resolve(document, schema);
  if (!resolved) return {};
  const properties = propertiesOf(document, resolved);
  const values: { [key: string]: Json } = {};
  for (const name of requiredNamesOf(document, resolved)) {
    const property = properties[name];
    if (!property || property.writeOnly === true) continue;
    // A nullable field no write gave a value holds none.
    const value = allowsNull(property) ? null : sampleIn(document, property, 'response', 1);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** The names an object schema requires (its allOf parts' included); none for no schema. */
export function requiredPropertiesOf(document: OpenApiDocument, schema: unknown): string[] {
  const resolved = resolve(document, schema);
  return resolved ? requiredNamesOf(document, resolved) : [];
}

function allowsNull(schema: SchemaObject): boolean {
  return schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')) || schema.type === 'null';
}

/**
 * Objects merged member by member (nested objects alike); elsewhere the first
 * value given wins, but a value wins over null (one answer may allow null
 * where another requires a value).
 */
export function mergeSamples(samples: { [key: string]: Json }[]): { [key: string]: Json } {
  const merged: { [key: string]: Json } = {};
  for (const sample of samples) {
    for (const [name, value] of Object.entries(sample)) {
      const known = merged[name];
      if (known === undefined || known === null) merged[name] = value;
      else if (isPlainObject(known) && isPlainObject(value)) merged[name] = mergeSamples([known, value]);
    }
  }
  return merged;
}

/** `part`: one part of an allOf, whose required names its siblings may describe. */
function sampleIn(document: OpenApiDocument, schema: unknown, direction: Direction, depth: number, part = false): Json | undefined {
  const resolved = resolve(document, schema);
  if (!resolved || depth > 8) return undefined;
  const given = exampleOf(resolved);
  const example = given === undefined ? undefined : withoutHidden(document, resolved, given, direction);
  // An example that breaks its own schema (a value outside its enum) is passed over: the sample must be valid.
  if (example !== undefined && exampleCheckOf(document, direction)(resolved, example)) return example;
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return resolved.enum[0] as Json;
  const valid = (value: Json | undefined) => value !== undefined && exampleCheckOf(document, direction)(resolved, value);
  // An object with its own properties reads its allOf parts itself (properties and required are inherited).
  if (Array.isArray(resolved.allOf) && !isObject(resolved.properties)) {
    const parts = resolved.allOf.map((member) => sampleIn(document, member, direction, depth + 1, true));
    // allOf over a scalar (`allOf: [$ref: SomeEnum]`, as .NET writes a documented enum): a part's value.
    const scalar = parts.find((value) => value !== undefined && !isPlainObject(value) && valid(value));
    if (scalar !== undefined) return scalar;
    const merged = mergeObjects(parts);
    // Parts sampled apart can disagree (an example in one, an enum in another): then sample the properties as they combine.
    if (valid(merged)) return merged;
    return objectSample(document, resolved, direction, depth, part) ?? merged;
  }
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    // The first alternative whose sample the whole schema takes (a oneOf refuses a value two alternatives match);
    // then each alternative as it adds to the schema's own properties (`oneOf: [{ required: [id] }, …]` beside them).
    const samples = [
      ...alternatives.map((alternative) => () => sampleIn(document, alternative, direction, depth + 1)),
      ...(isObject(resolved.properties) ? alternatives.map((alternative) => () => sampleIn(document, withAlternative(document, resolved, alternative), direction, depth + 1)) : []),
    ];
    for (const sample of samples) {
      const value = sample();
      if (valid(value)) return value;
    }
    return samples[0]!();
  }
  switch (typeOf(resolved)) {
    case 'string':
      return stringSample(resolved);
    case 'integer':
    case 'number':
      return numberSample(resolved);
    case 'boolean':
      return true;
    case 'array': {
      const item = sampleIn(document, resolved.items, direction, depth + 1);
      return item === undefined ? [] : Array.from({ length: Math.max(1, Number(resolved.minItems ?? 1)) }, () => item);
    }
    case 'object':
      return objectSample(document, resolved, direction, depth, part);
    default:
      return undefined;
  }
}

/** One violation per rule the schema's top-level properties state, each on an otherwise valid body. */
export function violationsOf(document: OpenApiDocument, schema: unknown): Violation[] {
  const resolved = resolve(document, schema);
  const valid = sampleOf(document, schema);
  if (!resolved || !isPlainObject(valid)) return [];
  const properties = propertiesOf(document, resolved);
  const violations: Violation[] = [];
  const broken = (rule: string, name: string, code: string, change: (body: { [key: string]: Json }) => void) => {
    const body = structuredClone(valid);
    change(body);
    violations.push({ rule, field: `body.${name}`, code, body });
  };
  for (const name of requiredNamesOf(document, resolved)) {
    // One with a default is never missing: the service fills it in (GitHub's `pages_build_version`, default `GITHUB_SHA`).
    if (name in valid && properties[name]?.default === undefined) broken(`missing required ${name}`, name, 'REQUIRED', (body) => delete body[name]);
  }
  for (const [name, property] of Object.entries(properties)) {
    if (property.readOnly === true) continue;
    const type = typeOf(property);
    if (type === 'string') broken(`${name} of the wrong type`, name, 'INVALID_TYPE', (body) => (body[name] = 12345));
    else if (type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object') {
      broken(`${name} of the wrong type`, name, 'INVALID_TYPE', (body) => (body[name] = 'not-a-value'));
    }
    if (Array.isArray(property.enum) && property.enum.every((value) => typeof value === 'string')) {
      broken(`${name} outside its enum`, name, 'INVALID_VALUE', (body) => (body[name] = 'not-one-of-the-values'));
    }
    if (typeof property.format === 'string' && FORMAT_BREAKERS[property.format]) {
      broken(`${name} not a ${property.format}`, name, 'INVALID_FORMAT', (body) => (body[name] = FORMAT_BREAKERS[property.format as string]!));
    }
    if (typeof property.pattern === 'string') broken(`${name} against its pattern`, name, 'INVALID_FORMAT', (body) => (body[name] = '~'));
    if (typeof property.maximum === 'number') broken(`${name} above its maximum`, name, 'OUT_OF_RANGE', (body) => (body[name] = (property.maximum as number) + 1));
    if (typeof property.minimum === 'number') broken(`${name} below its minimum`, name, 'OUT_OF_RANGE', (body) => (body[name] = (property.minimum as number) - 1));
    // A string too long for a pattern or format breaks that too: only a plain string tests its length alone.
    if (typeof property.maxLength === 'number' && type === 'string' && property.pattern === undefined && property.format === undefined) {
      broken(`${name} longer than ${property.maxLength}`, name, 'OUT_OF_RANGE', (body) => (body[name] = 'x'.repeat((property.maxLength as number) + 1)));
    }
  }
  if (resolved.additionalProperties === false) {
    broken('an unknown property', 'unknown_property', 'UNKNOWN_FIELD', (body) => (body.unknown_property = 'x'));
  }
  return violations;
}

/** A schema a value must also fit, read in its direction: a query parameter's (request), a response field's (response). */
export interface Constraint {
  schema: unknown;
  direction: Direction;
}

/**
 * `count` distinct valid values of a body property, in ascending order, or
 * none where its schema allows no such spread (a fixed value, a pattern):
 * the suite sorts, filters and changes resources with them. Each value also
 * fits the `constraints` (the query parameter a filter sends it in, the field
 * that answers it): where the property's own values do not, a constraint's
 * may (a plain string answered as a `uri` takes URIs).
 */
export function valuesOf(document: OpenApiDocument, schema: unknown, name: string, count: number, constraints: Constraint[] = []): Json[] | undefined {
  const resolved = resolve(document, schema);
  const property = resolved && propertiesOf(document, resolved)[name];
  if (!property || property.readOnly === true) return undefined;
  const all = [{ schema: property, direction: 'request' as const }, ...constraints].flatMap(({ schema: each, direction }) => {
    const found = resolve(document, each);
    return found ? [{ schema: found, direction }] : [];
  });
  const fits = (values: Json[]) => values.every((value) => all.every(({ schema: each, direction }) => exampleCheckOf(document, direction)(each, value)));
  for (const { schema: source } of all) {
    const values = spreadOf(source, count);
    if (values && fits(values)) return values;
  }
  return undefined;
}

function spreadOf(property: SchemaObject, count: number): Json[] | undefined {
  if (Array.isArray(property.enum)) {
    // In declared order: an enum sorts in that order.
    const values = property.enum.filter((value) => typeof value === 'string' || typeof value === 'number') as Json[];
    return values.length >= count ? values.slice(0, count) : undefined;
  }
  const indices = Array.from({ length: count }, (_, index) => index);
  switch (typeOf(property)) {
    case 'string':
      return stringValues(property, indices);
    case 'integer':
    case 'number': {
      const low = numberSample(property);
      const high = typeof property.maximum === 'number' ? property.maximum : Infinity;
      return low + count - 1 <= high ? indices.map((index) => low + index) : undefined;
    }
    default:
      return undefined;
  }
}

function stringValues(schema: SchemaObject, indices: number[]): Json[] | undefined {
  if (schema.pattern !== undefined || indices.length > 26) return undefined;
  if (schema.format === 'date' || schema.format === 'date-time') {
    return indices.map((index) => `2024-01-${String(index + 10)}${schema.format === 'date' ? '' : 'T03:04:05.000Z'}`);
  }
  const letters = indices.map((index) => `${String.fromCharCode(97 + index)}-sample`);
  if (schema.format === 'uri') return letters.map((letter) => `https://example.com/${letter}`);
  if (schema.format === 'email') return letters.map((letter) => `${letter}@example.com`);
  if (schema.format !== undefined) return undefined;
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  // The distinguishing letter comes first, so the values stay distinct (and ordered) however short they are cut.
  const values = letters.map((letter) => letter.padEnd(min, 'x').slice(0, max));
  return max >= 1 ? values : undefined;
}

/** Names of the top-level properties a request may set (not read-only). */
export function writablePropertiesOf(document: OpenApiDocument, schema: unknown): string[] {
  const resolved = resolve(document, schema);
  return resolved ? Object.entries(propertiesOf(document, resolved)).filter(([, property]) => property.readOnly !== true).map(([name]) => name) : [];
}

/** Top-level plain string properties (no enum, format or pattern) and their maximum length. */
export function plainStringsOf(document: OpenApiDocument, schema: unknown): { name: string; maxLength: number }[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  return Object.entries(propertiesOf(document, resolved))
    .filter(([, property]) => isPlainString(property))
    .map(([name, property]) => ({ name, maxLength: typeof property.maxLength === 'number' ? property.maxLength : 1000 }));
}

const isPlainString = (property: SchemaObject) =>
  typeOf(property) === 'string' && property.enum === undefined && property.format === undefined && property.pattern === undefined && property.readOnly !== true && property.writeOnly !== true;

/** Values that break each format (and no other rule of a plain string). */
const FORMAT_BREAKERS: Record<string, string> = {
  'date-time': 'not-a-date-time',
  date: '2024-13-45',
  uuid: 'not-a-uuid',
  email: 'not-an-email',
  uri: 'not a uri',
};

function resolve(document: OpenApiDocument, schema: unknown): SchemaObject | undefined {
  const resolved = deref<SchemaObject>(document, schema as SchemaObject);
  return isObject(resolved) ? resolved : undefined;
}

function exampleOf(schema: SchemaObject): Json | undefined {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as Json;
  for (const key of ['example', 'default', 'const'] as const) if (schema[key] !== undefined) return schema[key] as Json;
  return undefined;
}

function typeOf(schema: SchemaObject): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== undefined && type !== 'null');
  if (types.length > 0) return types[0];
  return isObject(schema.properties) ? 'object' : undefined;
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-01-02T03:04:05.000Z',
  date: '2024-01-02',
  uuid: '8f9a3c2e-4b1d-4e6f-9a7b-0c1d2e3f4a5b',
  email: 'reader@example.com',
  uri: 'https://example.com/resource',
};

/**
 * A string for the schema. One with a pattern the plain sample misses is
 * built from the pattern, unless a format must hold too (the pattern's string
 * need not be a date or a URI); none where that fails.
 */
function stringSample(schema: SchemaObject): string | undefined {
  const base = (typeof schema.format === 'string' && STRING_FORMATS[schema.format]) || 'sample';
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  const value = base.padEnd(min, 'x').slice(0, max);
  if (typeof schema.pattern !== 'string' || matchesPattern(schema.pattern, value)) return value;
  return schema.format === undefined ? patternSample(schema.pattern, { min, max }) : undefined;
}


function numberSample(schema: SchemaObject): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
  const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : Infinity;
  return Math.min(low, high);
}

function objectSample(document: OpenApiDocument, schema: SchemaObject, direction: Direction, depth: number, part: boolean): Json | undefined {
  const required = new Set(requiredNamesOf(document, schema));
  const sample: { [key: string]: Json } = {};
  const properties = propertiesOf(document, schema);
  // Required but described nowhere (Directus requires `datatype` and never defines it): any value will do.
  const undescribed = part || schema.additionalProperties === false ? [] : [...required].filter((name) => !(name in properties));
  for (const name of undescribed) sample[name] = 'sample';
  for (const [name, property] of Object.entries(properties)) {
    if (!required.has(name) || property[HIDDEN[direction]] === true) continue;
    const value = sampleIn(document, property, direction, depth + 1);
    // A required field no sample can fill: no valid body at all (its schema wants an example).
    if (value === undefined) return undefined;
    sample[name] = value;
  }
  return sample;
}

/** An object schema with one of its alternatives folded in: their properties and their required names together. */
function withAlternative(document: OpenApiDocument, schema: SchemaObject, alternative: unknown): SchemaObject {
  const { oneOf: _oneOf, anyOf: _anyOf, ...base } = schema;
  const part = resolve(document, alternative) ?? {};
  return {
    ...base,
    ...part,
    properties: { ...base.properties, ...part.properties },
    required: [...new Set([...(base.required ?? []), ...(part.required ?? [])])],
  };
}

function propertiesOf(document: OpenApiDocument, schema: SchemaObject): Record<string, SchemaObject> {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const resolved = resolve(document, property);
    const readOnly = isObject(property) && property.readOnly === true;
    return resolved ? [[name, readOnly ? { ...resolved, readOnly: true } : resolved] as const] : [];
  });
  const inherited = (schema.allOf ?? []).flatMap((part) => {
    const resolved = resolve(document, part);
    return resolved ? Object.entries(propertiesOf(document, resolved)) : [];
  });
  return Object.fromEntries([...inherited, ...own]);
}

function withoutHidden(document: OpenApiDocument, schema: SchemaObject, value: Json, direction: Direction): Json {
  if (!isPlainObject(value)) return value;
  const properties = propertiesOf(document, schema);
  return Object.fromEntries(Object.entries(value).filter(([name]) => properties[name]?.[HIDDEN[direction]] !== true));
}

function mergeObjects(parts: (Json | undefined)[]): Json {
  return Object.assign({}, ...parts.filter(isPlainObject));
}

function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
