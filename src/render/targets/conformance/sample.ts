/**
 * Test data from schemas, for the conformance suite: a valid request body
 * (the schema's examples and defaults first, then a value built from its
 * type, format and bounds), and bodies that each break one rule of it.
 * Deterministic: the same schema gives the same data on every run.
 */
import { deref, isObject, type OpenApiDocument, type SchemaObject } from '../../../openapi/document.js';
import { requiredNamesOf } from '../../../openapi/classify.js';
import type { Json, Violation } from '../../../runtime/conformance/plan.js';
import { exampleCheckOf, exampleErrorsOf, type Breach } from './example-check.js';
import { matchesPattern, patternSample } from './pattern.js';

/** Which properties a value leaves out: a request the read-only ones, a response the write-only ones. */
type Direction = 'request' | 'response';
const HIDDEN: Record<Direction, 'readOnly' | 'writeOnly'> = { request: 'readOnly', response: 'writeOnly' };

/**
 * Where the sampler gave up: the JSON Schema keyword no value it could build
 * keeps, and where that keyword stands in the spec (a JSON pointer).
 */
export interface Defeat {
  keyword: string;
  at: string;
}

/** `` `pattern` at #/components/schemas/Book/properties/isbn ``: a skip's reason. */
export const defeatText = ({ keyword, at }: Defeat) => `\`${keyword}\` at ${at}`;

/** One walk over a schema: its direction, which of several values it builds (`seed`), and the first defeat met. */
interface Walk {
  document: OpenApiDocument;
  direction: Direction;
  seed: number;
  defeat?: Defeat;
}

/** A valid value for a request: read-only properties left out. */
export function sampleOf(document: OpenApiDocument, schema: unknown, depth = 0): Json | undefined {
  return requestSampleOf(document, schema, depth).sample;
}

/**
 * A valid value for a request, checked against the schema as the service's
 * validator reads it; where none can be built, the keyword (and its place)
 * that defeated the sampler.
 */
export function requestSampleOf(document: OpenApiDocument, schema: unknown, depth = 0): { sample?: Json; defeat?: Defeat } {
  const walk: Walk = { document, direction: 'request', seed: 0 };
  const sample = sampleIn(walk, schema, pointerOf(schema, '#'), depth);
  if (sample !== undefined) return { sample };
  return { defeat: walk.defeat ?? { keyword: 'type', at: pointerOf(schema, '#') } };
}

/** A valid value for a response (what a service may hold before anyone writes it): write-only properties left out. */
export function responseSampleOf(document: OpenApiDocument, schema: unknown): Json | undefined {
  return sampleIn({ document, direction: 'response', seed: 0 }, schema, pointerOf(schema, '#'), 0);
}

/** Values already built, by document and schema: a large API answers the same item schema from many operations (GitHub: 766 asks, 369 schemas). */
const requiredResponseValues = new WeakMap<OpenApiDocument, WeakMap<SchemaObject, { [key: string]: Json }>>();

/** A valid value for each required property of a response object that a sample can fill (write-only ones left out). */
export function requiredResponseValuesOf(document: OpenApiDocument, schema: unknown): { [key: string]: Json } {
  const resolved = resolve(document, schema);
  if (!resolved) return {};
  const known = requiredResponseValues.get(document) ?? new WeakMap<SchemaObject, { [key: string]: Json }>();
  requiredResponseValues.set(document, known);
  let values = known.get(resolved);
  if (values === undefined) {
    values = builtRequiredValues(document, resolved);
    known.set(resolved, values);
  }
  // A copy: the caller's to merge and keep.
  return structuredClone(values);
}

