/**
 * Which fields of a resource a list can filter and sort by (conventions §4,
 * "Query parameters for list operations"), and the query parameters the
 * conventions own. Read by the merge, which declares them, and by the model.
 */
import { pathParams, scalarTypeOf, type Field } from './classify.js';
import type { OpenApiDocument } from './document.js';

export const OWNED_QUERY_PARAMETERS = new Set([
  'cursor',
  'page',
  'limit',
  'sort',
  'order',
  'fields',
  'include',
  'search',
  'created_after',
  'created_before',
]);

/**
 * Fields that can be filtered on by equality: scalars, but not the id and not
 * timestamps, and not a read-only field the server computes (`full_name`,
 * `comments_count`): a store holds what it is sent and what it takes from
 * the path, so a filter on a computed field would match nothing. A read-only
 * field named like a path parameter (`author_id` on a top-level `/books`) is
 * a parent's id the store takes from the path, and stays filterable.
 */
export function filterableFields(document: OpenApiDocument, fields: Field[], path: string): Field[] {
  const taken = new Set([...OWNED_QUERY_PARAMETERS, ...pathParams(path), 'id']);
  const fromPaths = pathParameterNames(document);
  return fields.filter(
    ({ name, schema }) =>
      !taken.has(name) &&
      scalarTypeOf(schema) !== undefined &&
      schema.format !== 'date-time' &&
      schema.writeOnly !== true &&
      (schema.readOnly !== true || fromPaths.has(name)),
  );
}

const pathParameterNamesOf = new WeakMap<object, ReadonlySet<string>>();

/** The names of every path's parameters, once per document. */
function pathParameterNames(document: OpenApiDocument): ReadonlySet<string> {
  const paths = document.paths ?? {};
  let names = pathParameterNamesOf.get(paths);
  if (!names) {
    names = new Set(Object.keys(paths).flatMap(pathParams));
    pathParameterNamesOf.set(paths, names);
  }
  return names;
}

/** Fields a list can be sorted by: every readable scalar field, timestamps included. */
export function sortableFields(fields: Field[]): string[] {
  return fields.filter(({ schema }) => scalarTypeOf(schema) !== undefined && schema.writeOnly !== true).map(({ name }) => name);
}
