/**
 * OpenAPI schema objects as JSON Schema 2020-12, the dialect the request
 * validators are compiled in. 3.1 schemas already are JSON Schema; 3.0 ones
 * (OpenAPI 3.0 §4.7.24) differ in `nullable`, boolean `exclusiveMinimum` /
 * `exclusiveMaximum`, and keywords JSON Schema does not know.
 */
import { escapePointerToken } from '../diagnostics.js';
import { isObject, type JsonObject } from './document.js';

/** How a schema is read: in a request, `readOnly` properties are never required (OpenAPI §4.7.24.1). */
export type SchemaDirection = 'request' | 'response';

/** OpenAPI-only annotations that a validator has no use for (`discriminator`: kept where ajv can read it, see below). */
const DROPPED = new Set(['example', 'xml', 'externalDocs', 'discriminator']);

/**
 * JSON Schema's annotations that no validator reads (`default` is read: ajv's
 * `useDefaults` fills it in). Schemas that differ only in them are judged the
 * same way, so without them (`annotations: false`) one compile serves them all.
 */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Keywords whose value is a map of schemas, or a list of them, or one schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);

export interface ConvertOptions {
  direction: SchemaDirection;
  /** Rewrites each `$ref` (to point into the schema registry the validators share). */
  ref: (ref: string) => string;
  /** Looks a `$ref` up in the document, to see `readOnly` through references. */
  resolve?: (ref: string) => unknown;
  /** Whether annotations (`description`, `title`, …) are kept; default true. */
  annotations?: boolean;
  /**
   * Where each schema object made stands in the spec, as a JSON pointer from
   * `at` (the converted schema's own place): a validator's error names the
   * object that holds the broken rule, and this names its place.
   */
  places?: { at: string; of: WeakMap<object, string> };
}

export function toJsonSchema(schema: unknown, options: ConvertOptions): unknown {
  return convert(schema, options, new Set(), options.places?.at);
}

/** `readOnly`: names made read-only by an enclosing `allOf`, whose branches share one object. `place`: the schema's pointer, where places are kept. */
function convert(schema: unknown, options: ConvertOptions, readOnly: ReadonlySet<string>, place?: string): unknown {
  if (!isObject(schema)) return schema;
  // A nullable schema without a type becomes `anyOf: [itself, null]` (`nullable`): what it holds is named inside
  // that branch, as a validator's path says, so what it reports reads as a consequence of the alternative.
  const wrapped = schema.nullable === true && typeof schema.type !== 'string' && !Array.isArray(schema.type);
  const inner = place !== undefined && wrapped ? `${place}/anyOf/0` : place;
  const below = (...tokens: string[]) => (inner === undefined ? undefined : `${inner}/${tokens.map(escapePointerToken).join('/')}`);
  // 2020-12 keeps a `$ref`'s siblings (`nullable`, `readOnly`, constraints) in force.
  const names = options.direction === 'request' ? new Set([...readOnly, ...readOnlyNames(schema, options, new Set())]) : readOnly;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (options.annotations === false && ANNOTATIONS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = options.ref(value);
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, options, new Set(), below(key, name))]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((child, index) => convert(child, options, key === 'allOf' ? names : new Set(), below(key, String(index))));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = convert(value, options, new Set(), below(key));
    } else {
      out[key] = value;
    }
  }
  exclusiveBounds(schema, out);
  const discriminator = ajvDiscriminator(schema, out, options);
  if (discriminator) out.discriminator = discriminator;
  if (options.direction === 'request') dropRequired(out, names);
  const converted = schema.nullable === true ? nullable(out) : out;
  if (place !== undefined) {
    options.places!.of.set(out, inner!);
    options.places!.of.set(converted, place);
  }
  return converted;
}