function builtRequiredValues(document: OpenApiDocument, resolved: SchemaObject): { [key: string]: Json } {
  const properties = propertiesOf(document, resolved);
  const values: { [key: string]: Json } = {};
  for (const name of requiredNamesOf(document, resolved)) {
    const property = properties[name];
    if (!property || property.writeOnly === true) continue;
    // A nullable field no write gave a value holds none.
    const value = allowsNull(property) ? null : sampleIn({ document, direction: 'response', seed: 0 }, property, '#', 1);
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

/**
 * A valid value for the schema at `at` (a JSON pointer into the spec, for the
 * defeat), or none, the defeat noted. Each value built is checked against the
 * schema before it is given. `part`: one part of an allOf, whose required
 * names its siblings may describe (checked with them, not alone).
 */
function sampleIn(walk: Walk, schema: unknown, at: string, depth: number, part = false): Json | undefined {
  const resolved = resolve(walk.document, schema);
  if (!resolved || depth > 8) return undefined;
  const here = pointerOf(schema, at);
  const value = built(walk, resolved, here, depth, part);
  // A response sample is what a service may hold, not sent: no check (a write-only field it requires is never shown).
  if (part || value === undefined || walk.direction === 'response') return value;
  if (exampleCheckOf(walk.document, walk.direction)(resolved, value)) return value;
  // Built, yet refused: the first rule it breaks is what defeated the sampler.
  const [breach] = exampleErrorsOf(walk.document, walk.direction)(resolved, value);
  defeated(walk, { keyword: breach?.keyword ?? 'type', at: breach ? placeOf(breach.at, here) : here });
  return undefined;
}

/** A breach's place in the spec: one in a named schema as it is, one in the schema checked below where that schema stands. */
const placeOf = (at: string, here: string) => (at.startsWith('#/components/') ? at : `${here}${at.slice(1)}`);

function built(walk: Walk, resolved: SchemaObject, at: string, depth: number, part: boolean): Json | undefined {
  const { document, direction } = walk;
  const valid = (value: Json | undefined) => value !== undefined && exampleCheckOf(document, direction)(resolved, value);
  const given = exampleOf(resolved);
  const example = given === undefined ? undefined : withoutHidden(document, resolved, given, direction);
  // An example that breaks its own schema (a value outside its enum) is passed over: the sample must be valid.
  if (walk.seed === 0 && example !== undefined && valid(example)) return example;
  if (resolved.const !== undefined) return resolved.const as Json;
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) {
    // The seed picks another value (distinct array items); a value the rest of the schema refuses is passed over.
    const values = resolved.enum as Json[];
    return [...values.slice(walk.seed % values.length), ...values].find(valid) ?? values[0];
  }
  // An object with its own properties reads its allOf parts itself (properties and required are inherited).
  if (Array.isArray(resolved.allOf) && !isObject(resolved.properties)) return allOfSample(walk, resolved, at, depth, part);
  if (Array.isArray(resolved.oneOf ?? resolved.anyOf)) return alternativeSample(walk, resolved, at, depth);
  switch (typeOf(resolved)) {
    case 'string':
      return stringSample(walk, resolved, at);
    case 'integer':
    case 'number':
      return numberSample(walk, resolved, at);
    case 'boolean':
      return walk.seed % 2 === 0;
    case 'array':
      return arraySample(walk, resolved, at, depth);
    case 'object':
      return objectSample(walk, resolved, at, depth, part);
    default:
      return undefined;
  }
}

function allOfSample(walk: Walk, resolved: SchemaObject, at: string, depth: number, part: boolean): Json | undefined {
  const valid = (value: Json | undefined) => value !== undefined && exampleCheckOf(walk.document, walk.direction)(resolved, value);
  const parts = resolved.allOf!.map((member, index) => sampleIn(walk, member, `${at}/allOf/${index}`, depth + 1, true));
  // allOf over a scalar (`allOf: [$ref: SomeEnum]`, as .NET writes a documented enum): a part's value.
  const scalar = parts.find((value) => value !== undefined && !isPlainObject(value) && valid(value));
  if (scalar !== undefined) return scalar;
  const merged = mergeObjects(parts);
  // Parts sampled apart can disagree (an example in one, an enum in another): then sample the properties as they combine.
  if (valid(merged)) return merged;
  return objectSample(walk, resolved, at, depth, part) ?? merged;
}

/**
 * The first alternative whose value the whole schema takes (a oneOf refuses a
 * value two alternatives match); then each alternative as it adds to the
 * schema's own properties (`oneOf: [{ required: [id] }, …]` beside them). A
 * discriminator's property carries the value that names the alternative.
 */
function alternativeSample(walk: Walk, resolved: SchemaObject, at: string, depth: number): Json | undefined {
  const { document, direction } = walk;
  const keyword = resolved.oneOf ? 'oneOf' : 'anyOf';
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as unknown[];
  const valid = (value: Json | undefined) => value !== undefined && exampleCheckOf(document, direction)(resolved, value);
  const tagged = (value: Json | undefined, alternative: unknown) => {
    const tag = discriminatorOf(resolved, alternative);
    return tag && isPlainObject(value) ? { ...value, [tag.property]: tag.value } : value;
  };
  const samples = [
    ...alternatives.map((alternative, index) => () => tagged(sampleIn(walk, alternative, `${at}/${keyword}/${index}`, depth + 1), alternative)),
    ...(isObject(resolved.properties)
      ? alternatives.map((alternative) => () => tagged(sampleIn(walk, withAlternative(document, resolved, alternative), at, depth + 1), alternative))
      : []),
    // A value two alternatives both match (`{}` where neither requires anything): each with all its properties, which tell them apart.
    ...alternatives.map((alternative, index) => () => tagged(sampleIn(walk, filled(document, alternative), `${at}/${keyword}/${index}`, depth + 1), alternative)),
  ];
  let first: Json | undefined;
  for (const sample of samples) {
    const value = sample();
    first ??= value;
    if (valid(value)) return value;
  }
  return first;
}

const fullAlternatives = new WeakMap<SchemaObject, SchemaObject>();

/** An object alternative that asks for every property it describes (one object per alternative: the validator compiles it once). */
function filled(document: OpenApiDocument, alternative: unknown): SchemaObject | undefined {
  const resolved = resolve(document, alternative);
  if (!resolved || !isObject(resolved.properties)) return resolved;
  if (!fullAlternatives.has(resolved)) fullAlternatives.set(resolved, { ...resolved, minProperties: Object.keys(resolved.properties).length });
  return fullAlternatives.get(resolved);
}

/** The discriminator's property and the value that names `alternative`: its mapping key, else the name of the schema it references. */
function discriminatorOf(schema: SchemaObject, alternative: unknown): { property: string; value: string } | undefined {
  const discriminator = schema.discriminator as { propertyName?: unknown; mapping?: Record<string, string> } | undefined;
  const ref = isObject(alternative) && typeof alternative.$ref === 'string' ? alternative.$ref : undefined;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string' || ref === undefined) return undefined;
  const mapped = Object.entries(discriminator.mapping ?? {}).find(([, target]) => target === ref || `#/components/schemas/${target}` === ref);
  return { property: discriminator.propertyName, value: mapped?.[0] ?? ref.split('/').pop()! };
}

function arraySample(walk: Walk, schema: SchemaObject, at: string, depth: number): Json | undefined {
  const min = Number(schema.minItems ?? 1);
  const max = Number(schema.maxItems ?? Infinity);
  const count = Math.min(Math.max(1, min), max);
  if (count === 0) return [];
  // Items differ by their seed; distinct ones where the array wants them unique (a few more tries for repeats).
  const items: Json[] = [];
  const seen = new Set<string>();
  for (let seed = 0; items.length < count && seed < count * 4; seed++) {
    const item = sampleIn({ ...walk, seed: walk.seed + seed, defeat: undefined }, schema.items, `${at}/items`, depth + 1);
    if (item === undefined) {
      sampleIn(walk, schema.items, `${at}/items`, depth + 1); // notes the defeat
      return items.length >= min ? items : undefined;
    }
    const key = JSON.stringify(item);
    if (schema.uniqueItems === true && seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  if (items.length < count) return defeated(walk, { keyword: 'uniqueItems', at });
  return items;
}

/** One violation per rule the schema's top-level properties state, each on an otherwise valid body. */
export function violationsOf(document: OpenApiDocument, schema: unknown): Violation[] {
  const resolved = resolve(document, schema);
  const valid = sampleOf(document, schema);
  if (!resolved || !isPlainObject(valid)) return [];
  const properties = propertiesOf(document, resolved);
  const violations: Violation[] = [];
  const breaches = exampleErrorsOf(document, 'request');
  const broken = (rule: string, name: string, code: string, change: (body: { [key: string]: Json }) => void) => {
    const body = structuredClone(valid);
    change(body);
    // Exactly the one rule: a body that also breaks another (too few properties once one is gone) tells nothing of this one.
    if (breaksOnly(breaches(resolved, body), name)) violations.push({ rule, field: `body.${name}`, code, body });
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
  if (resolved.additionalProperties === false || closuresOf(document, resolved, '#').length > 0) {
    broken('an unknown property', 'unknown_property', 'UNKNOWN_FIELD', (body) => (body.unknown_property = 'x'));
  }
  return violations;
}

/**
 * Whether every rule a body breaks is about the one property: its value, its
 * absence, its presence. An `anyOf` or `oneOf` no branch matches fails with
 * its branches: what they report follows from the property's value and says
 * nothing more. A `oneOf` two branches match is a rule of its own broken.
 */
function breaksOnly(breaches: Breach[], name: string): boolean {
  const about = ({ instancePath, params }: Breach) =>
    instancePath === `/${name}` || instancePath.startsWith(`/${name}/`) || (instancePath === '' && (params.missingProperty === name || params.additionalProperty === name));
  const consequence = ({ keyword, at, params }: Breach) =>
    /\/(anyOf|oneOf)\/\d+(\/|$)/.test(at) || keyword === 'anyOf' || (keyword === 'oneOf' && !Array.isArray(params.passingSchemas));
  const own = breaches.filter((breach) => !consequence(breach));
  return own.length > 0 && own.every(about);
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
    const values = spreadOf(document, source, count);
    if (values && fits(values)) return values;
  }
  return undefined;
}

function spreadOf(document: OpenApiDocument, property: SchemaObject, count: number): Json[] | undefined {
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
      // The seed steps up from the plain sample: ascending values within the bounds.
      const values = indices.map((seed) => numberSample({ document, direction: 'request', seed }, property, '#'));
      return values.every((value, index) => value !== undefined && (index === 0 || value > values[index - 1]!)) ? (values as number[]) : undefined;
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

/** The `n`th letter: `a`, `b`, …, `z`, `ba`, … (values that differ, in ascending order). */
const letters = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : letters(Math.floor(n / 26)) + letters(n % 26));

/**
 * A value of each format ajv-formats knows, the `n`th of a spread of distinct
 * ones (in ascending order); the first is the plain sample. Numeric formats
 * (int32, float…) are numbers' and need no string.
 */
const STRING_FORMATS: Record<string, (n: number) => string> = {
  'date-time': (n) => `2024-01-${String(n + 2).padStart(2, '0')}T03:04:05.000Z`,
  'iso-date-time': (n) => `2024-01-${String(n + 2).padStart(2, '0')}T03:04:05.000Z`,
  date: (n) => `2024-01-${String(n + 2).padStart(2, '0')}`,
  time: (n) => `03:04:${String(n + 5).padStart(2, '0')}Z`,
  'iso-time': (n) => `03:04:${String(n + 5).padStart(2, '0')}Z`,
  duration: (n) => `P${n + 1}D`,
  uri: (n) => `https://example.com/resource${n === 0 ? '' : `-${letters(n)}`}`,
  url: (n) => `https://example.com/resource${n === 0 ? '' : `-${letters(n)}`}`,
  iri: (n) => `https://example.com/resource${n === 0 ? '' : `-${letters(n)}`}`,
  'uri-reference': (n) => `/resource${n === 0 ? '' : `-${letters(n)}`}`,
  'iri-reference': (n) => `/resource${n === 0 ? '' : `-${letters(n)}`}`,
  'uri-template': (n) => `https://example.com/resource${n === 0 ? '' : `-${letters(n)}`}/{id}`,
  email: (n) => `${n === 0 ? 'reader' : letters(n)}@example.com`,
  'idn-email': (n) => `${n === 0 ? 'reader' : letters(n)}@example.com`,
  hostname: (n) => `${n === 0 ? 'host' : letters(n)}.example.com`,
  'idn-hostname': (n) => `${n === 0 ? 'host' : letters(n)}.example.com`,
  ipv4: (n) => `192.0.2.${(n % 254) + 1}`,
  ipv6: (n) => `2001:db8::${((n % 65534) + 1).toString(16)}`,
  uuid: (n) => `8f9a3c2e-4b1d-4e6f-9a7b-${(0x0c1d2e3f4a5b + n).toString(16).padStart(12, '0')}`,
  regex: (n) => `^[a-z]{${n + 1}}$`,
  'json-pointer': (n) => `/resource/${n}`,
  'json-pointer-uri-fragment': (n) => `#/resource/${n}`,
  'relative-json-pointer': (n) => `${n}/resource`,
  byte: (n) => Buffer.from(`sample${n === 0 ? '' : letters(n)}`).toString('base64'),
  password: (n) => `${letters(n)}-sample`,
  binary: (n) => `${letters(n)}-sample`,
};

/** Formats whose value takes filler where a `minLength` asks for more: a path, a local part, free text. */
const PADDED: Record<string, (value: string, length: number) => string> = {
  uri: (value, length) => value.padEnd(length, 'x'),
  url: (value, length) => value.padEnd(length, 'x'),
  'uri-reference': (value, length) => value.padEnd(length, 'x'),
  email: (value, length) => value.padStart(length, 'x'),
  password: (value, length) => value.padEnd(length, 'x'),
  binary: (value, length) => value.padEnd(length, 'x'),
};

/** How many strings a pattern is asked for before the sampler gives up on it meeting the rest of the schema. */
const PATTERN_TRIES = 8;

/**
 * A string for the schema: the format's (or a plain) value, fitted to the
 * length bounds; where a pattern refuses it, one built from the pattern that
 * also keeps the format and bounds. None, the defeat noted, where neither
 * holds.
 */
function stringSample(walk: Walk, schema: SchemaObject, at: string): string | undefined {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const known = format === undefined ? undefined : STRING_FORMATS[format];
  const base = known ? known(walk.seed) : walk.seed === 0 ? 'sample' : `${letters(walk.seed)}-sample`;
  // A format no validator knows (`guid`) constrains nothing: a plain string, as the validator reads it.
  const pad = known ? PADDED[format!] : (value: string, length: number) => value.padEnd(length, 'x');
  const fitted = base.length < min ? pad?.(base, min) : base;
  const value = fitted !== undefined && fitted.length <= max ? fitted : undefined;
  const keeps = (candidate: string) => exampleCheckOf(walk.document, walk.direction)(stringPart(schema), candidate);
  if (value !== undefined && (typeof schema.pattern !== 'string' || matchesPattern(schema.pattern, value))) return value;
  if (typeof schema.pattern !== 'string') return defeated(walk, { keyword: base.length < min ? 'minLength' : base.length > max ? 'maxLength' : 'format', at });
  for (let seed = walk.seed; seed < walk.seed + PATTERN_TRIES; seed++) {
    const drawn = patternSample(schema.pattern, { min, max }, seed);
    if (drawn !== undefined && keeps(drawn)) return drawn;
  }
  return defeated(walk, { keyword: 'pattern', at });
}

/** Bounds as numbers, exclusive ones as 3.0 (a flag beside the bound) and 2020-12 (the bound itself) write them. */
function boundsOf(schema: SchemaObject): { low: number; lowOpen: boolean; high: number; highOpen: boolean } {
  const side = (bound: unknown, exclusive: unknown, none: number) =>
    typeof exclusive === 'number' ? { at: exclusive, open: true } : typeof bound === 'number' ? { at: bound, open: exclusive === true } : { at: none, open: false };
  const low = side(schema.minimum, schema.exclusiveMinimum, -Infinity);
  const high = side(schema.maximum, schema.exclusiveMaximum, Infinity);
  return { low: low.at, lowOpen: low.open, high: high.at, highOpen: high.open };
}

/**
 * A number within the bounds, a multiple of `multipleOf`, an integer for an
 * integer: the smallest such from 1 (or from the lower bound), the seed
 * stepping to the next ones. Each candidate is checked as the validator checks
 * it (a float `multipleOf` is judged with float division).
 */
function numberSample(walk: Walk, schema: SchemaObject, at: string): number | undefined {
  const { low, lowOpen, high, highOpen } = boundsOf(schema);
  const integer = typeOf(schema) === 'integer';
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined;
  const above = (value: number) => (lowOpen ? value > low : value >= low);
  const below = (value: number) => (highOpen ? value < high : value <= high);
  // The validator judges what plain arithmetic cannot: a float `multipleOf`, a format's range.
  const judged = schema.multipleOf !== undefined || schema.format !== undefined;
  const keeps = (value: number) =>
    above(value) && below(value) && (!integer || Number.isInteger(value)) && (!judged || exampleCheckOf(walk.document, walk.direction)(numberPart(schema), value));
  // Where the bounds allow, from 1 (the default sample); else from the lower bound, else down from the upper.
  const start = Number.isFinite(low) ? low : Number.isFinite(high) ? Math.min(1, high) : 1;
  if (step === undefined) {
    const candidates = [start + walk.seed, start + walk.seed + 1, (low + high) / 2, start];
    return candidates.find((value) => Number.isFinite(value) && keeps(value)) ?? defeated(walk, { keyword: lowOpen || highOpen ? 'exclusiveMaximum' : 'maximum', at });
  }
  const decimals = (String(step).split('.')[1] ?? '').length;
  const first = Math.ceil(start / step);
  for (let k = first + walk.seed, tries = 0; tries < 64; k++, tries++) {
    const value = Number((k * step).toFixed(decimals));
    if (!below(value)) break;
    if (keeps(value)) return value;
  }
  // A float `multipleOf` whose multiples float division refuses: integers may still be multiples.
  for (let value = Math.ceil(start); below(value) && value < Math.ceil(start) + 64; value++) if (keeps(value)) return value;
  return defeated(walk, { keyword: typeof schema.multipleOf === 'number' ? 'multipleOf' : 'maximum', at });
}

/** A number schema's own rules: what a candidate must keep. */
function numberPart(schema: SchemaObject): SchemaObject {
  const keys = ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
  return partOf({ type: typeOf(schema) ?? 'number', ...Object.fromEntries(keys.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]])) });
}

