/**
 * The typed resource shape (conventions §2, "Resource object", shape 2):
 * `{ id, type, attributes }`. A component `Book` served by `/books` gets two
 * siblings, `BookAttributes` (Book without its id) and `BookResource` (the
 * typed wrapper, named after the collection), so every operation of the
 * resource shares one named type.
 */
import { diagnostic, toPointer, type Diagnostic } from '../diagnostics.js';
import { componentName, isTypedResource } from '../openapi/classify.js';
import { pascalCase, singular } from '../openapi/names.js';
import { deref, isObject, jsonEqual, type OpenApiDocument, type Reference, type SchemaObject } from '../openapi/document.js';

/**
 * Rewrites one resource schema into the typed shape; `problems` collects name
 * conflicts. Schemas that are not objects with properties are left as they are.
 */
export function toTypedResource(
  document: OpenApiDocument,
  schema: SchemaObject | Reference,
  resourceType: string,
  problems: Diagnostic[],
): SchemaObject | Reference {
  if (isTypedResource(document, schema)) return schema;
  const resolved = deref<SchemaObject>(document, schema);
  if (!resolved || !isObject(resolved.properties)) return schema;
  const { id: _id, ...properties } = resolved.properties;
  const attributes: SchemaObject = {
    ...resolved,
    properties,
    ...(resolved.required ? { required: resolved.required.filter((name) => name !== 'id') } : {}),
  };
  const name = componentName(schema);
  const attributesSchema = name ? install(document, `${name}Attributes`, attributes, problems) : attributes;
  const typed: SchemaObject = {
    type: 'object',
    required: ['id', 'type', 'attributes'],
    properties: {
      id: { type: 'string', description: 'Identifier of the resource.' },
      type: { type: 'string', enum: [resourceType], description: 'Kind of the resource.' },
      attributes: attributesSchema,
    },
  };
  // Named after the collection: one schema served by `/tags` and `/labels` makes two kinds of resource.
  const wrapper = resourceType ? pascalCase(singular(resourceType)) : name;
  return name ? install(document, `${wrapper}Resource`, typed, problems) : typed;
}

function install(document: OpenApiDocument, name: string, schema: SchemaObject, problems: Diagnostic[]): Reference {
  const schemas = ((document.components ??= {}).schemas ??= {});
  const existing = schemas[name];
  if (existing === undefined) schemas[name] = schema;
  else if (!jsonEqual(existing, schema)) {
    problems.push(
      diagnostic('CONVENTION_NAME_CONFLICT', `components.schemas.${name} exists, but the typed resource shape needs that name`, {
        pointer: toPointer(['components', 'schemas', name]),
      }),
    );
  }
  return { $ref: `#/components/schemas/${name}` };
}
