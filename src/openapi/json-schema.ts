/**
 * OpenAPI schema objects as JSON Schema 2020-12, the dialect the request
 * validators are compiled in. 3.1 schemas already are JSON Schema; 3.0 ones
 * (OpenAPI 3.0 §4.7.24) differ in `nullable`, boolean `exclusiveMinimum` /
 * `exclusiveMaximum`, and keywords JSON Schema does not know.
 */
import { isObject, type JsonObject } from './document.js';

/** How a schema is read: in a request, `readOnly` properties are never required (OpenAPI §4.7.24.1). */
export type SchemaDirection = 'request' | 'response';

/** OpenAPI-only annotations that a validator has no use for. */
const DROPPED = new Set(['example', 'xml', 'externalDocs', 'discriminator']);

/** Keywords whose value is a map of schemas, or a list of them, or one schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);

export interface ConvertOptions {
  direction: SchemaDirection;
  /** Rewrites each `$ref` (to point into the schema registry the validators share). */
  ref: (ref: string) => string;
}

export function toJsonSchema(schema: unknown, options: ConvertOptions): unknown {
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') return { $ref: options.ref(schema.$ref) };
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toJsonSchema(child, options)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((child) => toJsonSchema(child, options));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = toJsonSchema(value, options);
    } else {
      out[key] = value;
    }
  }
  exclusiveBounds(schema, out);
  if (options.direction === 'request') dropReadOnlyRequired(out);
  return schema.nullable === true ? nullable(out) : out;
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

function dropReadOnlyRequired(out: JsonObject): void {
  if (!Array.isArray(out.required) || !isObject(out.properties)) return;
  const properties = out.properties;
  const required = out.required.filter((name) => !(isObject(properties[name]) && properties[name].readOnly === true));
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