/** A string schema's own rules (no enum, no composition): what a drawn string must keep. */
function stringPart(schema: SchemaObject): SchemaObject {
  const keys = ['pattern', 'format', 'minLength', 'maxLength'] as const;
  return partOf({ type: 'string', ...Object.fromEntries(keys.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]])) });
}

/** One object per distinct part: the validator compiles a schema once per object. */
const parts = new Map<string, SchemaObject>();
function partOf(part: SchemaObject): SchemaObject {
  const key = JSON.stringify(part);
  if (!parts.has(key)) parts.set(key, part);
  return parts.get(key)!;
}

/** Notes the first defeat of a walk; no value. */
function defeated(walk: Walk, defeat: Defeat): undefined {
  walk.defeat ??= defeat;
  return undefined;
}

/** Where a schema stands in the spec: the target of its `$ref`, else the place it was reached at. */
function pointerOf(schema: unknown, at: string): string {
  return isObject(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith('#') ? schema.$ref : at;
}

/**
 * The object's required properties (write-only or read-only ones left out by
 * direction), then those a `dependentRequired` asks for beside them, then
 * optional ones until `minProperties` is met. A property a closed allOf branch
 * forbids is never sent: where one is required, no object is valid.
 */
function objectSample(walk: Walk, schema: SchemaObject, at: string, depth: number, part: boolean): Json | undefined {
  const { document, direction } = walk;
  const required = new Set(requiredNamesOf(document, schema));
  const sample: { [key: string]: Json } = {};
  const properties = propertiesOf(document, schema);
  const closure = closuresOf(document, schema, at).find(({ allowed }) => [...required].some((name) => !allowed.has(name) && properties[name]?.[HIDDEN[direction]] !== true));
  if (closure) return defeated(walk, { keyword: 'additionalProperties', at: closure.at });
  // Required but described nowhere (Directus requires `datatype` and never defines it): any value will do.
  const undescribed = part || schema.additionalProperties === false ? [] : [...required].filter((name) => !(name in properties));
  for (const name of undescribed) sample[name] = 'sample';
  const add = (name: string): boolean => {
    const property = properties[name];
    if (!property || property[HIDDEN[direction]] === true || name in sample) return true;
    const value = sampleIn(walk, property, `${at}/properties/${name}`, depth + 1);
    if (value === undefined) return false;
    sample[name] = value;
    return true;
  };
  // A required field no sample can fill: no valid body at all (its schema wants an example).
  for (const name of Object.keys(properties)) if (required.has(name) && !add(name)) return undefined;
  for (const [name, dependents] of dependentsOf(schema)) if (name in sample && !dependents.every(add)) return undefined;
  const minimum = Number(schema.minProperties ?? 0);
  for (const name of Object.keys(properties)) {
    if (Object.keys(sample).length >= minimum) break;
    const before = walk.defeat;
    if (!add(name)) walk.defeat = before; // an optional property it cannot fill: another may do
    for (const [owner, dependents] of dependentsOf(schema)) if (owner === name && name in sample) dependents.forEach(add);
  }
  if (Object.keys(sample).length < minimum) return defeated(walk, { keyword: 'minProperties', at });
  return sample;
}

/** `dependentRequired` (2020-12) and the array form of `dependencies` (draft 7): the names a present property brings with it. */
function dependentsOf(schema: SchemaObject): [string, string[]][] {
  const given = { ...(isObject(schema.dependencies) ? schema.dependencies : {}), ...(isObject(schema.dependentRequired) ? schema.dependentRequired : {}) };
  return Object.entries(given).flatMap(([name, names]) => (Array.isArray(names) ? [[name, names.filter((each): each is string => typeof each === 'string')] as [string, string[]]] : []));
}

/**
 * The closed branches of an object's allOf (`additionalProperties: false`), at
 * any depth, each with the names it allows: its own properties. JSON Schema
 * reads each branch alone, so a closed branch forbids what its siblings add;
 * the service's validator reads it so, and so does the suite.
 */
function closuresOf(document: OpenApiDocument, schema: SchemaObject, at: string): { at: string; allowed: Set<string> }[] {
  return (schema.allOf ?? []).flatMap((member, index) => {
    const resolved = resolve(document, member);
    if (!resolved) return [];
    const here = pointerOf(member, `${at}/allOf/${index}`);
    const own = resolved.additionalProperties === false ? [{ at: here, allowed: new Set(Object.keys(resolved.properties ?? {})) }] : [];
    return [...own, ...closuresOf(document, resolved, here)];
  });
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
  // A property several parts describe keeps every part's rules (a pattern in one, a minLength in another).
  const all: Record<string, SchemaObject> = {};
  for (const [name, property] of [...inherited, ...own]) all[name] = all[name] ? { ...all[name], ...property, allOf: [all[name]!, property] } : property;
  // What a closed allOf branch forbids no valid object holds: not a property anyone can write or read.
  const closures = closuresOf(document, schema, '#');
  return closures.length === 0 ? all : Object.fromEntries(Object.entries(all).filter(([name]) => closures.every(({ allowed }) => allowed.has(name))));
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