/** Properties marked `readOnly`, on the property or the schema it references, here or in an `allOf` branch. */
function readOnlyNames(schema: JsonObject, options: ConvertOptions, seen: Set<unknown>): Set<string> {
  const names = new Set<string>();
  if (seen.has(schema)) return names;
  seen.add(schema);
  const resolved = (value: unknown) => (isObject(value) && typeof value.$ref === 'string' ? options.resolve?.(value.$ref) : undefined);
  const own = resolved(schema);
  if (isObject(own)) for (const name of readOnlyNames(own, options, seen)) names.add(name);
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const target = resolved(property);
      if ((isObject(property) && property.readOnly === true) || (isObject(target) && target.readOnly === true)) names.add(name);
    }
  }
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isObject(branch)) for (const name of readOnlyNames(branch, options, seen)) names.add(name);
  }
  return names;
}

/**
 * A `discriminator` in the form ajv's `discriminator` option reads, where it
 * can: ajv then checks only the branch the tag names, and reports that
 * branch's problems rather than every branch's. ajv needs the tag required
 * (here or in every branch) and each branch (or the schema its `$ref` names)
 * to give the tag's values as an inline `const` or `enum`, and takes no
 * `mapping` (the branches' values say the same). Anything else is left out,
 * and the `oneOf` is checked as JSON Schema says.
 */
function ajvDiscriminator(schema: JsonObject, out: JsonObject, options: ConvertOptions): JsonObject | undefined {
  const discriminator = schema.discriminator;
  const tag = isObject(discriminator) ? discriminator.propertyName : undefined;
  if (typeof tag !== 'string' || !Array.isArray(schema.oneOf) || schema.oneOf.length === 0) return undefined;
  // ajv follows a branch's `$ref` only where nothing else stands in it as converted (a constraint, or the
  // `anyOf` a nullable branch becomes); else it reads the branch's own properties.
  const converted = out.oneOf as unknown[];
  const followed = (index: number) => {
    const branch = converted[index];
    return isObject(branch) && Object.keys(branch).join() === '$ref';
  };
  const branches = schema.oneOf.map((branch, index) =>
    isObject(branch) && typeof branch.$ref === 'string' && followed(index) ? options.resolve?.(branch.$ref) : branch,
  );
  const required = (value: JsonObject) => Array.isArray(value.required) && value.required.includes(tag);
  // ajv throws at compile time unless every value is a string, unique across the branches, and
  // the tag stays required: not nullable (null joins the enum), not read-only (a request drops it
  // from `required`), in a branch that is not nullable itself (it becomes an `anyOf`).
  const valuesOf = (branch: unknown): string[] | undefined => {
    if (!isObject(branch) || branch.nullable === true || !isObject(branch.properties)) return undefined;
    const property = branch.properties[tag];
    if (!isObject(property) || property.nullable === true || property.readOnly === true) return undefined;
    const values = typeof property.const === 'string' ? [property.const] : property.enum;
    return Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'string') ? (values as string[]) : undefined;
  };
  const told = branches.map(valuesOf);
  if (told.some((values) => values === undefined)) return undefined;
  const all = told.flat() as string[];
  if (new Set(all).size !== all.length) return undefined;
  return required(schema) || branches.every((branch) => required(branch as JsonObject)) ? { propertyName: tag } : undefined;
}

/** 3.0: `exclusiveMinimum: true` qualifies `minimum`; 2020-12 gives the bound itself. */
function exclusiveBounds(schema: JsonObject, out: JsonObject): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    delete out[flag];
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      out[flag] = schema[bound];
      delete out[bound];
    }
  }
}

function dropRequired(out: JsonObject, names: ReadonlySet<string>): void {
  if (!Array.isArray(out.required) || names.size === 0) return;
  const required = out.required.filter((name) => !names.has(name as string));
  if (required.length > 0) out.required = required;
  else delete out.required;
}

/** 3.0 `nullable: true`: null joins the type (or the enum), or the schema becomes one alternative. */
function nullable(out: JsonObject): JsonObject {
  if (typeof out.type === 'string') {
    const withNull: JsonObject = { ...out, type: [out.type, 'null'] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) withNull.enum = [...out.enum, null];
    return withNull;
  }
  if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}
