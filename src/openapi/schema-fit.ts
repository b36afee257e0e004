/**
 * Whether what one schema allows, another allows too: a written field's
 * schema against the schema its answers declare for it. The store keeps a
 * written value only where it fits what is answered (GitHub writes a tag's
 * `object` as a sha and answers it as an object). Conservative: where it
 * cannot tell, it says no, and the store answers a value of its own.
 */
import { deref, isObject, jsonEqual, type OpenApiDocument, type SchemaObject } from './document.js';

/** Keywords that say nothing about which values a schema allows. */
const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'readOnly', 'writeOnly', 'deprecated', 'externalDocs', 'xml', '$comment', 'discriminator']);

/** Number formats that name a machine type, not a constraint a JSON number written as an integer or a number breaks in practice. */
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/** Constraints: the answered one's must also bind the written one (the same value, or a tighter one for bounds). */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const SAME_VALUE = ['format', 'pattern', 'multipleOf', 'uniqueItems'];
const STRUCTURE = new Set(['type', 'nullable', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...SAME_VALUE]);

const MAX_DEPTH = 8;

export function schemaFits(document: OpenApiDocument, written: unknown, answered: unknown, depth = 0): boolean {
  if (answered === true) return true;
  const to = valuesOf(document, answered);
  if (to === undefined) return false;
  if (Object.keys(to).length === 0) return true;
  const from = valuesOf(document, written);
  if (from === undefined || depth > MAX_DEPTH) return false;
  if (jsonEqual(from, to)) return true;
  // A choice written fits where each of its alternatives does; a choice answered, where one of them
  // takes it (an anyOf), or exactly one (a oneOf refuses a value two alternatives take).
  const choices = alternativesOf(from);
  if (choices) return choices.every((alternative) => schemaFits(document, alternative, to, depth + 1));
  const options = alternativesOf(to);
  if (options) {
    const taking = options.filter((alternative) => schemaFits(document, from, alternative, depth + 1)).length;
    return 'oneOf' in to ? taking === 1 : taking > 0;
  }
  // Combinators and keywords beyond the plain ones: only an identical schema is known to fit.
  if (![...Object.keys(from), ...Object.keys(to)].every((key) => STRUCTURE.has(key))) return false;
  return typesFit(from, to) && enumFits(from, to) && constraintsFit(from, to) && objectFits(document, from, to, depth) && itemsFit(document, from, to, depth);
}

/**
 * The schema as far as values go: without annotations or extensions, a lone
 * `allOf` part (3.0's way to describe a `$ref`) in place of the wrapper, a
 * `uniqueItems: false` and a number format left out. Undefined where it is not one.
 */
function valuesOf(document: OpenApiDocument, schema: unknown): SchemaObject | undefined {
  const resolved = isObject(schema) ? deref<SchemaObject>(document, schema) : undefined;
  if (!isObject(resolved)) return undefined;
  const kept = Object.entries(resolved).filter(([key, value]) => !ANNOTATIONS.has(key) && !key.startsWith('x-') && !(key === 'uniqueItems' && value === false) && !(key === 'format' && NUMBER_FORMATS.has(String(value))));
  const values = Object.fromEntries(kept) as SchemaObject;
  const { allOf, nullable, ...rest } = values as SchemaObject & { nullable?: boolean };
  if (!Array.isArray(allOf) || allOf.length !== 1 || Object.keys(rest).length > 0) return values;
  const part = valuesOf(document, allOf[0]);
  return part && nullable !== undefined ? ({ ...part, nullable } as SchemaObject) : part;
}

/** The alternatives of a schema that is only an `anyOf` or a `oneOf` (a `nullable` beside it, one more). */
function alternativesOf(schema: SchemaObject): unknown[] | undefined {
  const { nullable, ...rest } = schema as SchemaObject & { nullable?: boolean };
  const keys = Object.keys(rest);
  if (keys.length !== 1 || (keys[0] !== 'anyOf' && keys[0] !== 'oneOf')) return undefined;
  const alternatives = (rest as Record<string, unknown>)[keys[0]];
  if (!Array.isArray(alternatives)) return undefined;
  return nullable === true ? [...alternatives, { type: 'null' }] : alternatives;
}

