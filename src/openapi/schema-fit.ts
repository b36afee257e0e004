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

/** Constraints on scalars: the answered one's must also bind the written one (the same value, or a tighter one for bounds). */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const SAME_VALUE = ['format', 'pattern', 'multipleOf', 'const', 'uniqueItems'];
const STRUCTURE = new Set(['type', 'nullable', 'enum', 'properties', 'required', 'additionalProperties', 'items', ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...SAME_VALUE]);

const MAX_DEPTH = 8;

export function schemaFits(document: OpenApiDocument, written: unknown, answered: unknown, depth = 0): boolean {
  const from = valuesOf(document, written);
  const to = valuesOf(document, answered);
  if (to === undefined || Object.keys(to).length === 0) return true;
  if (from === undefined || depth > MAX_DEPTH) return false;
  if (jsonEqual(from, to)) return true;
  // A choice written fits where each of its alternatives does; a choice answered, where one of them takes it.
  const choices = alternativesOf(from);
  if (choices) return choices.every((alternative) => schemaFits(document, alternative, to, depth + 1));
  const options = alternativesOf(to);
  if (options) return options.some((alternative) => schemaFits(document, from, alternative, depth + 1));
  // Combinators and keywords beyond the plain ones: only an identical schema is known to fit.
  if (![...Object.keys(from), ...Object.keys(to)].every((key) => STRUCTURE.has(key))) return false;
  return typesFit(from, to) && enumFits(from, to) && constraintsFit(from, to) && objectFits(document, from, to, depth) && itemsFit(document, from, to, depth);
}

/** The schema without annotations or extensions; undefined where it is not one. */
function valuesOf(document: OpenApiDocument, schema: unknown): SchemaObject | undefined {
  const resolved = isObject(schema) ? deref<SchemaObject>(document, schema) : undefined;
  if (!isObject(resolved)) return undefined;
  return Object.fromEntries(Object.entries(resolved).filter(([key]) => !ANNOTATIONS.has(key) && !key.startsWith('x-'))) as SchemaObject;
}

/** The alternatives of a schema that is only an `anyOf` or a `oneOf`. */
function alternativesOf(schema: SchemaObject): unknown[] | undefined {
  const keys = Object.keys(schema);
  if (keys.length !== 1) return undefined;
  const alternatives = (schema as Record<string, unknown>)[keys[0]!];
  return (keys[0] === 'anyOf' || keys[0] === 'oneOf') && Array.isArray(alternatives) ? alternatives : undefined;
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
  if (written === undefined) return false;
  return [...written].every((type) => allowed.has(type) || (type === 'integer' && allowed.has('number')));
}

function enumFits(from: SchemaObject, to: SchemaObject): boolean {
  if (!Array.isArray(to.enum)) return true;
  return Array.isArray(from.enum) && from.enum.every((value) => to.enum!.some((allowed) => jsonEqual(allowed, value)));
}

function constraintsFit(from: SchemaObject, to: SchemaObject): boolean {
  const bound = (key: string) => (from as Record<string, unknown>)[key];
  const limit = (key: string) => (to as Record<string, unknown>)[key];
  const set = (key: string) => limit(key) !== undefined;
  return (
    SAME_VALUE.filter(set).every((key) => jsonEqual(bound(key), limit(key))) &&
    LOWER_BOUNDS.filter(set).every((key) => typeof bound(key) === 'number' && (bound(key) as number) >= (limit(key) as number)) &&
    UPPER_BOUNDS.filter(set).every((key) => typeof bound(key) === 'number' && (bound(key) as number) <= (limit(key) as number))
  );
}

function objectFits(document: OpenApiDocument, from: SchemaObject, to: SchemaObject, depth: number): boolean {
  const answered = isObject(to.properties) ? to.properties : {};
  const written = isObject(from.properties) ? from.properties : {};
  const required = new Set(from.required ?? []);
  if (!(to.required ?? []).every((name) => required.has(name))) return false;
  if (to.additionalProperties === false && (from.additionalProperties !== false || !Object.keys(written).every((name) => name in answered))) return false;
  if (isObject(to.additionalProperties) && !schemaFits(document, from.additionalProperties ?? {}, to.additionalProperties, depth + 1)) return false;
  // A written property the answer does not declare is fine where the answer is open.
  return Object.entries(written).every(([name, schema]) => !(name in answered) || schemaFits(document, schema, answered[name], depth + 1));
}

function itemsFit(document: OpenApiDocument, from: SchemaObject, to: SchemaObject, depth: number): boolean {
  return to.items === undefined || (from.items !== undefined && schemaFits(document, from.items, to.items, depth + 1));
}
