/**
 * The typed resource shape (conventions §2, "Resource object", shape 2):
 * `{ id, type, attributes }`. A component `Book` gets two siblings,
 * `BookAttributes` (Book without its id) and `BookResource` (the typed
 * wrapper), so every operation of the resource shares one named type, and a
 * list of `BookSummary` beside reads of `Book` gives two distinct wrappers.
 */
import { componentName, isTypedResource, propertiesOf } from '../openapi/classify.js';
import { deref, isObject, jsonEqual, type OpenApiDocument, type Reference, type SchemaObject } from '../openapi/document.js';
import { freeName } from './component-names.js';

/**
 * Rewrites one resource schema into the typed shape. Schemas that are not
 * objects with properties are left as they are.
 */
export function toTypedResource({
  document,
  schema,
  resourceType,
}: {
  document: OpenApiDocument;
  schema: SchemaObject | Reference;
  /** The collection it is served under: the value of `type`. */
  resourceType: string;
}): SchemaObject | Reference {
  if (isTypedResource(document, schema)) return schema;
  const resolved = deref<SchemaObject>(document, schema);
  const attributes = resolved && attributesOf(document, resolved);
  if (!attributes) return schema;
  const name = componentName(schema);
  const typed: SchemaObject = {
    type: 'object',
    required: ['id', 'type', 'attributes'],
    properties: {
      id: { type: 'string', description: 'Identifier of the resource.' },
      type: { type: 'string', enum: [resourceType], description: 'Kind of the resource.' },
      attributes: name ? install(document, `${name}Attributes`, attributes) : attributes,
    },
  };
  return name ? install(document, `${name}Resource`, typed) : typed;
}

/** The resource without its id; `allOf` compositions are flattened into one object. */
function attributesOf(document: OpenApiDocument, resolved: SchemaObject): SchemaObject | undefined {
  if (resolved.allOf) {
    const fields = propertiesOf(document, resolved).filter(({ name }) => name !== 'id');
    if (fields.length === 0) return undefined;
    const required = fields.filter((field) => field.required).map((field) => field.name);
    return {
      type: 'object',
      properties: Object.fromEntries(fields.map((field) => [field.name, field.schema])),
      ...(required.length > 0 ? { required } : {}),
    };
  }
  if (!isObject(resolved.properties)) return undefined;
  const { id: _id, ...properties } = resolved.properties;
  return {
    ...resolved,
    properties,
    ...(resolved.required ? { required: resolved.required.filter((name) => name !== 'id') } : {}),
  };
}

/**
 * Adds a generated component. One wrapper may serve several collections
 * (`Tag` under `/tags` and `/labels`): its `type` then lists them all. A
 * component of that name that differs otherwise is the spec's own, and the
 * generated one takes another name (./component-names.ts).
 */
function install(document: OpenApiDocument, name: string, schema: SchemaObject): Reference {
  const schemas = ((document.components ??= {}).schemas ??= {});
  const kinds = (value: SchemaObject) => (value.properties?.type as SchemaObject | undefined)?.enum;
  /** `value`, its `type` listing the collections of both `existing` and the new wrapper. */
  const servingBoth = (value: SchemaObject, existing: SchemaObject): SchemaObject => {
    const union = [...new Set([...(kinds(existing) ?? []), ...(kinds(schema) ?? [])])].sort();
    return kinds(value) ? { ...value, properties: { ...value.properties, type: { ...(value.properties!.type as SchemaObject), enum: union } } } : value;
  };
  const fits = (existing: unknown) => isObject(existing) && jsonEqual(servingBoth(existing, existing), servingBoth(schema, existing));
  const installed = freeName({ taken: schemas, name, fits });
  const existing = schemas[installed] as SchemaObject | undefined;
  schemas[installed] = existing === undefined ? schema : servingBoth(existing, existing);
  return { $ref: `#/components/schemas/${installed}` };
}