function typesOf(schema: SchemaObject): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if ((schema as { nullable?: boolean }).nullable === true) types.add('null');
  return types;
}

function typesFit(from: SchemaObject, to: SchemaObject): boolean {
  const allowed = typesOf(to);
  if (allowed === undefined) return true;
  const written = typesOf(from);
  if (written === undefined) return from.enum !== undefined || from.const !== undefined ? valuesOfEnum(from)!.every((value) => allowed.has(jsonType(value))) : false;
  return [...written].every((type) => allowed.has(type) || (type === 'integer' && allowed.has('number')));
}

/** An `enum`'s values, or a `const` as the one value it allows. */
function valuesOfEnum(schema: SchemaObject): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function enumFits(from: SchemaObject, to: SchemaObject): boolean {
  const allowed = valuesOfEnum(to);
  if (allowed === undefined) return true;
  const written = valuesOfEnum(from);
  return written !== undefined && written.every((value) => allowed.some((candidate) => jsonEqual(candidate, value)));
}

function constraintsFit(from: SchemaObject, to: SchemaObject): boolean {
  const bound = (key: string) => (from as Record<string, unknown>)[key];
  const limit = (key: string) => (to as Record<string, unknown>)[key];
  const set = (key: string) => limit(key) !== undefined;
  // 3.0's boolean `exclusiveMinimum` qualifies `minimum`: the written schema must say the same.
  const bounded = (key: string, tighter: (bound: number, limit: number) => boolean) =>
    typeof limit(key) === 'boolean' ? bound(key) === limit(key) : typeof bound(key) === 'number' && tighter(bound(key) as number, limit(key) as number);
  return (
    SAME_VALUE.filter(set).every((key) => jsonEqual(bound(key), limit(key))) &&
    LOWER_BOUNDS.filter(set).every((key) => bounded(key, (b, l) => b >= l)) &&
    UPPER_BOUNDS.filter(set).every((key) => bounded(key, (b, l) => b <= l))
  );
}

function objectFits(document: OpenApiDocument, from: SchemaObject, to: SchemaObject, depth: number): boolean {
  const answered = isObject(to.properties) ? to.properties : {};
  const written = isObject(from.properties) ? from.properties : {};
  const required = new Set(from.required ?? []);
  if (!(to.required ?? []).every((name) => required.has(name))) return false;
  if (to.additionalProperties === false && (from.additionalProperties !== false || !Object.keys(written).every((name) => name in answered))) return false;
  if (isObject(to.additionalProperties) && !schemaFits(document, from.additionalProperties ?? {}, to.additionalProperties, depth + 1)) return false;
  // A written property the answer does not declare meets its `additionalProperties`, where that is a schema.
  return Object.entries(written).every(([name, schema]) => {
    const declared = name in answered ? answered[name] : isObject(to.additionalProperties) ? to.additionalProperties : undefined;
    return declared === undefined || schemaFits(document, schema, declared, depth + 1);
  });
}

function itemsFit(document: OpenApiDocument, from: SchemaObject, to: SchemaObject, depth: number): boolean {
  return to.items === undefined || (from.items !== undefined && schemaFits(document, from.items, to.items, depth + 1));
}

/** The schema without the null it allows at its top (3.0 `nullable`, 3.1 `type: [..., 'null']`). */
export function withoutNull(document: OpenApiDocument, schema: unknown): unknown {
  const resolved = isObject(schema) ? deref<SchemaObject>(document, schema) : undefined;
  if (!isObject(resolved)) return schema;
  const { nullable: _nullable, ...rest } = resolved as SchemaObject & { nullable?: boolean };
  if (!Array.isArray(rest.type)) return rest;
  const types = rest.type.filter((type) => type !== 'null');
  return { ...rest, type: types.length === 1 ? types[0] : types };
}
